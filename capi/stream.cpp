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
        *out = capi::newHandle<cvStream>(Stream::create());
    });
}

cvStatus cvStreamCreateWithHandle(void **cudaStream, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(cudaStream, "cudaStream");
        capi::requireOut(out, "out");
        Ref<Stream> s = Stream::create();
        void *handle = s->handle();
        *out = capi::newHandle<cvStream>(std::move(s));
        *cudaStream = handle;
    });
}

cvStatus cvStreamCreateOnDevice(int32_t device, void **cudaStream, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        requireDeviceIndex(device, "device");
        Ref<Stream> s = Stream::create(device);
        // The raw handle only when asked for: a stream whose handle nobody got stays known idle (core/stream.cpp).
        void *handle = cudaStream != nullptr ? s->handle() : nullptr;
        *out = capi::newHandle<cvStream>(std::move(s));
        if (cudaStream != nullptr) *cudaStream = handle;
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
        *out = capi::newHandle<cvStream>(std::move(s));
    });
}

cvStatus cvStreamWrapDefault(int32_t device, cvStream *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        requireDeviceIndex(device, "device");
        Ref<Stream> s = Stream::adoptDefault(device);
        loadKernels(device);
        *out = capi::newHandle<cvStream>(std::move(s));
    });
}

void cvStreamRetain(cvStream stream) {
    capi::retainHandle<Stream>(stream);
}

void cvStreamRelease(cvStream stream) {
    capi::releaseHandle<Stream>(stream);
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

cvStatus cvStreamQuery(cvStream stream) {
    bool idle = false;
    const cvStatus status = capi::guarded(__func__, [&] { idle = capi::deref<Stream>(stream, "stream").query(); });
    return status == CV_SUCCESS && !idle ? CV_NOT_READY : status;
}

namespace {
// cvStreamQueryReusable and cvStreamPeekReusable: CV_SUCCESS when `stream` is a stream the library created, this its
// only handle with one reference, and `ask` (the Stream's own answer) says it may be handed on; else CV_NOT_READY, or
// the error (an adopted stream is an invalid argument: only streams the library created are reused).
cvStatus answerReusable(const char *function, cvStream stream, bool (*ask)(const Stream &)) {
    bool reusable = false;
    const cvStatus status = capi::guarded(function, [&] {
        const Stream &s = capi::deref<Stream>(stream, "stream");
        if (!s.owned())
            invalid(currentFunction(), ": stream is adopted (cvStreamWrap, cvStreamWrapDefault); only streams the "
                    "library created are reused");
        reusable = capi::handleReferences<Stream>(stream) == 1 && ask(s);
    });
    return status == CV_SUCCESS && !reusable ? CV_NOT_READY : status;
}
} // namespace

cvStatus cvStreamQueryReusable(cvStream stream) {
    return answerReusable(__func__, stream, [](const Stream &s) { return s.reusable(); });
}

cvStatus cvStreamPeekReusable(cvStream stream) {
    return answerReusable(__func__, stream, [](const Stream &s) { return s.knownReusable(); });
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
