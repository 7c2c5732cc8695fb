// cvResize's row paths for packed pixels: a block owns a strip of destination columns and loops over destination
// rows (of every image), so what depends only on the column (source offsets, horizontal taps) is computed once per
// block into shared memory and what depends only on the row (source rows, vertical weights) once per row.
//   NEAREST / NEAREST_FLOOR, any element type: a byte gather. The table holds, for every destination byte of the
//     strip, its byte offset in a source row; each thread assembles 4 destination bytes and stores them as one word
//     (coalesced), bytes where the row is not 4-byte aligned; all its words of two rows are loaded before any store.
//   LINEAR / CUBIC, uint8: the vertical pass first, on the staged row span: each thread loads aligned 4-byte words
//     from each of the K source rows (coalesced; the next iteration's loads are in flight during this one's
//     horizontal pass; LINEAR takes two rows per iteration) and stores the K-tap sums of their 4 bytes as 4 ints; then the horizontal pass per destination pixel
//     reads K of those ints per channel. The sampler's (resize_filters.cuh) fixed point is integer arithmetic with
//     the same taps and weights (no sum leaves int32), so the sum taken columns-last gives the same bytes as
//     samplePixel's rows-last sum.
// Each phase is a __host__ __device__ function over a thread index, so the CPU tests run whole blocks against
// samplePixel.
#pragma once

#include "common/read_only.cuh"
#include "resize_tile.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_ROW_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_ROW_UNROLL _Pragma("unroll")
#else
#define CVK_ROW_UNROLL
#endif

using RowShape = ResizeRowShape;

constexpr int kRowThreads = 256;
// The blocks an SM keeps resident, the register bound each kernel is built for (48 registers for CUBIC's 12 words in
// flight, which spill at 40; 64 for LINEAR's two rows of 6 words and the NEAREST gather's two rows of 16 byte loads:
// more bytes in flight per SM from fewer threads), and so the blocks per launch at most: what an H200 (132 SMs)
// keeps resident, one wave in which each block builds its column table once and spends it on many rows.
template <int I> constexpr int kRowBlocksPerSM = I == kCubic ? 5 : 4;
template <int I> constexpr int kRowBlocks = 132 * kRowBlocksPerSM<I>;
constexpr int kGatherBytes = 4096;  // NEAREST: destination bytes per strip row (the table: 16 KiB)
constexpr int kGatherWords = kGatherBytes / 4 / kRowThreads; // NEAREST: words per thread and row (one pass)
constexpr int kGatherRows = 2;      // NEAREST: destination rows per iteration, their loads in flight together
// LINEAR/CUBIC: staged words per thread and row (held in registers between the load and the vertical pass), and so
// the most staged ints per strip row (12 KiB of shared memory per row of an iteration; the benchmark's 1920 -> 1280
// strips of 640 columns take 32 KiB per LINEAR block, 23 KiB per CUBIC block, so shared memory does not hold an SM
// below the register bound's blocks there).
constexpr int kRowWords = 3;
// LINEAR/CUBIC: destination rows per iteration, their loads in flight together and their horizontal passes sharing
// each column's taps; CUBIC's 12 words per row in flight already need 48 registers, and two rows' 24 would hold an
// SM to 3 blocks of 80, so CUBIC keeps one row per iteration.
template <int I> constexpr int kRowRows = I == kLinear ? 2 : 1;
constexpr int kRowStaged = 4 * kRowWords * kRowThreads;
constexpr int kRowSmemLimit = 48 * 1024;

template <int I> constexpr int kRowTaps = I == kLinear ? 2 : 4;

// The word at p of which only the first `valid` (< 4) bytes lie in the row: byte loads, never past the row's end.
// Out of line: a row's last word is rare, and inlined its loop would take registers from the loads in flight.
#ifdef __CUDA_ARCH__
__device__ __noinline__
#else
inline
#endif
uint32_t loadTail(const uint8_t *p, int32_t valid) {
    uint32_t v = 0;
    for (int b = 0; b < 4 && b < valid; ++b) v |= uint32_t(loadByte(p + b)) << (8 * b);
    return v;
}

