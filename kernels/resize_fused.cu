// The fused preprocessing pass (resize -> crop -> convert -> per-channel normalize -> reformat) in one kernel: each
// thread samples four pixels of a crop row with cvResize's own sampler (resize_filters.cuh), so the interpolation is
// the one cvResize computes, and writes their channels straight into the output layout. Only the crop's pixels are
// interpolated; the resized image is never stored. uint8 LINEAR with packed pixels takes the staged path
// (resize_fused_staged.cuh) or the pair path (resize_fused_pairs.cuh) instead: the same values, fewer and wider loads.
#include "resize.hpp"
#include "resize_fused_pairs.cuh"
#include "resize_band.cuh"
#include "resize_fused_staged.cuh"
#include "common/launch.cuh"
#include "common/overlap_launch.cuh"
#include "resize_launch.cuh"

#include <cuda_fp16.h>

#include <algorithm>
#include <array>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

// Four consecutive pixels of one channel plane in one store: 16 bytes of float or 8 of half.
template <bool Half> __device__ __forceinline__ void storeOut4(char *p, const float (&v)[4]) {
    if constexpr (Half) {
        const __half2 a = __floats2half2_rn(v[0], v[1]), b = __floats2half2_rn(v[2], v[3]);
        uint2 q;
        q.x = *reinterpret_cast<const uint32_t *>(&a);
        q.y = *reinterpret_cast<const uint32_t *>(&b);
        *reinterpret_cast<uint2 *>(p) = q;
    } else {
        *reinterpret_cast<float4 *>(p) = make_float4(v[0], v[1], v[2], v[3]);
    }
}

// P (4 or 8) consecutive pixels of one channel plane as 16-byte stores (8-byte for 4 halves), evict-first: nothing
// in the pass reads them back (plain stores measured the same: 29.3 against 29.6 µs on the ImageNet chain,
// logs/probe-fused_paths-plainstores.log, the probe with resize_fused.cu built with plain stores, against logs/probe-fused_paths-refstyle.log).
template <bool Half, int P> __device__ __forceinline__ void storeOutRun(char *p, const float (&v)[P]) {
    static_assert(P == 4 || P == 8, "4 or 8 pixels");
    if constexpr (Half) {
        uint32_t q[P / 2];
#pragma unroll
        for (int j = 0; j < P / 2; ++j) {
            const __half2 h = __floats2half2_rn(v[2 * j], v[2 * j + 1]);
            q[j] = *reinterpret_cast<const uint32_t *>(&h);
        }
        if constexpr (P == 4) __stcs(reinterpret_cast<uint2 *>(p), make_uint2(q[0], q[1]));
        if constexpr (P == 8) __stcs(reinterpret_cast<uint4 *>(p), make_uint4(q[0], q[1], q[2], q[3]));
    } else {
#pragma unroll
        for (int j = 0; j < P; j += 4) __stcs(reinterpret_cast<float4 *>(p) + j / 4, make_float4(v[j], v[j + 1], v[j + 2], v[j + 3]));
    }
}

// Each thread computes kFusedPixels consecutive pixels of a crop row (the row's taps are computed once and its
// loads are in flight together) and, when the output is planar (NCHW / CHW: neighbours one element apart) and
// aligned, writes each channel's pixels as one vector store; blocks of 8 x 32 threads cover 32 x 32 pixels.
constexpr int kFusedPixels = 4, kFusedBlockX = 8, kFusedBlockY = 32;

