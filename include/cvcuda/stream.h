/* cvcuda-c: streams. A cvStream is a reference-counted handle to a CUDA stream, either created (and owned) by the
 * library or adopted from the caller. All library work is enqueued on a stream and is asynchronous to the host.
 * Devices: a stream belongs to one CUDA device; every call that takes a stream runs on that device under a device
 * guard and leaves the calling thread's current device as it found it, on every path, errors included; a tensor
 * used on a stream of another device is an error naming both devices (see device.h).
 * Threading: a cvStream may be used from several threads at once. */
#ifndef CVCUDA_STREAM_H
#define CVCUDA_STREAM_H

#include <stdint.h>
#include "export.h"
#include "status.h"

CV_EXTERN_C_BEGIN

/** A handle: an opaque value checked by every function as a cvTensor is (see tensor.h): NULL, released, foreign
 *  or mistyped handles give CV_ERROR_INVALID_ARGUMENT. */
typedef struct cvStream_t *cvStream;

/** Creates a NON-BLOCKING CUDA stream (cudaStreamNonBlocking) on the calling thread's current device: it is not
 *  implicitly ordered with the legacy default stream nor with PyTorch's streams; the library orders it against other
 *  streams through events. *out receives a handle with one reference (release it with cvStreamRelease).
 *  Streams are pooled, as in the reference library: a stream whose last handle was released (and that the library no
 *  longer needs for pending work it tracks) may be handed out again, oldest first, but only once all of its work has
 *  completed, work queued through its raw cudaStream_t included; so the new handle may carry the cudaStream_t value
 *  of a released one, and nothing queued on it before waits ahead of the caller's work. That costs no CUDA call for
 *  a stream whose raw handle was never given out (cvStreamCreate does not give it; cvStreamGetHandle and
 *  cvStreamCreateWithHandle do), else a cudaStreamQuery (docs/streams.md). The raw cudaStream_t must not be used once
 *  its last handle is released. A reused stream costs no CUDA stream creation (cudaStreamCreate takes several
 *  microseconds).
 *  The first stream made on a device also loads the library's kernels there, which may wait for work already on
 *  the device (CUDA's lazy loading would otherwise do it, unannounced, at an operator's first launch).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (out is NULL), CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvStreamCreate(cvStream *out);

/** cvStreamCreate on the CUDA device `device` (0..count-1, see cvDeviceGetCount) instead of the current one; also
 *  writes the new stream's cudaStream_t to *cudaStream unless cudaStream is NULL. The calling thread's current device
 *  is the same after the call (also after an error). Operators, allocations (cvTensorCreateOnStream) and exports on
 *  the stream run on `device` whatever the caller's current device. Streams are pooled per device: a stream of one
 *  device is never handed out for another.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (out is NULL; `device` is not a device index: the message names the value and
 *  the devices this process sees), CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvStreamCreateOnDevice(int32_t device, void **cudaStream, cvStream *out);

/** Writes the CUDA device the stream belongs to to *device: the device it was created on (cvStreamCreateOnDevice,
 *  or the current one for cvStreamCreate), or for an adopted stream the one cvStreamWrap found. Never blocks, makes
 *  no CUDA call. Errors: CV_ERROR_INVALID_ARGUMENT (NULL stream or device). */
CV_API cvStatus cvStreamGetDevice(cvStream stream, int32_t *device);

/** cvStreamCreate, also writing the new stream's cudaStream_t to *cudaStream (as cvStreamGetHandle would), in one
 *  call: bindings that need both pay one crossing. Errors: as cvStreamCreate; CV_ERROR_INVALID_ARGUMENT also for a
 *  NULL cudaStream (then *out is untouched and no stream is made). */
CV_API cvStatus cvStreamCreateWithHandle(void **cudaStream, cvStream *out);

/** Adopts an existing cudaStream_t without taking ownership (it is never destroyed by the library; the caller keeps
 *  it alive while the handle or any work on it is in use). cudaStream == NULL adopts CUDA's legacy default stream
 *  of the calling thread's current device (each device has its own).
 *  The device is the stream's (cudaStreamGetDevice); while the stream is being captured into a CUDA graph, when CUDA
 *  allows no query of it, the calling thread's current device (where the capturing framework works). Legal during
 *  capture in either mode. *out receives one reference. Loads the library's kernels on
 *  that device the first time, as cvStreamCreate does.
 *  A handle of a stream made by cvStreamCreate gives a new handle to that same stream object (its own references;
 *  the handle values differ).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (out is NULL; cudaStream == cudaStreamPerThread (2), which names a different
 *  stream in each thread, so no cross-stream ordering could follow it), CV_ERROR_NO_DEVICE. */
CV_API cvStatus cvStreamWrap(void *cudaStream, cvStream *out);

/** Adopts CUDA's legacy default stream of `device` (what cvStreamWrap(NULL, out) gives while `device` is current),
 *  whatever the calling thread's current device, which is unchanged after the call. *out receives one reference.
 *  Loads the library's kernels on that device the first time, as cvStreamWrap does.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (out is NULL; `device` is not a device index), CV_ERROR_NO_DEVICE,
 *  CV_ERROR_CUDA. */
CV_API cvStatus cvStreamWrapDefault(int32_t device, cvStream *out);

/** Adds a reference to the handle. NULL, released and invalid handles are ignored. */
CV_API void cvStreamRetain(cvStream stream);