// The source index destination index d of axis a reads (NEAREST or NEAREST_FLOOR).
template <int I> CVK_ROW_HD int32_t nearestIndex(const Axis &a, const NearestTies &t, int32_t d) {
    return I == kNearest ? nearestExact(a, t, d) : nearestFloor(a, d);
}

// Destination columns [x0, x0 + w) of strip `strip`.
CVK_ROW_HD void stripOf(const RowShape &s, int32_t dstW, int32_t strip, int32_t &x0, int32_t &w) {
    x0 = strip * s.stripW;
    w = dstW - x0 < s.stripW ? dstW - x0 : s.stripW;
}

// A block's destination rows, blockIdx.y, blockIdx.y + gridDim.y, ... of the N * H rows of the batch, as (image,
// row) stepped without a 64-bit division per row.
struct RowWalk {
    int64_t n, dn;
    int32_t dy, ddy, h;
};
CVK_ROW_HD RowWalk rowWalkOf(int64_t first, int64_t step, int32_t h) {
    return {first / h, step / h, static_cast<int32_t>(first % h), static_cast<int32_t>(step % h), h};
}
CVK_ROW_HD void advance(RowWalk &w) {
    w.n += w.dn;
    w.dy += w.ddy;
    if (w.dy >= w.h) w.dy -= w.h, ++w.n;
}

// ----------------------------------------------------------------------------------------------- NEAREST gather

// Once per block: table[i] = the source-row byte offset of destination byte i of the strip row (pixelBytes bytes
// per pixel), for i < w * pixelBytes, one source index per pixel; the entries up to the next multiple of 4 repeat
// the last offset (they are read as int4 and never stored).
template <int I>
CVK_ROW_HD void gatherTable(const Mapping &m, int32_t pixelBytes, int32_t x0, int32_t w, int32_t *table, int tid, int nthreads) {
    for (int32_t px = tid; px < w; px += nthreads) {
        const int32_t o = nearestIndex<I>(m.x, m.tiesX, x0 + px) * pixelBytes;
        for (int32_t b = 0; b < pixelBytes; ++b) table[px * pixelBytes + b] = o + b;
    }
    const int32_t bytes = w * pixelBytes, padded = (bytes + 3) & ~3;
    if (tid < padded - bytes) table[bytes + tid] = nearestIndex<I>(m.x, m.tiesX, x0 + w - 1) * pixelBytes + pixelBytes - 1;
}