template <int I, bool Half, int CT> __global__ void __launch_bounds__(kFusedBlockX *kFusedBlockY) fusedKernel(FusedParams p, Mapping m) {
    constexpr int64_t kElem = Half ? 2 : 4;
    const int64_t w = p.dst.shape[kW], h = p.dst.shape[kH], nImages = p.dst.shape[kN];
    const int64_t x0 = (static_cast<int64_t>(blockIdx.x) * kFusedBlockX + threadIdx.x) * kFusedPixels;
    if (x0 >= w) return;
    const bool planar = p.dst.stride[kW] == kElem;
    for (int64_t y = static_cast<int64_t>(blockIdx.y) * kFusedBlockY + threadIdx.y; y < h; y += int64_t(gridDim.y) * kFusedBlockY)
        for (int64_t n = blockIdx.z; n < nImages; n += gridDim.z) {
            char *row = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH];
            const Plane src = planeOf(p.src, n);
            // The converted values by source channel (indices stay compile-time: no local memory).
            float v[kFusedPixels][CT] = {};
#pragma unroll
            for (int j = 0; j < kFusedPixels; ++j) {
                if (x0 + j >= w) break;
                samplePixel<uint8_t, I>(m, src, static_cast<int32_t>(x0 + j) + p.cropX, static_cast<int32_t>(y) + p.cropY, CT,
                                        [&](int32_t c, uint8_t u, float real) {
#pragma unroll
                                            for (int k = 0; k < CT; ++k)
                                                if (k == c) v[j][k] = p.srcCast ? static_cast<float>(u) : real;
                                        });
            }
#pragma unroll
            for (int o = 0; o < CT; ++o) {
                float q[kFusedPixels];
#pragma unroll
                for (int j = 0; j < kFusedPixels; ++j) {
                    const float value = p.reverseChannels ? v[j][CT - 1 - o] : v[j][o];
                    q[j] = fusedValue(p, o, value);
                }
                char *out = row + o * p.dst.stride[kC] + x0 * p.dst.stride[kW];
                if (planar && x0 + kFusedPixels <= w && (reinterpret_cast<uintptr_t>(out) & (kFusedPixels * kElem - 1)) == 0) {
                    storeOut4<Half>(out, q);
                } else {
#pragma unroll
                    for (int j = 0; j < kFusedPixels; ++j)
                        if (x0 + j < w) storeOut<Half>(out + j * p.dst.stride[kW], q[j]);
                }
            }
        }
}

// The pair path (fusedPairsTake): one pixel of one image per thread and warps along 32 consecutive pixels of one crop
// row, so each load instruction of a warp reads one stretch of one source row and each channel's store into a planar
// output is one 128-byte line. A pixel reads each of its two source rows' pixel pairs as at most 3 aligned words, both
// rows' words in flight together (fetchPairs), where the general kernel loads 12 bytes one by one. No loops: the grid
// covers the crop (launchResizeFusedPairs launches once per grid's worth of rows and images), which keeps the kernel in
// 27-32 registers, so 16 blocks of 128 threads fill an SM. Measured on an H200, ImageNet chain of 32 x 1080x1920x3
// (bench/probes/fused_paths.cu, logs/probe-fused_paths-refstyle.log and -shapes.log): 32 x 8 threads with 4 rows a
// thread grid-stride (the shape before) 30.1 µs; grid-stride loops over rows and images in 32 x 4 blocks 30.8 (38
// registers: 12 blocks an SM); the loop-free kernel in 32 x 4 blocks 27.5, in 32 x 8, 16 x 16 (the reference library's
// block for its fused call) and 64 x 4 27.8-28.4; with fetchPairs 26.5 (logs/probe-fused_paths-final.log).
// (Those probe figures let one call in five find its source in L2, which the probe no longer does; the benchmark,
// where no call does, measured this kernel at 26.6 µs.)
constexpr int kPairBlockX = 32, kPairBlockY = 4;

