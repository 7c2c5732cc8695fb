// The normalize operator (cvNormalize): validation, per-channel constants, the elementwise view, ordering.
#pragma once

#include "../ref.hpp"

#include "../../kernels/normalize.hpp"

#include <cvcuda/normalize.h>

namespace cv {
class Stream;
class Tensor;
} // namespace cv

namespace cv::ops {

// `base`/`scale`: the constant tensors of params (already resolved from their handles), or null.
void normalize(const Ref<Stream> &stream, Tensor &src, Tensor &dst, Tensor *base, Tensor *scale,
               const cvNormalizeParams &params);

// Validation and the kernel's parameters without enqueuing anything (exposed for CPU tests); `base`/`scale` are the
// constant tensors or null. Returns false for empty tensors.
bool planNormalize(const Tensor &src, const Tensor &dst, const Tensor *base, const Tensor *scale,
                   const cvNormalizeParams &params, cvk::NormalizeParams &out);

} // namespace cv::ops
