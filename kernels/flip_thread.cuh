// Flip, thread level, host and device: index arithmetic, the pixel reversal of a register-held group, and the
// per-thread work of the flat horizontal path (flipFlatItem), so that the CPU tests run that path's whole grid.
#pragma once

#include "flip.hpp"

#include "common/launch.cuh"
#include "common/register_bytes.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk::flip {

#define CVK_FLIP_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_FLIP_UNROLL _Pragma("unroll")
#else
#define CVK_FLIP_UNROLL
#endif

// Source byte, within a group of G bytes holding G / P whole pixels, of the byte that lands at t when the pixel order
// of the group is reversed.
__host__ __device__ constexpr int mirroredByte(int P, int G, int t) { return G - P - t + 2 * (t % P); }

__host__ __device__ constexpr int minOf4(int a, int b, int c, int d) {
    return (a < b ? a : b) < (c < d ? c : d) ? (a < b ? a : b) : (c < d ? c : d);
}

// Groups of G = lcm(P, 16) bytes for the pixel sizes with a group shape (1, 2, 3, 4, 6, 8, 12, 16, 24, 48): whole
// pixels and whole 16-byte vectors at once.
__host__ __device__ constexpr int groupBytes(int P) { return P % 16 == 0 ? P : (16 % P == 0 ? 16 : 48); }

// Whether 16-byte vector v of a G-byte group holds a source byte of vector k of the group reversed.
__host__ __device__ constexpr bool feeds(int P, int G, int k, int v) {
    for (int t = 16 * k; t < 16 * k + 16; ++t)
        if (mirroredByte(P, G, t) / 16 == v) return true;
    return false;
}

// Reverses the order of the P-byte pixels of a G-byte group held in registers, with byte permutes whose selectors
// are compile-time constants (the loops unroll fully on the device). An output word draws on at most three input
// words.
template <int P, int G> CVK_FLIP_HD void reversePixels(const uint32_t (&in)[G / 4], uint32_t (&out)[G / 4]) {
    CVK_FLIP_UNROLL
    for (int k = 0; k < G / 4; ++k) {
        const int s0 = mirroredByte(P, G, 4 * k), s1 = mirroredByte(P, G, 4 * k + 1);
        const int s2 = mirroredByte(P, G, 4 * k + 2), s3 = mirroredByte(P, G, 4 * k + 3);
        const int lo = minOf4(s0, s1, s2, s3) / 4;
        const int hi = lo + 1 < G / 4 ? lo + 1 : lo;
        const int top = lo + 2 < G / 4 ? lo + 2 : hi;
        // First the bytes found in words lo and lo + 1 (selector values 0..7), keeping the others' slot for later.
        auto pick2 = [&](int s, int slot) { return s < 4 * lo + 8 ? s - 4 * lo : slot; };
        const unsigned sel2 = pick2(s0, 0) | pick2(s1, 1) << 4 | pick2(s2, 2) << 8 | pick2(s3, 3) << 12;
        uint32_t w = bytePerm(in[lo], in[hi], sel2);
        const bool needTop = s0 >= 4 * lo + 8 || s1 >= 4 * lo + 8 || s2 >= 4 * lo + 8 || s3 >= 4 * lo + 8;
        if (needTop) {
            auto pick3 = [&](int s, int slot) { return s >= 4 * lo + 8 ? 4 + s - 4 * lo - 8 : slot; };
            const unsigned sel3 = pick3(s0, 0) | pick3(s1, 1) << 4 | pick3(s2, 2) << 8 | pick3(s3, 3) << 12;
            w = bytePerm(w, in[top], sel3);
        }
        out[k] = w;
    }
}

// Byte offsets of row `row` of a grid of (outer1, outer0, rowsPerPlane) rows: dst at height h, src at height h or
// (when mirrored) height - 1 - h.
struct RowOffsets {
    int64_t src, dst, h;
};
CVK_FLIP_HD RowOffsets rowOffsets(const FlipParams &p, int64_t row, int64_t rowsPerPlane, bool mirror) {
    int64_t h, o0;
    const int64_t plane = divmod(row, rowsPerPlane, h);
    const int64_t o1 = divmod(plane, p.shape[kOuter0], o0);
    const int64_t hs = mirror ? p.shape[kHeight] - 1 - h : h;
    return {o1 * p.srcStrides[kOuter1] + o0 * p.srcStrides[kOuter0] + hs * p.srcStrides[kHeight],
            o1 * p.dstStrides[kOuter1] + o0 * p.dstStrides[kOuter0] + h * p.dstStrides[kHeight], h};
}

// The flat horizontal path (FlipPath::ColumnFlat): packed rows of whole G-byte groups, 16-byte aligned, not in place.
// Item `item` of a row-major grid of items is either one G-byte group of a dst row (ItemBytes == G) or one 16-byte
// vector of it (ItemBytes == 16): dst group g of a row is src group groups - 1 - g with its pixels reversed. A thread
// loads the source vectors of its item as 16-byte vectors (for G = 48 the three threads of one group load the same
// vectors, which the L1 serves once) and stores its item as 16-byte vectors. One small item a thread is what spreads
// a small image over the whole GPU: a 1x224x224x3 uint8 flip is 9408 vector items, against 56 warp units of the
// staged whole-row path.
template <int P, int ItemBytes> CVK_FLIP_HD void flipFlatItem(const FlipParams &p, int64_t rowBytes, int64_t item) {
    constexpr int G = groupBytes(P), V = G / 16;
    static_assert(ItemBytes == G || ItemBytes == 16, "an item is a group or one 16-byte vector of it");
    int64_t within, k = 0;
    const int64_t row = divmod(item, rowBytes / ItemBytes, within);
    const RowOffsets r = rowOffsets(p, row, p.shape[kHeight], p.flipRows);
    const int64_t g = ItemBytes == G ? within : divmod(within, V, k);
    const uint4 *s = reinterpret_cast<const uint4 *>(p.src + r.src + rowBytes - G - g * G);
    uint32_t x[G / 4], y[G / 4];
    CVK_FLIP_UNROLL
    for (int v = 0; v < V; ++v) {
        // A 16-byte item loads only the source vectors it draws on (2 of 3 at either end of a 48-byte group).
        bool needed = ItemBytes == G;
        CVK_FLIP_UNROLL
        for (int kk = 0; kk < V; ++kk) needed = needed || (k == kk && feeds(P, G, kk, v));
        const uint4 w = needed ? s[v] : make_uint4(0, 0, 0, 0);
        x[4 * v] = w.x, x[4 * v + 1] = w.y, x[4 * v + 2] = w.z, x[4 * v + 3] = w.w;
    }
    reversePixels<P, G>(x, y);
    uint4 *d = reinterpret_cast<uint4 *>(p.dst + r.dst + g * G);
    if constexpr (ItemBytes == G) {
        CVK_FLIP_UNROLL
        for (int v = 0; v < V; ++v) d[v] = make_uint4(y[4 * v], y[4 * v + 1], y[4 * v + 2], y[4 * v + 3]);
    } else {
        // Vector k of the reversed group, picked with selects (a runtime index into registers would spill them).
        uint4 o = make_uint4(y[0], y[1], y[2], y[3]);
        CVK_FLIP_UNROLL
        for (int v = 1; v < V; ++v)
            if (k == v) o = make_uint4(y[4 * v], y[4 * v + 1], y[4 * v + 2], y[4 * v + 3]);
        d[k] = o;
    }
}

} // namespace cvk::flip