template <bool Half, int C> __global__ void __launch_bounds__(kPairBlockX *kPairBlockY) fusedPairsKernel(FusedParams p, Mapping m) {
    const int32_t x = static_cast<int32_t>(blockIdx.x) * kPairBlockX + static_cast<int32_t>(threadIdx.x);
    const int32_t y = static_cast<int32_t>(blockIdx.y) * kPairBlockY + static_cast<int32_t>(threadIdx.y);
    if (x >= p.dst.shape[kW] || y >= p.dst.shape[kH]) return;
    const int64_t n = blockIdx.z;
    const PairTaps tx = pairTaps(m.x, x + p.cropX), ty = pairTaps(m.y, y + p.cropY);
    const int64_t rowBytes = int64_t(m.x.src) * C;
    const char *image = p.src.data + n * p.src.stride[kN];
    PixelPair r0, r1;
    waitPriorGrid(); // launched overlapping the previous kernel (launchResizeFusedPairs): no global access before
    fetchPairs<C>(reinterpret_cast<const uint8_t *>(image + ty.i0 * p.src.stride[kH]), reinterpret_cast<const uint8_t *>(image + ty.i1 * p.src.stride[kH]),
                  rowBytes, tx.i0, tx.i1, r0, r1);
    float v[C];
    pairValues<C>(r0, r1, tx, ty, p.srcCast, v);
    char *out = p.dst.data + n * p.dst.stride[kN] + int64_t(y) * p.dst.stride[kH] + int64_t(x) * p.dst.stride[kW];
#pragma unroll
    for (int o = 0; o < C; ++o) storeOut<Half>(out + o * p.dst.stride[kC], fusedValue(p, o, p.reverseChannels ? v[C - 1 - o] : v[o]));
}

using Kernel = void (*)(FusedParams, Mapping);

// The staged path (resize_fused_staged.cuh). Work item i (of s.items = images x bands) is crop rows
// [band * rows, + rows) of image i / s.bands; its stage holds, in slot 2r, source row ty.i0 of its crop row r and in
// slot 2r + 1 row ty.i1, each the segment's bytes of its row. Every thread issues its share of all 2 * rows
// segments' 16-byte copies before it waits for any, then samples P consecutive pixels of a crop row (their column
// taps computed once per item, every row of the item reusing them) and writes each channel's P values as one store
// where the output is planar and aligned. Depth 1: one stage, one item per block (the grid covers the items). Depth
// 2: two stages, one wave of resident blocks walking the items grid-stride, the next item's copies in flight while
// this one is sampled.
__device__ __forceinline__ void stageItem(const FusedParams &p, const Mapping &m, const FusedStagedShape &s, uint4 *stage, int64_t item) {
    const int64_t n = item / s.bands;
    const int32_t y0 = static_cast<int32_t>(item - n * s.bands) * s.rows;
    const int32_t rows = min(s.rows, static_cast<int32_t>(p.dst.shape[kH]) - y0);
    const int tid = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
    const char *image = p.src.data + n * p.src.stride[kN] + s.segLo;
    for (int32_t r = 0; r < rows; ++r) {
        const PairTaps ty = pairTaps(m.y, y0 + r + p.cropY);
        const char *row0 = image + int64_t(ty.i0) * p.src.stride[kH], *row1 = image + int64_t(ty.i1) * p.src.stride[kH];
        uint4 *slot0 = stage + 2 * r * s.segChunks, *slot1 = slot0 + s.segChunks;
        for (int k = tid; k < s.segChunks; k += threads) {
            bandCopy16(reinterpret_cast<uint8_t *>(slot0 + k), reinterpret_cast<const uint8_t *>(row0 + 16 * k));
            bandCopy16(reinterpret_cast<uint8_t *>(slot1 + k), reinterpret_cast<const uint8_t *>(row1 + 16 * k));
        }
    }
}

