#include "firewall.hpp"

#include "../core/ops/resize.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/resize.h>

using namespace cv;

extern "C" {

cvStatus cvResize(cvStream stream, cvTensor src, cvTensor dst, int32_t interp) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        resize(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), interp);
    });
}

cvStatus cvResizeTorchvision(cvStream stream, cvTensor src, cvTensor dst, int32_t interp, int32_t antialias) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        resizeTorchvision(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), interp, antialias);
    });
}

cvStatus cvResizeCropConvertReformat(cvStream stream, cvTensor src, cvTensor dst, const cvResizeCropConvertParams *params) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        Tensor &in = capi::deref<Tensor>(src, "src");
        Tensor &out = capi::deref<Tensor>(dst, "dst");
        capi::requireStruct(params, "params");
        resizeCropConvertReformat(s, in, out, *params);
    });
}

cvStatus cvResizeTorchvisionCropConvertReformat(cvStream stream, cvTensor src, cvTensor dst,
                                                const cvResizeCropConvertParams *params, int32_t antialias) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        Tensor &in = capi::deref<Tensor>(src, "src");
        Tensor &out = capi::deref<Tensor>(dst, "dst");
        capi::requireStruct(params, "params");
        resizeTorchvisionCropConvertReformat(s, in, out, *params, antialias);
    });
}

} // extern "C"
