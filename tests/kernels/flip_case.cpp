#include "flip_case.hpp"

#include <algorithm>
#include <cstring>

namespace cvtest {

const char *strideKindName(StrideKind k) {
    switch (k) {
    case StrideKind::Packed: return "packed";
    case StrideKind::Pitched: return "pitched";
    case StrideKind::Permuted: return "permuted";
    case StrideKind::Negative: return "negative-src";
    case StrideKind::ZeroSrc: return "zero-stride-src";
    }
    return "?";
}

std::vector<int64_t> FlipCase::shape() const {
    std::vector<int64_t> s;
    for (char label : layout) s.push_back(label == 'N' ? n : label == 'C' ? c : label == 'H' ? h : w);
    return s;
}

std::string FlipCase::describe() const {
    std::string s = layout + " (";
    const std::vector<int64_t> sh = shape();
    for (size_t i = 0; i < sh.size(); ++i) s += (i ? "x" : "") + std::to_string(sh[i]);
    return s + ") elemSize " + std::to_string(elemSize) + " flipCode " + std::to_string(flipCode) + " " +
           strideKindName(kind) + (inPlace ? " in-place" : "");
}

StridedView makeView(const FlipCase &c, const std::vector<int64_t> &shape, StrideKind kind, int64_t padBytes) {
    const int nd = static_cast<int>(shape.size());
    const int hDim = static_cast<int>(c.layout.find('H'));
    StridedView v;
    v.shape = shape;
    v.strides.assign(nd, 0);
    int64_t step = c.elemSize;
    if (kind == StrideKind::Permuted) {
        for (int i = 0; i < nd; ++i) {
            v.strides[i] = step;
            step *= shape[i];
        }
    } else {
        for (int i = nd - 1; i >= 0; --i) {
            v.strides[i] = step;
            step *= shape[i];
            if (i == hDim + 1 && kind == StrideKind::Pitched) step += padBytes; // the H stride gets the pad
        }
    }
    if (kind == StrideKind::Negative) {
        for (int i : {0, hDim, hDim + 1})
            if (v.strides[i] > 0) v.strides[i] = -v.strides[i];
    }
    if (kind == StrideKind::ZeroSrc) v.strides[0] = 0;
    int64_t lo = 0, hi = c.elemSize;
    for (int i = 0; i < nd; ++i) {
        const int64_t span = (shape[i] - 1) * v.strides[i];
        if (span < 0) lo += span;
        else hi += span;
    }
    v.base = -lo;
    v.bufferBytes = hi - lo;
    return v;
}

namespace {

int64_t offsetOf(const StridedView &v, const std::vector<int64_t> &idx) {
    int64_t off = v.base;
    for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * v.strides[i];
    return off;
}

} // namespace

void referenceFlip(const FlipCase &c, const std::vector<uint8_t> &src, const StridedView &srcView,
                   std::vector<uint8_t> &expected, const StridedView &dstView) {
    const int nd = static_cast<int>(srcView.shape.size());
    const int hDim = static_cast<int>(c.layout.find('H')), wDim = static_cast<int>(c.layout.find('W'));
    const bool flipH = c.flipCode <= 0, flipW = c.flipCode != 0;
    std::vector<int64_t> idx(nd, 0), from(nd);
    for (;;) {
        from = idx;
        if (flipH) from[hDim] = srcView.shape[hDim] - 1 - idx[hDim];
        if (flipW) from[wDim] = srcView.shape[wDim] - 1 - idx[wDim];
        std::memcpy(&expected[offsetOf(dstView, idx)], &src[offsetOf(srcView, from)], c.elemSize);
        int d = nd - 1;
        while (d >= 0 && ++idx[d] == srcView.shape[d]) idx[d--] = 0;
        if (d < 0) break;
    }
}

} // namespace cvtest
