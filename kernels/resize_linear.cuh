// cvResize's periodic LINEAR path for uint8 downscales whose horizontal ratio is a small fraction (1920 -> 1280 is
// 3 source pixels for every 2 destination pixels, 1080 -> 540 is 2 for 1): the horizontal taps then repeat with a
// period of Q destination pixels that step P source pixels (Q, P compiled), so each thread owns PX consecutive
// destination pixels of one row and finds every tap of them at a byte position known at compile time. No tap table,
// no per-tap address arithmetic: a thread reads the words of its source span from two staged rows (32-bit shared
// memory loads, one word index), blends them vertically (a byte permute interleaves the two rows' bytes, an integer
// dot product sums each pair), then horizontally with the Q phases' weights (kernel parameters), and stores its
// PX * C bytes as words.
//
// A block owns a strip of destination columns and walks (image, band) items, a band being bandRows destination rows
// of one image: per item it stages the source rows the band reads (contiguous: the vertical factor is at most 2, so
// no row between two taps is skipped) with the band path's 16-byte cp.async copies (resize_band.cuh: bandStage),
// then computes every (row, thread span) of the band; with two staging buffers the next item's rows load while it
// computes (resize_linear.cu). The host (planResizeLinear) checks every destination column's taps against linearTaps, so the
// compiled positions are exact for the shape it accepts; the arithmetic is samplePixel's integers (resize_filters.cuh),
// summed rows first (exact: integer sums, none leaves int32), so the bytes are the sampler's.
//
// Each phase is a __host__ __device__ function over a thread index, so the CPU tests run whole blocks against
// samplePixel.
#pragma once

#include "resize_band.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_LIN_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_LIN_UNROLL _Pragma("unroll")
#else
#define CVK_LIN_UNROLL
#endif

using LinearShape = ResizeLinearShape;

// Threads per block at most, by variant (kLinearPixels' column): each kernel is built for 2 blocks of that many
// per SM, so 64 registers for variant 0 (no spills at 8 pixels a thread) and 128 for variant 1 (16 pixels of
// 3 channels hold 38 staged words and their 75 vertical sums).
constexpr int kLinearMaxThreads[2] = {512, 256};
constexpr int kLinearSmemLimit = 48 * 1024; // the default dynamic shared-memory limit: no attribute call per launch

// Tap 0 of phase r of period (q, p): floor((r + 0.5) * p / q - 0.5), the exact value of the mapping
// (resize_filters.cuh, centredCoordinate) for an exact ratio (the numerator is positive: p > q); the plan checks
// that the double arithmetic agrees column by column.
CVK_LIN_HD constexpr int32_t linearPeriodFirst(int32_t q, int32_t p, int32_t r) { return ((2 * r + 1) * p - q) / (2 * q); }

// One compiled variant: C channels, the period (Q destination pixels over P source pixels) and PX destination
// pixels per thread (a multiple of Q, such that a thread's source and destination bytes are whole words).
template <int C, int Q, int P, int PX> struct LinearGeometry {
    static_assert(P > Q && P <= 2 * Q, "a downscale by more than 1 and at most 2");
    static_assert(PX % Q == 0, "whole periods per thread");
    static constexpr int kPeriods = PX / Q;
    static constexpr int kSrcStride = kPeriods * P * C; // source bytes from one thread's span to the next
    static constexpr int kOutBytes = PX * C;
    static_assert(kSrcStride % 4 == 0 && kOutBytes % 4 == 0, "whole words per thread");
    CVK_LIN_HD static constexpr int first(int r) { return linearPeriodFirst(Q, P, r); }
    static constexpr int kNeed = ((kPeriods - 1) * P + first(Q - 1) + 2) * C; // bytes of the span the taps read
    static constexpr int kWords = (kNeed + 3) / 4;
};

