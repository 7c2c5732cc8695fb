#include "firewall.hpp"

#include "../core/ops/crop.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/crop.h>

using namespace cv;

extern "C" {

cvStatus cvCustomCrop(cvStream stream, cvTensor src, cvTensor dst, int32_t x, int32_t y, int32_t width, int32_t height) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        ops::customCrop(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), x, y, width, height);
    });
}

cvStatus cvCenterCrop(cvStream stream, cvTensor src, cvTensor dst, int32_t cropWidth, int32_t cropHeight) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        ops::centerCrop(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), cropWidth, cropHeight);
    });
}

} // extern "C"
