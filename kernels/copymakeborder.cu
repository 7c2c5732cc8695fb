// copymakeborder: dst = src padded with a border (OpenCV's copyMakeBorder). Two paths:
// - Chunks: dst C-contiguous and 16-byte aligned, src pixels packed (channels then pixels contiguous within a row).
//   dst is one flat run of bytes; each thread writes up to four aligned 16-byte vectors. A vector inside a row's copy of a
//   src row reads that row as aligned 32-bit words funnel-shifted into place (or one 16-byte vector when aligned),
//   so that the interior needs no byte moves whatever `left` does to the alignment; a vector of a constant row is
//   the constant pixel's pattern, funnel-shifted the same way from shared memory; the few vectors that mix border and
//   image bytes, run into the next row or end the tensor are assembled byte by byte.
// - Generic: one element per thread, any strides.
#include "copymakeborder.hpp"

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/vector_io.cuh"

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

union Chunk {
    uint4 v;
    uint32_t w[4];
    unsigned char b[16];
};

// The chunk path's view: dst rows of rowBytes (< 2^31) bytes, rows (< 2^31) of them, one flat run.
struct ChunkArgs {
    CopyMakeBorderParams p;
    uint32_t pixelBytes, rowBytes;
    int64_t rows, totalBytes;
    uint32_t interiorLo, interiorHi; // bytes of a dst row that copy a src row
    uint32_t pattern[kPatternWords];
};

// The src row that dst row r (< 2^31) copies, or nullptr for a constant row.
__device__ __forceinline__ const char *srcRowOf(const ChunkArgs &a, int64_t r) {
    const CopyMakeBorderParams &p = a.p;
    const uint32_t dh = static_cast<uint32_t>(p.dst.shape[kH]);
    const uint32_t n = static_cast<uint32_t>(r) / dh, y = static_cast<uint32_t>(r) - n * dh;
    if (p.src.shape[kH] == 0 || p.src.shape[kW] == 0) return nullptr;
    const int32_t sy = borderIndex32(static_cast<int32_t>(y) - static_cast<int32_t>(p.top),
                                     static_cast<int32_t>(p.src.shape[kH]), p.kind);
    return sy < 0 ? nullptr : p.src.data + int64_t(n) * p.src.stride[kN] + int64_t(sy) * p.src.stride[kH];
}

// Bytes i0 <= i < i1 of a vector: bytes o, o + 1, ... of a dst row whose src row is srcRow (nullptr: constant row),
// walked pixel by pixel (no division per byte). The loop is unrolled so that `out` stays in registers.
__device__ __forceinline__ void assemble(Chunk &out, int i0, int i1, uint32_t o, const char *srcRow, const ChunkArgs &a,
                                         const unsigned char *pattern) {
    const CopyMakeBorderParams &p = a.p;
    const int32_t w = static_cast<int32_t>(p.src.shape[kW]), left = static_cast<int32_t>(p.left);
    uint32_t x = o / a.pixelBytes, k = o - x * a.pixelBytes, phase = o % kPatternBytes;
    int32_t sx = srcRow ? borderIndex32(static_cast<int32_t>(x) - left, w, p.kind) : -1;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        if (i < i0 || i >= i1) continue;
        out.b[i] = sx < 0 ? pattern[phase]
                          : *reinterpret_cast<const unsigned char *>(srcRow + int64_t(sx) * p.src.stride[kW] + k);
        if (++phase == kPatternBytes) phase = 0;
        if (++k == a.pixelBytes) {
            k = 0;
            ++x;
            sx = srcRow ? borderIndex32(static_cast<int32_t>(x) - left, w, p.kind) : -1;
        }
    }
}

// Vector at byte b of dst (o = b - the row's first byte) when it is not a plain aligned copy of a src vector:
// a run into the next rows (or the tensor's end), a constant row, a funnel-shifted interior copy, or mixed bytes.
// Writes it (bytes past the tensor's end are never written).
__device__ __forceinline__ void chunkSlow(const ChunkArgs &a, int64_t r, int64_t b, uint32_t o, const char *srcRow,
                                          const uint32_t *patternWords) {
    const unsigned char *pattern = reinterpret_cast<const unsigned char *>(patternWords);
    char *d = a.p.dst.data + b;
    Chunk out;
    out.v = make_uint4(0, 0, 0, 0);
    if (o + 16 > a.rowBytes) {
        // Runs into the following row(s), or ends the tensor: row by row.
        int i = 0;
        uint32_t oi = o;
        for (int64_t rr = r; i < 16 && rr < a.rows; ++rr, oi = 0) {
            const int32_t take = static_cast<int32_t>(a.rowBytes - oi) < 16 - i ? static_cast<int32_t>(a.rowBytes - oi)
                                                                              : 16 - i;
            assemble(out, i, i + take, oi, rr == r ? srcRow : srcRowOf(a, rr), a, pattern);
            i += take;
        }
        if (b + 16 <= a.totalBytes) {
            storeBytes<16>(d, out.v);
        } else {
#pragma unroll
            for (int j = 0; j < 16; ++j)
                if (b + j < a.totalBytes) d[j] = static_cast<char>(out.b[j]);
        }
        return;
    }
    if (srcRow == nullptr) {
        // A constant row: the pattern from byte o % 96 on.
        const uint32_t s = o % kPatternBytes, wi = s >> 2, shift = (s & 3) * 8;
#pragma unroll
        for (int j = 0; j < 4; ++j)
            out.w[j] = __funnelshift_r(patternWords[(wi + j) % kPatternWords], patternWords[(wi + j + 1) % kPatternWords],
                                       shift);
        storeBytes<16>(d, out.v);
        return;
    }
    bool done = false;
    if (o >= a.interiorLo && o + 16 <= a.interiorHi) {
        const char *s = srcRow + (o - a.interiorLo);
        const uintptr_t addr = reinterpret_cast<uintptr_t>(s);
        const char *base = reinterpret_cast<const char *>(addr & ~uintptr_t(3));
        if (base >= srcRow && base + 20 <= srcRow + (a.interiorHi - a.interiorLo)) {
            const uint32_t shift = static_cast<uint32_t>(addr & 3) * 8;
            const uint32_t *words = reinterpret_cast<const uint32_t *>(base);
            uint32_t v[5];
#pragma unroll
            for (int j = 0; j < 5; ++j) v[j] = words[j];
#pragma unroll
            for (int j = 0; j < 4; ++j) out.w[j] = __funnelshift_r(v[j], v[j + 1], shift);
            done = true;
        }
    }
    // Border and image bytes mixed (or the first/last vector of a row copy): pixel by pixel.
    if (!done) assemble(out, 0, 16, o, srcRow, a, pattern);
    storeBytes<16>(d, out.v);
}

