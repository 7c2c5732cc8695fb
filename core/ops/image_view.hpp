// The [N,] H, W, C view of an HWC or NHWC tensor that the colour and border operators validate and address.
#pragma once

#include "../tensor_desc.hpp"

#include <cstdint>
#include <string>

namespace cv {

struct ImageView {
    int64_t n, h, w, c;
    int64_t strides[4]; // bytes: n (0 when there is no N), h, w, c
};

// The image view of `d` (argument `name` of the current C function). Throws CV_ERROR_INVALID_ARGUMENT naming the
// argument, its layout or rank and the rule when `d` is not HWC or NHWC.
ImageView imageView(const TensorDesc &d, const char *name);

// "(2, 10, 10, 3)" for messages.
std::string shapeString(const TensorDesc &d);

// True when the byte extents of a and b intersect.
bool overlaps(const TensorDesc &a, const TensorDesc &b);

} // namespace cv