// The periods compiled (Q, P): 2x (1080 -> 540) and 1.5x (1920 -> 1280).
struct LinearPeriod {
    int32_t q, p;
};
constexpr LinearPeriod kLinearPeriods[] = {{1, 2}, {2, 3}};
constexpr int kLinearPeriodCount = 2;
constexpr int kLinearMaxQ = 2;
// Destination pixels per thread, by channel count (1, 3, 4) and variant (0 or 1): multiples of every Q above with
// word-sized source and destination spans.
constexpr int kLinearPixels[3][2] = {{8, 16}, {8, 16}, {4, 8}};
CVK_LIN_HD int linearChannelRow(int32_t c) { return c == 1 ? 0 : c == 3 ? 1 : c == 4 ? 2 : -1; }

// Destination columns [x0, x0 + w) of strip `strip`, and destination rows [y0, y0 + rows) of band `band`.
CVK_LIN_HD void linearStripOf(const LinearShape &s, int32_t dstW, int32_t strip, int32_t &x0, int32_t &w) {
    x0 = strip * s.stripW;
    w = dstW - x0 < s.stripW ? dstW - x0 : s.stripW;
}
CVK_LIN_HD void linearBandOf(const LinearShape &s, int32_t dstH, int32_t band, int32_t &y0, int32_t &rows) {
    y0 = band * s.bandRows;
    rows = dstH - y0 < s.bandRows ? dstH - y0 : s.bandRows;
}

// The source bytes [b0, b1) strip [x0, x0 + w) reads (x0 a multiple of Q): bandSpan<kLinear>'s values, in integers
// (the plan checked that every column's taps follow the period, none clamped), not four double-precision mappings.
template <int C, int Q, int P> CVK_LIN_HD BandSpan linearSpan(int32_t x0, int32_t w) {
    const int32_t x1 = x0 + w - 1, last = (x1 / Q) * P + linearPeriodFirst(Q, P, x1 % Q);
    return {(x0 / Q) * P * C, (last + 2) * C};
}

// The source rows [lo, hi] a band of destination rows [y0, y0 + rows) reads.
CVK_LIN_HD void linearSourceRows(const Axis &a, int32_t y0, int32_t rows, int32_t &lo, int32_t &hi) {
    lo = linearTaps(a, y0).first;
    hi = clampIndex(int64_t(linearTaps(a, y0 + rows - 1).first) + 1, a.src);
}

// An (image, band) item of a block, stepped in order (no 64-bit division per item).
struct LinearItem {
    int32_t n, band;
};
CVK_LIN_HD LinearItem linearItemOf(int32_t i, int32_t bands) { return {i / bands, i % bands}; }
CVK_LIN_HD void linearStep(LinearItem &it, int32_t bands) {
    if (++it.band == bands) it.band = 0, ++it.n;
}

// Staging buffer `buf` of a block's shared memory: the slots (stagedRows of pitch bytes), then the rows' table.
CVK_LIN_HD int32_t linearBufferBytes(const LinearShape &s) { return s.stagedRows * s.pitch + s.bandRows * 16; }
CVK_LIN_HD uint8_t *linearSlots(void *smem, const LinearShape &s, int buf) { return static_cast<uint8_t *>(smem) + buf * linearBufferBytes(s); }

// One destination row of a band: where its two source rows' spans start in shared memory (bytes from the first
// slot: slot * pitch + the row's bandShift, a multiple of 4 for the 4-byte aligned rows the plan takes) and their
// fixed-point weights.
struct LinearRow {
    int32_t at0, at1, wy0, wy1;
};
static_assert(sizeof(LinearRow) == 16, "linearBufferBytes counts 16 bytes a row");
CVK_LIN_HD LinearRow *linearTable(void *smem, const LinearShape &s, int buf) {
    return reinterpret_cast<LinearRow *>(linearSlots(smem, s, buf) + s.stagedRows * s.pitch);
}

