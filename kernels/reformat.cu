#include "reformat.hpp"

#include "common/dispatch.cuh"
#include "common/transpose.cuh"

namespace cvk {

int32_t reformatTilePixels(int64_t channels, int32_t itemSize) { return transposeTilePixels(channels, itemSize); }

cudaError_t launchReformatTranspose(const ReformatTranspose &t, cudaStream_t stream) {
    TransposeView v{};
    v.src = t.src;
    v.dst = t.dst;
    v.batch = t.batch;
    v.pixels = t.pixels;
    v.channels = t.channels;
    v.srcBatch = t.srcBatch;
    v.dstBatch = t.dstBatch;
    v.plane = t.plane;
    v.tilePixels = transposeTilePixels(t.channels, t.itemSize);
    v.toPlanar = t.toPlanar;
    if (v.tilePixels == 0) return cudaErrorInvalidValue;
    cudaError_t status = cudaErrorInvalidValue;
    visitBySize(t.itemSize, [&](auto tag) { status = launchTranspose<typename decltype(tag)::type>(v, stream); });
    return status;
}

} // namespace cvk
