/* cvcuda-c: DLPack in both directions, the interop protocol that carries the consumer's stream, so the producer
 * orders itself with an event and nobody blocks the host.
 *
 * Source of the convention: DLPack 1.1 (include/dlpack/dlpack.h, DLPack's own header, Apache-2.0, shipped next to
 * this one) and the Python array API standard's __dlpack__ protocol. DLTensor strides are in ELEMENTS (DLPack);
 * cvArrayInterface and cvTensorInfo strides are in BYTES (CUDA Array Interface). The functions below convert.
 *
 * Type mapping (DLDataType code/bits, lanes always 1): kDLBool/8 bool, kDLUInt/8..64 uint8..uint64,
 * kDLInt/8..64 int8..int64, kDLFloat/16,32,64 float16..float64, kDLBfloat/16 bfloat16, kDLComplex/64,128
 * complex64, complex128. Devices: kDLCUDA and kDLCUDAManaged. */
#ifndef CVCUDA_DLPACK_INTEROP_H
#define CVCUDA_DLPACK_INTEROP_H

#include <stdint.h>
#include "../dlpack/dlpack.h"
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Flags of cvTensorExportDLPack. */
typedef enum cvDLPackExportFlags {
    CV_DLPACK_EXPORT_DEFAULT = 0,
    /** The consumer has synchronised (DLPack's stream -1): make `consumer` wait on nothing. */
    CV_DLPACK_EXPORT_NO_SYNC = 1,
    /** Export a copy (DLPack's copy=True): new library-owned memory, written on `consumer` (which first waits on the
     *  tensor's pending writes), flagged DLPACK_FLAG_BITMASK_IS_COPIED. */
    CV_DLPACK_EXPORT_COPY = 2,
    CV_DLPACK_EXPORT_FLAGS_FORCE_32BIT = 0x7fffffff
} cvDLPackExportFlags;

/** Exports `tensor` as a DLPack 1.1 managed tensor for a consumer that will use it on `consumer`.
 *  Zero-copy unless CV_DLPACK_EXPORT_COPY. Ordering, with no host sync: `consumer` waits (cudaStreamWaitEvent) on the
 *  writes still pending on the memory, and also on pending reads when the tensor is writable (a DLPack consumer may
 *  write); CV_DLPACK_EXPORT_NO_SYNC skips both. While `consumer` is being captured into a CUDA graph nothing is
 *  waited on (ordering a graph's launch is the caller's, as for any graph).
 *  *out receives a DLManagedTensorVersioned (version 1.1, strides in ELEMENTS, always explicit, byte_offset 0,
 *  flags READ_ONLY for read-only tensors and IS_COPIED for copies) OWNED BY THE CALLER: call its deleter exactly once
 *  when done. The deleter may be called from any thread; it records an event on `consumer` (unless that stream is
 *  being captured then) so that the library releases the memory, and orders later writes to it, only after the work
 *  the consumer had queued on it by then. The consumer stream must therefore still exist when the deleter runs
 *  (streams of PyTorch's pool and the default streams always do). The managed tensor holds a reference to `tensor`.
 *  A wrapper whose producer stream is unknown pays its one defensive cudaDeviceSynchronize here, as a first use does.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor, consumer or out; unknown flags; the tensor's memory is not on the
 *  consumer's device), CV_ERROR_INVALID_STATE (the defensive sync is needed while `consumer` is being captured),
 *  CV_ERROR_OUT_OF_MEMORY, CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. On failure *out is NULL.
 *  consumer may be NULL only with CV_DLPACK_EXPORT_NO_SYNC and without CV_DLPACK_EXPORT_COPY: the deleter then
 *  orders the release after the library's own tracked work only. */
CV_API cvStatus cvTensorExportDLPack(cvTensor tensor, cvStream consumer, uint32_t flags,
                                     struct DLManagedTensorVersioned **out);

/** Wraps a DLPack managed tensor zero-copy. `producer` is the stream on which the data is ready: the producer has
 *  ordered its writes before the work queued on `producer` (DLPack's __dlpack__(stream=...) contract), so the
 *  wrapper starts as written on `producer` (an event recorded there; no host sync). Pass a stream the producer did
 *  order, or any stream if the data is ready (e.g. after a sync).
 *  Ownership: on CV_SUCCESS the library owns `managed` and calls its deleter exactly once, after the last reference
 *  to the tensor is gone and every GPU operation the library queued on the memory has completed (from a thread inside
 *  a library call, as cvCleanupFn). On failure ownership stays with the caller (the deleter is not called).
 *  layout: as in cvTensorWrap. DLPACK_FLAG_BITMASK_READ_ONLY makes the tensor read-only.
 *  Accepted: version.major 1; device kDLCUDA or kDLCUDAManaged; the types listed at the top of this header with
 *  lanes 1; ndim 0..CV_MAX_DIMS; strides NULL (C-contiguous) or in elements; data + byte_offset aligned to the item
 *  size. The tensor's device is where its memory is (its pointer says, at first use), whatever the current device;
 *  for kDLCUDA, `producer` must be a stream of dl_tensor.device.device_id.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL managed, producer or out; another major version; a host or other
 *  device type; bad shape, strides, layout or alignment; a non-empty kDLCUDA tensor whose device_id is not the
 *  producer stream's device), CV_ERROR_NOT_SUPPORTED (a type not listed, lanes != 1),
 *  CV_ERROR_NO_DEVICE, CV_ERROR_CUDA (recording the event). Needs no GPU for the validation. */
CV_API cvStatus cvTensorWrapDLPack(struct DLManagedTensorVersioned *managed, const char *layout, cvStream producer,
                                   cvTensor *out);

/** Writes the CUDA device that holds the tensor's memory to *device (what DLPack's __dlpack_device__ reports), read
 *  from its pointer (cudaPointerGetAttributes), whatever the calling thread's current device; unchanged after.
 *  For wrapped memory the first call does the first-use check (cudaPointerGetAttributes; legal during capture); an
 *  empty wrapped tensor reports the current device. Never blocks.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor or device; wrapped memory that is not device memory),
 *  CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvTensorGetDevice(cvTensor tensor, int32_t *device);

/** Tells the library that `consumer` may have queued reads or writes of the tensor's memory that it does not track
 *  (e.g. PyTorch read a cvTensorExport on its current stream): an event is recorded on `consumer` now, later
 *  operations on other streams wait on it, and memory the library owns is released only after it. A binding calls it
 *  when a foreign consumer drops an export. While `consumer` is being captured it records nothing (the graph's
 *  launch is not ordered by the library). Never blocks.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL tensor or consumer; a non-empty tensor on another device than
 *  `consumer`), CV_ERROR_CUDA. */
CV_API cvStatus cvTensorAddConsumer(cvTensor tensor, cvStream consumer);

CV_EXTERN_C_END
#endif /* CVCUDA_DLPACK_INTEROP_H */
