// cvResize's periodic NEAREST path (resize_nearest.cuh): when it applies (planResizeNearest), and its kernels per
// (interpolation, period, channel count, pixels per thread), dispatched through one table without holes.
#include "resize.hpp"
#include "resize_nearest.cuh"

#include <algorithm>
#include <array>
#include <numeric>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

// The per-thread kernels: one thread per item (group of a destination row), in order: consecutive threads own
// consecutive groups of a row, so a warp's loads and stores cover contiguous bytes.
template <int I, int C, int Q, int P, int PX, int T, bool Streaming>
__global__ void __launch_bounds__(T) nearestKernel(ResizeParams p, Mapping m, int32_t groups, int32_t items) {
    const int32_t i = int32_t(blockIdx.x) * T + int32_t(threadIdx.x);
    if (i < items) nearestGroup<I, C, Q, P, PX, Streaming>(p, m, groups, i);
}

// The tiled kernels: block b tile b (resize_nearest.cuh, NearestTile).
template <int I, int C, int Q, int P, int PX, int T, bool StageOut, bool Streaming>
__global__ void __launch_bounds__(T) nearestTileKernel(ResizeParams p, Mapping m, int32_t groups, int32_t items) {
    using Tile = NearestTile<NearestGeometry<I, C, Q, P, PX>, T, StageOut, Streaming, 1>;
    __shared__ Tile s;
    const int32_t first = int32_t(blockIdx.x) * T, t = int32_t(threadIdx.x);
    const int32_t valid = nearestTileValid(items, first, T);
    nearestTileAddresses(p, m, groups, first, valid, t, s, 0);
    __syncthreads();
    uint4 v[Tile::kIn];
    nearestTileFetch(valid, t, s, 0, v);
    nearestTilePut(valid, t, s, v);
    __syncthreads();
    nearestTileGather(valid, t, s, 0);
    if constexpr (StageOut) {
        __syncthreads();
        nearestTileStore(valid, t, s, 0);
    }
}

// The pipelined tiled kernels: block b tiles b, b + gridDim.x, ... (gridDim.x <= tiles), the next tile's vectors in
// flight while the current one is gathered and stored. The barriers separate: a tile's put from its gather (first),
// its gather's reads of `in` from the next tile's put and its staged stores from the next gather (second); address
// set a of a tile is rewritten only two tiles later, after its store phase.
template <int I, int C, int Q, int P, int PX, int T, bool Streaming>
__global__ void __launch_bounds__(T) nearestPipeKernel(ResizeParams p, Mapping m, int32_t groups, int32_t items) {
    using Tile = NearestTile<NearestGeometry<I, C, Q, P, PX>, T, true, Streaming, 3>;
    __shared__ Tile s;
    const int32_t tiles = int32_t((int64_t(items) + T - 1) / T), t = int32_t(threadIdx.x);
    int32_t tile = int32_t(blockIdx.x);
    int a = 0;
    nearestTileAddresses(p, m, groups, tile * T, nearestTileValid(items, tile * T, T), t, s, a);
    __syncthreads();
    uint4 v[Tile::kIn];
    nearestTileFetch(nearestTileValid(items, tile * T, T), t, s, a, v);
    for (; tile < tiles; tile += int32_t(gridDim.x)) {
        const int32_t valid = nearestTileValid(items, tile * T, T), next = tile + int32_t(gridDim.x);
        const int na = a == 2 ? 0 : a + 1;
        nearestTilePut(valid, t, s, v);
        if (next < tiles) nearestTileAddresses(p, m, groups, next * T, nearestTileValid(items, next * T, T), t, s, na);
        __syncthreads();
        if (next < tiles) nearestTileFetch(nearestTileValid(items, next * T, T), t, s, na, v);
        nearestTileGather(valid, t, s, a);
        __syncthreads();
        nearestTileStore(valid, t, s, a);
        a = na;
    }
}

using Kernel = void (*)(ResizeParams, Mapping, int32_t, int32_t);

constexpr int kNearestChannels[] = {1, 3, 4};
constexpr int kNearestInterps[] = {kNearest, kNearestFloor};

template <int In, int Per, int Row, int V> constexpr Kernel kernelOf() {
    constexpr NearestVariant v = kNearestVariants[V];
    constexpr int I = kNearestInterps[In], C = kNearestChannels[Row], Q = kLinearPeriods[Per].q, P = kLinearPeriods[Per].p;
    if constexpr (v.pipelined) return &nearestPipeKernel<I, C, Q, P, v.pixels[Row], v.threads, v.streaming>;
    else if constexpr (v.tiled) return &nearestTileKernel<I, C, Q, P, v.pixels[Row], v.threads, v.stageOut, v.streaming>;
    else return &nearestKernel<I, C, Q, P, v.pixels[Row], v.threads, v.streaming>;
}
using VariantRow = std::array<Kernel, kNearestVariantCount>;
template <int In, int Per, int Row, size_t... V> constexpr VariantRow variantRow(std::index_sequence<V...>) {
    return {kernelOf<In, Per, Row, int(V)>()...};
}
template <int In, int Per> constexpr std::array<VariantRow, 3> channelRows() {
    constexpr auto v = std::make_index_sequence<kNearestVariantCount>{};
    return {variantRow<In, Per, 0>(v), variantRow<In, Per, 1>(v), variantRow<In, Per, 2>(v)};
}
template <int In> constexpr std::array<std::array<VariantRow, 3>, kLinearPeriodCount> periodRows() {
    static_assert(kLinearPeriodCount == 2, "one row per period");
    return {channelRows<In, 0>(), channelRows<In, 1>()};
}
// kNearestKernels[NEAREST, NEAREST_FLOOR][period][channel row][variant]: every entry filled.
const std::array<std::array<std::array<VariantRow, 3>, kLinearPeriodCount>, 2> kNearestKernels = {periodRows<0>(), periodRows<1>()};

