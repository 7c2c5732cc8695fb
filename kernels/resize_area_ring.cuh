// cvResize's AREA row path with a ring of source rows shared by the block's warps (sm_90 on): the block kernel's
// geometry and sums (resize_area.cuh: its strip, band, table and columns, lane l of warp v taking column
// l * warps + v, which planResizeArea picks so that a warp's lanes read distinct shared-memory banks), without its
// barrier per source row.
//
// Why: the warp kernel (resize_area_warp.cuh) gives each warp 32 consecutive columns and a ring of its own, so its
// lanes' runs lie about 6.4 words apart and every lane of five reads the same bank: 54 shared-memory wavefronts for
// the 9 word loads of a row of the benchmark's 3 channels (8.57 to 1), against 9 for the block's interleaved
// columns. Shared memory serves one wavefront a clock per multiprocessor, so that alone held the warp kernel to
// about 68 µs of the benchmark's 90. The block kernel reads without conflicts but waits at a barrier per row.
//
// Here each source row of the band is staged once for the block, whole (the strip's span), into a ring of A slots
// by one bulk copy (common/bulk_copy.cuh) completing on the slot's mbarrier; every warp waits on that barrier for
// the row, sums it, and then counts itself done with the slot (a shared-memory counter). The warp that completes the
// count refills the slot with the row A further on: no warp waits for another except through the ring, which lets
// the fastest run up to A rows ahead. The count's release and acquire (a block fence around the atomic add) and a
// proxy fence order every warp's reads of the slot before the bulk copy's writes. Bytes of the span that lie in a
// 16-byte chunk reaching past either end of the row are copied by the refilling warp's lanes before the bulk copy
// is issued, so the barrier's arrival publishes them too (areaRingStage).
//
// Completed destination pixels go from their lanes straight to dst (there is no block barrier to gather a row).
//
// The steps are __host__ __device__ functions where the CPU tests can run them (tests/kernels/test_resize_area.cpp
// runs every block, warp by warp, against samplePixel).
#pragma once

#include "common/bulk_copy.cuh"
#include "resize_area_warp.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_AREAR_HD __host__ __device__ __forceinline__

// Bytes before a block's ring: the band's table, then an mbarrier and a done count per slot (padded to 16 bytes).
CVK_AREAR_HD int32_t areaRingOffset(int32_t ahead, int32_t streamRows) { return 16 * streamRows + ((12 * ahead + 15) & ~15); }
CVK_AREAR_HD int32_t areaRingSmemBytes(int32_t ahead, int32_t pitch, int32_t streamRows) {
    return areaRingOffset(ahead, streamRows) + ahead * pitch;
}

// One thread's work on staged source row k (entry e, in `slot`): its column's row sum added to the destination rows
// that weigh it, and the destination pixels the row completes stored (a column outside the strip is summed as
// column x0 and not stored).
template <int CT, int K>
CVK_AREAR_HD void areaRingRow(const ResizeParams &p, const Mapping &m, const AreaRowEntry &e, const uint8_t *slot, const AreaColumn<CT, K> &col,
                              AreaSums<CT> &v) {
    float h[CT];
    areaRowSum<CT, K>(slot, col.taps.o + e.shift, col.taps, h);
    areaAccumulate<CT>(e, h, v);
    if (e.finCur) areaFinishPixel<CT>(m, v, areaWarpPixel<CT>(p, col.x, col.valid, v));
    if (e.finNext) areaFinishPixel<CT>(m, v, areaWarpPixel<CT>(p, col.x, col.valid, v));
}

