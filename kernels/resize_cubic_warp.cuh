// cvResize's separable CUBIC path, warp by warp (sm_90): the block kernel's sums (resize_cubic.cuh, CubicThread:
// the same taps, weights and integer arithmetic, so the same bytes), with its barrier per item gone. A block owns
// a strip of destination columns and walks bands of destination rows as cubicKernel does, sharing each band's table
// of rows (two barriers a band); each warp then owns 32 P consecutive columns of the strip and streams the band's
// items on its own: the byte span its columns read of each item's row, in whole 16-byte chunks (the aligned
// variants' sources: 16-byte aligned rows of whole chunks), goes into a ring of D slots of its own by one bulk copy
// from lane 0 that completes on the slot's mbarrier (common/bulk_copy.cuh), D items in flight.
#pragma once

#include "common/bulk_copy.cuh"
#include "resize_cubic.cuh"

#include <cstdint>
#include <type_traits>

namespace cvk::resize {

// Bytes before a block's rings: the band's table and emit items, and an mbarrier per slot of every warp.
__host__ __device__ constexpr int32_t cubicWarpRingOffset(int32_t warps, int32_t ahead) {
    return kCubicMaxBandRows * int32_t(sizeof(CubicRowEntry) + sizeof(int32_t)) + ((8 * warps * ahead + 15) & ~15);
}
__host__ __device__ constexpr int32_t cubicWarpSmemBytes(int32_t warps, int32_t ahead, int32_t pitch) {
    return cubicWarpRingOffset(warps, ahead) + warps * ahead * pitch;
}

#ifdef __CUDACC__
// Grid (strips, band blocks), Threads threads: as cubicKernel's. s.slotPitch: the widest warp strip's
// cubicSlotPitch. Per warp and item i of a band: wait for the slot's copy, __syncwarp, the horizontal sums and the
// rows the item completes, __syncwarp (no lane still reads the slot), the copy of item i + D into it.
template <int CT, int P, int D, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) cubicWarpKernel(ResizeParams p, Mapping m, CubicShape s) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ int4 smem[];
    auto *table = reinterpret_cast<CubicRowEntry *>(smem);
    auto *emitAt = reinterpret_cast<int32_t *>(table + kCubicMaxBandRows);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x), lane = tid & 31, warp = tid >> 5;
    const int warps = nthreads >> 5;
    uint64_t *bars = reinterpret_cast<uint64_t *>(emitAt + kCubicMaxBandRows) + warp * D;
    uint8_t *ring = reinterpret_cast<uint8_t *>(smem) + cubicWarpRingOffset(warps, D) + warp * D * s.slotPitch;
    int32_t x0, w;
    cubicStripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    const int32_t xw = x0 + 32 * P * warp, ww = w - 32 * P * warp < 32 * P ? w - 32 * P * warp : 32 * P;
    const bool active = ww > 0;
    const CubicStrip st = cubicStrip(m, CT, active ? xw : x0, active ? ww : 1);
    CubicThread<CT, P, true> th;
    th.init(m, st, static_cast<int32_t>((reinterpret_cast<uintptr_t>(p.src.data) + uintptr_t(st.b0)) & 15u), lane);
    const int32_t chunk0 = st.b0 & ~15, bytes = 16 * ((st.b1 - chunk0 + 15) >> 4);
    if (lane == 0) {
        for (int j = 0; j < D; ++j) bulkBarrierInit(bars + j);
        bulkBarrierInitFence();
    }
    __syncwarp();
    auto stage = [&](CubicWalk &walk, const CubicBand &b, int32_t slot) {
        if (lane == 0) {
            const int32_t y = clampIndex(walk.v, m.y.src);
            const auto *row = reinterpret_cast<const uint8_t *>(p.src.data + walk.n * p.src.stride[kN] + int64_t(y) * p.src.stride[kH]);
            bulkCopy(ring + slot * s.slotPitch + kCubicLead, row + chunk0, uint32_t(bytes), bars + slot);
        }
        advance(b, walk);
    };
    int32_t slot = 0;
    uint32_t phase = 0;
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    for (int64_t band = blockIdx.y; band < s.bands; band += gridDim.y) {
        const int64_t d0 = band * s.bandRows, d1 = d0 + s.bandRows < rows ? d0 + s.bandRows : rows;
        const CubicBand b = cubicBand(m, d0, d1);
        __syncthreads(); // every warp is done with the previous band's table
        cubicTable(m, b, table, emitAt, tid, nthreads);
        __syncthreads();
        if (!active) continue;
        const int32_t items = cubicItems(b), bandRows = static_cast<int32_t>(d1 - d0);
        CubicWalk walk = cubicWalk(b);
#pragma unroll
        for (int j = 0; j < D; ++j)
            if (j < items) stage(walk, b, slot + j < D ? slot + j : slot + j - D);
        int32_t e = 0, dy = b.dy0, next = emitAt[0];
        int64_t n = b.n0;
        auto step = [&](auto window, int32_t i) {
            constexpr int S = decltype(window)::value;
            if (i >= items) return false;
            bulkWait(bars + slot, phase);
            __syncwarp();
            th.template horizontal<S>(reinterpret_cast<const uint32_t *>(ring + slot * s.slotPitch));
            while (next == i) {
                th.template emit<S>(table[e], reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[kN] + int64_t(dy) * p.dst.stride[kH]) +
                                                  int64_t(xw) * CT);
                ++e;
                next = e < bandRows ? emitAt[e] : items;
                if (++dy == m.y.dst) dy = 0, ++n;
            }
            __syncwarp();
            if (i + D < items) stage(walk, b, slot);
            if (++slot == D) slot = 0, phase ^= 1u;
            return true;
        };
        for (int32_t i = 0;; i += kCubicWindow) {
            if (!step(std::integral_constant<int, 0>{}, i)) break;
            if (!step(std::integral_constant<int, 1>{}, i + 1)) break;
            if (!step(std::integral_constant<int, 2>{}, i + 2)) break;
            if (!step(std::integral_constant<int, 3>{}, i + 3)) break;
        }
    }
#else
    __trap(); // launched only on sm_90 and later (the bulk copies and their mbarriers)
#endif
}
#endif

} // namespace cvk::resize
