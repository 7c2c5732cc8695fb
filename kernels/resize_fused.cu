// The fused preprocessing pass (resize -> crop -> convert -> per-channel normalize -> reformat) in one kernel: each
// thread samples four pixels of a crop row with cvResize's own sampler (resize_filters.cuh), so the interpolation is
// the one cvResize computes, and writes their channels straight into the output layout. Only the crop's pixels are
// interpolated; the resized image is never stored. uint8 LINEAR with packed pixels takes the pair path
// (resize_fused_pairs.cuh) instead: the same values, fewer and wider loads.
#include "resize.hpp"
#include "resize_fused_pairs.cuh"
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

// The pair path (fusedPairsTake): one pixel per thread and warps along 32 consecutive pixels of one crop row, so
// each load instruction of a warp reads one stretch of one source row (the general kernel's 8 x 32 threads put four
// crop rows into each warp, so each of its load instructions reaches into four source rows) and each channel's store
// into a planar output is one 128-byte line. A pixel reads each of its two source rows' pixel pairs as at most 3
// aligned words, where the general kernel loads 12 bytes one by one. The column's taps are computed once per thread,
// the row's once per row. bench/probes/fused_paths.cu times it against the general kernel.
constexpr int kPairBlockX = 32, kPairBlockY = 8;
// Crop rows per thread (the grid's y extent is cut by it; the kernel loops over rows grid-stride): measured on an H200
// for the ImageNet chain of 32 x 1080x1920x3 (bench/probes/fused_paths.cu's shape) 31.8 µs with 1, 30.8 with 2,
// 30.1 with 4, 36.6 with 7 (too few blocks); the general kernel 38.3.
constexpr int kPairRowsPerThread = 4;

template <bool Half, int C> __global__ void __launch_bounds__(kPairBlockX *kPairBlockY) fusedPairsKernel(FusedParams p, Mapping m) {
    const int64_t w = p.dst.shape[kW], h = p.dst.shape[kH], nImages = p.dst.shape[kN];
    const int64_t x = static_cast<int64_t>(blockIdx.x) * kPairBlockX + threadIdx.x;
    if (x >= w) return;
    const PairTaps tx = pairTaps(m.x, static_cast<int32_t>(x) + p.cropX);
    const int64_t rowBytes = int64_t(m.x.src) * C;
    for (int64_t y = static_cast<int64_t>(blockIdx.y) * kPairBlockY + threadIdx.y; y < h; y += int64_t(gridDim.y) * kPairBlockY) {
        const PairTaps ty = pairTaps(m.y, static_cast<int32_t>(y) + p.cropY);
        for (int64_t n = blockIdx.z; n < nImages; n += gridDim.z) {
            const char *image = p.src.data + n * p.src.stride[kN];
            const PixelPair r0 = fetchPair<C>(reinterpret_cast<const uint8_t *>(image + ty.i0 * p.src.stride[kH]), rowBytes, tx.i0, tx.i1);
            const PixelPair r1 = fetchPair<C>(reinterpret_cast<const uint8_t *>(image + ty.i1 * p.src.stride[kH]), rowBytes, tx.i0, tx.i1);
            float v[C];
            pairValues<C>(r0, r1, tx, ty, p.srcCast, v);
            char *out = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH] + x * p.dst.stride[kW];
#pragma unroll
            for (int o = 0; o < C; ++o) storeOut<Half>(out + o * p.dst.stride[kC], fusedValue(p, o, p.reverseChannels ? v[C - 1 - o] : v[o]));
        }
    }
}

using Kernel = void (*)(FusedParams, Mapping);

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

// Blocks covering the crop's columns, `rowsPerBlock` crop rows each and one image each, both capped at 65535 (the
// kernels loop over rows and images grid-stride).
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

cudaError_t launchResizeFusedGeneral(const FusedParams &p, cudaStream_t stream) {
    if (p.interp < 0 || p.interp >= kInterpCount || p.src.shape[kC] < 1 || p.src.shape[kC] > kFusedMaxChannels) return cudaErrorInvalidValue;
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    const Kernel k = kKernels[p.halfOut][p.interp][p.src.shape[kC] - 1];
    k<<<fusedGrid(p, int64_t(kFusedBlockX) * kFusedPixels, kFusedBlockY), dim3(kFusedBlockX, kFusedBlockY), 0, stream>>>(p, mappingOf(p.src, p.resizeH, p.resizeW, p.interp));
    return cudaGetLastError();
}

cudaError_t launchResizeFused(const FusedParams &p, cudaStream_t stream) {
    if (!fusedPairsTake(p)) return launchResizeFusedGeneral(p, stream);
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    const Kernel k = kPairKernels[p.halfOut][p.src.shape[kC] - 1];
    k<<<fusedGrid(p, kPairBlockX, int64_t(kPairBlockY) * kPairRowsPerThread), dim3(kPairBlockX, kPairBlockY), 0, stream>>>(p, mappingOf(p.src, p.resizeH, p.resizeW, p.interp));
    return cudaGetLastError();
}

cudaError_t preloadResizeFusedKernels() {
    auto load = [](Kernel k) {
        cudaFuncAttributes attributes;
        return cudaFuncGetAttributes(&attributes, k);
    };
    for (const auto &byInterp : kKernels)
        for (const auto &variants : byInterp)
            for (Kernel k : variants)
                if (const cudaError_t err = load(k); err != cudaSuccess) return err;
    for (const auto &variants : kPairKernels)
        for (Kernel k : variants)
            if (const cudaError_t err = load(k); err != cudaSuccess) return err;
    return cudaSuccess;
}

} // namespace cvk
