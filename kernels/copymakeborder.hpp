// Border padding kernels (cvCopyMakeBorder) and their dispatch. Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

enum class BorderKind : int32_t { Constant, Replicate, Reflect, Wrap, Reflect101 };

// dst[n][y][x] = src[n][map(y - top, h)][map(x - left, w)], or the constant pixel. Views canonical [N, H, W, C] with
// byte strides; src's h or w may be 0 with Constant.
struct CopyMakeBorderParams {
    View4 src, dst;
    int64_t top, left;
    int32_t elemSize;
    BorderKind kind;
    unsigned char value[32]; // Constant: one dst pixel (channels * elemSize bytes), already converted
};

// The path launchCopyMakeBorder takes (exposed for CPU tests of the dispatch).
enum class CopyMakeBorderPath {
    Chunks,  // dst C-contiguous and 16-byte aligned, src pixels packed: 16-byte dst vectors, funnel-shifted src words
    Generic, // one element per thread, any strides
};
CopyMakeBorderPath copyMakeBorderPath(const CopyMakeBorderParams &p);

// Enqueues the padding on `stream`; returns the launch status (never blocks the host).
cudaError_t launchCopyMakeBorder(const CopyMakeBorderParams &p, cudaStream_t stream);

cudaError_t preloadCopyMakeBorderKernels();

} // namespace cvk
