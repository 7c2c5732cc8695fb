// cvResize's AREA row path, warp by warp (sm_90 on): the sums of resize_area.cuh's block kernel (the sampler's, in
// its order, bit for bit: areaRowSum, the table's vertical weights), with the block's barrier per source row gone.
// A block still owns one band of destination rows of the batch and builds that band's table of source rows
// (areaRowTable: one barrier, at the start). Each of its warps then owns 32 P consecutive destination columns (lane
// l: columns x0 + l + 32 j, j < P) and streams the band's source rows on its own: the bytes its columns read of a
// row (about 32 P * factor * C, widened to whole 16-byte chunks) go into a ring of A slots of its own by one bulk
// copy from lane 0 that completes on the slot's mbarrier (common/bulk_copy.cuh), A rows in flight; __syncwarp orders
// the lanes' reads of a slot before its next copy.
//
// Why: with one barrier per source row, every warp of the block kernel waits for the slowest copy of each row and
// for the slowest warp's sums; and every thread spends instructions on its share of a row's 16-byte copies. Here a
// warp waits only for its own row, and a row costs one instruction to copy. bench/probes/resize_area_warp.cu on an
// H200 measured both (resize_area.cu, kAreaWarpVariants). Its consecutive columns make its lanes' loads conflict in
// shared memory where a column has many taps: there launchResize takes the ring kernel (resize_area_ring.cuh).
//
// A chunk is copied whole when it lies inside the source row, so the chunks at the ends of two neighbouring warps'
// spans are copied by both; a chunk reaching past either end of the row (an unaligned row's first or last) is copied
// byte by byte, its bytes in the span only, so nothing outside the row is read. Completed destination pixels go
// straight to dst from their lanes: a warp's pixels of a row are 32 P C consecutive bytes.
//
// The steps are __host__ __device__ functions, so the CPU tests run every warp against samplePixel with the copies
// done at once (tests/kernels/test_resize_area.cpp).
#pragma once

#include "common/bulk_copy.cuh"
#include "resize_area.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_AREAW_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_AREAW_UNROLL _Pragma("unroll")
#else
#define CVK_AREAW_UNROLL
#endif

// Bytes before a block's rings: the band's table, then an mbarrier per slot of every warp (padded to 16 bytes).
CVK_AREAW_HD int32_t areaWarpRingOffset(int32_t warps, int32_t ahead, int32_t streamRows) {
    return 16 * streamRows + ((8 * warps * ahead + 15) & ~15);
}
CVK_AREAW_HD int32_t areaWarpSmemBytes(int32_t warps, int32_t ahead, int32_t pitch, int32_t streamRows) {
    return areaWarpRingOffset(warps, ahead, streamRows) + warps * ahead * pitch;
}

// The copies of one source row's span: the slot mirrors the 16-byte aligned address at or below row + span.b0
// (bandShift), bytes [lo, hi) of it hold the span; chunks [c0, c1) of the slot lie inside the row's rowBytes bytes
// (one bulk copy), the span's bytes of the others are copied one by one.
struct AreaWarpCopy {
    const uint8_t *base; // the 16-byte aligned address slot byte 0 mirrors
    int32_t lo, hi, c0, c1, chunks;
};
CVK_AREAW_HD AreaWarpCopy areaWarpCopy(const uint8_t *row, int32_t rowBytes, const BandSpan &span) {
    AreaWarpCopy c;
    const int32_t shift = bandShift(row, span.b0), rowAt = span.b0 - shift; // slot byte 0 is row byte rowAt (>= -15)
    c.base = row + rowAt;
    c.lo = shift;
    c.hi = shift + span.b1 - span.b0;
    c.chunks = (c.hi + 15) >> 4;
    c.c0 = rowAt >= 0 ? 0 : 1;
    c.c1 = (rowBytes - rowAt) >> 4;
    if (c.c1 > c.chunks) c.c1 = c.chunks;
    if (c.c1 < c.c0) c.c1 = c.c0;
    return c;
}
// Whether slot byte j (in [lo, hi)) is one of the bytes copied one by one.
CVK_AREAW_HD bool areaWarpByteCopied(const AreaWarpCopy &c, int32_t j) { return j < 16 * c.c0 || j >= 16 * c.c1; }

