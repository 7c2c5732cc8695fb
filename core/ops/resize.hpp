// The resize operators (cvResize, cvResizeTorchvision, cvResizeCropConvertReformat, cvResizeTorchvisionCropConvertReformat): validation, mapping of layouts onto the kernels'
// [N, H, W, C] view, ordering.
#pragma once

#include "../ref.hpp"

#include <cvcuda/resize.h>

#include <cstdint>

namespace cvk {
struct ResizeParams;
struct FusedParams;
} // namespace cvk

namespace cv {

class Stream;
class Tensor;

void resize(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t interp);
void resizeTorchvision(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t interp, int32_t antialias);
void resizeCropConvertReformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst, const cvResizeCropConvertParams &params);
void resizeTorchvisionCropConvertReformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst,
                                          const cvResizeCropConvertParams &params, int32_t antialias);

// Validation and kernel parameters without enqueuing anything (exposed for CPU tests). Return false when there is
// nothing to compute (N == 0 or C == 0).
bool planResize(const Tensor &src, const Tensor &dst, int32_t interp, cvk::ResizeParams &out);
bool planResizeTorchvision(const Tensor &src, const Tensor &dst, int32_t interp, int32_t antialias, cvk::ResizeParams &out);
bool planResizeCropConvertReformat(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params,
                                   cvk::FusedParams &out);
bool planResizeTorchvisionCropConvertReformat(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params,
                                              int32_t antialias, cvk::FusedParams &out);

} // namespace cv
