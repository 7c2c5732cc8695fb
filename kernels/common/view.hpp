// Plain views of tensor memory shared by core (planning, plain C++) and kernels (CUDA): no CUDA header needed.
//
// View4 is an image tensor in the canonical order [N, H, W, C] with BYTE strides of any sign: every image layout
// (HWC, NHWC, CHW, NCHW) is one View4, the layout only decides the strides (CHW is N = 1 with C's stride the plane
// pitch). RowView is what the memory-bound kernels walk: a View4 pair collapsed (core side, collapseRows) into up to
// three outer "row" dimensions and one inner dimension, so that the hot loop needs no division per element.
#pragma once

#include <cstdint>

namespace cvk {

enum { kN = 0, kH = 1, kW = 2, kC = 3 };

struct View4 {
    char *data;
    int64_t shape[4];  // elements, all >= 1 when the tensor is not empty
    int64_t stride[4]; // bytes, any sign
};

constexpr int kRowDims = 3;

// Same logical shape on both sides: element (r0, r1, r2, i) of src maps onto the same index of dst.
struct RowView {
    const char *src;
    char *dst;
    int64_t rows[kRowDims];      // outer extents, outermost first; unused ones are 1
    int64_t srcRow[kRowDims];    // bytes
    int64_t dstRow[kRowDims];    // bytes
    int64_t inner;               // elements of the innermost dimension
    int64_t srcInner, dstInner;  // bytes between neighbours of the innermost dimension
    int32_t channels;            // period of the channel index along `inner` (1 when the channel is not innermost)
};

// Collapses src and dst (same shape) into a RowView: size-1 dims are dropped and neighbours that address memory as
// one on BOTH sides are merged. With `channelInnermost` the canonical order is kept, so C (extent > 1) stays the
// fastest part of `inner` and a per-channel operator finds the channel as index % channels; without it the dims are
// first ordered by dst stride (largest first), so that a planar tensor's contiguous plane becomes `inner` for an
// operator that does not care about the order. Pure host arithmetic.
inline RowView collapseRows(const View4 &s, const View4 &d, bool channelInnermost) {
    struct Dim { int64_t n, s, d; };
    int order[4] = {0, 1, 2, 3};
    if (!channelInnermost) {
        auto mag = [&](int i) { return d.stride[i] < 0 ? -d.stride[i] : d.stride[i]; };
        for (int i = 1; i < 4; ++i) // insertion sort, stable: equal strides keep the canonical order
            for (int j = i; j > 0 && mag(order[j - 1]) < mag(order[j]); --j) {
                const int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
            }
    }
    Dim out[4];
    int k = 0;
    for (int o = 0; o < 4; ++o) {
        const int i = order[o];
        const Dim x{s.shape[i], s.stride[i], d.stride[i]};
        if (x.n == 1) continue;
        if (k > 0 && out[k - 1].s == x.s * x.n && out[k - 1].d == x.d * x.n) {
            out[k - 1] = {out[k - 1].n * x.n, x.s, x.d};
            continue;
        }
        out[k++] = x;
    }
    RowView v{};
    v.src = s.data;
    v.dst = d.data;
    for (int i = 0; i < kRowDims; ++i) v.rows[i] = 1;
    if (k == 0) out[k++] = {1, 0, 0};
    v.inner = out[k - 1].n;
    v.srcInner = out[k - 1].s;
    v.dstInner = out[k - 1].d;
    for (int i = 0; i < k - 1; ++i) {
        const int j = kRowDims - (k - 1) + i;
        v.rows[j] = out[i].n;
        v.srcRow[j] = out[i].s;
        v.dstRow[j] = out[i].d;
    }
    v.channels = channelInnermost ? static_cast<int32_t>(s.shape[kC]) : 1;
    return v;
}

} // namespace cvk
