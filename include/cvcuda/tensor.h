/* cvcuda-c: tensors. A cvTensor describes an n-d array in device memory: either foreign memory wrapped zero-copy
 * from a CUDA Array Interface (never freed by the library), or memory the library allocated (freed, stream-ordered,
 * after the last reference and the last GPU use are gone).
 *
 * Hazard tracking: the library remembers, per range of device memory (not per handle), the last stream that wrote it
 * and the streams that read it since, and orders later work on other streams after them with CUDA events. Every
 * tensor that views overlapping memory shares that state. See docs/streams.md.
 * Threading: a cvTensor may be used from several threads; concurrent writes to one memory from several threads are
 * ordered by the order of the calls. */
#ifndef CVCUDA_TENSOR_H
#define CVCUDA_TENSOR_H

#include <stdint.h>
#include "array_interface.h"
#include "export.h"
#include "status.h"
#include "stream.h"
#include "types.h"

CV_EXTERN_C_BEGIN

/** A handle: an opaque value, not a pointer to the tensor. Every function taking a cvTensor checks it: NULL, a
 *  handle whose references were all released (even while the library still keeps the tensor for pending GPU work),
 *  a handle of another type and any other value give CV_ERROR_INVALID_ARGUMENT without the library reading memory
 *  through it. A released handle stays invalid: a later handle never has the same value while the process runs
 *  (within 2^32 reuses of one slot). Releasing a handle while another thread is still inside a call that uses it
 *  is the caller's race, as for any C handle. */
typedef struct cvTensor_t *cvTensor;

/** Wraps foreign device memory described by a CAI zero-copy. Never frees it. Makes no GPU call, except that when
 *  cai->stream names a real producer stream (an integer > 2) an event is recorded on it now (the CAI's "point of
 *  consumption"), unless that stream is being captured into a CUDA graph (then the graph orders the captured work
 *  that follows, and nothing is recorded); device checks (device memory, which device) happen at the first operation.
 *  The tensor's device is the one its memory is on (cudaPointerGetAttributes of data, cvTensorGetDevice), whatever
 *  the calling thread's current device: wrapping memory of device 1 while device 0 is current is fine, and every
 *  operation on it then needs a stream of device 1 (another device's stream is CV_ERROR_INVALID_ARGUMENT naming both).
 *  layout: NULL (none) or one upper-case label per dimension from N, C, H, W, D, F, no label twice ("NHWC").
 *  *out receives a handle with one reference.
 *  Errors (all CV_ERROR_INVALID_ARGUMENT unless noted; the message names the field, the value and the rule):
 *  NULL cai/out; structSize smaller than this header's or larger with non-zero unknown bytes; version not 2 or 3;
 *  ndim outside 0..CV_MAX_DIMS; a negative shape; a bad typestr (see cvDataTypeFromTypestr; CV_ERROR_NOT_SUPPORTED
 *  for unsupported types such as complex); dtype whose item size differs from typestr's, or another type than the
 *  one typestr names; "<V2" without a dtype;
 *  a stride not a multiple of the item size; data not aligned to the item size; an extent that overflows 64-bit
 *  arithmetic; data == 0 with a non-zero size; a layout whose length differs from ndim or with unknown or repeated labels; a negative stream other than -1;
 *  CV_ERROR_CUDA if recording the producer event fails. */
CV_API cvStatus cvTensorWrap(const cvArrayInterface *cai, const char *layout, cvTensor *out);

/** Allocates a C-contiguous tensor in device memory on the calling thread's current device. The allocation is
 *  stream-ordered on a library-internal stream; operations on any stream are ordered after it automatically.
 *  shape: ndim extents in elements. layout: as in cvTensorWrap. The memory is uninitialised.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (as in cvTensorWrap; dtype must be a known type), CV_ERROR_NO_DEVICE,
 *  CV_ERROR_OUT_OF_MEMORY, CV_ERROR_CUDA. */
CV_API cvStatus cvTensorCreate(int32_t ndim, const int64_t *shape, cvDataType dtype, const char *layout, cvTensor *out);

/** As cvTensorCreate, but the allocation is stream-ordered on `stream`, in the memory of the STREAM's device
 *  (whatever the caller's current device, which is unchanged after the call): work enqueued on
 *  `stream` may use the memory at once, with no event; other streams are ordered after the allocation through the
 *  usual hazard tracking. The fastest way to make an operator's output. Never blocks the host.
 *  While `stream` is being captured into a CUDA graph the allocation becomes a graph memory node (valid when the
 *  graph runs); releasing the tensor during that capture frees it in the graph, afterwards on the library's stream
 *  (after the graph's launches, which the caller orders).
 *  Errors: as cvTensorCreate, and CV_ERROR_INVALID_ARGUMENT for a NULL stream. */
