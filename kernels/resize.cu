// cvResize's kernels: one per (element type, interpolation, channel variant), all built on the shared sampler of
// resize_filters.cuh, dispatched through one table without holes.
#include "resize.hpp"
#include "resize_launch.cuh"

#include <cuda_fp16.h>

#include <array>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

template <class T, int I, int CT> __global__ void __launch_bounds__(kBlockX *kBlockY) resizeKernel(ResizeParams p, Mapping m) {
    const int32_t C = CT > 0 ? CT : static_cast<int32_t>(p.src.c);
    forEachPixel(p.dst.w, p.dst.h, p.dst.n, [&](int64_t n, int32_t dx, int32_t dy) {
        char *out = p.dst.data + n * p.dst.strideN + dy * p.dst.strideH + dx * p.dst.strideW;
        samplePixel<T, I>(m, planeOf(p.src, n), dx, dy, C, [&](int32_t c, T v, float) {
            *reinterpret_cast<T *>(out + c * p.dst.strideC) = v;
        });
    });
}

using Kernel = void (*)(ResizeParams, Mapping);

template <class T, int I, size_t... V> constexpr auto channelRow(std::index_sequence<V...>) {
    return std::array<Kernel, sizeof...(V)>{&resizeKernel<T, I, kChannelVariants[V]>...};
}
template <class T, size_t... I> constexpr auto interpRow(std::index_sequence<I...>) {
    return std::array<std::array<Kernel, kChannelVariantCount>, sizeof...(I)>{
        channelRow<T, int(I)>(std::make_index_sequence<kChannelVariantCount>{})...};
}
using TypeRow = std::array<std::array<Kernel, kChannelVariantCount>, kInterpCount>;

// kernels[type][interp][channel variant]: every entry filled.
const std::array<TypeRow, kResizeTypeCount> kKernels = {
    interpRow<uint8_t>(std::make_index_sequence<kInterpCount>{}),
    interpRow<uint16_t>(std::make_index_sequence<kInterpCount>{}),
    interpRow<int16_t>(std::make_index_sequence<kInterpCount>{}),
    interpRow<__half>(std::make_index_sequence<kInterpCount>{}),
    interpRow<float>(std::make_index_sequence<kInterpCount>{}),
};

} // namespace

cudaError_t launchResize(const ResizeParams &p, cudaStream_t stream) {
    if (p.type < 0 || p.type >= kResizeTypeCount || p.interp < 0 || p.interp >= kInterpCount) return cudaErrorInvalidValue;
    if (p.dst.n == 0 || p.dst.h == 0 || p.dst.w == 0 || p.dst.c == 0) return cudaSuccess;
    const Kernel k = kKernels[p.type][p.interp][channelVariant(p.src.c)];
    k<<<gridFor(p.dst.w, p.dst.h, p.dst.n), dim3(kBlockX, kBlockY), 0, stream>>>(p, mappingOf(p.src, p.dst.h, p.dst.w, p.interp));
    return cudaGetLastError();
}

cudaError_t preloadResizeKernels() {
    for (const TypeRow &row : kKernels)
        for (const auto &variants : row)
            for (Kernel k : variants) {
                cudaFuncAttributes attributes;
                const cudaError_t err = cudaFuncGetAttributes(&attributes, k);
                if (err != cudaSuccess) return err;
            }
    return preloadResizeFusedKernels();
}

} // namespace cvk