bool aligned4(int64_t v) { return (v & 3) == 0; }
bool aligned16(int64_t v) { return (v & 15) == 0; }

// Whether every destination column of axis a (interp's index function, the mapping's ties) follows period `per`:
// O(dst) the first time a thread plans an (axis, interp, period), then from a small cache.
bool periodicColumns(const Mapping &m, int32_t interp, int per) {
    struct Entry {
        int32_t src, dst, interp, per, ok;
    };
    constexpr int kEntries = 4;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    const Axis &a = m.x;
    for (const Entry &e : cache)
        if (e.src == a.src && e.dst == a.dst && e.interp == interp && e.per == per) return e.ok != 0;
    const int32_t q = kLinearPeriods[per].q, p = kLinearPeriods[per].p;
    bool ok = true;
    for (int32_t d = 0; d < a.dst && ok; ++d) ok = bandSourceIndex(a, m.tiesX, interp, d) == (d / q) * p + nearestPeriodFirst(interp, q, p, d % q);
    cache[next] = {a.src, a.dst, interp, per, ok ? 1 : 0};
    next = (next + 1) % kEntries;
    return ok;
}

} // namespace

bool planResizeNearest(const ResizeParams &p, ResizeNearestShape &s, int32_t variant) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || (p.interp != kNearest && p.interp != kNearestFloor)) return false;
    const int64_t C = p.src.shape[kC];
    const int row = linearChannelRow(int32_t(C));
    if (row < 0) return false;
    if (variant == -1) variant = kNearestVariantOf[row];
    if (variant < 0 || variant >= kNearestVariantCount || p.dst.shape[kC] != C || p.src.stride[kW] != C || p.dst.stride[kW] != C ||
        (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1)))
        return false;
    if (!aligned4(reinterpret_cast<intptr_t>(p.src.data)) || !aligned4(p.src.stride[kH]) || (p.src.shape[kN] > 1 && !aligned4(p.src.stride[kN])))
        return false;
    if (p.src.shape[kW] * C > INT32_MAX / 2 || p.src.shape[kH] > INT32_MAX / 2 || p.dst.shape[kH] > INT32_MAX / 2) return false;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (m.y.scale < 1.0) return false; // no source row read twice
    const int32_t g = std::gcd(m.x.src, m.x.dst);
    s.period = -1;
    for (int i = 0; i < kLinearPeriodCount; ++i)
        if (kLinearPeriods[i].q == m.x.dst / g && kLinearPeriods[i].p == m.x.src / g) s.period = i;
    if (s.period < 0 || !periodicColumns(m, p.interp, s.period)) return false;
    // the tiled kernels' 16-byte vectors: aligned rows and images on both sides, whole groups only
    const bool aligned = aligned16(reinterpret_cast<intptr_t>(p.src.data)) && aligned16(p.src.stride[kH]) &&
                         (p.src.shape[kN] == 1 || aligned16(p.src.stride[kN])) && aligned16(reinterpret_cast<intptr_t>(p.dst.data)) &&
                         aligned16(p.dst.stride[kH]) && (p.dst.shape[kN] == 1 || aligned16(p.dst.stride[kN]));
    if (kNearestVariants[variant].tiled && (!aligned || m.x.dst % kNearestVariants[variant].pixels[row] != 0)) variant = 0;
    s.variant = variant;
    s.pixels = kNearestVariants[variant].pixels[row];
    s.threads = kNearestVariants[variant].threads;
    s.groups = (m.x.dst + s.pixels - 1) / s.pixels;
    const int64_t items = p.dst.shape[kN] * p.dst.shape[kH] * s.groups;
    if (items > INT32_MAX - s.threads) return false; // the kernel numbers items, rows and images in int32
    s.items = int32_t(items);
    return true;
}

cudaError_t launchResizeNearest(const ResizeParams &p, const ResizeNearestShape &s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const Kernel k = kNearestKernels[p.interp == kNearest ? 0 : 1][s.period][linearChannelRow(int32_t(p.src.shape[kC]))][s.variant];
    int64_t blocks = (int64_t(s.items) + s.threads - 1) / s.threads;
    if (kNearestVariants[s.variant].pipelined) { // as many blocks as fit at once, none without a tile
        int resident = 0;
        const cudaError_t err = residentResizeBlocks(reinterpret_cast<const void *>(k), s.threads, 0, resident);
        if (err != cudaSuccess) return err;
        blocks = std::min<int64_t>(blocks, resident);
    }
    k<<<static_cast<unsigned>(blocks), s.threads, 0, stream>>>(p, m, s.groups, s.items);
    return cudaGetLastError();
}

cudaError_t preloadResizeNearestKernels() { return preloadKernelTable(kNearestKernels); }

} // namespace cvk