template <bool Half, int C, int P>
__device__ __forceinline__ void sampleItem(const FusedParams &p, const Mapping &m, const FusedStagedShape &s, const uint4 *stage, int64_t item) {
    constexpr int64_t kElem = Half ? 2 : 4;
    const int32_t w = static_cast<int32_t>(p.dst.shape[kW]);
    const int64_t n = item / s.bands;
    const int32_t y0 = static_cast<int32_t>(item - n * s.bands) * s.rows;
    const int32_t rows = min(s.rows, static_cast<int32_t>(p.dst.shape[kH]) - y0);
    const bool planar = p.dst.stride[kW] == kElem;
    for (int32_t x0 = threadIdx.x * P; x0 < w; x0 += blockDim.x * P) {
        int32_t offset[P], w0[P], w1[P];
#pragma unroll
        for (int j = 0; j < P; ++j) {
            const PairTaps tx = pairTaps(m.x, min(x0 + j, w - 1) + p.cropX);
            offset[j] = tx.i0 * C - s.segLo;
            w0[j] = tx.w0;
            w1[j] = tx.w1;
        }
        for (int32_t r = threadIdx.y; r < rows; r += blockDim.y) {
            const PairTaps ty = pairTaps(m.y, y0 + r + p.cropY);
            const auto *slot0 = reinterpret_cast<const uint32_t *>(stage + 2 * r * s.segChunks);
            const uint32_t *slot1 = slot0 + 4 * s.segChunks;
            float v[P][C];
#pragma unroll
            for (int j = 0; j < P; ++j)
                pairValues<C>(stagedPair<C>(slot0, offset[j]), stagedPair<C>(slot1, offset[j]), PairTaps{0, 0, w0[j], w1[j]}, ty, p.srcCast, v[j]);
            char *row = p.dst.data + n * p.dst.stride[kN] + int64_t(y0 + r) * p.dst.stride[kH] + int64_t(x0) * p.dst.stride[kW];
#pragma unroll
            for (int o = 0; o < C; ++o) {
                float q[P];
#pragma unroll
                for (int j = 0; j < P; ++j) q[j] = fusedValue(p, o, p.reverseChannels ? v[j][C - 1 - o] : v[j][o]);
                char *out = row + o * p.dst.stride[kC];
                if (planar && x0 + P <= w && (reinterpret_cast<uintptr_t>(out) & (P * kElem - 1)) == 0) {
                    storeOutRun<Half, P>(out, q);
                } else {
#pragma unroll
                    for (int j = 0; j < P; ++j)
                        if (x0 + j < w) storeOut<Half>(out + j * p.dst.stride[kW], q[j]);
                }
            }
        }
    }
}

template <bool Half, int C, int P, int Depth>
__global__ void __launch_bounds__(256) fusedStagedKernel(FusedParams p, Mapping m, FusedStagedShape s) {
    extern __shared__ uint4 stage[];
    if constexpr (Depth == 1) {
        for (int64_t item = blockIdx.x; item < s.items; item += gridDim.x) {
            if (item != blockIdx.x) __syncthreads(); // the previous item's rows are read
            stageItem(p, m, s, stage, item);
            bandCommit();
            bandWait<0>();
            __syncthreads();
            sampleItem<Half, C, P>(p, m, s, stage, item);
        }
    } else {
        const int32_t stageChunks = 2 * s.rows * s.segChunks;
        int64_t item = blockIdx.x;
        if (item < s.items) stageItem(p, m, s, stage, item);
        bandCommit();
        for (int buffer = 0; item < s.items; item += gridDim.x, buffer ^= 1) {
            // The next item's copies go to the other stage (its rows were read before the last barrier).
            if (item + gridDim.x < s.items) stageItem(p, m, s, stage + (buffer ^ 1) * stageChunks, item + gridDim.x);
            bandCommit();
            bandWait<1>(); // all but the newest group: this item's copies
            __syncthreads();
            sampleItem<Half, C, P>(p, m, s, stage + buffer * stageChunks, item);
            __syncthreads();
        }
    }
}

