// copymakeborder: dst = src padded with a border (OpenCV's copyMakeBorder). Two paths:
// - Chunks: dst C-contiguous and 16-byte aligned, src pixels packed (channels then pixels contiguous within a row).
//   Each dst row is a shifted span (common/warp_tile.cuh): its interior copies the src row in aligned 16-byte
//   vectors whatever `left` does to the alignment; border bytes are the constant pixel's pattern, funnel-shifted from
//   shared memory, or (other modes) src pixels mapped byte by byte, merged into the few vectors at a row's ends.
// - Generic: one element per thread, any strides.
#include "copymakeborder.hpp"

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/warp_tile.cuh"

namespace cvk {
namespace {

// OpenCV's cv::borderInterpolate in closed form (no loop for paddings larger than the image); -1 for Constant.
__device__ __forceinline__ int64_t borderIndex(int64_t p, int64_t len, BorderKind kind) {
    if (static_cast<uint64_t>(p) < static_cast<uint64_t>(len)) return p;
    switch (kind) {
    case BorderKind::Replicate: return p < 0 ? 0 : len - 1;
    case BorderKind::Reflect: {
        const int64_t period = 2 * len;
        int64_t q = p % period;
        if (q < 0) q += period;
        return q < len ? q : period - 1 - q;
    }
    case BorderKind::Reflect101: {
        if (len == 1) return 0;
        const int64_t period = 2 * len - 2;
        int64_t q = p % period;
        if (q < 0) q += period;
        return q < len ? q : period - q;
    }
    case BorderKind::Wrap: {
        int64_t q = p % len;
        return q < 0 ? q + len : q;
    }
    case BorderKind::Constant: break;
    }
    return -1;
}

// borderIndex for the chunk path, whose sizes fit 32 bits (32-bit division is several times cheaper).
__device__ __forceinline__ int32_t borderIndex32(int32_t p, int32_t len, BorderKind kind) {
    if (static_cast<uint32_t>(p) < static_cast<uint32_t>(len)) return p;
    switch (kind) {
    case BorderKind::Replicate: return p < 0 ? 0 : len - 1;
    case BorderKind::Reflect: {
        const int32_t period = 2 * len;
        int32_t q = p % period;
        if (q < 0) q += period;
        return q < len ? q : period - 1 - q;
    }
    case BorderKind::Reflect101: {
        if (len == 1) return 0;
        const int32_t period = 2 * len - 2;
        int32_t q = p % period;
        if (q < 0) q += period;
        return q < len ? q : period - q;
    }
    case BorderKind::Wrap: {
        const int32_t q = p % len;
        return q < 0 ? q + len : q;
    }
    case BorderKind::Constant: break;
    }
    return -1;
}

// The constant pixel repeated over 96 bytes (a multiple of every pixel size that C = 1-4 elements of 1, 2, 4 or 8
// bytes give: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32), so that byte i of a row is pattern[i % 96].
constexpr int kPatternBytes = 96;
constexpr int kPatternWords = kPatternBytes / 4;

// Dst bytes o .. o + 15 of a row outside [lo, hi) as the src pixels borderIndex32 maps them onto (0 elsewhere). Not
// inlined: only the blocks at a row's ends call it, so one copy of its code serves every call site.
__device__ __noinline__ uint4 mappedBorder(const char *srcRow, int64_t o, uint32_t rowBytes, uint32_t lo, uint32_t hi,
                                           uint32_t pixelBytes, int32_t w, int32_t left, int64_t pixelStride, BorderKind kind) {
    uint64_t lo8 = 0, hi8 = 0; // bytes 0-7 and 8-15
#pragma unroll 1
    for (int j = 0; j < 16; ++j) { // a loop, not 16 inlined copies of borderIndex32's divisions
        const int64_t at = o + j;
        if (at < 0 || at >= rowBytes || (at >= lo && at < hi)) continue;
        const uint32_t x = static_cast<uint32_t>(at) / pixelBytes, k = static_cast<uint32_t>(at) - x * pixelBytes;
        const int32_t sx = borderIndex32(static_cast<int32_t>(x) - left, w, kind);
        const uint64_t byte = static_cast<unsigned char>(srcRow[int64_t(sx) * pixelStride + k]);
        if (j < 8) lo8 |= byte << (8 * j);
        else hi8 |= byte << (8 * (j - 8));
    }
    return make_uint4(static_cast<uint32_t>(lo8), static_cast<uint32_t>(lo8 >> 32), static_cast<uint32_t>(hi8),
                      static_cast<uint32_t>(hi8 >> 32));
}

// The chunk path's rows (common/warp_tile.cuh): dst row r (< 2^31 of them, rowBytes < 2^31) is one span whose bytes
// [interiorLo, interiorHi) copy its src row, the rest the border.
struct BorderRows {
    CopyMakeBorderParams p;
    uint32_t pixelBytes, rowBytes;
    uint32_t interiorLo, interiorHi; // bytes of a dst row that copy a src row
    uint32_t pattern[kPatternWords];

