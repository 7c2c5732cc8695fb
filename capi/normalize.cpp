#include "firewall.hpp"

#include "../core/ops/normalize.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/normalize.h>

using namespace cv;

extern "C" {

cvStatus cvNormalize(cvStream stream, cvTensor src, cvTensor dst, const cvNormalizeParams *params) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        Tensor &in = capi::deref<Tensor>(src, "src");
        Tensor &out = capi::deref<Tensor>(dst, "dst");
        capi::requireStruct(params, "params");
        Tensor *base = params->base ? &capi::deref<Tensor>(params->base, "params->base") : nullptr;
        Tensor *scale = params->scale ? &capi::deref<Tensor>(params->scale, "params->scale") : nullptr;
        ops::normalize(s, in, out, base, scale, *params);
    });
}

} // extern "C"
