// cvResize's periodic NEAREST path for uint8 NEAREST and NEAREST_FLOOR downscales whose horizontal ratio is one of the
// periodic LINEAR path's fractions (resize_linear.cuh, kLinearPeriods: 3 source pixels for every 2 destination
// pixels, or 2 for 1): the source column of destination column d is then (d / Q) * P + first(d % Q), so a thread that
// owns PX consecutive destination pixels of one row (a multiple of Q) finds every destination byte at a source byte
// position known at compile time. No shared memory, no index table: the thread loads the whole words of its source
// span straight from global memory (16- or 8-byte loads where the source row is that aligned), gathers each
// destination word with one or two byte permutes at compile-time selectors, and stores its PX * C bytes as 16-, 8- or
// 4-byte words (bytes where the destination row is not aligned or the group is the row's partial last one, whose
// source bytes are then read one by one: its whole words could lie past the row). Each destination row's source
// row is the sampler's (bandSourceIndex), once per thread, not per pixel; a source row the vertical factor skips
// is never read.
//
// The host (planResizeNearest, resize_nearest.cu) checks every destination column's source index against the
// period, so the compiled positions are the per-pixel sampler's bytes for every shape it takes. The per-thread work
// is a __host__ __device__ function, so the CPU tests run the whole grid against samplePixel.
#pragma once

#include "common/register_bytes.cuh"
#include "resize_band.cuh"
#include "resize_linear.cuh"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace cvk::resize {

#define CVK_NN_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_NN_UNROLL _Pragma("unroll")
#else
#define CVK_NN_UNROLL
#endif

// Source column of phase r (0 <= r < q) of period (q, p) in its period: NEAREST (kNearest, OpenCV
// INTER_NEAREST_EXACT) floor((r + 0.5) * p / q), NEAREST_FLOOR floor(r * p / q). The exact values of the sampler's
// index functions (resize_filters.cuh) for an exact ratio: the plan checks every column against them (no tie of
// nearestExact falls on these ratios, and nearestFloor's double product agrees), so it takes only what is exact.
CVK_NN_HD constexpr int32_t nearestPeriodFirst(int32_t interp, int32_t q, int32_t p, int32_t r) {
    return interp == kNearest ? ((2 * r + 1) * p) / (2 * q) : (r * p) / q;
}

// Threads per block of every kernel of the path (one group of PX destination pixels each).
constexpr int kNearestThreads = 256;
// Destination pixels per thread, by channel count (1, 3, 4: linearChannelRow) and variant (0 or 1): multiples of
// every Q of kLinearPeriods, whole 16-byte destination vectors and whole source words per thread.
constexpr int kNearestPixels[3][2] = {{16, 32}, {16, 32}, {4, 8}};
// The variant launchResize takes: the narrower one, twice the threads, which ran faster in every case of
// bench/probes/resize_nearest_variants.cu on an H200 (GPU µs per call of 32 x 1080x1920, the band path first, then
// variant 0, then variant 1; outputs byte-identical): NEAREST 3 channels -> 720x1280 76.6 / 69.5 / 93.7,
// NEAREST_FLOOR 77.8 / 70.1 / 96.8, -> 540x960 57.4 / 51.9 / 62.1; 1 channel -> 720x1280 57.2 / 21.4 / 23.7;
// 4 channels 87.3 / 72.1 / 76.4.
constexpr int32_t kNearestVariant = 0;

template <int I, int C, int Q, int P, int PX> struct NearestGeometry {
    static_assert(P > Q && P <= 2 * Q, "a downscale by more than 1 and at most 2 across");
    static_assert(PX % Q == 0, "whole periods per thread");
    static constexpr int kSrcStride = PX / Q * P * C; // source bytes from one thread's span to the next
    static constexpr int kOutBytes = PX * C;
    static_assert(kSrcStride % 4 == 0 && kOutBytes % 4 == 0, "whole words per thread");
    // the source byte of destination byte k of the group (from the group's first source byte)
    CVK_NN_HD static constexpr int srcByte(int k) {
        return ((k / C / Q) * P + nearestPeriodFirst(I, Q, P, (k / C) % Q)) * C + k % C;
    }
    // the widest load that divides a thread's span (every span then starts as aligned as its row) and the words of
    // the span loaded: up to the last one a byte is read from, rounded up to whole loads
    static constexpr int kLoad = kSrcStride % 16 == 0 ? 16 : kSrcStride % 8 == 0 ? 8 : 4;
    static constexpr int kWords = ((srcByte(kOutBytes - 1) + kLoad) / kLoad) * (kLoad / 4);
    static_assert(kWords * 4 <= kSrcStride, "a full group's loads lie inside its span");
};

