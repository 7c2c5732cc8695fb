// Copies over a RowView: rows whose elements are contiguous on both sides are shifted byte spans in warp tiles
// (common/warp_tile.cuh: aligned 16-byte loads and stores whatever either side's alignment, e.g. a crop at an odd x);
// other rows go element by element through the strides (the row engine's strided path).
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

} // namespace

bool copyRowsContiguous(const RowView &v, int32_t itemSize) { return v.srcInner == itemSize && v.dstInner == itemSize; }

cudaError_t launchCopy(const RowView &v, int32_t itemSize, cudaStream_t stream) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
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

} // namespace cvk
