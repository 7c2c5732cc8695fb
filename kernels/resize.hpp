// Resize kernels (cvResize) and the fused resize -> crop -> convert -> normalize -> reformat pass, and their dispatch.
// Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

namespace resize {
// Interpolations, in the order of the dispatch tables (semantics: resize_filters.cuh).
enum Interp : int32_t { kNearest = 0, kNearestFloor, kLinear, kCubic, kArea, kInterpCount };
// PyTorch's interpolate modes (torchvision's resize), in the order of their dispatch table.
enum TvMode : int32_t { kTvNearest = 0, kTvNearestFloor, kTvLinear, kTvCubic, kTvLinearAA, kTvCubicAA, kTvModeCount };
} // namespace resize

// Element types the resize kernels handle, in the order of the dispatch tables.
enum ResizeType : int32_t { kResizeU8 = 0, kResizeU16, kResizeS16, kResizeF16, kResizeF32, kResizeTypeCount };

struct ResizeParams {
    View4 src, dst; // [N, H, W, C] with byte strides (common/view.hpp): same N and C and element type; H, W >= 1
    int32_t type;        // ResizeType
    int32_t interp;      // cvk::resize::Interp (OpenCV semantics), or -1 when torchMode is used
    int32_t torchMode;   // cvk::resize::TvMode (PyTorch semantics), or -1 when interp is used
};

// Enqueues the resize on `stream`; returns the launch status. Never blocks the host.
cudaError_t launchResize(const ResizeParams &p, cudaStream_t stream);

// The fused preprocessing pass: dst[n, y, x, c'] = normalize(convert(crop(resize(src))))[c'] where
//   resized  = resize(src[n]) to (resizeH, resizeW) with `interp` (the sampler of cvResize, bit for bit),
//   value    = resized[y + cropY, x + cropX, c] with c = c' or C-1-c' (reverseChannels), rounded to uint8 first
//              when srcCast (the reference library's default), else the unrounded interpolation,
//   dst      = (value * scale + offset - mean[c']) / stddev[c'] in float (IEEE division, as torchvision's
//              normalize), stored as float or half.
// src is uint8 with 1..4 channels; dst is float32 or float16 in any [N, H, W, C] strides (NHWC or NCHW).
constexpr int kFusedMaxChannels = 4;

struct FusedParams {
    View4 src, dst;           // [N, H, W, C]: dst N and C as src's, H/W the crop's size
    int32_t resizeH, resizeW; // size of the resized image the crop is taken from
    int32_t cropX, cropY;     // crop's top-left corner in the resized image; crop lies inside it
    int32_t interp;           // cvk::resize::Interp
    bool srcCast;
    bool reverseChannels;
    bool halfOut;             // float16 output, else float32
    float scale, offset;
    float mean[kFusedMaxChannels], stddev[kFusedMaxChannels];
};

cudaError_t launchResizeFused(const FusedParams &p, cudaStream_t stream);

// Loads every resize kernel on the current device (see preloadFlipKernels for why).
cudaError_t preloadResizeKernels();
cudaError_t preloadResizeFusedKernels(); // part of preloadResizeKernels

} // namespace cvk