// Per iteration of a block: `count` (1..R) destination rows' `bytes` bytes each at out[r] from the source row at
// src[r] (entries past count repeat row 0 and are not stored), 4 per word. A thread takes the words tid,
// tid + nthreads, ... kGatherWords * nthreads apart per pass (one pass: a strip row is at most kGatherBytes) and
// issues the byte loads of all its words of all R rows before it stores any: a single row's 4 loads per thread
// leave an SM too few bytes in flight to cover the memory latency.
template <int R>
CVK_ROW_HD void gatherRows(const int32_t *table, int32_t bytes, const uint8_t *const (&src)[R], uint8_t *const (&out)[R], int count,
                           int tid, int nthreads) {
    bool aligned[R];
    CVK_ROW_UNROLL
    for (int r = 0; r < R; ++r) aligned[r] = (reinterpret_cast<uintptr_t>(out[r]) & 3) == 0;
    for (int32_t k0 = tid; 4 * k0 < bytes; k0 += kGatherWords * nthreads) {
        uint32_t v[R][kGatherWords] = {}; // every entry stored is loaded first; {} quiets the host compiler
        CVK_ROW_UNROLL
        for (int u = 0; u < kGatherWords; ++u) {
            const int32_t k = k0 + u * nthreads;
            if (4 * k >= bytes) break;
            const int4 o = reinterpret_cast<const int4 *>(table)[k];
            CVK_ROW_UNROLL
            for (int r = 0; r < R; ++r)
                v[r][u] = uint32_t(loadByte(src[r] + o.x)) | uint32_t(loadByte(src[r] + o.y)) << 8 |
                          uint32_t(loadByte(src[r] + o.z)) << 16 | uint32_t(loadByte(src[r] + o.w)) << 24;
        }
        CVK_ROW_UNROLL
        for (int u = 0; u < kGatherWords; ++u) {
            const int32_t k = k0 + u * nthreads;
            if (4 * k >= bytes) break;
            CVK_ROW_UNROLL
            for (int r = 0; r < R; ++r) {
                if (r >= count) break;
                if (aligned[r] && 4 * k + 4 <= bytes) {
                    *reinterpret_cast<uint32_t *>(out[r] + 4 * k) = v[r][u];
                } else {
                    for (int j = 0; j < 4 && 4 * k + j < bytes; ++j) out[r][4 * k + j] = static_cast<uint8_t>(v[r][u] >> (8 * j));
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------ LINEAR/CUBIC rows

// One destination column's horizontal taps: idx[k] the staged index of tap k's channel 0, w[k] its fixed-point
// weight (fixedWeight saturates to int16, as OpenCV's short coefficients).
template <int K> struct alignas(4 * K) RowTap {
    int16_t idx[K];
    int16_t w[K];
};

// The source bytes [base, base + count) of a row that strip [x0, x0 + w) stages: base on a 4-byte boundary, count
// a multiple of 4 (it may reach up to 3 bytes past the row; those are staged as zeros and never read by a tap).
struct RowSpan {
    int32_t base, count;
};
template <int I> CVK_ROW_HD RowSpan rowSpan(const Mapping &m, int32_t C, int32_t x0, int32_t w) {
    int32_t lo, hi, l2, h2;
    sourceSpan(m.x, I, 0, x0, lo, hi);
    sourceSpan(m.x, I, 0, x0 + w - 1, l2, h2);
    const int32_t base = (lo * C) & ~3;
    return {base, (((h2 + 1) * C - base) + 3) & ~3};
}

// Where one strip's pieces lie in shared memory: the staged ints and the destination bytes of each of the
// kRowRows<I> rows of an iteration, and the taps (each 16-byte aligned).
template <int I> struct RowBuffers {
    int32_t *staged;           // [kRowRows<I>][stagedPitch]
    RowTap<kRowTaps<I>> *taps; // [stripW]
    uint8_t *out;              // [kRowRows<I>][outPitch]
    int32_t stagedPitch;       // ints: staged rounded up to 4
    int32_t outPitch;          // bytes: stripW * C rounded up to 16
};
CVK_ROW_HD int32_t rowStagedPitch(int32_t staged) { return (staged + 3) & ~3; }
CVK_ROW_HD int32_t rowOutPitch(int32_t stripW, int32_t C) { return (stripW * C + 15) & ~15; }
template <int I> CVK_ROW_HD int32_t rowSmemBytes(int32_t stripW, int32_t staged, int32_t C) {
    return kRowRows<I> * (4 * rowStagedPitch(staged) + rowOutPitch(stripW, C)) + int32_t(sizeof(RowTap<kRowTaps<I>>)) * ((stripW + 3) & ~3);
}
template <int I> CVK_ROW_HD RowBuffers<I> carveRows(void *base, const RowShape &s, int32_t C) {
    char *p = static_cast<char *>(base);
    RowBuffers<I> b;
    b.stagedPitch = rowStagedPitch(s.staged);
    b.outPitch = rowOutPitch(s.stripW, C);
    b.staged = reinterpret_cast<int32_t *>(p);
    p += 4 * kRowRows<I> * b.stagedPitch;
    b.taps = reinterpret_cast<RowTap<kRowTaps<I>> *>(p);
    p += sizeof(RowTap<kRowTaps<I>>) * ((s.stripW + 3) & ~3);
    b.out = reinterpret_cast<uint8_t *>(p);
    return b;
}

// Once per block: the taps of the strip's columns, relative to the staged span.
template <int I, int CT>
CVK_ROW_HD void rowTaps(const Mapping &m, int32_t x0, int32_t w, const RowSpan &span, const RowBuffers<I> &b, int tid, int nthreads) {
    constexpr int K = kRowTaps<I>;
    for (int32_t i = tid; i < w; i += nthreads) {
        const Taps t = I == kLinear ? linearTaps(m.x, x0 + i) : cubicTaps(m.x, x0 + i);
        RowTap<K> r;
        CVK_ROW_UNROLL
        for (int k = 0; k < K; ++k) {
            r.idx[k] = static_cast<int16_t>(clampIndex(int64_t(t.first) + k, m.x.src) * CT - span.base);
            r.w[k] = static_cast<int16_t>(fixedWeight(t.w[k]));
        }
        b.taps[i] = r;
    }
}

// The K source rows and fixed-point weights of destination row dy.
template <int I> struct RowRows {
    int32_t y[kRowTaps<I>];
    int32_t w[kRowTaps<I>];
};
template <int I> CVK_ROW_HD RowRows<I> rowRows(const Mapping &m, int32_t dy) {
    const Taps t = I == kLinear ? linearTaps(m.y, dy) : cubicTaps(m.y, dy);
    RowRows<I> r;
    CVK_ROW_UNROLL
    for (int k = 0; k < kRowTaps<I>; ++k) {
        r.y[k] = clampIndex(int64_t(t.first) + k, m.y.src);
        r.w[k] = fixedWeight(t.w[k]);
    }
    return r;
}

// Phase 1 of a row, issued before the previous row's horizontal pass so that the loads overlap it: the thread's
// words of the staged span (words tid + j * kRowThreads) from each of the K source rows; rowBytes = W * C.
template <int I> struct RowWords {
    uint32_t w[kRowWords][kRowTaps<I>];
};
template <int I>
CVK_ROW_HD void rowLoad(const RowRows<I> &rr, const Plane &src, int32_t rowBytes, const RowSpan &span, int tid, RowWords<I> &words) {
    constexpr int K = kRowTaps<I>;
    const uint8_t *rows[K];
    CVK_ROW_UNROLL
    for (int k = 0; k < K; ++k) rows[k] = reinterpret_cast<const uint8_t *>(src.base) + int64_t(rr.y[k]) * src.rowStride;
    CVK_ROW_UNROLL
    for (int j = 0; j < kRowWords; ++j) {
        const int32_t q = tid + j * kRowThreads, o = span.base + 4 * q;
        CVK_ROW_UNROLL
        for (int k = 0; k < K; ++k) {
            if (4 * q >= span.count) {
                words.w[j][k] = 0;
            } else if (o + 4 <= rowBytes) {
                words.w[j][k] = loadWord(rows[k] + o);
            } else {
                words.w[j][k] = loadTail(rows[k] + o, rowBytes - o);
            }
        }
    }
}

// Phase 2 of a row: staged[4q + b] = sum over k of w[k] * byte b of the thread's word q of source row y[k] (staged:
// the row's part of RowBuffers::staged).
template <int I>
CVK_ROW_HD void rowVertical(const RowRows<I> &rr, const RowWords<I> &words, const RowSpan &span, int32_t *staged, int tid) {
    CVK_ROW_UNROLL
    for (int j = 0; j < kRowWords; ++j) {
        const int32_t q = tid + j * kRowThreads;
        if (4 * q >= span.count) break;
        int32_t acc[4] = {0, 0, 0, 0};
        CVK_ROW_UNROLL
        for (int k = 0; k < kRowTaps<I>; ++k)
            CVK_ROW_UNROLL
            for (int x = 0; x < 4; ++x) acc[x] += rr.w[k] * byteOf(words.w[j][k], x);
        int4 v;
        v.x = acc[0], v.y = acc[1], v.z = acc[2], v.w = acc[3];
        reinterpret_cast<int4 *>(staged)[q] = v;
    }
}

// Phase 2 of a row: the horizontal pass of each destination pixel of the strip, rounded to uint8 into b.out.
// The column of item i: i itself, or (paired) within each 64 items, the first warp's 32 the even columns and the
// second's the odd ones, so that a warp's loads of one tap lie twice as far apart (for 1.5x, 9 ints: 32 banks).
CVK_ROW_HD int32_t rowColumn(int32_t i, int32_t paired) {
    return paired ? (i & ~63) | ((i & 31) << 1) | ((i >> 5) & 1) : i;
}

// The first `count` (1..kRowRows<I>) rows of the iteration, one column's taps read once for all of them.
template <int I, int CT>
CVK_ROW_HD void rowHorizontal(int32_t w, int32_t paired, const RowBuffers<I> &b, int count, int tid, int nthreads) {
    constexpr int K = kRowTaps<I>;
    const int32_t items = paired ? (w + 63) & ~63 : w;
    for (int32_t i = tid; i < items; i += nthreads) {
        const int32_t x = rowColumn(i, paired);
        if (x >= w) continue;
        const RowTap<K> t = b.taps[x];
        CVK_ROW_UNROLL
        for (int r = 0; r < kRowRows<I>; ++r) {
            if (r >= count) break;
            const int32_t *staged = b.staged + r * b.stagedPitch;
            uint8_t *out = b.out + r * b.outPitch;
            if constexpr (CT == 4) { // a tap's 4 channels in one 16-byte load (4-channel taps are 16-byte aligned),
                                     // one word store: scalar loads 4 * factor ints apart meet in a few banks
                int32_t acc[4] = {0, 0, 0, 0};
                CVK_ROW_UNROLL
                for (int k = 0; k < K; ++k) {
                    const int4 v = *reinterpret_cast<const int4 *>(staged + t.idx[k]);
                    acc[0] += int32_t(t.w[k]) * v.x, acc[1] += int32_t(t.w[k]) * v.y;
                    acc[2] += int32_t(t.w[k]) * v.z, acc[3] += int32_t(t.w[k]) * v.w;
                }
                *reinterpret_cast<uint32_t *>(out + x * 4) = uint32_t(fixedToU8(acc[0])) | uint32_t(fixedToU8(acc[1])) << 8 |
                                                            uint32_t(fixedToU8(acc[2])) << 16 | uint32_t(fixedToU8(acc[3])) << 24;
            } else {
                CVK_ROW_UNROLL
                for (int c = 0; c < CT; ++c) {
                    int32_t acc = 0;
                    CVK_ROW_UNROLL
                    for (int k = 0; k < K; ++k) acc += int32_t(t.w[k]) * staged[t.idx[k] + c];
                    out[x * CT + c] = fixedToU8(acc);
                }
            }
        }
    }
}

// Phase 3 of a row: b.out's `bytes` bytes to `out`, one word per thread where the destination is 4-byte aligned.
CVK_ROW_HD void rowStore(const uint8_t *from, int32_t bytes, uint8_t *out, int tid, int nthreads) {
    const bool aligned = (reinterpret_cast<uintptr_t>(out) & 3) == 0;
    for (int32_t k = tid; 4 * k < bytes; k += nthreads) {
        if (aligned && 4 * k + 4 <= bytes) {
            *reinterpret_cast<uint32_t *>(out + 4 * k) = reinterpret_cast<const uint32_t *>(from)[k];
        } else {
            for (int j = 0; j < 4 && 4 * k + j < bytes; ++j) out[4 * k + j] = from[4 * k + j];
        }
    }
}

#undef CVK_ROW_HD
#undef CVK_ROW_UNROLL

} // namespace cvk::resize