// A warp's columns [x0, x0 + w) of its block's strip and the bytes they read of every source row. The table's
// shifts are of the block's span (areaRowTable): the warp's is (table shift + delta) & 15. An interior warp's span
// starts at least 15 bytes into the row and ends at least 15 bytes before its end, so whatever the row's alignment
// its chunks all lie inside the row (areaWarpCopy's c0 = 0, c1 = chunks): one bulk copy a row, and nothing more to
// work out than the row's shift (areaWarpInterior); the warps at the row's ends take areaWarpCopy.
struct AreaWarp {
    int32_t x0, w;
    BandSpan span;
    int32_t delta;
    bool interior;
};
CVK_AREAW_HD AreaWarp areaWarp(const Mapping &m, const AreaBlock &b, int32_t C, int32_t cols, int warp) {
    AreaWarp g;
    g.x0 = b.x0 + cols * warp;
    g.w = b.x0 + b.w - g.x0 < cols ? b.x0 + b.w - g.x0 : cols;
    if (g.w <= 0) return g; // no columns: the warp only helps build the table
    g.span = areaSpan(m, C, g.x0, g.w);
    g.delta = g.span.b0 - b.span.b0;
    g.interior = g.span.b0 >= 15 && m.x.src * C - g.span.b1 >= 15;
    return g;
}

// An interior warp's copy of one source row: the 16-byte aligned address at or below row + span.b0 (slot byte 0
// mirrors it, as in areaWarpCopy) and the bytes of the whole chunks up to the span's end.
struct AreaWarpChunks {
    const uint8_t *base;
    uint32_t bytes;
};
CVK_AREAW_HD AreaWarpChunks areaWarpInterior(const uint8_t *row, const BandSpan &span) {
    const int32_t shift = bandShift(row, span.b0);
    return {row + span.b0 - shift, static_cast<uint32_t>((shift + span.b1 - span.b0 + 15) & ~15)};
}

// A lane's P columns: whether each lies in the warp's columns (else it is computed as column x0, not stored), its
// taps in the warp's span, and its vertical sums.
template <int CT, int K, int P> struct AreaLane {
    bool valid[P];
    int32_t x[P];
    AreaTaps<CT, K> t[P];
    AreaSums<CT> v[P];
};
template <int CT, int K, int P> CVK_AREAW_HD AreaLane<CT, K, P> areaLane(const Mapping &m, const AreaBlock &b, const AreaWarp &g, int lane) {
    AreaLane<CT, K, P> l;
    CVK_AREAW_UNROLL
    for (int j = 0; j < P; ++j) {
        const int32_t i = lane + 32 * j;
        l.valid[j] = i < g.w;
        l.x[j] = g.x0 + (l.valid[j] ? i : 0);
        l.t[j] = areaTaps<CT, K>(m, l.x[j], g.span.b0);
        l.v[j] = areaSums<CT>(m, b);
    }
    return l;
}

// Where column x's pixel of the destination row v is about to complete goes (null when the column is not stored).
template <int CT> CVK_AREAW_HD uint8_t *areaWarpPixel(const ResizeParams &p, int32_t x, bool valid, const AreaSums<CT> &v) {
    return valid ? reinterpret_cast<uint8_t *>(p.dst.data + int64_t(v.n) * p.dst.stride[kN] + int64_t(v.y) * p.dst.stride[kH]) + int64_t(x) * CT
                 : nullptr;
}

// A lane's work on one staged source row (entry e, in `slot`): each column's row sum added to the destination rows
// that weigh it (areaProcess's), and the rows the source row completes stored. `w`: the warp's column count (the
// same in every lane: a warp with no column j skips it).
template <int CT, int K, int P>
CVK_AREAW_HD void areaLaneRow(const ResizeParams &p, const Mapping &m, const AreaWarp &g, const AreaRowEntry &e, const uint8_t *slot,
                              AreaLane<CT, K, P> &l) {
    const int32_t sh = (e.shift + g.delta) & 15;
    CVK_AREAW_UNROLL
    for (int j = 0; j < P; ++j) {
        if (j > 0 && g.w <= 32 * j) break;
        float h[CT];
        areaRowSum<CT, K>(slot, l.t[j].o + sh, l.t[j], h);
        areaAccumulate<CT>(e, h, l.v[j]);
        if (e.finCur) areaFinishPixel<CT>(m, l.v[j], areaWarpPixel<CT>(p, l.x[j], l.valid[j], l.v[j]));
        if (e.finNext) areaFinishPixel<CT>(m, l.v[j], areaWarpPixel<CT>(p, l.x[j], l.valid[j], l.v[j]));
    }
}

// The issue cursor stepped with its row's address (areaRowAt): one add a row, the image's base where it enters one.
CVK_AREAW_HD void areaStep(const ResizeParams &p, const AreaBlock &b, AreaStream &s, const uint8_t *&row) {
    const int32_t n = s.n;
    areaAdvance(s, b);
    row = s.n == n ? row + p.src.stride[kH] : areaRowAt(p, s);
}

