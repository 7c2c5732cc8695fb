// The fused pass's staged path for uint8 LINEAR with packed pixels (resize_fused.cu, fusedStagedKernel): a block
// takes `rows` consecutive crop rows of one image, copies the two source rows of each into shared memory as the
// aligned 16-byte chunks of one segment of the row, the same bytes for every row: every column's taps
// (planFusedStaged), then samples them from there. The copies are whole 16-byte chunks issued all at once with no
// register staging (cp.async on sm_80 and newer) so that many bytes are in flight per SM; the pair path it replaces
// reads every pixel pair as up to three 4-byte loads into registers, one row at a time. The arithmetic is the pair
// path's (resize_fused_pairs.cuh, pairTaps and pairValues), so the values are bit for bit the same.
// Everything here is __host__ __device__, so the CPU tests run it against the sampler on staged rows.
#pragma once

#include "common/register_bytes.cuh"
#include "resize_fused_pairs.cuh"

#include <cstdint>

namespace cvk::resize {

// The words stagedPair reads from pixel x0's first byte on: every aligned word that can cover a pair of 2C bytes
// starting 0 to 3 bytes past a word.
template <int C> __host__ __device__ constexpr int32_t stagedPairWords() { return (3 + 2 * C + 3) / 4; }

// The staged segment of every source row: bytes [lo, hi) of the row, lo and hi multiples of 16, covering the words
// stagedPair reads for columns whose first tap lies in [firstTap, lastTap] (pairTaps(..).i0 of the crop's first
// and last columns: taps grow with the column).
struct StagedSegment {
    int64_t lo, hi;
};

template <int C> __host__ __device__ __forceinline__ StagedSegment stagedSegment(int32_t firstTap, int32_t lastTap) {
    const int64_t lo = (int64_t(firstTap) * C) & ~int64_t(15);
    const int64_t end = ((int64_t(lastTap) * C) & ~int64_t(3)) + 4 * stagedPairWords<C>();
    return {lo, (end + 15) & ~int64_t(15)};
}

// Pixels x0 and x0 + 1 from a staged row: `offset` is x0's first byte from the start of the staged segment (which
// starts 16-byte aligned, as its bytes do in the row), word-aligned storage. Where x0 + 1 is past the taps (the
// right border, pairTaps gives i1 == i0) its bytes are whatever the segment holds there: pairValues weights them by
// w1 = 0, so the values are those of fetchPair's.
template <int C> __host__ __device__ __forceinline__ PixelPair stagedPair(const uint32_t *slot, int32_t offset) {
    const uint32_t *p = slot + (offset >> 2);
    const uint32_t shift = static_cast<uint32_t>(offset & 3) * 8u;
    const uint32_t a = p[0], b = p[1];
    uint32_t c = 0u;
    if constexpr (stagedPairWords<C>() > 2) c = p[2];
    return PixelPair{{funnelRight(a, b, shift), funnelRight(b, c, shift)}};
}

} // namespace cvk::resize
