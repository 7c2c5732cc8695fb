// Colour conversion kernels (cvCvtColor) and their dispatch. Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

enum class ColorElem : int32_t { U8, U16, F16, F32 };

enum class ColorOp : int32_t {
    Permute,   // dst channel c = src channel map[c], or the dtype's maximum (alpha) where map[c] < 0
    ToGray,    // dst = weights . src (channels bIdx = blue, 1 = green, 2 - bIdx = red)
    ToGrayTorchvision, // the same channels, torchvision's weights and arithmetic (see grayTorchvision in cvtcolor.cu)
    YuvDecode, // 4:2:0 src (u8) to RGB(A)/BGR(A)
    YuvEncode, // RGB(A)/BGR(A) (u8) to NV12 / NV21
};

enum class ChromaLayout : int32_t {
    SemiPlanar, // NV12 / NV21: one plane of (U, V) or (V, U) pairs
    Planar,     // I420 / YV12: two planes, two chroma rows per tensor row
};

// Fixed-point (20-bit) YUV matrices: decode R = (cy * max(Y - yOffset, 0) + cvr * (V - 128) + 2^19) >> 20, ...
struct YuvCoefficients {
    int32_t yOffset;                  // 16 (limited range) or 0 (full range)
    int32_t cy, cvr, cug, cvg, cub;   // decode
    int32_t cry, cgy, cby;            // encode Y: (cry R + cgy G + cby B + 2^19 + (yOffset << 20)) >> 20
    int32_t cru, cgu, cbu, crv, cgv, cbv; // encode U, V (around 128)
};

// One conversion over images [n][h][w] (pixels of the RGB side for the YUV ops). The views are canonical [N, H, W, C]
// with byte strides; the YUV side has h * 3 / 2 rows and one channel.
struct CvtColorParams {
    View4 src, dst;
    int64_t n, h, w;
    int32_t srcChannels, dstChannels;
    ColorElem elem;
    ColorOp op;
    int32_t map[4];     // Permute
    int32_t blueIndex;  // ToGray, YUV: channel of blue on the RGB side (0 for BGR, 2 for RGB)
    ChromaLayout chroma;
    int32_t uFirst;     // YUV: 1 when U precedes V (NV12, I420), 0 otherwise (NV21, YV12)
    YuvCoefficients yuv;
};

// Enqueues the conversion on `stream`; returns the launch status (never blocks the host).
cudaError_t launchCvtColor(const CvtColorParams &p, cudaStream_t stream);

// Loads the kernels on the current device (see preloadFlipKernels for why).
cudaError_t preloadCvtColorKernels();

} // namespace cvk
