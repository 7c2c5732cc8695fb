#include "firewall.hpp"

#include "../core/ops/convert_to.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/convert_to.h>

using namespace cv;

extern "C" {

cvStatus cvConvertTo(cvStream stream, cvTensor src, cvTensor dst, double scale, double offset, int32_t round) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        ops::convertTo(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), scale, offset, round);
    });
}

} // extern "C"
