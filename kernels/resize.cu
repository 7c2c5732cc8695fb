// cvResize's and cvResizeTorchvision's kernels: one per (element type, interpolation, channel variant), all built on the shared sampler of
// resize_filters.cuh, dispatched through one table without holes; the shapes planResizeLinear accepts go to the
// periodic LINEAR path (resize_linear.cu), those planResizeNearest accepts to the periodic NEAREST path
// (resize_nearest.cu), then those planResizeBand accepts and resizeBandPreferred prefers to the
// band path (resize_band.cu), then those planResizeCubic takes and resizeCubicPreferred prefers to the separable
// CUBIC path (resize_cubic.cu), then those planResizeRows accepts to the row paths (resize_rows.cu), then the AREA
// shapes planResizeArea accepts to the AREA row path (resize_area.cu: on sm_90 and later its ring kernel where
// planResizeAreaRing takes the shape and resizeAreaRingPreferred prefers it, else its warp kernel where
// planResizeAreaWarp takes it; else its block kernel), then those
// planResizeTile accepts to the tiled path (resize_tiled.cu), and those
// planTvResizeTile accepts to the separable antialiased path (resize_tv.cu): all compute the same values.
#include "resize.hpp"
#include "resize_launch.cuh"

#include <cuda_fp16.h>

#include <array>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

template <class T, int I, int CT> __global__ void __launch_bounds__(kBlockX *kBlockY) resizeKernel(ResizeParams p, Mapping m) {
    const int32_t C = CT > 0 ? CT : static_cast<int32_t>(p.src.shape[kC]);
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t dx, int32_t dy) {
        char *out = p.dst.data + n * p.dst.stride[kN] + dy * p.dst.stride[kH] + dx * p.dst.stride[kW];
        samplePixel<T, I>(m, planeOf(p.src, n), dx, dy, C, [&](int32_t c, T v, float) {
            *reinterpret_cast<T *>(out + c * p.dst.stride[kC]) = v;
        });
    });
}

template <class T, int M, int CT> __global__ void __launch_bounds__(kBlockX *kBlockY) torchKernel(ResizeParams p, Mapping m) {
    const int32_t C = CT > 0 ? CT : static_cast<int32_t>(p.src.shape[kC]);
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t dx, int32_t dy) {
        char *out = p.dst.data + n * p.dst.stride[kN] + dy * p.dst.stride[kH] + dx * p.dst.stride[kW];
        sampleTorch<T, M>(m.x, m.y, planeOf(p.src, n), dx, dy, C, [&](int32_t c, T v, float) {
            *reinterpret_cast<T *>(out + c * p.dst.stride[kC]) = v;
        });
    });
}

using Kernel = void (*)(ResizeParams, Mapping);

using Variants = std::array<Kernel, kChannelVariantCount>;

template <class T, int I, bool Torch, int CT> constexpr Kernel kernelOf() {
    if constexpr (Torch)
        return &torchKernel<T, I, CT>;
    else
        return &resizeKernel<T, I, CT>;
}
template <class T, int I, bool Torch, size_t... V> constexpr Variants channelRow(std::index_sequence<V...>) {
    return Variants{kernelOf<T, I, Torch, kChannelVariants[V]>()...};
}
template <class T, bool Torch, size_t... I> constexpr auto modeRows(std::index_sequence<I...>) {
    return std::array<Variants, sizeof...(I)>{channelRow<T, int(I), Torch>(std::make_index_sequence<kChannelVariantCount>{})...};
}
template <bool Torch, int Modes> constexpr auto typeRows() {
    using Seq = std::make_index_sequence<Modes>;
    return std::array<std::array<Variants, Modes>, kResizeTypeCount>{
        modeRows<uint8_t, Torch>(Seq{}), modeRows<uint16_t, Torch>(Seq{}), modeRows<int16_t, Torch>(Seq{}),
        modeRows<__half, Torch>(Seq{}), modeRows<float, Torch>(Seq{})};
}

// kernels[type][interp or torch mode][channel variant]: every entry filled.
const auto kKernels = typeRows<false, kInterpCount>();
const auto kTorchKernels = typeRows<true, kTvModeCount>();

} // namespace

cudaError_t launchResize(const ResizeParams &p, cudaStream_t stream) {
    const bool torch = p.torchMode >= 0;
    if (p.type < 0 || p.type >= kResizeTypeCount || (torch ? p.torchMode >= kTvModeCount : (p.interp < 0 || p.interp >= kInterpCount)))
        return cudaErrorInvalidValue;
    if (p.dst.shape[kN] == 0 || p.dst.shape[kH] == 0 || p.dst.shape[kW] == 0 || p.dst.shape[kC] == 0) return cudaSuccess;
    ResizeLinearShape linear;
    if (planResizeLinear(p, linear)) return launchResizeLinear(p, linear, stream);
    ResizeNearestShape nearest; // the periodic NEAREST path; without the next line its shapes take the band path
    if (planResizeNearest(p, nearest)) return launchResizeNearest(p, nearest, stream);
    ResizeBandShape band;
    if (resizeBandPreferred(p) && planResizeBand(p, band)) return launchResizeBand(p, band, stream);
    ResizeCubicShape cubic;
    if (planResizeCubic(p, cubic) && resizeCubicPreferred(p, cubic)) return launchResizeCubic(p, cubic, stream);
    ResizeRowShape rows;
    if (planResizeRows(p, rows)) return launchResizeRows(p, rows, stream);
    ResizeAreaShape area;
    if (p.interp == kArea && planResizeArea(p, area)) {
        if (resizeBulkCopyDevice()) {
            ResizeAreaShape ring, warp;
            if (resizeAreaRingPreferred(area) && planResizeAreaRing(p, area, ring)) return launchResizeArea(p, ring, stream);
            if (planResizeAreaWarp(p, area, warp)) return launchResizeArea(p, warp, stream);
        }
        return launchResizeArea(p, area, stream);
    }
    ResizeTileShape tile;
    if (planResizeTile(p, tile)) return launchResizeTiled(p, tile, stream);
    TvTileShape tvTile;
    if (planTvResizeTile(p, tvTile)) return launchTvResizeTiled(p, tvTile, stream);
    const int v = channelVariant(p.src.shape[kC]);
    const Kernel k = torch ? kTorchKernels[p.type][p.torchMode][v] : kKernels[p.type][p.interp][v];
    k<<<gridFor(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN]), dim3(kBlockX, kBlockY), 0, stream>>>(p, mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp));
    return cudaGetLastError();
}

cudaError_t preloadResizeKernels() {
    cudaError_t err = preloadKernelTable(kKernels);
    if (err == cudaSuccess) err = preloadKernelTable(kTorchKernels);
    if (err == cudaSuccess) err = preloadResizeTiledKernels();
    if (err == cudaSuccess) err = preloadTvResizeKernels();
    if (err == cudaSuccess) err = preloadResizeRowKernels();
    if (err == cudaSuccess) err = preloadResizeBandKernels();
    if (err == cudaSuccess) err = preloadResizeLinearKernels();
    if (err == cudaSuccess) err = preloadResizeNearestKernels();
    if (err == cudaSuccess) err = preloadResizeCubicKernels();
    if (err == cudaSuccess) err = preloadResizeAreaKernels();
    return err == cudaSuccess ? preloadResizeFusedKernels() : err;
}

} // namespace cvk
