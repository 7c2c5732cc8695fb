#include "firewall.hpp"

#include "../core/ops/reformat.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/reformat.h>

using namespace cv;

extern "C" {

cvStatus cvReformat(cvStream stream, cvTensor src, cvTensor dst) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        ops::reformat(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"));
    });
}

} // extern "C"
