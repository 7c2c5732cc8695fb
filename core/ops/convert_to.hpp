// The convertto operator (cvConvertTo): validation, the elementwise view, ordering.
#pragma once

#include "../ref.hpp"

#include "../../kernels/convert_to.hpp"

#include <cstdint>

namespace cv {
class Stream;
class Tensor;
} // namespace cv

namespace cv::ops {

void convertTo(const Ref<Stream> &stream, Tensor &src, Tensor &dst, double scale, double offset, int32_t round);

// Validation and the kernel's parameters without enqueuing anything (exposed for CPU tests). Returns false for empty
// tensors.
bool planConvertTo(const Tensor &src, const Tensor &dst, double scale, double offset, int32_t round, cvk::ConvertParams &out);

} // namespace cv::ops