// Threads along x take the 16-byte vectors that START in dst row r (a vector that runs into the next rows belongs to
// the row it starts in); threads along y take rows. A thread takes up to kChunkUnits vectors of a block tile, vector
// j of thread x being tile vector j * blockDim.x + x (coalesced), and issues the loads of those that copy an aligned
// src vector (the interior of an aligned image) before any store, so that several loads are in flight; the others go
// through chunkSlow. No 64-bit division anywhere, none per vector on the hot paths.
constexpr int kChunkUnits = 4;
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) chunkKernel(ChunkArgs a, int unitsPerThread) {
    __shared__ uint32_t patternWords[kPatternWords];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    if (tid < kPatternWords) patternWords[tid] = a.pattern[tid];
    __syncthreads();
    const int64_t tile = static_cast<int64_t>(blockDim.x) * unitsPerThread;
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < a.rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        const int64_t g0 = r * a.rowBytes;
        const int64_t q0 = (g0 + 15) >> 4, q1 = (g0 + a.rowBytes + 15) >> 4;
        const char *srcRow = srcRowOf(a, r);
        for (int64_t t0 = q0 + static_cast<int64_t>(blockIdx.x) * tile + threadIdx.x; t0 < q1;
             t0 += static_cast<int64_t>(gridDim.x) * tile) {
            uint4 v[kChunkUnits];
            bool fast[kChunkUnits];
#pragma unroll
            for (int j = 0; j < kChunkUnits; ++j) {
                const int64_t q = t0 + j * static_cast<int64_t>(blockDim.x);
                const uint32_t o = static_cast<uint32_t>(q * 16 - g0);
                fast[j] = j < unitsPerThread && q < q1 && srcRow != nullptr && o >= a.interiorLo && o + 16 <= a.interiorHi;
                if (fast[j]) {
                    const char *s = srcRow + (o - a.interiorLo);
                    fast[j] = (reinterpret_cast<uintptr_t>(s) & 15) == 0;
                    if (fast[j]) v[j] = loadBytes<16>(s);
                }
            }
#pragma unroll
            for (int j = 0; j < kChunkUnits; ++j) {
                const int64_t q = t0 + j * static_cast<int64_t>(blockDim.x);
                if (j >= unitsPerThread || q >= q1) break;
                if (fast[j]) storeBytes<16>(a.p.dst.data + q * 16, v[j]);
                else chunkSlow(a, r, q * 16, static_cast<uint32_t>(q * 16 - g0), srcRow, patternWords);
            }
        }
    }
}

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
        ChunkArgs a{};
        a.p = p;
        a.pixelBytes = static_cast<uint32_t>(p.dst.shape[kC] * p.elemSize);
        a.rowBytes = static_cast<uint32_t>(p.dst.shape[kW] * a.pixelBytes);
        a.rows = rows;
        a.totalBytes = rows * a.rowBytes;
        a.interiorLo = static_cast<uint32_t>(p.left * a.pixelBytes);
        a.interiorHi = static_cast<uint32_t>((p.left + p.src.shape[kW]) * a.pixelBytes);
        unsigned char *pattern = reinterpret_cast<unsigned char *>(a.pattern);
        for (int i = 0; i < kPatternBytes; ++i) pattern[i] = p.value[i % a.pixelBytes];
        const int64_t vectors = ceilDiv(a.rowBytes, 16) + 1; // per row, at most
        const int u = vectors * rows / kChunkUnits >= kFillThreads ? kChunkUnits : 1;
        const RowLaunch l = rowLaunch(ceilDiv(vectors, u), rows);
        chunkKernel<<<l.grid, l.block, 0, stream>>>(a, u);
        return cudaGetLastError();
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
    cudaError_t e = cudaFuncGetAttributes(&attr, chunkKernel);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint8_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint16_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint32_t>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, genericKernel<uint64_t>);
    return e;
}

} // namespace cvk
