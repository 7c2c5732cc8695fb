#include "firewall.hpp"

#include "../core/cuda_check.hpp"
#include "../core/device_resources.hpp"
#include "../core/error.hpp"
#include "../core/event_pool.hpp"
#include "../core/hazards.hpp"
#include "../core/stream.hpp"

#include <cvcuda/stream.h>

using namespace cv;

extern "C" {

cvStatus cvStreamCreate(cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        *out = reinterpret_cast<cvStream>(Stream::create().detach());
    });
}

cvStatus cvStreamCreateWithHandle(void **cudaStream, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(cudaStream, "cudaStream");
        capi::requireOut(out, "out");
        Ref<Stream> s = Stream::create();
        *cudaStream = s->handle();
        *out = reinterpret_cast<cvStream>(s.detach());
    });
}

cvStatus cvStreamCreateOnDevice(int32_t device, void **cudaStream, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        requireDeviceIndex(device, "device");
        Ref<Stream> s = Stream::create(device);
        if (cudaStream != nullptr) *cudaStream = s->handle();
        *out = reinterpret_cast<cvStream>(s.detach());
    });
}

cvStatus cvStreamGetDevice(cvStream stream, int32_t *device) {
    return capi::guarded(__func__, [&] {
        const Stream &s = capi::deref<Stream>(stream, "stream");
        capi::requireOut(device, "device");
        *device = s.device();
    });
}

cvStatus cvStreamWrap(void *cudaStream, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        Ref<Stream> s = Stream::adopt(static_cast<cudaStream_t>(cudaStream));
        loadKernels(s->device());
        *out = reinterpret_cast<cvStream>(s.detach());
    });
}

cvStatus cvStreamWrapDefault(int32_t device, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        requireDeviceIndex(device, "device");
        Ref<Stream> s = Stream::adoptDefault(device);
        loadKernels(device);
        *out = reinterpret_cast<cvStream>(s.detach());
    });
}

void cvStreamRetain(cvStream stream) {
    if (stream != nullptr && reinterpret_cast<Stream *>(stream)->hasMagic(Stream::kMagic)) reinterpret_cast<Stream *>(stream)->retain();
}

void cvStreamRelease(cvStream stream) {
    if (stream != nullptr && reinterpret_cast<Stream *>(stream)->hasMagic(Stream::kMagic)) reinterpret_cast<Stream *>(stream)->release();
}

cvStatus cvStreamGetHandle(cvStream stream, void **cudaStream) {
    return capi::guarded(__func__, [&] {
        Stream &s = capi::deref<Stream>(stream, "stream");
        capi::requireOut(cudaStream, "cudaStream");
        *cudaStream = s.handle();
    });
}

cvStatus cvStreamSync(cvStream stream) {
    return capi::guarded(__func__, [&] {
        Stream &s = capi::deref<Stream>(stream, "stream");
        {
            DeviceGuard guard(s.device());
            s.synchronize();
        }
        hazards::collect(false); // cleanup callbacks run with the caller's current device
    });
}

cvStatus cvStreamWaitStream(cvStream stream, cvStream other) {
    return capi::guarded(__func__, [&] {
        Stream &s = capi::deref<Stream>(stream, "stream");
        Stream &o = capi::deref<Stream>(other, "other");
        if (sameStream(s, o)) return;
        if (s.device() != o.device())
            invalid(currentFunction(), ": stream is on device ", s.device(), " but other is on device ", o.device());
        DeviceGuard guard(o.device());
        Ref<Event> done = recordEvent(o);
        waitEvent(s, *done);
    });
}

} // extern "C"
