// The fused pass's uint8 LINEAR path for packed pixels (resize_fused.cu, fusedPairsKernel): a LINEAR tap reads
// pixels x0 and x0 + 1 of two source rows, and with packed pixels each such pair is 2C contiguous bytes. They are
// fetched as the aligned 4-byte words that cover them (at most 3) and shifted into place with funnel shifts, where
// those words lie inside the row's bytes; else (a row edge with the words reaching past it, or the right border where
// both taps are one pixel) byte by byte, so nothing outside the row is read. The arithmetic after the fetch is the
// sampler's (resize_filters.cuh, samplePixel for uint8 LINEAR): the same taps, fixed-point weights and sums, the
// same rounding, so the values are bit for bit those of the general kernel.
// Everything here is __host__ __device__, so the CPU tests run it against per-byte fetches and the sampler.
#pragma once

#include "common/read_only.cuh"
#include "common/register_bytes.cuh"
#include "resize_filters.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_PAIR_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_UNROLL_PAIRS _Pragma("unroll")
#else
#define CVK_UNROLL_PAIRS
#endif

// The aligned words covering bytes [offset, offset + bytes) of a row that starts at rowAddress and holds rowBytes
// bytes: words = 0 when some of those words would reach outside [0, rowBytes) (fetch by bytes then).
struct PairWords {
    int64_t first; // byte offset of the first word from the row's start (a multiple of 4 in address terms)
    int32_t words; // 1 to 3, or 0
    int32_t shift; // bits from the first word's start to the pair's first byte: 0, 8, 16 or 24
};

CVK_PAIR_HD PairWords pairWords(uintptr_t rowAddress, int64_t rowBytes, int64_t offset, int32_t bytes) {
    const int64_t lead = static_cast<int64_t>((rowAddress + static_cast<uintptr_t>(offset)) & 3u);
    const int64_t first = offset - lead, end = first + ((lead + bytes + 3) & ~int64_t(3));
    if (first < 0 || end > rowBytes) return {0, 0, 0};
    return {first, static_cast<int32_t>((end - first) / 4), static_cast<int32_t>(lead * 8)};
}

// Two pixels of C uint8 channels: byte i of the pair (i < 2C: x0's channels, then x1's) is byte i % 4 of
// word[i / 4], little-endian.
struct PixelPair {
    uint32_t word[2];
};

CVK_PAIR_HD int32_t pairByte(const PixelPair &p, int i) {
    return static_cast<int32_t>((p.word[i >> 2] >> (8 * (i & 3))) & 0xffu);
}

// The words fetchPair reads for pixels x0, x1 of a row (pairWords of the pair's 2C bytes; none where x1 is not x0 + 1).
template <int C> CVK_PAIR_HD PairWords pairWordsOf(const uint8_t *row, int64_t rowBytes, int32_t x0, int32_t x1) {
    return x1 == x0 + 1 ? pairWords(reinterpret_cast<uintptr_t>(row), rowBytes, int64_t(x0) * C, 2 * C) : PairWords{0, 0, 0};
}

// The up to 3 words w names (w.words > 0), loaded, not yet shifted into place. Through __ldg (loadWord): the
// L1::no_allocate load measured 1.3 µs faster on the ImageNet chain in bench/probes/fused_paths.cu while its timing
// let one call in five find its source in L2, and 1.5 µs slower (28.1 against 26.6) in the benchmark, where no call
// does (logs/probe-fused_paths-pairvariants.log, docs/perf.md).
struct PairLoad {
    uint32_t a, b, c;
};
template <int C> CVK_PAIR_HD PairLoad loadPairWords(const uint8_t *row, const PairWords &w) {
    constexpr int kMaxWords = (3 + 2 * C + 3) / 4;
    const uint8_t *p = row + w.first;
    PairLoad l{loadWord(p), w.words > 1 ? loadWord(p + 4) : 0u, 0u};
    if constexpr (kMaxWords > 2)
        if (w.words > 2) l.c = loadWord(p + 8);
    return l;
}
CVK_PAIR_HD PixelPair shiftPair(const PairLoad &l, const PairWords &w) {
    return PixelPair{{funnelRight(l.a, l.b, static_cast<uint32_t>(w.shift)), funnelRight(l.b, l.c, static_cast<uint32_t>(w.shift))}};
}

