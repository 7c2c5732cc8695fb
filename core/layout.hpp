// Tensor layouts: one upper-case label per dimension ("NHWC").
#pragma once

#include <cvcuda/types.h>

#include <string>

namespace cv {

// Labels a layout may use: N batch, C channel, H height, W width, D depth, F frame.
constexpr const char *kLayoutLabels = "NCHWDF";

// Validates `layout` (may be nullptr = no layout) against rank `ndim`; returns it as a string ("" for none).
// Throws cv::Error naming `field`.
std::string parseLayout(const char *layout, int32_t ndim, const char *field);

} // namespace cv
