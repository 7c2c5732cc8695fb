// What the operators' validation and planning share (core side): reading an image tensor's N/H/W/C from its layout
// into the kernels' canonical view (kernels/common/view.hpp), shape strings for messages, and the dtype, layout,
// writability and overlap checks. Every check throws cv::Error with a message that names the C function (prefix),
// the argument, the value and the rule.
#pragma once

#include "../tensor_desc.hpp"

#include "../../kernels/common/view.hpp"

#include <cvcuda/types.h>

#include <string>

namespace cv::ops {

// "(2, 10, 10, 3)"
std::string shapeString(const TensorDesc &d);
// "uint8"; "unspecified" for values outside the table.
const char *dtypeName(cvDataType dtype);

// An image tensor seen through its layout.
struct Image {
    std::string layout; // one of the accepted layouts
    int64_t n, h, w, c; // N = 1 for layouts without N
    bool planar;        // C before H and W (CHW, NCHW)
    cvk::View4 view;    // canonical [N, H, W, C], byte strides (N's is 0 without N)
};

// Reads `d` as an image whose layout is one of `accepted` (comma-separated, e.g. "HWC,NHWC,CHW,NCHW"). Errors: no
// layout, a layout not accepted (INVALID_ARGUMENT naming `arg` and the accepted list).
Image imageOf(const TensorDesc &d, const char *arg, const char *accepted);

// INVALID_ARGUMENT when dst is readonly or has elements that overlap each other (zero strides).
void requireWritable(const TensorDesc &d, const char *arg);

// True when two elements of d share bytes (zero strides, interleaved dimensions).
bool selfOverlapping(const TensorDesc &d);

// Whether src and dst share memory: not at all, exactly (same data pointer, same strides and itemsize: in place),
// or otherwise (partially).
enum class Overlap { None, Same, Partial };
Overlap overlapOf(const TensorDesc &s, const TensorDesc &d);

// INVALID_ARGUMENT for a partial overlap, and for an exact one unless `inPlaceExact` (the operator computes each
// element from the same element only, with the same element size on both sides).
void requireNoOverlap(const TensorDesc &s, const TensorDesc &d, bool inPlaceExact);

// NOT_SUPPORTED naming `arg`, its dtype and the supported list when `supported` is false.
void requireDType(const TensorDesc &d, const char *arg, bool supported, const char *supportedList);

// INVALID_ARGUMENT when the two images' N, H, W or C differ, with both shapes in the message.
void requireSameImageShape(const Image &a, const TensorDesc &ad, const char *aArg, const Image &b, const TensorDesc &bd,
                           const char *bArg);

} // namespace cv::ops