// Pixels x0 and x1 of a packed row, with its words w (pairWordsOf): from the words, else byte by byte.
template <int C> CVK_PAIR_HD PixelPair pairFrom(const uint8_t *row, const PairWords &w, int32_t x0, int32_t x1) {
    if (w.words > 0) return shiftPair(loadPairWords<C>(row, w), w);
    PixelPair pair{{0u, 0u}};
    const uint8_t *p0 = row + int64_t(x0) * C, *p1 = row + int64_t(x1) * C;
CVK_UNROLL_PAIRS
    for (int i = 0; i < 2 * C; ++i) pair.word[i >> 2] |= uint32_t(loadByte(i < C ? p0 + i : p1 + (i - C))) << (8 * (i & 3));
    return pair;
}

// Pixels x0 and x1 of a packed row of rowBytes bytes (C bytes per pixel, 0 <= x0, x1 and (x1 + 1) * C <= rowBytes),
// where x1 is x0 + 1 or x0 (the right border). Reads only bytes of the row.
template <int C> CVK_PAIR_HD PixelPair fetchPair(const uint8_t *row, int64_t rowBytes, int32_t x0, int32_t x1) {
    static_assert(C >= 1 && C <= 4, "1 to 4 channels");
    return pairFrom<C>(row, pairWordsOf<C>(row, rowBytes, x0, x1), x0, x1);
}

// fetchPair of the same pixels x0, x1 in two rows, with every word of both rows loaded before any is shifted into
// place: a thread then has both rows' loads in flight at once, where two fetchPair calls shift the first row's words
// as soon as they arrive, ahead of the second row's loads (Nsight Compute's SASS of the pair kernel: one DRAM latency
// after another). Where x1 == x0 (the right border) or either row's words would reach outside it, each row goes
// through pairFrom on its own.
template <int C>
CVK_PAIR_HD void fetchPairs(const uint8_t *row0, const uint8_t *row1, int64_t rowBytes, int32_t x0, int32_t x1, PixelPair &pair0, PixelPair &pair1) {
    static_assert(C >= 1 && C <= 4, "1 to 4 channels");
    const PairWords w0 = pairWordsOf<C>(row0, rowBytes, x0, x1), w1 = pairWordsOf<C>(row1, rowBytes, x0, x1);
    if (w0.words == 0 || w1.words == 0) {
        pair0 = fetchPair<C>(row0, rowBytes, x0, x1);
        pair1 = fetchPair<C>(row1, rowBytes, x0, x1);
        return;
    }
    const PairLoad l0 = loadPairWords<C>(row0, w0), l1 = loadPairWords<C>(row1, w1);
    pair0 = shiftPair(l0, w0);
    pair1 = shiftPair(l1, w1);
}

// What a LINEAR tap pair of one axis needs: the two clamped source indices and their fixed-point weights, as
// samplePixel computes them (linearTaps, clampIndex, fixedWeight).
struct PairTaps {
    int32_t i0, i1;
    int32_t w0, w1;
};

CVK_PAIR_HD PairTaps pairTaps(const Axis &a, int32_t d) {
    const Taps t = linearTaps(a, d);
    return {clampIndex(t.first, a.src), clampIndex(int64_t(t.first) + 1, a.src), fixedWeight(t.w[0]), fixedWeight(t.w[1])};
}

// The sampled values of one destination pixel, by source channel, from its two rows' pairs: the fused pass's
// `value` before normalisation (resize.hpp, FusedParams): fixedToU8 of the fixed-point sum when srcCast, else the
// sum unrounded, exactly as samplePixel<uint8_t, kLinear> emits them.
template <int C> CVK_PAIR_HD void pairValues(const PixelPair &r0, const PixelPair &r1, const PairTaps &tx, const PairTaps &ty, bool srcCast,
                                             float (&v)[C]) {
CVK_UNROLL_PAIRS
    for (int c = 0; c < C; ++c) {
        const int32_t h0 = tx.w0 * pairByte(r0, c) + tx.w1 * pairByte(r0, C + c);
        const int32_t h1 = tx.w0 * pairByte(r1, c) + tx.w1 * pairByte(r1, C + c);
        const int32_t acc = ty.w0 * h0 + ty.w1 * h1;
        v[c] = srcCast ? static_cast<float>(fixedToU8(acc)) : static_cast<float>(acc) * (1.f / float(1 << (2 * kCoefBits)));
    }
}

#undef CVK_PAIR_HD
#undef CVK_UNROLL_PAIRS

} // namespace cvk::resize