    static __device__ __forceinline__ uint32_t *patternWords() {
        __shared__ uint32_t words[kPatternWords];
        return words;
    }
    // Blocks may have a single warp (spreadWarps, launch.cuh): its lanes stage the whole pattern.
    static_assert(kPatternWords <= 32, "one warp stages the pattern");
    __device__ __forceinline__ void prepare() const {
        if (threadIdx.x < kPatternWords) patternWords()[threadIdx.x] = pattern[threadIdx.x];
        __syncthreads();
    }

    // The src row that dst row r copies, or nullptr for a constant row.
    __device__ __forceinline__ const char *srcRowOf(int64_t r) const {
        const uint32_t dh = static_cast<uint32_t>(p.dst.shape[kH]);
        const uint32_t n = static_cast<uint32_t>(r) / dh, y = static_cast<uint32_t>(r) - n * dh;
        if (p.src.shape[kH] == 0 || p.src.shape[kW] == 0) return nullptr;
        const int32_t sy = borderIndex32(static_cast<int32_t>(y) - static_cast<int32_t>(p.top),
                                         static_cast<int32_t>(p.src.shape[kH]), p.kind);
        return sy < 0 ? nullptr : p.src.data + int64_t(n) * p.src.stride[kN] + int64_t(sy) * p.src.stride[kH];
    }

    __device__ __forceinline__ RowSpan span(int64_t r) const {
        const uintptr_t row = reinterpret_cast<uintptr_t>(p.dst.data) + static_cast<uintptr_t>(r) * rowBytes;
        const char *src = srcRowOf(r);
        return src ? rowSpan(row, rowBytes, interiorLo, interiorHi, reinterpret_cast<uintptr_t>(src))
                   : rowSpan(row, rowBytes, 0, 0, row); // no src bytes; src = row keeps the shift 0
    }

    // Dst bytes o .. o + 15 of a row (o > -16) where they are border: the constant pattern, or src pixels mapped by
    // borderIndex32 (only the few blocks at a row's ends come here).
    __device__ __forceinline__ uint4 border(const RowSpan &s, int64_t o) const {
        if (p.kind == BorderKind::Constant || s.lo == s.hi) {
            const uint32_t *words = patternWords();
            const uint32_t phase = static_cast<uint32_t>(o + kPatternBytes) % kPatternBytes; // o > -16, row bytes < 2^31
            const uint32_t wi = phase >> 2, bits = (phase & 3) * 8;
            uint32_t w[4];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                w[j] = funnelRight(words[(wi + j) % kPatternWords], words[(wi + j + 1) % kPatternWords], bits);
            return make_uint4(w[0], w[1], w[2], w[3]);
        }
        return mappedBorder(reinterpret_cast<const char *>(s.src), o, rowBytes, interiorLo, interiorHi, pixelBytes,
                            static_cast<int32_t>(p.src.shape[kW]), static_cast<int32_t>(p.left), p.src.stride[kW], p.kind);
    }
};

template <class T> __global__ void __launch_bounds__(kBlockThreads) genericKernel(CopyMakeBorderParams p, int64_t rows) {
    const int64_t c = p.dst.shape[kC], units = p.dst.shape[kW] * c, dh = p.dst.shape[kH];
    const int64_t h = p.src.shape[kH], w = p.src.shape[kW];
    T value[4] = {};
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (i < c) memcpy(&value[i], p.value + i * sizeof(T), sizeof(T));
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        int64_t y;
        const int64_t n = divmod(r, dh, y); // 32-bit division when the sizes allow (launch.cuh)
        const int64_t sy = h == 0 ? -1 : borderIndex(y - p.top, h, p.kind);
        char *dRow = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH];
        const char *sRow = p.src.data + n * p.src.stride[kN] + sy * p.src.stride[kH];
        for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < units;
             i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            int64_t ch;
            const int64_t x = divmod(i, c, ch);
            const int64_t sx = sy < 0 || w == 0 ? -1 : borderIndex(x - p.left, w, p.kind);
            T v;
            if (sx < 0) {
                v = ch == 0 ? value[0] : ch == 1 ? value[1] : ch == 2 ? value[2] : value[3];
            } else {
                v = *reinterpret_cast<const T *>(sRow + sx * p.src.stride[kW] + ch * p.src.stride[kC]);
            }
            *reinterpret_cast<T *>(dRow + x * p.dst.stride[kW] + ch * p.dst.stride[kC]) = v;
        }
    }
}

