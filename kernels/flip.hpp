// Flip kernels and their dispatch. Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

// A flip over a canonical 5-d view [outer1, outer0, height, width, inner] of src and dst (same shape).
// Strides are in BYTES, multiples of elemSize; src strides may be negative or zero. dst == src with equal strides
// means in place (the caller has rejected every other overlap and any self-overlapping dst).
struct FlipParams {
    const char *src;
    char *dst;
    int64_t shape[5];      // elements per dimension, all > 0
    int64_t srcStrides[5]; // bytes
    int64_t dstStrides[5]; // bytes
    int32_t elemSize;      // 1, 2, 4 or 8
    bool flipRows;         // y -> height-1-y  (flipCode == 0 or < 0)
    bool flipCols;         // x -> width-1-x   (flipCode > 0 or < 0)
    bool inPlace;
};

enum { kOuter1 = 0, kOuter0 = 1, kHeight = 2, kWidth = 3, kInner = 4 };

// Enqueues the flip on `stream`; returns the launch status (never blocks the host). Counts no statistics.
cudaError_t launchFlip(const FlipParams &p, cudaStream_t stream);

} // namespace cvk
