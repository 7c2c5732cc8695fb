// Border padding kernels (cvCopyMakeBorder) and their dispatch. Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

enum class BorderKind : int32_t { Constant, Replicate, Reflect, Wrap, Reflect101 };

// dst[n][y][x] = src[n][map(y - top, h)][map(x - left, w)], or the constant pixel. Strides in BYTES (n, h, w, c).
struct CopyMakeBorderParams {
    const char *src;
    char *dst;
    int64_t n, h, w;         // src image size (h or w may be 0 with Constant)
    int64_t dh, dw;          // dst image size
    int64_t top, left;
    int32_t channels, elemSize;
    int64_t srcStrides[4];
    int64_t dstStrides[4];
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