#ifdef __CUDACC__
// A row's copies into `slot` by one warp: first the span's bytes outside whole chunks of the row, one by one, then
// (after __syncwarp) lane 0's bulk copy of the chunks inside the row, whose arrival on `bar` releases them all.
__device__ __forceinline__ void areaRingStage(const uint8_t *row, int32_t rowBytes, const BandSpan &span, uint8_t *slot, uint64_t *bar, int lane) {
    const AreaWarpCopy c = areaWarpCopy(row, rowBytes, span);
    if (c.c0 > 0 || c.c1 < c.chunks) {
        for (int32_t j = c.lo + lane; j < c.hi; j += 32)
            if (areaWarpByteCopied(c, j)) slot[j] = loadByte(c.base + j);
        __syncwarp();
    }
    if (lane == 0) bulkCopy(slot + 16 * c.c0, c.base + 16 * c.c0, uint32_t(16 * (c.c1 - c.c0)), bar);
}

// Grid (strips, bands) of planResizeArea's block (s: planResizeAreaRing's), 32 s.warps threads, shared memory
// areaRingSmemBytes(A, s.slotPitch, s.streamRows). Warp 0 issues the band's first A rows; then per warp and source
// row k: wait for slot k % A (phase: the slot's use count, mod 2), the row's sums and the destination pixels it
// completes, __syncwarp, the done count; the warp that completes it resets it and stages row k + A in the slot.
template <int CT, int K, int A, int MinBlocks>
__global__ void __launch_bounds__(kAreaMaxThreads, MinBlocks) areaRingKernel(ResizeParams p, Mapping m, AreaShape s) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ int4 areaRingSmem[];
    auto *table = reinterpret_cast<AreaRowEntry *>(areaRingSmem);
    uint64_t *full = reinterpret_cast<uint64_t *>(table + s.streamRows);
    uint32_t *done = reinterpret_cast<uint32_t *>(full + A);
    uint8_t *ring = reinterpret_cast<uint8_t *>(areaRingSmem) + areaRingOffset(A, s.streamRows);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x), lane = tid & 31, warp = tid >> 5;
    const AreaBlock b = areaBlock(m, s, CT, p.dst.shape[kN] * m.y.dst, static_cast<int32_t>(blockIdx.x), blockIdx.y);
    if (tid == 0) {
        for (int j = 0; j < A; ++j) bulkBarrierInit(full + j), done[j] = 0;
        bulkBarrierInitFence();
    }
    areaRowTable(p, m, b, table, tid, nthreads);
    __syncthreads();
    const int32_t rowBytes = m.x.src * CT;
    const AreaColumn<CT, K> col = areaColumn<CT, K>(m, s, b, tid);
    AreaSums<CT> v = areaSums<CT>(m, b);
    AreaStream issue = areaStream(b);
    const uint8_t *row = areaRowAt(p, issue);
#pragma unroll
    for (int j = 0; j < A; ++j) {
        if (j < b.length) {
            if (warp == 0) areaRingStage(row, rowBytes, b.span, ring + j * s.slotPitch, full + j, lane);
            areaStep(p, b, issue, row);
        }
    }
    int32_t slot = 0;
    uint32_t phase = 0;
    for (int64_t k = 0; k < b.length; ++k) {
        bulkWait(full + slot, phase);
        areaRingRow<CT, K>(p, m, table[k], ring + slot * s.slotPitch, col, v);
        __syncwarp();
        if (k + A < b.length) {
            uint32_t count = 0;
            if (lane == 0) {
                __threadfence_block(); // this warp's reads of the slot before the count (release)
                count = atomicAdd(done + slot, 1u);
            }
            if (__shfl_sync(0xffffffffu, count, 0) == uint32_t(s.warps - 1)) {
                if (lane == 0) {
                    done[slot] = 0;
                    __threadfence_block(); // every warp's count, and so its reads, before the copy (acquire)
                }
                __syncwarp(); // lane 0's acquire before every lane's byte copies
                bulkProxyFence();
                areaRingStage(row, rowBytes, b.span, ring + slot * s.slotPitch, full + slot, lane);
            }
            areaStep(p, b, issue, row);
        }
        if (++slot == A) slot = 0, phase ^= 1u;
    }
#else
    __trap(); // launched only on sm_90 and later (resizeBulkCopyDevice): the bulk copies and their mbarriers
#endif
}
#endif

#undef CVK_AREAR_HD

} // namespace cvk::resize
