// Copies over a RowView: rows of whole 16-byte blocks aligned on both sides are one flat launch of 16-byte moves;
// other rows whose elements are contiguous on both sides are shifted byte spans in warp tiles (common/warp_tile.cuh:
// aligned 16-byte loads and stores whatever either side's alignment, e.g. a crop at an odd x); other rows go element
// by element through the strides (the row engine's strided path).
#include "copy.hpp"

#include "common/dispatch.cuh"
#include "common/rows.cuh"
#include "common/warp_tile.cuh"

namespace cvk {
namespace {

// Row r of the view as one span of `bytes` bytes, all of it copied.
struct ContiguousRows {
    RowView v;
    int64_t bytes;
    __device__ __forceinline__ RowSpan span(int64_t r) const {
        int64_t r0, r1, r2;
        rowIndex(v, r, r0, r1, r2);
        const char *s = v.src + r0 * v.srcRow[0] + r1 * v.srcRow[1] + r2 * v.srcRow[2];
        char *d = v.dst + r0 * v.dstRow[0] + r1 * v.dstRow[1] + r2 * v.dstRow[2];
        return rowSpan(reinterpret_cast<uintptr_t>(d), bytes, 0, bytes, reinterpret_cast<uintptr_t>(s));
    }
    // Never called: every byte of a row is copied.
    __device__ __forceinline__ uint4 border(const RowSpan &, int64_t) const { return make_uint4(0, 0, 0, 0); }
};

// Rows of whole 16-byte blocks that start on 16-byte boundaries on both sides: every block of every row is one unit
// of a flat launch, kAlignedUnits per thread (loads first), so no lane idles at a row's end as in the warp tiles (16
// of 256 lanes per 3840-byte row) and no row needs a shift. Measured on an H200 (bench/probes/crop_plans.cu), crop
// 32x1080x1920x3 -> 720x1280: 46.2 µs against the warp tiles' 46.9 (copy of the same bytes 45.2); 1 to 8 images
// as fast or faster; 2 units per thread beat 1, 4 and 8. A later sweep of the shape (the same probe: 128-1024
// threads a block, 1-4 units, a strided grid of 4-8 blocks per SM) found nothing faster than 256 x 2 beyond the
// noise; the streaming hints (load16Streaming, common/span.cuh) gained up to 2 %.
constexpr int kAlignedUnits = 2;
__global__ void __launch_bounds__(kBlockThreads) alignedBlocksKernel(RowView v, int64_t blocksPerRow, int64_t total) {
    const int64_t step = static_cast<int64_t>(gridDim.x) * kBlockThreads * kAlignedUnits;
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * kBlockThreads * kAlignedUnits + threadIdx.x; base < total; base += step) {
        uint4 x[kAlignedUnits];
        uintptr_t d[kAlignedUnits];
#pragma unroll
        for (int j = 0; j < kAlignedUnits; ++j) {
            const int64_t g = base + j * kBlockThreads;
            if (g >= total) break;
            int64_t col, r0, r1, r2;
            rowIndex(v, divmod(g, blocksPerRow, col), r0, r1, r2);
            const char *s = v.src + r0 * v.srcRow[0] + r1 * v.srcRow[1] + r2 * v.srcRow[2] + 16 * col;
            d[j] = reinterpret_cast<uintptr_t>(v.dst + r0 * v.dstRow[0] + r1 * v.dstRow[1] + r2 * v.dstRow[2] + 16 * col);
            x[j] = load16Streaming(reinterpret_cast<uintptr_t>(s));
        }
#pragma unroll
        for (int j = 0; j < kAlignedUnits; ++j)
            if (base + j * kBlockThreads < total) store16Streaming(d[j], x[j]);
    }
}

} // namespace

bool copyRowsContiguous(const RowView &v, int32_t itemSize) { return v.srcInner == itemSize && v.dstInner == itemSize; }

bool copyRowsAligned(const RowView &v, int32_t itemSize) {
    if (!copyRowsContiguous(v, itemSize) || !aligned16(v.inner * itemSize) || !aligned16(reinterpret_cast<int64_t>(v.src)) ||
        !aligned16(reinterpret_cast<int64_t>(v.dst)))
        return false;
    for (int i = 0; i < kRowDims; ++i)
        if (v.rows[i] > 1 && !(aligned16(v.srcRow[i]) && aligned16(v.dstRow[i]))) return false;
    return true;
}

cudaError_t launchCopy(const RowView &v, int32_t itemSize, cudaStream_t stream) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    if (copyRowsAligned(v, itemSize)) {
        const int64_t blocksPerRow = v.inner * itemSize / 16, total = rows * blocksPerRow;
        if (total == 0) return cudaSuccess;
        const int64_t grid = ceilDiv(total, int64_t(kBlockThreads) * kAlignedUnits);
        alignedBlocksKernel<<<static_cast<unsigned>(grid < kMaxGridX ? grid : kMaxGridX), kBlockThreads, 0, stream>>>(v, blocksPerRow, total);
        return cudaGetLastError();
    }
    if (copyRowsContiguous(v, itemSize)) {
        bool aligned = aligned16(reinterpret_cast<int64_t>(v.dst));
        for (int i = 0; i < kRowDims; ++i)
            if (v.rows[i] > 1) aligned = aligned && aligned16(v.dstRow[i]);
        const int64_t bytes = v.inner * itemSize;
        return launchSpanRows(ContiguousRows{v, bytes}, v.inner == 0 ? 0 : rows, spanBlocksPerRow(bytes, aligned), stream);
    }
    cudaError_t status = cudaErrorInvalidValue;
    visitBySize(itemSize, [&](auto tag) {
        using T = typename decltype(tag)::type;
        status = launchRowsStrided<T, T>(v, CopyOp<T>{}, stream);
    });
    return status;
}

cudaError_t preloadCopyKernels() {
    const void *kernels[] = {reinterpret_cast<const void *>(&alignedBlocksKernel),
                             reinterpret_cast<const void *>(&spanRowsKernel<kSpanUnits, ContiguousRows, CopyTile>)};
    for (const void *k : kernels) {
        cudaFuncAttributes attributes;
        const cudaError_t err = cudaFuncGetAttributes(&attributes, k);
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}

} // namespace cvk