// The staged path's variants (FusedStagedShape: bx, by, rows, pixels, depth), at most 256 threads and 48 KiB of
// shared memory a block. Shared memory decides residency: the ImageNet chain's segments are 5040 bytes, so 4 rows
// stage 40 KiB and 5 blocks fit an SM (4 by registers at 256 threads), each depth-1 variant about 20 crop rows
// staged per SM; they differ in the blocks' granularity (the last wave's tail) and the pixels per thread (stores of
// 16 or 32 bytes, taps per thread). The depth-2 variants keep a block's next copies in flight while it samples, at
// half the rows per stage, and have no tail but the last items'.
// Why a staged path: the ImageNet chain (32x1080x1920x3 -> 256x256, crop 224) must move ~72 MB of source sectors and
// 19.3 MB of output (~22 µs at the H200's 4.1 TB/s copy speed), and Nsight Compute found the pair path (29.7 µs) at
// 52 % of DRAM bandwidth with 61 % occupancy: a few 4-byte loads in flight per thread, one crop row at a time. Staging
// whole 16-byte chunks of the rows' segments puts a block's rows in flight at once; measured (kFusedStagedVariant's
// figures in resize.hpp) it ties the pair path on that chain and wins on 64x720x1280 and 32x480x640.
struct StagedVariant {
    int32_t bx, by, rows, pixels, depth;
};
constexpr StagedVariant kFusedStagedVariants[] = {
    {64, 4, 4, 4, 1}, // 256 threads, 4 crop rows a block
    {64, 2, 2, 4, 1}, // 128 threads, 2 rows
    {64, 1, 1, 4, 1}, // 64 threads, 1 row
    {32, 4, 4, 8, 1}, // 128 threads, 4 rows, 8 pixels a thread
    {64, 2, 2, 4, 2}, // 128 threads, 2 rows a stage, two stages, one wave of blocks
    {64, 1, 1, 4, 2}, // 64 threads, 1 row a stage, two stages
    {32, 2, 2, 8, 2}, // 64 threads, 2 rows a stage, 8 pixels a thread, two stages
};
constexpr int32_t kStagedVariantCount = int32_t(sizeof(kFusedStagedVariants) / sizeof(kFusedStagedVariants[0]));
static_assert(kFusedStagedVariant >= -1 && kFusedStagedVariant < kStagedVariantCount, "kFusedStagedVariant names a variant or -1");

using StagedKernel = void (*)(FusedParams, Mapping, FusedStagedShape);

// kStagedKernels[half][channels - 1][pixels 4, 8][depth - 1]: every entry filled.
template <bool Half, int C> constexpr std::array<std::array<StagedKernel, 2>, 2> stagedPixelRows() {
    return {{{&fusedStagedKernel<Half, C, 4, 1>, &fusedStagedKernel<Half, C, 4, 2>}, {&fusedStagedKernel<Half, C, 8, 1>, &fusedStagedKernel<Half, C, 8, 2>}}};
}
using StagedByPixels = std::array<std::array<StagedKernel, 2>, 2>;
template <bool Half> constexpr std::array<StagedByPixels, kFusedMaxChannels> stagedChannelRows() {
    return {stagedPixelRows<Half, 1>(), stagedPixelRows<Half, 2>(), stagedPixelRows<Half, 3>(), stagedPixelRows<Half, 4>()};
}
const std::array<std::array<StagedByPixels, kFusedMaxChannels>, 2> kStagedKernels = {stagedChannelRows<false>(), stagedChannelRows<true>()};
StagedKernel stagedKernelOf(const FusedParams &p, const FusedStagedShape &s) {
    return kStagedKernels[p.halfOut][p.src.shape[kC] - 1][s.pixels == 8][s.depth - 1];
}

// The staged segment of C-channel rows for taps [firstTap, lastTap] (stagedSegment with C a runtime value).
StagedSegment stagedSegmentOf(int64_t c, int32_t firstTap, int32_t lastTap) {
    switch (c) {
    case 1: return stagedSegment<1>(firstTap, lastTap);
    case 2: return stagedSegment<2>(firstTap, lastTap);
    case 3: return stagedSegment<3>(firstTap, lastTap);
    default: return stagedSegment<4>(firstTap, lastTap);
    }
}

// kPairKernels[half][channels - 1]: every entry filled.
const std::array<std::array<Kernel, kFusedMaxChannels>, 2> kPairKernels = {{
    {&fusedPairsKernel<false, 1>, &fusedPairsKernel<false, 2>, &fusedPairsKernel<false, 3>, &fusedPairsKernel<false, 4>},
    {&fusedPairsKernel<true, 1>, &fusedPairsKernel<true, 2>, &fusedPairsKernel<true, 3>, &fusedPairsKernel<true, 4>},
}};

// kernels[half][interp][channels - 1]: every entry filled (each channel count compiled as a constant).
template <int I, bool Half> constexpr std::array<Kernel, kFusedMaxChannels> channelRow() {
    return {&fusedKernel<I, Half, 1>, &fusedKernel<I, Half, 2>, &fusedKernel<I, Half, 3>, &fusedKernel<I, Half, 4>};
}
template <bool Half, size_t... I> constexpr auto interpRows(std::index_sequence<I...>) {
    return std::array<std::array<Kernel, kFusedMaxChannels>, sizeof...(I)>{channelRow<int(I), Half>()...};
}

