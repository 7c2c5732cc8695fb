// The fused preprocessing pass (resize -> crop -> convert -> per-channel normalize -> reformat) in one kernel: each
// thread samples one pixel of the crop with cvResize's own sampler (resize_filters.cuh), so the interpolation is
// the one cvResize computes, and writes its channels straight into the output layout. Only the crop's pixels are
// interpolated; the resized image is never stored.
#include "resize.hpp"
#include "resize_launch.cuh"

#include <cuda_fp16.h>

#include <array>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

template <bool Half> __device__ __forceinline__ void storeOut(char *p, float v) {
    if constexpr (Half)
        *reinterpret_cast<__half *>(p) = __float2half_rn(v);
    else
        *reinterpret_cast<float *>(p) = v;
}

template <int I, bool Half, int CT> __global__ void __launch_bounds__(kBlockX *kBlockY) fusedKernel(FusedParams p, Mapping m) {
    const int32_t C = CT > 0 ? CT : static_cast<int32_t>(p.src.shape[kC]);
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t x, int32_t y) {
        char *out = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH] + x * p.dst.stride[kW];
        samplePixel<uint8_t, I>(m, planeOf(p.src, n), x + p.cropX, y + p.cropY, C, [&](int32_t c, uint8_t v, float real) {
            const int32_t o = p.reverseChannels ? C - 1 - c : c;
            const float value = p.srcCast ? static_cast<float>(v) : real;
            storeOut<Half>(out + o * p.dst.stride[kC], (value * p.scale + p.offset - p.mean[o]) / p.stddev[o]);
        });
    });
}

using Kernel = void (*)(FusedParams, Mapping);
constexpr int kFusedChannelVariants[] = {1, 3, 4, 0};

template <int I, bool Half, size_t... V> constexpr auto channelRow(std::index_sequence<V...>) {
    return std::array<Kernel, sizeof...(V)>{&fusedKernel<I, Half, kFusedChannelVariants[V]>...};
}
template <size_t... I> constexpr auto interpRows(bool half, std::index_sequence<I...>) {
    using Row = std::array<Kernel, 4>;
    return half ? std::array<Row, sizeof...(I)>{channelRow<int(I), true>(std::make_index_sequence<4>{})...}
                : std::array<Row, sizeof...(I)>{channelRow<int(I), false>(std::make_index_sequence<4>{})...};
}

// kernels[half][interp][channel variant]: every entry filled.
const std::array<std::array<std::array<Kernel, 4>, kInterpCount>, 2> kKernels = {
    interpRows(false, std::make_index_sequence<kInterpCount>{}),
    interpRows(true, std::make_index_sequence<kInterpCount>{}),
};

} // namespace

cudaError_t launchResizeFused(const FusedParams &p, cudaStream_t stream) {
    if (p.interp < 0 || p.interp >= kInterpCount || p.src.shape[kC] < 1 || p.src.shape[kC] > kFusedMaxChannels) return cudaErrorInvalidValue;
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    const Kernel k = kKernels[p.halfOut][p.interp][channelVariant(p.src.shape[kC])];
    k<<<gridFor(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN]), dim3(kBlockX, kBlockY), 0, stream>>>(p, mappingOf(p.src, p.resizeH, p.resizeW, p.interp));
    return cudaGetLastError();
}

cudaError_t preloadResizeFusedKernels() {
    for (const auto &byInterp : kKernels)
        for (const auto &variants : byInterp)
            for (Kernel k : variants) {
                cudaFuncAttributes attributes;
                const cudaError_t err = cudaFuncGetAttributes(&attributes, k);
                if (err != cudaSuccess) return err;
            }
    return cudaSuccess;
}

} // namespace cvk