// Phase 1, threads tid, tid + nthreads, ...: the band's source rows [lo, hi] of image `plane` into the slots, the
// strip's byte span of each (bandStage: the chunks by cp.async, one group; the caller commits and waits), and the
// rows' table (read only after the block's barrier).
CVK_LIN_HD void linearStage(const Plane &plane, const Mapping &m, const BandSpan &span, int32_t y0, int32_t rows, int32_t lo, int32_t hi,
                            uint8_t *slots, int32_t pitch, LinearRow *table, int tid, int nthreads) {
    const int32_t bytes = span.b1 - span.b0;
    for (int32_t y = lo; y <= hi; ++y) {
        const auto *row = reinterpret_cast<const uint8_t *>(plane.base + int64_t(y) * plane.rowStride);
        uint8_t *slot = slots + (y - lo) * pitch;
        if (bandShift(row, span.b0) == 0 && (bytes & 15) == 0) { // whole chunks (the benchmark's rows): no edge bytes
            const uint8_t *from = row + span.b0;
            for (int32_t k = tid; k < bytes >> 4; k += nthreads) bandCopy16(slot + 16 * k, from + 16 * k);
        } else {
            bandStage(row, span, slot, tid, nthreads);
        }
    }
    auto at = [&](int32_t y) {
        const auto *row = reinterpret_cast<const uint8_t *>(plane.base + int64_t(y) * plane.rowStride);
        return (y - lo) * pitch + bandShift(row, span.b0);
    };
    for (int32_t r = tid; r < rows; r += nthreads) {
        const Taps t = linearTaps(m.y, y0 + r);
        table[r] = {at(t.first), at(clampIndex(int64_t(t.first) + 1, m.y.src)), fixedWeight(t.w[0]), fixedWeight(t.w[1])};
    }
}

// w.lo16 * byte 0 of p + w.hi16 * byte 1 of p (Lo), or the same with bytes 2 and 3 (Hi), unsigned: the integer dot
// product instructions (dp2a) on the device, one instruction for two products and their sum.
CVK_LIN_HD uint32_t linearDotLo(uint32_t w, uint32_t p) {
#ifdef __CUDA_ARCH__
    return __dp2a_lo(w, p, 0u);
#else
    return (w & 0xffffu) * (p & 0xffu) + (w >> 16) * ((p >> 8) & 0xffu);
#endif
}
CVK_LIN_HD uint32_t linearDotHi(uint32_t w, uint32_t p) {
#ifdef __CUDA_ARCH__
    return __dp2a_hi(w, p, 0u);
#else
    return (w & 0xffffu) * ((p >> 16) & 0xffu) + (w >> 16) * (p >> 24);
#endif
}

