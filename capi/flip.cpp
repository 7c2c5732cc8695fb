#include "firewall.hpp"

#include "../core/flip.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/flip.h>

using namespace cv;

extern "C" {

cvStatus cvFlip(cvStream stream, cvTensor src, cvTensor dst, int32_t flipCode) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        flip(s, capi::deref<Tensor>(src, "src"), capi::deref<Tensor>(dst, "dst"), flipCode);
    });
}

} // extern "C"