CV_API cvStatus cvTensorCreateOnStream(cvStream stream, int32_t ndim, const int64_t *shape, cvDataType dtype,
                                       const char *layout, cvTensor *out);

/** As cvTensorCreateOnStream with the shape, dtype and layout of `like` (any tensor, wrapped or allocated, of any
 *  strides; its memory is not touched): a new C-contiguous tensor, uninitialised, allocated stream-ordered on
 *  `stream` (PyTorch's empty_like, made where an operator's output is needed). Never blocks the host.
 *  Errors: CV_ERROR_INVALID_ARGUMENT for a NULL or invalid `stream` or `like`, or a NULL `out`; then as
 *  cvTensorCreateOnStream. */
CV_API cvStatus cvTensorCreateLike(cvStream stream, cvTensor like, cvTensor *out);

/** Adds a reference to the handle. NULL, released and invalid handles are ignored (no error: the function
 *  cannot fail). */
CV_API void cvTensorRetain(cvTensor tensor);

/** Drops a reference of the handle; the last one invalidates the handle at once. NULL, released and invalid handles
 *  are ignored, so a stale handle never releases another tensor. When the last reference goes, the library still keeps what it needs until
 *  every GPU operation using the tensor has completed; then memory it allocated is freed (stream-ordered) and the
 *  cleanup callback, if any, runs. Never blocks the host. */
CV_API void cvTensorRelease(cvTensor tensor);

/** Called once when the library no longer needs a tensor's memory: its last reference is gone AND every GPU
 *  operation that used it has completed. It runs on a thread that is inside a call to this library (cvTensorRelease,
 *  cvStreamSync, cvCollect, cvSyncAndCollect or any operator), never inside a CUDA host callback. It runs with no
 *  library lock held, so it may call back into the library (e.g. release other handles). */
typedef void (*cvCleanupFn)(void *userData);

/** Sets the cleanup callback of a tensor (at most once). Typical use: a binding keeps the producer's object alive
 *  until the callback. Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor or fn), CV_ERROR_INVALID_STATE (already set). */
CV_API cvStatus cvTensorSetCleanup(cvTensor tensor, cvCleanupFn fn, void *userData);

/** Describes the tensor as a CAI, version 3 (out->structSize must be set, e.g. by CV_ARRAY_INTERFACE_INIT).
 *  stream: CV_CAI_STREAM_INTEGER with the stream of the last write still pending, or CV_CAI_STREAM_NONE when nothing
 *  is pending; never 0, 1 or 2 (a write pending on a default stream is relayed through a library-owned stream).
 *  When every access is on one stream the library created, that stream is advertised without asking CUDA whether its
 *  work has completed meanwhile (a query per export costs about a microsecond; waiting on a completed stream costs a
 *  consumer nothing); after cvStreamSync of it, NONE is advertised, also without a query.
 *  The stream covers every access still pending: writes and reads (a consumer may write into the memory). Only a
 *  stream the library created is advertised as itself; with several streams, a default stream or an adopted stream
 *  (which could be destroyed while the export advertises it), a library-owned relay stream waits on them all and is
 *  advertised instead.
 *  writerStream (may be NULL): receives a new reference to the advertised stream (NULL when none) so the caller can
 *  keep it alive as long as it advertises the value; release it with cvStreamRelease.
 *  Blocking: never, except once for a wrapper whose producer stream is unknown and that no operation has used yet:
 *  it pays its one defensive cudaDeviceSynchronize here, since "ready" must not be advertised for data in flight.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor/out, structSize too small), CV_ERROR_NO_DEVICE and
 *  CV_ERROR_CUDA (only for that defensive sync, or recording the relay's waits). */
CV_API cvStatus cvTensorExport(cvTensor tensor, cvArrayInterface *out, cvStream *writerStream);

/** Everything about a tensor, in one call. Initialise with CV_TENSOR_INFO_INIT.
 *  strides are in BYTES and always explicit; layout is "" when the tensor has none. */
typedef struct cvTensorInfo {
    uint32_t structSize;
    int32_t ndim;
    int64_t shape[CV_MAX_DIMS];
    int64_t strides[CV_MAX_DIMS];
    uint64_t data;
    cvDataType dtype;
    int32_t readonly;
    int32_t ownsMemory; /**< 1 if the library allocated the memory (cvTensorCreate) */
    char layout[CV_MAX_DIMS + 1];
    char reserved0[7];
} cvTensorInfo;

#define CV_TENSOR_INFO_INIT \
    { (uint32_t)sizeof(cvTensorInfo), 0, {0}, {0}, 0, CV_DTYPE_UNSPECIFIED, 0, 0, {0}, {0} }

/** Fills *out. Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor/out, structSize too small). */
CV_API cvStatus cvTensorGetInfo(cvTensor tensor, cvTensorInfo *out);

CV_EXTERN_C_END
#endif /* CVCUDA_TENSOR_H */
