#include "firewall.hpp"

#include "../core/ops/copymakeborder.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/copymakeborder.h>

using namespace cv;

extern "C" {

cvStatus cvCopyMakeBorder(cvStream stream, cvTensor src, cvTensor dst, const cvCopyMakeBorderParams *params) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        Tensor &srcT = capi::deref<Tensor>(src, "src");
        Tensor &dstT = capi::deref<Tensor>(dst, "dst");
        capi::requireStruct(params, "params");
        copyMakeBorder(s, srcT, dstT, *params);
    });
}

} // extern "C"