const std::array<std::array<std::array<Kernel, kFusedMaxChannels>, kInterpCount>, 2> kKernels = {
    interpRows<false>(std::make_index_sequence<kInterpCount>{}),
    interpRows<true>(std::make_index_sequence<kInterpCount>{}),
};

// Blocks covering the crop's columns, `rowsPerBlock` crop rows each and one image each, both capped at 65535: the
// general kernel loops over rows and images grid-stride; the pair kernel has no loops, so launchResizeFusedPairs
// launches it on parts of at most 65535 row tiles and 65535 images, which these caps never cut.
dim3 fusedGrid(const FusedParams &p, int64_t colsPerBlock, int64_t rowsPerBlock) {
    return dim3(static_cast<unsigned>((p.dst.shape[kW] + colsPerBlock - 1) / colsPerBlock),
                static_cast<unsigned>(std::min<int64_t>((p.dst.shape[kH] + rowsPerBlock - 1) / rowsPerBlock, 65535)),
                static_cast<unsigned>(std::min<int64_t>(p.dst.shape[kN], 65535)));
}

} // namespace

bool fusedPairsTake(const FusedParams &p) {
    const int64_t c = p.src.shape[kC];
    return p.interp == kLinear && p.torchMode < 0 && c >= 1 && c <= kFusedMaxChannels && p.src.stride[kW] == c &&
           (c == 1 || p.src.stride[kC] == 1);
}

int32_t fusedStagedVariantCount() { return kStagedVariantCount; }

bool planFusedStaged(const FusedParams &p, FusedStagedShape &shape, int32_t variant) {
    if (variant < 0 || variant >= kStagedVariantCount || !fusedPairsTake(p)) return false;
    const int64_t c = p.src.shape[kC], rowBytes = p.src.shape[kW] * c;
    if ((reinterpret_cast<uintptr_t>(p.src.data) & 15) != 0 || p.src.stride[kH] % 16 != 0 || p.src.stride[kN] % 16 != 0) return false;
    if (p.dst.shape[kW] < 1 || p.dst.shape[kH] < 1 || p.resizeW < 1 || p.resizeH < 1) return false;
    const Axis x = makeAxis(static_cast<int32_t>(p.src.shape[kW]), p.resizeW);
    const StagedSegment seg = stagedSegmentOf(c, pairTaps(x, p.cropX).i0, pairTaps(x, p.cropX + static_cast<int32_t>(p.dst.shape[kW]) - 1).i0);
    if (seg.hi > rowBytes) return false;
    const StagedVariant &v = kFusedStagedVariants[variant];
    const int64_t chunks = (seg.hi - seg.lo) / 16, maxRows = (48 * 1024) / (v.depth * 2 * 16 * chunks);
    if (maxRows < 1) return false;
    shape.variant = variant;
    shape.bx = v.bx;
    shape.by = v.by;
    shape.rows = static_cast<int32_t>(std::min<int64_t>({v.rows, maxRows, p.dst.shape[kH]}));
    shape.pixels = v.pixels;
    shape.depth = v.depth;
    shape.segLo = static_cast<int32_t>(seg.lo);
    shape.segChunks = static_cast<int32_t>(chunks);
    shape.smemBytes = v.depth * 2 * shape.rows * shape.segChunks * 16;
    shape.bands = (p.dst.shape[kH] + shape.rows - 1) / shape.rows;
    shape.items = p.dst.shape[kN] * shape.bands;
    return true;
}