// Destination word K of a group from its source words w: the four bytes come from at most three consecutive words
// (the source bytes increase with the destination bytes, and four of them span at most 2 * C + 2 bytes across a
// phase gap): one permute of the first two words, and a second that brings in the third word's bytes.
template <class Geo, int K> CVK_NN_HD uint32_t nearestWord(const uint32_t (&w)[Geo::kWords]) {
    constexpr int s0 = Geo::srcByte(4 * K), s1 = Geo::srcByte(4 * K + 1), s2 = Geo::srcByte(4 * K + 2), s3 = Geo::srcByte(4 * K + 3);
    constexpr int a = s0 >> 2, last = s3 >> 2;
    static_assert(last - a <= 2, "four destination bytes from at most three source words");
    constexpr int b = a + 1 < Geo::kWords ? a + 1 : a; // the pair's second word (any word when unused)
    // selector of destination byte n: from the pair (w[a], w[b]) when its word is a or a + 1, else 0 (replaced below)
    constexpr uint32_t pair = uint32_t((s0 >> 2) - a <= 1 ? s0 - 4 * a : 0) | uint32_t((s1 >> 2) - a <= 1 ? s1 - 4 * a : 0) << 4 |
                              uint32_t((s2 >> 2) - a <= 1 ? s2 - 4 * a : 0) << 8 | uint32_t((s3 >> 2) - a <= 1 ? s3 - 4 * a : 0) << 12;
    const uint32_t t = bytePerm(w[a], w[b], pair);
    if constexpr (last - a <= 1) {
        return t;
    } else {
        constexpr int c = a + 2;
        // byte n: t's byte n (selector n), or byte s - 4c of w[c] (selector 4 + s - 4c)
        constexpr uint32_t third = uint32_t((s0 >> 2) == c ? 4 + s0 - 4 * c : 0) | uint32_t((s1 >> 2) == c ? 4 + s1 - 4 * c : 1) << 4 |
                                   uint32_t((s2 >> 2) == c ? 4 + s2 - 4 * c : 2) << 8 | uint32_t((s3 >> 2) == c ? 4 + s3 - 4 * c : 3) << 12;
        return bytePerm(t, w[c], third);
    }
}

template <class Geo, size_t... K>
CVK_NN_HD void nearestWords(const uint32_t (&w)[Geo::kWords], uint32_t (&o)[Geo::kOutBytes / 4], std::index_sequence<K...>) {
    ((o[K] = nearestWord<Geo, int(K)>(w)), ...);
}

// Item i of the grid (one thread each): group g of destination row `row` of the batch (row = n * dstH + dy), PX
// destination pixels from column g * PX. groups = the groups per destination row (the last one partial when PX
// does not divide dstW).
template <int I, int C, int Q, int P, int PX>
CVK_NN_HD void nearestGroup(const ResizeParams &p, const Mapping &m, int32_t groups, int32_t i) {
    using Geo = NearestGeometry<I, C, Q, P, PX>;
    const int32_t row = i / groups, g = i - row * groups;
    const int32_t n = row / m.y.dst, dy = row - n * m.y.dst;
    const int32_t sy = bandSourceIndex(m.y, m.tiesY, I, dy);
    const auto *src = reinterpret_cast<const uint8_t *>(p.src.data + int64_t(n) * p.src.stride[kN] + int64_t(sy) * p.src.stride[kH]) +
                      int64_t(g) * Geo::kSrcStride;
    uint8_t *out = reinterpret_cast<uint8_t *>(p.dst.data + int64_t(n) * p.dst.stride[kN] + int64_t(dy) * p.dst.stride[kH]) +
                   int64_t(g) * Geo::kOutBytes;
    const int32_t left = (m.x.dst - g * PX) * C;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
    if (left < Geo::kOutBytes) { // the row's partial last group: its bytes one by one
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kOutBytes; ++k)
            if (k < left) out[k] = src[Geo::srcByte(k)];
        return;
    }
    // 16- or 8-byte loads where the row allows (the benchmark's rows): a warp's loads are 32 spans of 48 to 192
    // bytes apart, so each load instruction costs L1 about one wavefront per thread whatever its width
    uint32_t w[Geo::kWords];
    if (Geo::kLoad == 16 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords / 4; ++k) {
            const uint4 v = reinterpret_cast<const uint4 *>(src)[k];
            w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
        }
    } else if (Geo::kLoad >= 8 && (reinterpret_cast<uintptr_t>(src) & 7) == 0) {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords / 2; ++k) {
            const uint2 v = reinterpret_cast<const uint2 *>(src)[k];
            w[2 * k] = v.x, w[2 * k + 1] = v.y;
        }
    } else {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords; ++k) w[k] = reinterpret_cast<const uint32_t *>(src)[k];
    }
    uint32_t o[Geo::kOutBytes / 4];
    nearestWords<Geo>(w, o, std::make_index_sequence<Geo::kOutBytes / 4>{});
    if ((addr & 3) != 0) {
        CVK_NN_UNROLL // constant indices: the words stay in registers
        for (int k = 0; k < Geo::kOutBytes; ++k) out[k] = static_cast<uint8_t>(o[k >> 2] >> (8 * (k & 3)));
        return;
    }
    if constexpr (Geo::kOutBytes % 16 == 0) {
        if ((addr & 15) == 0) {
            CVK_NN_UNROLL
            for (int k = 0; k < Geo::kOutBytes / 16; ++k) reinterpret_cast<uint4 *>(out)[k] = uint4{o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]};
            return;
        }
    }
    if constexpr (Geo::kOutBytes % 8 == 0) {
        if ((addr & 7) == 0) {
            CVK_NN_UNROLL
            for (int k = 0; k < Geo::kOutBytes / 8; ++k) reinterpret_cast<uint2 *>(out)[k] = uint2{o[2 * k], o[2 * k + 1]};
            return;
        }
    }
    CVK_NN_UNROLL
    for (int k = 0; k < Geo::kOutBytes / 4; ++k) reinterpret_cast<uint32_t *>(out)[k] = o[k];
}

#undef CVK_NN_HD
#undef CVK_NN_UNROLL

} // namespace cvk::resize
