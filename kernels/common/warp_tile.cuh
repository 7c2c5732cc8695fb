// Warp and device level: rows copied as shifted byte spans (span.cuh) in warp tiles. Work item t is tile
// t % tilesPerRow of row t / tilesPerRow; a warp takes one item at a time (grid-stride), so every lane of a warp is
// in the same row and the row's shift is warp-uniform. Lane L holds dst block first + 32 j + L in slice j (j < units):
// every load and store instruction of the warp covers 512 contiguous bytes, and all of a lane's loads are issued
// before its first store (64 bytes in flight per thread with 4 units). A lane gets src block i + 1 from lane L + 1
// (lane 31 from lane 0's next slice, or for the last slice its own extra load), so each src byte is read from memory
// once. The rows are an operator's policy:
//     struct Rows { __device__ RowSpan span(int64_t r) const;                   // row r's dst row and src run
//                   __device__ uint4 border(const RowSpan &s, int64_t o) const; // dst bytes o .. o + 15 outside [lo, hi)
//                   (optional) __device__ void prepare() const; };              // once per thread, may __syncthreads()
#pragma once

#include "launch.cuh"
#include "span.cuh"

#include <type_traits>
#include <utility>

namespace cvk {

template <class Rows, class = void> struct HasSpanPrepare : std::false_type {};
template <class Rows>
struct HasSpanPrepare<Rows, std::void_t<decltype(std::declval<const Rows &>().prepare())>> : std::true_type {};

// Src block i + 1 for the lane holding block i in slice j (see above); `after` is lane 31's load of the block after
// the tile. Every lane of the warp calls it (shuffles).
template <int kMaxU>
__device__ __forceinline__ uint4 nextSrcBlock(const uint4 (&v)[kMaxU], int j, int units, uint4 after, int lane) {
    uint4 x = v[j];
    if (j + 1 < kMaxU && j + 1 < units && lane == 0) x = v[j + 1 < kMaxU ? j + 1 : j];
    const int from = (lane + 1) & (kWarpLanes - 1);
    uint4 y;
    y.x = __shfl_sync(0xffffffffu, x.x, from);
    y.y = __shfl_sync(0xffffffffu, x.y, from);
    y.z = __shfl_sync(0xffffffffu, x.z, from);
    y.w = __shfl_sync(0xffffffffu, x.w, from);
    return lane == kWarpLanes - 1 && j + 1 >= units ? after : y;
}

// One tile of a row: dst blocks [first, first + 32 units). Called by every lane of the warp.
template <int kMaxU, class Rows>
__device__ __forceinline__ void copySpanTile(const Rows &rows, const RowSpan &s, int64_t tile, int units, int lane) {
    const int64_t first = tile * kWarpLanes * units;
    uint4 v[kMaxU];
#pragma unroll
    for (int j = 0; j < kMaxU; ++j)
        if (j < units) v[j] = loadSrcBlock(s, first + j * kWarpLanes + lane);
    uint4 after = make_uint4(0, 0, 0, 0);
    if (s.shift != 0 && lane == kWarpLanes - 1) after = loadSrcBlock(s, first + kWarpLanes * units);
#pragma unroll
    for (int j = 0; j < kMaxU; ++j) {
        if (j >= units) break;
        const int64_t i = first + j * kWarpLanes + lane;
        uint4 out = v[j];
        if (s.shift != 0) out = shiftBytes(v[j], nextSrcBlock(v, j, units, after, lane), s.shift);
        const int64_t o = blockOffset(s, i);
        const int rb = clampByte(-o), re = clampByte(s.bytes - o);   // bytes of the block in the row
        const int ib = clampByte(s.lo - o), ie = clampByte(s.hi - o); // ... in its copied part
        if (rb < re && (ib > rb || ie < re)) out = mergeBytes(out, rows.border(s, o), ib, ie);
        storeDstBlock(s, i, out);
    }
}

template <int kMaxU, class Rows>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) spanRowsKernel(Rows rows, int64_t items, int64_t tilesPerRow,
                                                                          int units) {
    if constexpr (HasSpanPrepare<Rows>::value) rows.prepare();
    const int lane = static_cast<int>(threadIdx.x) & (kWarpLanes - 1);
    const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / kWarpLanes);
    for (int64_t t = static_cast<int64_t>(blockIdx.x) * (blockDim.x / kWarpLanes) + threadIdx.x / kWarpLanes; t < items;
         t += warps) {
        int64_t tile;
        const int64_t r = divmod(t, tilesPerRow, tile);
        copySpanTile<kMaxU>(rows, rows.span(r), tile, units, lane);
    }
}

// Enqueues the copy of `count` rows on `stream` (never blocks the host); rows touch at most blocksPerRow dst blocks.
template <class Rows> cudaError_t launchSpanRows(const Rows &rows, int64_t count, int64_t blocksPerRow, cudaStream_t stream) {
    if (count == 0 || blocksPerRow == 0) return cudaSuccess;
    const SpanPlan p = spanPlan(count, blocksPerRow);
    spanRowsKernel<kSpanUnits><<<p.grid, kBlockThreads, 0, stream>>>(rows, p.items, p.tilesPerRow, p.units);
    return cudaGetLastError();
}

} // namespace cvk