bool packedPixels(const View4 &v, int64_t elemSize) {
    return (v.shape[kC] == 1 || v.stride[kC] == elemSize) && (v.shape[kW] <= 1 || v.stride[kW] == v.shape[kC] * elemSize);
}

} // namespace

CopyMakeBorderPath copyMakeBorderPath(const CopyMakeBorderParams &p) {
    const View4 &d = p.dst;
    const int64_t pb = d.shape[kC] * p.elemSize, row = d.shape[kW] * pb;
    const bool dstContiguous = packedPixels(d, p.elemSize) && (d.shape[kH] <= 1 || d.stride[kH] == row) &&
                               (d.shape[kN] <= 1 || d.stride[kN] == d.shape[kH] * row);
    const bool aligned = aligned16(reinterpret_cast<int64_t>(d.data));
    const bool small = row < (int64_t(1) << 31) && d.shape[kN] * d.shape[kH] < (int64_t(1) << 31); // 32-bit row offsets
    return dstContiguous && aligned && small && packedPixels(p.src, p.elemSize) ? CopyMakeBorderPath::Chunks
                                                                                : CopyMakeBorderPath::Generic;
}

cudaError_t launchCopyMakeBorder(const CopyMakeBorderParams &p, cudaStream_t stream) {
    const int64_t rows = p.dst.shape[kN] * p.dst.shape[kH];
    if (rows == 0 || p.dst.shape[kW] == 0) return cudaSuccess;
    if (copyMakeBorderPath(p) == CopyMakeBorderPath::Chunks) {
        BorderRows a{};
        a.p = p;
        a.pixelBytes = static_cast<uint32_t>(p.dst.shape[kC] * p.elemSize);
        a.rowBytes = static_cast<uint32_t>(p.dst.shape[kW] * a.pixelBytes);
        a.interiorLo = static_cast<uint32_t>(p.left * a.pixelBytes);
        a.interiorHi = static_cast<uint32_t>((p.left + p.src.shape[kW]) * a.pixelBytes);
        unsigned char *pattern = reinterpret_cast<unsigned char *>(a.pattern);
        for (int i = 0; i < kPatternBytes; ++i) pattern[i] = p.value[i % a.pixelBytes];
        return launchSpanRows(a, rows, spanBlocksPerRow(a.rowBytes, a.rowBytes % 16 == 0), stream);
    }
    const RowLaunch l = rowLaunch(p.dst.shape[kW] * p.dst.shape[kC], rows);
    const bool known = visitBySize(p.elemSize, [&](auto tag) {
        using T = typename decltype(tag)::type;
        genericKernel<T><<<l.grid, l.block, 0, stream>>>(p, rows);
    });
    return known ? cudaGetLastError() : cudaErrorInvalidValue;
}

cudaError_t preloadCopyMakeBorderKernels() {
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, spanRowsKernel<kSpanUnits, BorderRows, CopyTile>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint8_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint16_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint32_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint64_t>);
    return e;
}

} // namespace cvk
