// cvResize's shared-memory tiled path (resize_tile.cuh): when it applies (planResizeTile) and its kernels, one per
// (interpolation, channel count), dispatched through one table without holes.
#include "resize.hpp"
#include "resize_launch.cuh"
#include "resize_tile.cuh"

#include <algorithm>
#include <array>

namespace cvk {
namespace {

using namespace resize;

// One block per tile in a grid-stride loop over (image, tile row, tile column); three barriers per tile order the
// phases (each phase writes only what the phases after the next barrier read).
// AREA's tiles (36 KiB of shared memory for 1080x1920 -> 224x224) fit 6 blocks on an SM, which 64 registers per
// thread would cut to 4: AREA is built for 40 (a few bytes of spill, in the per-tile setup); LINEAR and CUBIC for
// 64 (4 blocks).
template <int I> constexpr int kTileBlocksPerSM = I == kArea ? 5 : 4;

template <int I, int CT> __global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSM<I>) tiledKernel(ResizeParams p, Mapping m, TileShape s) {
    extern __shared__ uint4 smem[];
    const TileBuffers b = carveTile(smem, s);
    const int32_t tilesX = (m.x.dst + s.tileW - 1) / s.tileW, tilesY = (m.y.dst + s.tileH - 1) / s.tileH;
    const int64_t perImage = int64_t(tilesX) * tilesY, total = perImage * p.dst.shape[kN];
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    for (int64_t t = blockIdx.x; t < total; t += gridDim.x) {
        const int64_t n = t / perImage;
        const int32_t rest = static_cast<int32_t>(t - n * perImage);
        const TileCtx ctx = tileContext(m, s, n, rest % tilesX, rest / tilesX);
        tileLoad<I, CT>(m, s, ctx, planeOf(p.src, n), b, tid, nthreads);
        __syncthreads();
        tileHorizontal<I, CT>(m, s, ctx, b, tid, nthreads);
        __syncthreads();
        tileVertical<I, CT>(m, s, ctx, b, tid, nthreads);
        __syncthreads();
        tileStore<CT>(s, ctx, p.dst.data + n * p.dst.stride[kN], p.dst.stride[kH], b, tid, nthreads);
    }
}

using Kernel = void (*)(ResizeParams, Mapping, TileShape);

// The interpolations the tiled path takes, and its channel counts, in the order of the table.
constexpr int kTiledInterps[] = {kLinear, kCubic, kArea};
constexpr int kTiledChannels[] = {1, 3, 4};

template <int I> constexpr std::array<Kernel, 3> channelRow() {
    return {&tiledKernel<I, 1>, &tiledKernel<I, 3>, &tiledKernel<I, 4>};
}
// kKernels[interp row][channel row]: every entry filled.
const std::array<std::array<Kernel, 3>, 3> kKernels = {channelRow<kLinear>(), channelRow<kCubic>(), channelRow<kArea>()};

int interpRow(int32_t interp) {
    for (int i = 0; i < 3; ++i)
        if (kTiledInterps[i] == interp) return i;
    return -1;
}
int channelRowOf(int64_t c) {
    for (int i = 0; i < 3; ++i)
        if (kTiledChannels[i] == c) return i;
    return -1;
}

bool aligned4(int64_t v) { return (v & 3) == 0; }

// The most source rows (or, for columns, staged pixel columns) any tile of `tile` destination indices reads.
template <class SpanOf> int32_t mostOf(int32_t dst, int32_t tile, SpanOf spanOf) {
    int32_t most = 0;
    for (int32_t d0 = 0; d0 < dst; d0 += tile) most = std::max(most, spanOf(d0, std::min(tile, dst - d0)).count);
    return most;
}

} // namespace

bool planResizeTile(const ResizeParams &p, ResizeTileShape &s) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || interpRow(p.interp) < 0) return false;
    const int64_t C = p.src.shape[kC];
    if (channelRowOf(C) < 0 || p.dst.shape[kC] != C) return false;
    if (p.src.stride[kW] != C || p.dst.stride[kW] != C || (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1))) return false;
    if (!aligned4(reinterpret_cast<intptr_t>(p.src.data)) || !aligned4(p.src.stride[kH]) ||
        (p.src.shape[kN] > 1 && !aligned4(p.src.stride[kN])))
        return false;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if ((p.interp == kLinear && m.y.scale > 2.0) || (p.interp == kCubic && m.y.scale > 4.0) ||
        (p.interp == kArea && m.areaKind == kAreaLinear))
        return false;
    s.tileW = m.x.scale > 4.0 ? 16 : 32;
    const int32_t cols = mostOf(m.x.dst, s.tileW, [&](int32_t d0, int32_t n) { return tileCols(m, d0, n); });
    s.pitch = cols | 1;
    s.hwords = C == 1 ? 1 : 4;
    s.outPitch = static_cast<int32_t>((s.tileW * C + 15) / 16 * 16);
    for (s.tileH = 16; s.tileH >= 1; s.tileH /= 2) {
        s.maxRows = mostOf(m.y.dst, s.tileH, [&](int32_t d0, int32_t n) { return tileRows(m, d0, n); });
        s.hpitch = s.maxRows | 1;
        s.smemBytes = tileSmemBytes(s);
        if (s.smemBytes <= kTileSmemLimit) return true;
    }
    return false;
}

cudaError_t launchResizeTiled(const ResizeParams &p, const ResizeTileShape &s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int64_t tiles = ((m.x.dst + s.tileW - 1) / s.tileW) * int64_t((m.y.dst + s.tileH - 1) / s.tileH) * p.dst.shape[kN];
    const Kernel k = kKernels[interpRow(p.interp)][channelRowOf(p.src.shape[kC])];
    k<<<static_cast<unsigned>(std::min<int64_t>(tiles, 1 << 30)), kTileThreads, s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeTiledKernels() { return preloadKernelTable(kKernels); }

} // namespace cvk
