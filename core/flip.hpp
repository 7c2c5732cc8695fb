// The flip operator (cvFlip): validation, mapping of layouts onto the kernels' canonical view, ordering.
#pragma once

#include "ref.hpp"

#include <cstdint>

namespace cvk { struct FlipParams; }

namespace cv {

class Stream;
class Tensor;

void flip(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t flipCode);

// Validation and canonical view without enqueuing anything (exposed for CPU tests). Returns false for empty tensors.
bool planFlip(const Tensor &src, const Tensor &dst, int32_t flipCode, cvk::FlipParams &out);

} // namespace cv