#ifdef __CUDACC__
// A row's copies into `slot`: lane 0 the chunks inside the row in one bulk copy completing on `bar` (an arrive
// alone where there are none), the lanes the other bytes of the span.
__device__ __forceinline__ void areaWarpStage(const uint8_t *row, int32_t rowBytes, const AreaWarp &g, uint8_t *slot, uint64_t *bar, int lane) {
    const BandSpan &span = g.span;
    if (g.interior) {
        const AreaWarpChunks c = areaWarpInterior(row, span);
        if (lane == 0) bulkCopy(slot, c.base, c.bytes, bar);
        return;
    }
    const AreaWarpCopy c = areaWarpCopy(row, rowBytes, span);
    if (lane == 0) bulkCopy(slot + 16 * c.c0, c.base + 16 * c.c0, uint32_t(16 * (c.c1 - c.c0)), bar);
    if (c.c0 > 0 || c.c1 < c.chunks)
        for (int32_t j = c.lo + lane; j < c.hi; j += 32)
            if (areaWarpByteCopied(c, j)) slot[j] = loadByte(c.base + j);
}

// Grid (strips of 32 P s.warps columns, bands), 32 s.warps threads, shared memory areaWarpSmemBytes(s.warps, A,
// s.slotPitch, s.streamRows) (s: planResizeAreaWarp's). Per warp and source row k of the band: wait for the slot's
// copy (phase: the slot's use count, mod 2), __syncwarp (the lanes' byte copies are visible), the row's sums,
// __syncwarp (no lane still reads the slot), a proxy fence (the lanes' reads before the bulk copy's writes), the
// copies of row k + A into the slot.
template <int CT, int K, int A, int MinBlocks, int P, bool Fence = true>
__global__ void __launch_bounds__(kAreaMaxThreads, MinBlocks) areaWarpKernel(ResizeParams p, Mapping m, AreaShape s) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ int4 areaWarpSmem[];
    auto *table = reinterpret_cast<AreaRowEntry *>(areaWarpSmem);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x), lane = tid & 31, warp = tid >> 5;
    AreaShape strip = s; // areaBlock's strip is 32 columns a warp: here 32 P
    strip.warps = s.warps * P;
    const AreaBlock b = areaBlock(m, strip, CT, p.dst.shape[kN] * m.y.dst, static_cast<int32_t>(blockIdx.x), blockIdx.y);
    uint64_t *bars = reinterpret_cast<uint64_t *>(table + s.streamRows) + warp * A;
    uint8_t *ring = reinterpret_cast<uint8_t *>(areaWarpSmem) + areaWarpRingOffset(s.warps, A, s.streamRows) + warp * A * s.slotPitch;
    if (lane == 0) {
        for (int j = 0; j < A; ++j) bulkBarrierInit(bars + j);
        bulkBarrierInitFence();
    }
    areaRowTable(p, m, b, table, tid, nthreads);
    __syncthreads();
    const AreaWarp g = areaWarp(m, b, CT, 32 * P, warp);
    if (g.w <= 0) return; // no barrier follows
    const int32_t rowBytes = m.x.src * CT;
    AreaLane<CT, K, P> l = areaLane<CT, K, P>(m, b, g, lane);
    AreaStream issue = areaStream(b);
    const uint8_t *row = areaRowAt(p, issue);
#pragma unroll
    for (int j = 0; j < A; ++j) {
        if (j < b.length) {
            areaWarpStage(row, rowBytes, g, ring + j * s.slotPitch, bars + j, lane);
            areaStep(p, b, issue, row);
        }
    }
    int32_t slot = 0;
    uint32_t phase = 0;
    for (int64_t k = 0; k < b.length; ++k) {
        bulkWait(bars + slot, phase);
        __syncwarp();
        uint8_t *at = ring + slot * s.slotPitch;
        areaLaneRow<CT, K, P>(p, m, g, table[k], at, l);
        __syncwarp();
        if (k + A < b.length) {
            if (Fence) bulkProxyFence();
            areaWarpStage(row, rowBytes, g, at, bars + slot, lane);
            areaStep(p, b, issue, row);
        }
        if (++slot == A) slot = 0, phase ^= 1u;
    }
#else
    __trap(); // launched only on sm_90 and later (resizeBulkCopyDevice): the bulk copies and their mbarriers
#endif
}
#endif

#undef CVK_AREAW_HD
#undef CVK_AREAW_UNROLL

} // namespace cvk::resize