// Phase 2, items tid, tid + nthreads, ... of rows * spans (item i: row i / spans, span i % spans): PX destination
// pixels of one row from the staged words. wx[r] = w0 | w1 << 16, phase r's horizontal weights: each pair sums to
// at most 2049 (the plan checks; the vertical pairs too: fixedWeight rounds 1 - f and f, each by at most 1/2), so
// the sum is at most 255 * 2049^2 < 2^30, its rounded value at most 255 * 2049^2 / 2^22 + 1/2 < 256: fixedToU8's
// clamp is never taken.
template <int C, int Q, int P, int PX>
CVK_LIN_HD void linearCompute(const uint8_t *slots, const LinearRow *table, const int32_t (&wx)[kLinearMaxQ],
                              uint8_t *out0, int64_t outRowStride, int32_t w, int32_t rows, int tid, int nthreads) {
    using Geo = LinearGeometry<C, Q, P, PX>;
    const int32_t spans = (w + PX - 1) / PX, items = spans * rows;
    // the weights times 4: a rounded sum then has its byte in bits 24..31 (the sum before rounding is below 2^30),
    // which byte permutes gather into words
    uint32_t w0[Q], w1[Q];
    CVK_LIN_UNROLL
    for (int r = 0; r < Q; ++r) w0[r] = (uint32_t(wx[r]) & 0xffffu) << 2, w1[r] = (uint32_t(wx[r]) >> 16) << 2;
    // item i = row * spans + g, stepped by nthreads without a division per item
    int32_t row = tid / spans, g = tid - row * spans;
    const int32_t rowStep = nthreads / spans, gStep = nthreads - rowStep * spans;
    for (int32_t i = tid; i < items; i += nthreads, row += rowStep, g += gStep) {
        if (g >= spans) g -= spans, ++row;
        const LinearRow t = table[row];
        const auto *a = reinterpret_cast<const uint32_t *>(slots + t.at0 + g * Geo::kSrcStride);
        const auto *b = reinterpret_cast<const uint32_t *>(slots + t.at1 + g * Geo::kSrcStride);
        uint32_t wa[Geo::kWords], wb[Geo::kWords];
        CVK_LIN_UNROLL
        for (int k = 0; k < Geo::kWords; ++k) wa[k] = a[k], wb[k] = b[k];
        // the vertical sums of the span's bytes, wy0 * a + wy1 * b: the bytes of both rows interleaved (a0 b0 a1 b1,
        // a2 b2 a3 b3: one permute each), then one dot product per byte with the weights packed as 16-bit halves
        const uint32_t wy = uint32_t(t.wy0) | uint32_t(t.wy1) << 16;
        int32_t v[Geo::kWords * 4];
        CVK_LIN_UNROLL
        for (int k = 0; k < Geo::kWords; ++k) {
            const uint32_t lo = bytePerm(wa[k], wb[k], 0x5140), hi = bytePerm(wa[k], wb[k], 0x7362);
            v[4 * k] = int32_t(linearDotLo(wy, lo)), v[4 * k + 1] = int32_t(linearDotHi(wy, lo));
            v[4 * k + 2] = int32_t(linearDotLo(wy, hi)), v[4 * k + 3] = int32_t(linearDotHi(wy, hi));
        }
        uint32_t u[Geo::kOutBytes]; // 4 * (the horizontal sum + 2^21): the output byte in bits 24..31
        CVK_LIN_UNROLL
        for (int j = 0; j < PX; ++j) {
            const int r = j % Q, tap = ((j / Q) * P + Geo::first(r)) * C; // constants: the loops unroll
            CVK_LIN_UNROLL
            for (int c = 0; c < C; ++c)
                u[j * C + c] = w0[r] * uint32_t(v[tap + c]) + w1[r] * uint32_t(v[tap + C + c]) + (4u << (2 * kCoefBits - 1));
        }
        uint32_t o[Geo::kOutBytes / 4];
        CVK_LIN_UNROLL
        for (int k = 0; k < Geo::kOutBytes / 4; ++k)
            o[k] = bytePerm(bytePerm(u[4 * k], u[4 * k + 1], 0x0073), bytePerm(u[4 * k + 2], u[4 * k + 3], 0x0073), 0x5410);
        uint8_t *out = out0 + int64_t(row) * outRowStride + int64_t(g) * Geo::kOutBytes;
        const int32_t left = (w - g * PX) * C, valid = left < Geo::kOutBytes ? left : Geo::kOutBytes;
        const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
        if (valid == Geo::kOutBytes && (addr & 3) == 0) {
            if constexpr (Geo::kOutBytes % 16 == 0) {
                if ((addr & 15) == 0) {
                    CVK_LIN_UNROLL
                    for (int k = 0; k < Geo::kOutBytes / 16; ++k)
                        reinterpret_cast<uint4 *>(out)[k] = uint4{o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]};
                    continue;
                }
            }
            if constexpr (Geo::kOutBytes % 8 == 0) {
                if ((addr & 7) == 0) {
                    CVK_LIN_UNROLL
                    for (int k = 0; k < Geo::kOutBytes / 8; ++k) reinterpret_cast<uint2 *>(out)[k] = uint2{o[2 * k], o[2 * k + 1]};
                    continue;
                }
            }
            CVK_LIN_UNROLL
            for (int k = 0; k < Geo::kOutBytes / 4; ++k) reinterpret_cast<uint32_t *>(out)[k] = o[k];
        } else {
            CVK_LIN_UNROLL // constant indices: the words stay in registers
            for (int k = 0; k < Geo::kOutBytes; ++k)
                if (k < valid) out[k] = static_cast<uint8_t>(o[k >> 2] >> (8 * (k & 3)));
        }
    }
}

#undef CVK_LIN_HD
#undef CVK_LIN_UNROLL

} // namespace cvk::resize
