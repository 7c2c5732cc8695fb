// Plain views of tensor memory shared by core (planning, plain C++) and kernels (CUDA): no CUDA header needed.
//
// View4 is an image tensor in the canonical order [N, H, W, C] with BYTE strides of any sign: every image layout
// (HWC, NHWC, CHW, NCHW) is one View4, the layout only decides the strides (CHW is N = 1, stride 0, with C's stride
// the plane pitch). RowView is what the memory-bound kernels walk: a src/dst pair collapsed (collapseRows) into up
// to three outer "row" dimensions and one inner dimension, so that the hot loop needs no division per element.
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
    int64_t rows[kRowDims];     // outer extents, outermost first; unused ones are 1
    int64_t srcRow[kRowDims];   // bytes
    int64_t dstRow[kRowDims];   // bytes
    int64_t inner;              // elements of the innermost dimension
    int64_t srcInner, dstInner; // bytes between neighbours of the innermost dimension
    int32_t channels;           // the channel index is an index modulo `channels` (1: no channel) ...
    int32_t channelRow;         // ... of row dimension `channelRow`, or of the inner dimension when -1
};

// One dimension of a src/dst pair before collapsing.
struct PairDim {
    int64_t n, s, d; // extent, src and dst byte strides
    bool channel;    // the dimension whose index an operator needs
};

// How collapseRows may reorder dimensions.
enum class DimOrder {
    Keep,       // the given order (outermost first)
    ByDstStride // largest |dst stride| first (stable), so the contiguous dimension of dst becomes `inner`
};

// Collapses `count` dims (outermost first) into `out`: size-1 dims are dropped and neighbours that address memory as
// one on BOTH sides are merged. The channel dim may absorb outer neighbours (the channel is then the merged index
// modulo the channel extent) but no inner one. Returns false when more than kRowDims + 1 dims remain (or count > 8).
// Pure host arithmetic.
inline bool collapseRows(const PairDim *dims, int count, DimOrder order, const char *src, char *dst, RowView &out) {
    if (count > 8) return false;
    PairDim sorted[8];
    for (int i = 0; i < count; ++i) sorted[i] = dims[i];
    if (order == DimOrder::ByDstStride) {
        auto mag = [](int64_t x) { return x < 0 ? -x : x; };
        for (int i = 1; i < count; ++i) // insertion sort, stable: equal strides keep the given order
            for (int j = i; j > 0 && mag(sorted[j - 1].d) < mag(sorted[j].d); --j) {
                const PairDim t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
    }
    struct Merged {
        int64_t n, s, d, period; // period > 0: holds the channel, whose index is (index % period)
    };
    Merged m[8];
    int k = 0;
    for (int i = 0; i < count; ++i) {
        const PairDim &x = sorted[i];
        if (x.n == 1) continue;
        if (k > 0 && m[k - 1].period == 0 && m[k - 1].s == x.s * x.n && m[k - 1].d == x.d * x.n) {
            m[k - 1] = {m[k - 1].n * x.n, x.s, x.d, x.channel ? x.n : 0};
            continue;
        }
        m[k++] = {x.n, x.s, x.d, x.channel ? x.n : 0};
    }
    if (k == 0) m[k++] = {1, 0, 0, 0};
    if (k > kRowDims + 1) return false;
    out = RowView{};
    out.src = src;
    out.dst = dst;
    out.channels = 1;
    out.channelRow = -1;
    for (int i = 0; i < kRowDims; ++i) out.rows[i] = 1;
    const Merged &in = m[k - 1];
    out.inner = in.n;
    out.srcInner = in.s;
    out.dstInner = in.d;
    if (in.period > 0) out.channels = static_cast<int32_t>(in.period);
    for (int i = 0; i < k - 1; ++i) {
        const int j = kRowDims - (k - 1) + i;
        out.rows[j] = m[i].n;
        out.srcRow[j] = m[i].s;
        out.dstRow[j] = m[i].d;
        if (m[i].period > 0) out.channels = static_cast<int32_t>(m[i].period), out.channelRow = j;
    }
    return true;
}

// An image pair (same N, H, W, C) in canonical order. With `channel` the C dim is marked (see PairDim).
inline bool collapseImages(const View4 &s, const View4 &d, bool channel, DimOrder order, RowView &out) {
    PairDim dims[4];
    for (int i = 0; i < 4; ++i) dims[i] = {s.shape[i], s.stride[i], d.stride[i], channel && i == kC};
    return collapseRows(dims, 4, order, s.data, d.data, out);
}

} // namespace cvk
