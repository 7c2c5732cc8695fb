#include "firewall.hpp"

#include "../core/dlpack.hpp"
#include "../core/hazards.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/dlpack_interop.h>

using namespace cv;

namespace {

Ref<Stream> optionalStream(cvStream stream, const char *argument) {
    return stream == nullptr ? Ref<Stream>() : Ref<Stream>(&capi::deref<Stream>(stream, argument));
}

} // namespace

extern "C" {

cvStatus cvTensorExportDLPack(cvTensor tensor, cvStream consumer, uint32_t flags, DLManagedTensorVersioned **out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        *out = nullptr;
        Ref<Tensor> t(&capi::deref<Tensor>(tensor, "tensor"));
        *out = exportDLPack(t, optionalStream(consumer, "consumer"), flags);
    });
}

cvStatus cvTensorWrapDLPack(DLManagedTensorVersioned *managed, const char *layout, cvStream producer, cvTensor *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(managed, "managed");
        capi::requireOut(out, "out");
        *out = capi::newHandle<cvTensor>(wrapDLPack(managed, layout, optionalStream(producer, "producer")));
    });
}

cvStatus cvTensorGetDevice(cvTensor tensor, int32_t *device) {
    return capi::guarded(__func__, [&] {
        Tensor &t = capi::deref<Tensor>(tensor, "tensor");
        capi::requireOut(device, "device");
        *device = hazards::deviceOf(t);
    });
}

cvStatus cvTensorAddConsumer(cvTensor tensor, cvStream consumer) {
    return capi::guarded(__func__, [&] {
        Tensor &t = capi::deref<Tensor>(tensor, "tensor");
        Ref<Stream> s(&capi::deref<Stream>(consumer, "consumer"));
        hazards::addConsumer(t, s);
    });
}

} // extern "C"
