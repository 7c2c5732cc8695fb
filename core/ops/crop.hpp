// The crop operators (cvCustomCrop, cvCenterCrop): validation, the cropped view, ordering.
#pragma once

#include "../ref.hpp"

#include "../../kernels/common/view.hpp"

#include <cstdint>

namespace cv {
class Stream;
class Tensor;
} // namespace cv

namespace cv::ops {

// dst = the rectangle (x, y, width, height) of every image of src.
void customCrop(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t x, int32_t y, int32_t width, int32_t height);
// dst = the centred cropWidth x cropHeight rectangle: x = (W - cropWidth) / 2, y = (H - cropHeight) / 2, rounded down.
void centerCrop(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t cropWidth, int32_t cropHeight);

// Validation and the copy's view without enqueuing anything (exposed for CPU tests). Returns false when there is
// nothing to copy (empty tensors, or the whole image copied onto itself).
bool planCrop(const Tensor &src, const Tensor &dst, int32_t x, int32_t y, int32_t width, int32_t height, cvk::RowView &out);

} // namespace cv::ops
