// Warp and device level: rows walked as shifted byte spans (span.cuh) in warp tiles. Work item t is tile
// t % tilesPerRow of row t / tilesPerRow; a warp takes one item at a time (grid-stride), so every lane of a warp is
// in the same row and the row's shift is warp-uniform. Lane L holds dst block first + 32 j + L in slice j (j < units):
// every load and store instruction of the warp covers 512 contiguous bytes, and all of a lane's loads are issued
// before its first store (64 bytes in flight per thread with 4 units). Words of src blocks i - 1 and i + 1 come from
// lanes L - 1 and L + 1 (across slices through lanes 0 and 31, past the tile from one extra load by lane 0 or 31),
// so each src byte is read from memory once. Two policies make an operator of it:
//     struct Rows { __device__ RowSpan span(int64_t r) const;                   // row r's dst row and src run
//                   __device__ uint4 border(const RowSpan &s, int64_t o) const; // dst bytes o .. o + 15 outside [lo, hi)
//                   (optional) __device__ void prepare() const; };              // once per thread, may __syncthreads()
//     struct Tile { template <int kMaxU, class Rows> static __device__ void run(rows, span, tile, units, lane); };
// CopyTile copies (crop, borders); an operator may permute the bytes of its blocks instead (cvtcolor's RGB<->BGR).
#pragma once

#include "launch.cuh"
#include "span.cuh"

#include <type_traits>
#include <utility>

namespace cvk {

template <class Rows, class = void> struct HasSpanPrepare : std::false_type {};
template <class Rows>
struct HasSpanPrepare<Rows, std::void_t<decltype(std::declval<const Rows &>().prepare())>> : std::true_type {};

// Word m (a compile-time constant after unrolling) of a block.
__device__ __forceinline__ uint32_t wordOf(const uint4 &v, int m) { return m == 0 ? v.x : m == 1 ? v.y : m == 2 ? v.z : v.w; }

// The first K words of src block i + 1 for the lane holding block i in slice j (see above); `after` is lane 31's
// load of the block after the tile. Every lane of the warp calls it (shuffles).
template <int K, int kMaxU>
__device__ __forceinline__ void nextWords(const uint4 (&v)[kMaxU], int j, int units, uint4 after, int lane, uint32_t (&out)[K]) {
    uint4 x = v[j];
    if (j + 1 < kMaxU && j + 1 < units && lane == 0) x = v[j + 1 < kMaxU ? j + 1 : j];
    const int from = (lane + 1) & (kWarpLanes - 1);
    const bool own = lane == kWarpLanes - 1 && j + 1 >= units;
#pragma unroll
    for (int m = 0; m < K; ++m) {
        const uint32_t y = __shfl_sync(0xffffffffu, wordOf(x, m), from);
        out[m] = own ? wordOf(after, m) : y;
    }
}

// The last K words of src block i - 1 (word 4 - K + m in out[m]); `before` is lane 0's load of the block before the
// tile. Every lane of the warp calls it (shuffles).
template <int K, int kMaxU>
__device__ __forceinline__ void prevWords(const uint4 (&v)[kMaxU], int j, uint4 before, int lane, uint32_t (&out)[K]) {
    uint4 x = v[j];
    if (j > 0 && lane == kWarpLanes - 1) x = v[j > 0 ? j - 1 : 0];
    const int from = (lane - 1) & (kWarpLanes - 1);
    const bool own = lane == 0 && j == 0;
#pragma unroll
    for (int m = 0; m < K; ++m) {
        const uint32_t y = __shfl_sync(0xffffffffu, wordOf(x, 4 - K + m), from);
        out[m] = own ? wordOf(before, 4 - K + m) : y;
    }
}

// One tile of a row: dst blocks [first, first + 32 units) copied (the default tile of spanRowsKernel). Called by every
// lane of the warp.
struct CopyTile {
    template <int kMaxU, class Rows>
    static __device__ __forceinline__ void run(const Rows &rows, const RowSpan &s, int64_t tile, int units, int lane);
};
template <int kMaxU, class Rows>
__device__ __forceinline__ void CopyTile::run(const Rows &rows, const RowSpan &s, int64_t tile, int units, int lane) {
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
        if (s.shift != 0) {
            uint32_t n[4];
            nextWords<4>(v, j, units, after, lane, n);
            out = shiftBytes(v[j], make_uint4(n[0], n[1], n[2], n[3]), s.shift);
        }
        const int64_t o = blockOffset(s, i);
        if (o < s.lo || o > s.hi - 16) { // not all copied bytes: a block at an end of the row or of its copied part
            const int rb = clampByte(-o), re = clampByte(s.bytes - o);   // bytes of the block in the row
            const int ib = clampByte(s.lo - o), ie = clampByte(s.hi - o); // ... in its copied part
            if (rb < re && (ib > rb || ie < re)) out = mergeBytes(out, rows.border(s, o), ib, ie);
        }
        storeDstBlock(s, i, out);
    }
}

// `Tile::run<kMaxU>(rows, span, tile, units, lane)` does a tile (CopyTile, or an operator's permutation of it).
template <int kMaxU, class Rows, class Tile>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) spanRowsKernel(Rows rows, int64_t items, int64_t tilesPerRow,
                                                                          int units) {
    if constexpr (HasSpanPrepare<Rows>::value) rows.prepare();
    const int lane = static_cast<int>(threadIdx.x) & (kWarpLanes - 1);
    const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / kWarpLanes);
    for (int64_t t = static_cast<int64_t>(blockIdx.x) * (blockDim.x / kWarpLanes) + threadIdx.x / kWarpLanes; t < items;
         t += warps) {
        int64_t tile;
        const int64_t r = divmod(t, tilesPerRow, tile);
        Tile::template run<kMaxU>(rows, rows.span(r), tile, units, lane);
    }
}

// Enqueues the tiles of `count` rows on `stream` (never blocks the host); rows touch at most blocksPerRow dst blocks.
template <class Tile = CopyTile, class Rows>
cudaError_t launchSpanRows(const Rows &rows, int64_t count, int64_t blocksPerRow, cudaStream_t stream) {
    if (count == 0 || blocksPerRow == 0) return cudaSuccess;
    const SpanPlan p = spanPlan(count, blocksPerRow);
    spanRowsKernel<kSpanUnits, Rows, Tile><<<p.grid, p.block, 0, stream>>>(rows, p.items, p.tilesPerRow, p.units);
    return cudaGetLastError();
}

} // namespace cvk
