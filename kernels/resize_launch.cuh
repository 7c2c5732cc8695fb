// The thread/block layout every resize kernel shares: one thread per destination pixel (all its channels), blocks
// of 32 x 8 pixels, grid-stride loops over rows and images so that any size fits CUDA's grid limits; and the
// mapping of a View4 pair onto the sampler's view.
#pragma once

#include "resize.hpp"
#include "resize_filters.cuh"

#include <cuda_fp16.h>

#include <algorithm>

namespace cvk::resize {

constexpr int kBlockX = 32, kBlockY = 8;

// The channel counts compiled as constants (the loops unroll); index 3 takes any count at run time.
constexpr int kChannelVariants[] = {1, 3, 4, 0};
constexpr int kChannelVariantCount = 4;

inline int channelVariant(int64_t c) { return c == 1 ? 0 : c == 3 ? 1 : c == 4 ? 2 : 3; }

inline dim3 gridFor(int64_t w, int64_t h, int64_t n) {
    const int64_t gx = (w + kBlockX - 1) / kBlockX, gy = (h + kBlockY - 1) / kBlockY;
    return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(std::min<int64_t>(gy, 65535)),
                static_cast<unsigned>(std::min<int64_t>(n, 65535)));
}

// Calls body(n, dx, dy) for every destination pixel this thread owns.
template <class Body> __device__ __forceinline__ void forEachPixel(int64_t w, int64_t h, int64_t n, Body &&body) {
    const int64_t dx = static_cast<int64_t>(blockIdx.x) * kBlockX + threadIdx.x;
    if (dx >= w) return;
    for (int64_t dy = static_cast<int64_t>(blockIdx.y) * kBlockY + threadIdx.y; dy < h; dy += int64_t(gridDim.y) * kBlockY)
        for (int64_t i = blockIdx.z; i < n; i += gridDim.z) body(i, static_cast<int32_t>(dx), static_cast<int32_t>(dy));
}

__device__ __forceinline__ Plane planeOf(const View4 &b, int64_t n) {
    return {b.data + n * b.stride[kN], b.stride[kH], b.stride[kW], b.stride[kC]};
}

// The fused pass's value of output channel o (resize.hpp, FusedParams): IEEE division, as torchvision's normalize;
// with offset 0 the product rounds once, as torchvision's to_dtype (the multiply-add of 0 is the product).
__device__ __forceinline__ float fusedValue(const FusedParams &p, int o, float v) {
    return (v * p.scale + p.offset - p.mean[o]) / p.stddev[o];
}

template <bool Half> __device__ __forceinline__ void storeOut(char *p, float v) {
    if constexpr (Half)
        *reinterpret_cast<__half *>(p) = __float2half_rn(v);
    else
        *reinterpret_cast<float *>(p) = v;
}

} // namespace cvk::resize
