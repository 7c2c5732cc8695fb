// reformat kernels: interleaved <-> planar transposes (kernels/common/transpose.cuh); other stride patterns go through
// launchCopy (kernels/copy.hpp) with the views of both layouts.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

struct ReformatTranspose {
    const char *src;
    char *dst;
    int64_t batch, pixels, channels; // pixels = H * W, packed on both sides (see TransposeView)
    int64_t srcBatch, dstBatch, plane; // bytes
    int32_t itemSize;                  // 1, 2, 4 or 8
    bool toPlanar;
};

// The tile a transpose would use: 0 when the pixel is too large for one (the caller then copies element-wise).
int32_t reformatTilePixels(int64_t channels, int32_t itemSize);

// Enqueues the transpose; never blocks the host.
cudaError_t launchReformatTranspose(const ReformatTranspose &t, cudaStream_t stream);

} // namespace cvk
