// One row of the flip table: a layout, an element size, extents, a flipCode and how src/dst are laid out in memory,
// with the strided buffers and the CPU reference that the GPU result is compared with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cvtest {

enum class StrideKind {
    Packed,    // C-contiguous
    Pitched,   // rows padded (src and dst with different pitches)
    Permuted,  // dimensions stored in reverse order: the first dimension is the innermost in memory
    Negative,  // src runs backwards along its first dimension, H and W
    ZeroSrc,   // src broadcasts its first dimension (stride 0)
};

const char *strideKindName(StrideKind k);

struct FlipCase {
    std::string layout; // "HW", "HWC", "NHWC", "CHW", "NCHW", "NHW"
    int elemSize;       // 1, 2, 4, 8, 16
    int64_t n, c, h, w; // n and c are used only where the layout has N and C
    int flipCode;
    StrideKind kind;
    bool inPlace;

    std::string describe() const;
    std::vector<int64_t> shape() const; // in layout order
};

// A strided n-d view over a host/device byte buffer: element `idx` is at byte base + sum(idx[i] * strides[i]).
struct StridedView {
    std::vector<int64_t> shape, strides; // strides in bytes
    int64_t base = 0;                    // byte offset of element 0 in the buffer
    int64_t bufferBytes = 0;
};

// Strides for a view of `shape` with `elemSize`-byte elements; `padBytes` pads each H row (Pitched).
StridedView makeView(const FlipCase &c, const std::vector<int64_t> &shape, StrideKind kind, int64_t padBytes);

// The expected dst buffer: `expected` starts as the dst buffer before the flip (poison, or src itself in place) and
// gets every logical element flipped from `src` (read through srcView) written at its dst position.
void referenceFlip(const FlipCase &c, const std::vector<uint8_t> &src, const StridedView &srcView,
                   std::vector<uint8_t> &expected, const StridedView &dstView);

} // namespace cvtest
