/* cvcuda-c: the CUDA Array Interface (CAI) as a flat, fixed-size C struct.
 *
 * Source of the convention: the CUDA Array Interface, version 3 (Numba documentation), which extends numpy's
 * __array_interface__. Each field below mirrors one key of a __cuda_array_interface__ dict. A binding parses the
 * dict and fills the struct; the library validates it (cvTensorWrap) and fills it on the way out (cvTensorExport). */
#ifndef CVCUDA_ARRAY_INTERFACE_H
#define CVCUDA_ARRAY_INTERFACE_H

#include <stdint.h>
#include "export.h"
#include "types.h"

CV_EXTERN_C_BEGIN

/** The three states of the CAI "stream" key. */
typedef enum cvCaiStreamKind {
    CV_CAI_STREAM_ABSENT = 0,  /**< no "stream" key (always so in CAI v2): the producer stream is unknown */
    CV_CAI_STREAM_NONE = 1,    /**< "stream": None — the producer says the data is ready */
    CV_CAI_STREAM_INTEGER = 2, /**< "stream": an integer, held in cvArrayInterface.stream */
    CV_CAI_STREAM_KIND_FORCE_32BIT = 0x7fffffff
} cvCaiStreamKind;

/** A __cuda_array_interface__ dict. Initialise with CV_ARRAY_INTERFACE_INIT (sets structSize and version 3).
 *
 * - data:     device address of the element with all indices 0 ("data"[0]); 0 only for empty tensors.
 * - readonly: "data"[1]; non-zero forbids the library to write through the tensor.
 * - shape:    ndim extents in elements (0 <= ndim <= CV_MAX_DIMS).
 * - strides:  ndim strides in BYTES, valid when hasStrides != 0; hasStrides == 0 means the key is absent or None
 *             (C-contiguous). Strides may be negative or zero; each must be a multiple of the item size, except
 *             on size-1 dimensions, where any value is accepted (and kept).
 * - typestr:  numpy typestr, NUL-terminated ("|u1", "<f4", "<V2").
 * - streamKind / stream: the "stream" key; for CV_CAI_STREAM_INTEGER, stream holds the value: 0 (not allowed by the
 *             CAI spec, read as "no stream associated": unknown producer), 1 (legacy default stream), 2 (per-thread
 *             default stream), -1 (this library's opt-out, from DLPack: the caller has synchronised), other positive
 *             values a cudaStream_t. See docs/streams.md for what the library does with each.
 * - dtype:    CV_DTYPE_UNSPECIFIED derives the type from typestr; otherwise it must have typestr's item size and
 *             either equal the typestr's type or name a type the typestr cannot express (bfloat16 as "<V2").
 * The CAI "mask" key has no field: a binding must reject a non-None mask. */
typedef struct cvArrayInterface {
    uint32_t structSize;
    int32_t version;
    uint64_t data;
    int32_t readonly;
    int32_t ndim;
    int64_t shape[CV_MAX_DIMS];
    int64_t strides[CV_MAX_DIMS];
    int32_t hasStrides;
    cvCaiStreamKind streamKind;
    int64_t stream;
    char typestr[16];
    cvDataType dtype;
    uint32_t reserved0; /**< must be 0 */
} cvArrayInterface;

#define CV_ARRAY_INTERFACE_INIT \
    { (uint32_t)sizeof(cvArrayInterface), 3, 0, 0, 0, {0}, {0}, 0, CV_CAI_STREAM_ABSENT, 0, {0}, CV_DTYPE_UNSPECIFIED, 0 }

CV_EXTERN_C_END
#endif /* CVCUDA_ARRAY_INTERFACE_H */
