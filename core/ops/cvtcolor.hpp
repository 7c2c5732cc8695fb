// The cvtcolor operator (cvCvtColor): the table of codes, validation, YUV matrices, ordering.
#pragma once

#include "../ref.hpp"

#include <cstdint>

namespace cvk { struct CvtColorParams; }

namespace cv {

class Stream;
class Tensor;

void cvtColor(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t code, int32_t colorSpec);

// Validation and kernel parameters without enqueuing anything (exposed for CPU tests). False when there is nothing
// to convert (empty tensors).
bool planCvtColor(const Tensor &src, const Tensor &dst, int32_t code, int32_t colorSpec, cvk::CvtColorParams &out);

} // namespace cv