cudaError_t launchResizeFusedStaged(const FusedParams &p, const FusedStagedShape &shape, cudaStream_t stream) {
    if (shape.items == 0) return cudaSuccess;
    const StagedKernel k = stagedKernelOf(p, shape);
    int64_t blocks = shape.items;
    if (shape.depth > 1) {
        int resident = 0;
        if (const cudaError_t err = residentResizeBlocks(reinterpret_cast<const void *>(k), shape.bx * shape.by, shape.smemBytes, resident);
            err != cudaSuccess)
            return err;
        blocks = std::min<int64_t>(blocks, resident);
    }
    k<<<static_cast<unsigned>(std::min<int64_t>(blocks, kMaxGridX)), dim3(shape.bx, shape.by), shape.smemBytes, stream>>>(
        p, mappingOf(p.src, p.resizeH, p.resizeW, p.interp), shape);
    return cudaGetLastError();
}

cudaError_t launchResizeFusedGeneral(const FusedParams &p, cudaStream_t stream) {
    if (p.interp < 0 || p.interp >= kInterpCount || p.src.shape[kC] < 1 || p.src.shape[kC] > kFusedMaxChannels) return cudaErrorInvalidValue;
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    const Kernel k = kKernels[p.halfOut][p.interp][p.src.shape[kC] - 1];
    k<<<fusedGrid(p, int64_t(kFusedBlockX) * kFusedPixels, kFusedBlockY), dim3(kFusedBlockX, kFusedBlockY), 0, stream>>>(p, mappingOf(p.src, p.resizeH, p.resizeW, p.interp));
    return cudaGetLastError();
}

cudaError_t launchResizeFusedPairs(const FusedParams &p, cudaStream_t stream) {
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    const Kernel k = kPairKernels[p.halfOut][p.src.shape[kC] - 1];
    const Mapping m = mappingOf(p.src, p.resizeH, p.resizeW, p.interp);
    static Sm90CodeCache known;
    const bool overlap = sm90CodeOnDevice(reinterpret_cast<const void *>(k), known); // overlap_launch.cuh
    // The kernel has no loops: one launch per grid's worth (65535 row tiles, 65535 images), each on its part of the crop
    // (the taps follow cropY; the mapping is the whole resize's). Each launch may overlap the kernel before it in the
    // stream (overlap_launch.cuh): its taps are computed while that kernel drains, its loads wait for it.
    const int64_t rowsPerLaunch = int64_t(65535) * kPairBlockY, imagesPerLaunch = 65535;
    for (int64_t n0 = 0; n0 < p.dst.shape[kN]; n0 += imagesPerLaunch)
        for (int64_t y0 = 0; y0 < p.dst.shape[kH]; y0 += rowsPerLaunch) {
            FusedParams q = p;
            q.src.data += n0 * p.src.stride[kN];
            q.dst.data += n0 * p.dst.stride[kN] + y0 * p.dst.stride[kH];
            q.dst.shape[kN] = std::min(imagesPerLaunch, p.dst.shape[kN] - n0);
            q.dst.shape[kH] = std::min(rowsPerLaunch, p.dst.shape[kH] - y0);
            q.cropY = p.cropY + static_cast<int32_t>(y0);
            if (const cudaError_t err = launchOverlapped(overlap, k, fusedGrid(q, kPairBlockX, kPairBlockY), dim3(kPairBlockX, kPairBlockY), 0, stream, q, m);
                err != cudaSuccess)
                return err;
        }
    return cudaSuccess;
}

bool fusedStagedPreferred(const FusedParams &p) {
    return fusedPairsTake(p) && p.src.shape[kC] <= 3 && p.src.shape[kW] < kFusedPairsFromScaleX * int64_t(p.resizeW);
}

cudaError_t launchResizeFused(const FusedParams &p, cudaStream_t stream) {
    if (!fusedPairsTake(p)) return launchResizeFusedGeneral(p, stream);
    if (FusedStagedShape shape{}; fusedStagedPreferred(p) && planFusedStaged(p, shape, kFusedStagedVariant))
        return launchResizeFusedStaged(p, shape, stream);
    return launchResizeFusedPairs(p, stream);
}

cudaError_t preloadResizeFusedKernels() {
    cudaError_t err = preloadKernelTable(kKernels);
    if (err == cudaSuccess) err = preloadKernelTable(kPairKernels);
    return err == cudaSuccess ? preloadKernelTable(kStagedKernels) : err;
}

} // namespace cvk