/** Drops a reference of the handle; the last one invalidates the handle at once. NULL, released and invalid handles
 *  are ignored. Work still queued on the stream completes normally: the library keeps its own
 *  references while it tracks that work, and destroys an owned stream only after the last of them is gone. */
CV_API void cvStreamRelease(cvStream stream);

/** Writes the cudaStream_t (NULL for the legacy default stream) to *cudaStream. The pointer stays valid while the
 *  handle lives. Errors: CV_ERROR_INVALID_ARGUMENT (NULL stream or out). */
CV_API cvStatus cvStreamGetHandle(cvStream stream, void **cudaStream);

/** BLOCKS the host until all work enqueued on the stream has completed, then runs the deferred releases that this
 *  makes possible (cleanup callbacks, see cvTensorSetCleanup, called with the caller's current device). Errors: CV_ERROR_INVALID_ARGUMENT (NULL),
 *  CV_ERROR_CUDA (an earlier asynchronous failure surfaced). */
CV_API cvStatus cvStreamSync(cvStream stream);

/** Whether all work queued on the stream so far has completed, without blocking (as cudaStreamQuery): CV_SUCCESS
 *  when it has, CV_NOT_READY (not an error: no message is stored) while work is pending, work queued through its raw
 *  cudaStream_t included. Makes no CUDA call for a stream of cvStreamCreate whose raw cudaStream_t was never given out
 *  and on which no operator was called (nothing can be pending there), else cudaStreamIsCapturing and
 *  cudaStreamQuery. Legal while this thread captures another stream in any mode. Unlike cvStreamSync it runs no
 *  deferred releases.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL or invalid stream), CV_ERROR_INVALID_STATE (the stream is being captured
 *  into a CUDA graph, where CUDA allows no query: the capture is left intact), CV_ERROR_CUDA (an earlier asynchronous
 *  failure surfaced; also, naming cudaErrorStreamCaptureImplicit, for the legacy default stream while a blocking
 *  stream of its device is being captured, which CUDA does not let it be asked about). */
CV_API cvStatus cvStreamQuery(cvStream stream);

/** Whether the caller may hand `stream` to a new owner instead of releasing it and calling cvStreamCreate, for a
 *  binding that keeps released handles of its own (the Python package's Stream(), docs/streams.md): CV_SUCCESS when
 *  the stream was made by cvStreamCreate (or its variants), `stream` is its only handle and holds one reference, no
 *  tracked work holds the stream (no tensor's hazard state names it), it is not being captured and nothing is
 *  pending on it: the conditions under which the library's own pool hands a released stream out again. CV_NOT_READY
 *  (not an error: no message is stored) otherwise; such a handle is released as usual, and the pool keeps the stream
 *  until those hold. Ask only about a handle being handed over: as after cvStreamRelease, the raw cudaStream_t its
 *  earlier owner was given is no longer that owner's to use, and a CV_SUCCESS lets the library treat the stream as
 *  idle until its raw handle is next given out. No CUDA call for a stream whose raw cudaStream_t was never given out
 *  and on which no operator was called, or that this call or the pool found idle since; else cudaStreamIsCapturing
 *  and cudaStreamQuery, with this thread's capture mode relaxed around them (so the call is legal while this thread
 *  captures another stream in any mode).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL or invalid stream; a stream of cvStreamWrap or cvStreamWrapDefault, which
 *  the library does not own), CV_ERROR_CUDA (an earlier asynchronous failure surfaced). */
CV_API cvStatus cvStreamQueryReusable(cvStream stream);

/** cvStreamQueryReusable answered from the library's own state alone: CV_SUCCESS only where cvStreamQueryReusable
 *  would answer CV_SUCCESS without asking CUDA (a stream made by cvStreamCreate or its variants, `stream` its only
 *  handle with one reference, no tracked work holding it, and known idle: its raw cudaStream_t not given out and no
 *  operator called on it since it was created or since the library last found it idle, as cvStreamQueryReusable and
 *  the pool's own check do); CV_NOT_READY (not an error: no message is stored) in every other case, among them a
 *  stream that ran work, which only cudaStreamQuery can tell about: ask cvStreamQueryReusable then. Makes no CUDA
 *  call, takes none of the library's locks and never waits, so it may be called where CUDA calls are not allowed (a
 *  host function or stream callback) and by a binding that keeps its interpreter's lock through it (the Python
 *  package's Stream() does: bindings/python/gen_ffi.py). Changes nothing: a CV_SUCCESS hands
 *  the stream on exactly as cvStreamQueryReusable's does. Errors: CV_ERROR_INVALID_ARGUMENT (NULL or invalid
 *  stream; a stream of cvStreamWrap or cvStreamWrapDefault, which the library does not own). */
CV_API cvStatus cvStreamPeekReusable(cvStream stream);

/** Makes all work enqueued on `stream` from now on wait until the work enqueued on `other` so far has completed
 *  (an event recorded on `other` and waited on by `stream`: never blocks the host, legal during graph capture).
 *  stream == other (the same CUDA stream) is a no-op. Both must be on one device.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL stream or other; streams of different devices), CV_ERROR_CUDA. */
CV_API cvStatus cvStreamWaitStream(cvStream stream, cvStream other);

CV_EXTERN_C_END
#endif /* CVCUDA_STREAM_H */
