#include "firewall.hpp"

#include "../core/ops/cvtcolor.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/cvtcolor.h>

using namespace cv;

extern "C" {

cvStatus cvCvtColor(cvStream stream, cvTensor src, cvTensor dst, int32_t code, int32_t colorSpec) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        cvtColor(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), code, colorSpec);
    });
}

} // extern "C"
