// Views and parameters the resize CPU tests build (pure host values: the dispatch tests never dereference them, the
// block tests point them at their own buffers).
#pragma once

#include "../../kernels/resize.hpp"

#include <cstdint>

namespace cvtest {

inline char *const kAligned = reinterpret_cast<char *>(uintptr_t(1) << 20); // a 16-byte aligned address, never dereferenced

// A packed [n, h, w, c] view at `data` of elements of `elem` bytes, rowPad bytes after each row.
inline cvk::View4 nhwc(char *data, int64_t n, int64_t h, int64_t w, int64_t c, int64_t rowPad = 0, int64_t elem = 1) {
    const int64_t row = w * c * elem + rowPad;
    return cvk::View4{data, {n, h, w, c}, {h * row, row, c * elem, elem}};
}

// cvResize's parameters (OpenCV semantics: no torchvision mode) for src -> dst.
inline cvk::ResizeParams params(cvk::View4 src, cvk::View4 dst, int32_t interp, int32_t type = cvk::kResizeU8) {
    cvk::ResizeParams p{};
    p.src = src;
    p.dst = dst;
    p.type = type;
    p.interp = interp;
    p.torchMode = -1;
    return p;
}

} // namespace cvtest
