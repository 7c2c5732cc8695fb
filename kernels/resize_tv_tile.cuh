// cvResizeTorchvision's antialiased modes (and the fused torchvision preprocessing pass) as a separable tiled pass:
// a block owns a tile of 32 output columns x tileH output rows of one image and, channel by channel, runs the
// horizontal filter once per (source row, output column) into a shared-memory buffer, then the vertical filter of
// every output pixel over that buffer. PyTorch's CUDA kernel (upsample_gen2d_aa_out_frame) computes the same two
// sums per output pixel, the horizontal one again for every output row that shares a source row; here each is
// computed once. The arithmetic is sampleTorch's (resize_filters.cuh) term for term: the same windows, the same
// normalised float weights (uint8 sources: the same fixed-point horizontal weights and exact integer sums,
// tvFixedSplit), the same float sums in the same order, so both give the same values. Each phase is a
// __host__ __device__ function over a thread index, so the CPU tests run whole blocks against sampleTorch.
//
// Threads: lane = output column (its horizontal weights live in registers: K of them, the window bound rounded up
// to a compiled size; for uint8 sources K registers of 16-bit pairs); the 8 warps of a block take source rows (horizontal) and output rows (vertical) in turn, so a
// warp reads consecutive buffer words and broadcasts one vertical weight row.
#pragma once

#include "resize_band.cuh"
#include "resize_filters.cuh"
#include "resize_tile.cuh"

#include "common/register_bytes.cuh"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cvk::resize {

#define CVK_TV_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_TV_UNROLL _Pragma("unroll")
#else
#define CVK_TV_UNROLL
#endif

constexpr int kTvTileW = 32;      // output columns per tile: one warp's lanes
constexpr int kTvThreads = 256;
constexpr int kTvWarps = kTvThreads / kTvTileW;
// The compiled window sizes (taps per output index), in the order of the dispatch tables.
constexpr int kTvTaps[] = {12, 24, 48};
constexpr int kTvTapVariants = 3;
static_assert(kTvTaps[kTvTapVariants - 1] <= kTvFixedMaxTaps, "uint8 tiles take sampleTorch's fixed-point sums");

// One antialiased resize as the tiles see it: the source extent, PyTorch's float scales, and the part of the resized
// image the output holds (its corner x0, y0 in the resized image: a crop's; 0, 0 for a plain resize).
struct TvJob {
    int32_t srcW, srcH;
    float sx, sy;
    int32_t x0, y0;
    int32_t outW, outH;
    bool cubic;
};

// The job of resizing src ([N, H, W, C]) to resizeH x resizeW with torchvision's `mode` (TvMode) and keeping the
// outH x outW part at (x0, y0) of it; the fused pass's (its crop of the resized image) for FusedParams.
inline TvJob tvJobOf(const View4 &src, int64_t resizeH, int64_t resizeW, int32_t x0, int32_t y0, int64_t outH, int64_t outW, int32_t mode) {
    TvJob j;
    j.srcW = static_cast<int32_t>(src.shape[kW]);
    j.srcH = static_cast<int32_t>(src.shape[kH]);
    j.sx = tvScale(j.srcW, static_cast<int32_t>(resizeW));
    j.sy = tvScale(j.srcH, static_cast<int32_t>(resizeH));
    j.x0 = x0;
    j.y0 = y0;
    j.outW = static_cast<int32_t>(outW);
    j.outH = static_cast<int32_t>(outH);
    j.cubic = mode == kTvCubicAA;
    return j;
}
inline TvJob tvJobOf(const FusedParams &q) { return tvJobOf(q.src, q.resizeH, q.resizeW, q.cropX, q.cropY, q.dst.shape[kH], q.dst.shape[kW], q.torchMode); }

CVK_TV_HD float tvHalfTaps(bool cubic) { return cubic ? 2.f : 1.f; }

// PyTorch's interp_size: the most taps any window of the axis holds ((int)ceilf(support) * 2 + 1).
CVK_TV_HD int32_t tvWindowBound(float scale, bool cubic) {
    const float support = scale >= 1.f ? tvHalfTaps(cubic) * scale : tvHalfTaps(cubic);
    const int32_t s = static_cast<int32_t>(support);
    return (static_cast<float>(s) < support ? s + 1 : s) * 2 + 1;
}

CVK_TV_HD TvWindow tvJobWindowX(const TvJob &j, int32_t i) { return tvWindow(j.srcW, j.sx, j.x0 + i, tvHalfTaps(j.cubic)); }
CVK_TV_HD TvWindow tvJobWindowY(const TvJob &j, int32_t i) { return tvWindow(j.srcH, j.sy, j.y0 + i, tvHalfTaps(j.cubic)); }

// The source rows of the tile of output rows [oy0, oy0 + n): [lo, lo + count) (windows are monotone in the index).
CVK_TV_HD void tvTileRows(const TvJob &j, int32_t oy0, int32_t n, int32_t &lo, int32_t &count) {
    const TvWindow a = tvJobWindowY(j, oy0), b = tvJobWindowY(j, oy0 + n - 1);
    lo = a.lo;
    count = b.lo + b.size - a.lo;
}

// Shared memory of one block: the horizontal buffer [bufferRows][32] floats (maxRows, and for the all-taps vertical
// sums K rows more: tvTileVertical), then per output row its K weights (16-byte aligned: tvTileVertical loads them 4
// at a time), then per output row its window's first source row (tile-relative) and its size.
struct TvBuffers {
    float *h;
    float *wy; // [tileH][K]
    int32_t *ylo, *ysize;
};

CVK_TV_HD int32_t tvSmemBytes(int32_t bufferRows, int32_t tileH, int32_t taps) {
    return 4 * (bufferRows * kTvTileW + tileH * (2 + taps));
}

// base: 16-byte aligned. The buffer's rows are 128 bytes and K a multiple of 4, so wy stays 16-byte aligned.
template <int K> CVK_TV_HD TvBuffers tvCarve(void *base, int32_t bufferRows, int32_t tileH) {
    static_assert(K % 4 == 0, "whole 16-byte weight vectors per output row");
    TvBuffers b;
    b.h = static_cast<float *>(base);
    b.wy = b.h + bufferRows * kTvTileW;
    b.ylo = reinterpret_cast<int32_t *>(b.wy + tileH * K);
    b.ysize = b.ylo + tileH;
    return b;
}

// Phase 0 of the all-taps variant, once per block before any tile: the horizontal buffer zeroed. Afterwards every row
// of it holds a finite float: 0, or a sum of a source row that the horizontal phase wrote (finite for integer
// sources), which tvTileVertical's all-taps sums rely on.
CVK_TV_HD void tvZeroBuffer(const TvBuffers &b, int32_t bufferRows, int tid, int nthreads) {
    for (int32_t i = tid; i < bufferRows * kTvTileW; i += nthreads) b.h[i] = 0.f;
}

// One tile: output pixels [ox0, ox0 + tw) x [oy0, oy0 + th) (output coordinates), its source rows.
struct TvTile {
    int32_t ox0, oy0, tw, th;
    int32_t row0, rows;
};

CVK_TV_HD TvTile tvTileOf(const TvJob &j, int32_t tileH, int32_t tx, int32_t ty) {
    TvTile t;
    t.ox0 = tx * kTvTileW;
    t.oy0 = ty * tileH;
    t.tw = j.outW - t.ox0 < kTvTileW ? j.outW - t.ox0 : kTvTileW;
    t.th = j.outH - t.oy0 < tileH ? j.outH - t.oy0 : tileH;
    tvTileRows(j, t.oy0, t.th, t.row0, t.rows);
    return t;
}

// The normalised weights of window w, zero past its size (sampleTorch's tvAAWeight, the same floats).
template <int K> CVK_TV_HD void tvWeights(const TvWindow &w, bool cubic, float (&out)[K]) {
    const float total = cubic ? tvAATotal<true>(w) : tvAATotal<false>(w);
    CVK_TV_UNROLL
    for (int k = 0; k < K; ++k)
        out[k] = k < w.size ? (cubic ? tvAAWeight<true>(w, k, total) : tvAAWeight<false>(w, k, total)) : 0.f;
}

// Phase 1: the vertical windows and weights of the tile's output rows.
template <int K> CVK_TV_HD void tvTileRowsSetup(const TvJob &j, const TvTile &t, const TvBuffers &b, int tid, int nthreads) {
    for (int y = tid; y < t.th; y += nthreads) {
        const TvWindow w = tvJobWindowY(j, t.oy0 + y);
        b.ylo[y] = w.lo - t.row0;
        b.ysize[y] = w.size;
        float wy[K];
        tvWeights<K>(w, j.cubic, wy);
        for (int k = 0; k < K; ++k) b.wy[y * K + k] = wy[k];
    }
}

// One lane's output column: its window and weights (in registers for the whole tile).
template <int K> struct TvColumn {
    int32_t lo, size;
    float w[K];
};

// A uint8 source's column: the two parts of its fixed-point weights (tvFixedSplit) as signed 16-bit pairs, taps 2m
// and 2m + 1 in the low and high halves of hi[m] and lo[m] (pairDot's operands).
template <int K> struct TvFixedColumn {
    static_assert(K % 4 == 0, "whole words of taps");
    int32_t lo, size;
    uint32_t whi[K / 2], wlo[K / 2];
};

template <class T> constexpr bool kTvFixed = std::is_same_v<T, uint8_t>;
template <class T, int K> using TvColumnOf = std::conditional_t<kTvFixed<T>, TvFixedColumn<K>, TvColumn<K>>;

template <class T, int K> CVK_TV_HD TvColumnOf<T, K> tvColumnOf(const TvJob &j, const TvTile &t, int lane) {
    TvColumnOf<T, K> col{};
    if (lane >= t.tw) return col;
    const TvWindow w = tvJobWindowX(j, t.ox0 + lane);
    col.lo = w.lo;
    col.size = w.size;
    if constexpr (kTvFixed<T>) {
        float f[K];
        tvWeights<K>(w, j.cubic, f);
        CVK_TV_UNROLL
        for (int m = 0; m < K / 2; ++m) {
            int32_t h0, l0, h1, l1;
            tvFixedSplit(f[2 * m], h0, l0);
            tvFixedSplit(f[2 * m + 1], h1, l1);
            col.whi[m] = (uint32_t(h0) & 0xffffu) | uint32_t(h1) << 16;
            col.wlo[m] = (uint32_t(l0) & 0xffffu) | uint32_t(l1) << 16;
        }
    } else {
        tvWeights<K>(w, j.cubic, col.w);
    }
    return col;
}

// Tap k's 16-bit weight part of a uint8 column (whi or wlo).
template <int K> CVK_TV_HD int32_t tvFixedTap(const uint32_t (&part)[K / 2], int k) { return int16_t(uint16_t(part[k / 2] >> (16 * (k & 1)))); }

// The words a window of K taps is loaded in: K + 3 bytes from lo rounded down to 4.
CVK_TV_HD constexpr int tvWordsOf(int K) { return K / 4 + 1; }

// The NW = tvWordsOf(K) words of a uint8 row that hold the K bytes from `base` (col.lo & ~3, 4-byte aligned) on, at
// `at` (the row's byte base): Whole (base + 4 NW <= srcW) as word loads, else byte by byte, zero past the row's srcW
// bytes, never reading past it.
template <int K, bool Whole> CVK_TV_HD void tvLoadWords(const uint8_t *at, int32_t base, int32_t srcW, uint32_t (&w)[tvWordsOf(K)]) {
    CVK_TV_UNROLL
    for (int i = 0; i < tvWordsOf(K); ++i) {
        if constexpr (Whole) {
#ifdef __CUDA_ARCH__
            w[i] = reinterpret_cast<const uint32_t *>(at)[i];
#else
            std::memcpy(&w[i], at + 4 * i, 4); // the host's little-endian word, without an aliasing cast
#endif
        } else {
            uint32_t v = 0;
            for (int k = 0; k < 4; ++k)
                if (base + 4 * i + k < srcW) v |= uint32_t(at[4 * i + k]) << (8 * k);
            w[i] = v;
        }
    }
}

// The horizontal sum of a uint8 row for one column from its words (tvLoadWords): the fixed-point sums over k of
// whi[k] * row[lo + k] and wlo[k] * row[lo + k] (tvFixedSplit), each word of 4 bytes shifted into place (a funnel
// shift) and summed by pairDot (two dp2a a part), then joined (tvFixedJoin). Every one of the K taps, with no test of
// k against the window's size: its weights past the size are 0, so those terms add 0 to exact integer sums. The
// kernel was bound by its instructions (Nsight Compute: logs/ncu-tv-direct-8b1553e.log): float sums took three a tap
// (byte to float, its bias, the multiply-add), these take one.
template <int K> CVK_TV_HD float tvWordTaps(const TvFixedColumn<K> &col, const uint32_t (&w)[tvWordsOf(K)]) {
    const uint32_t shift = 8u * static_cast<uint32_t>(col.lo & 3);
    int32_t hi = 0, lo = 0;
    CVK_TV_UNROLL
    for (int i = 0; i < tvWordsOf(K) - 1; ++i) {
        const uint32_t a = funnelRight(w[i], w[i + 1], shift);
        hi = pairDot(a, col.whi[2 * i], col.whi[2 * i + 1], hi);
        lo = pairDot(a, col.wlo[2 * i], col.wlo[2 * i + 1], lo);
    }
    return tvFixedJoin(hi, lo);
}

// The horizontal sum of one source row for one column, the values read one by one (the uint8 rows of word loads take
// tvTileWordRows instead): for uint8 the fixed-point sums over k < size of whi[k] * row[lo + k] and wlo[k] *
// row[lo + k] (exact integers), joined (tvFixedJoin), else the sum over k < size of w[k] * row[lo + k] in float, in k
// order.
template <class T, int K> CVK_TV_HD float tvRowSum(const TvColumnOf<T, K> &col, const Plane &p, int32_t row) {
    if constexpr (kTvFixed<T>) {
        int32_t hi = 0, lo = 0;
        CVK_TV_UNROLL
        for (int k = 0; k < K; ++k)
            if (k < col.size) {
                const int32_t v = fetch<T>(p, row, col.lo + k, 0);
                hi += tvFixedTap<K>(col.whi, k) * v;
                lo += tvFixedTap<K>(col.wlo, k) * v;
            }
        return tvFixedJoin(hi, lo);
    } else {
        float h = 0.f;
        CVK_TV_UNROLL
        for (int k = 0; k < K; ++k)
            if (k < col.size) h += col.w[k] * toFloat(fetch<T>(p, row, col.lo + k, 0));
        return h;
    }
}

// Rows each thread sums before it stores them, so that their loads are in flight together (only for the smallest
// window: the larger ones' weights already take the registers), and the blocks per SM the kernel's registers allow.
// Word rows (tvTileWordRows), 4 rows: the benchmark's 64x3x1080x1920 -> 256x455 in 435 µs against 490 with 2 (one
// H100, same lease, docs/perf.md). Other rows (tvRowSum), 2 as before 2b07c00, but 1 for uint8, whose kernel also
// holds the word rows' registers: its 12-tap kernels spill 20-24 bytes with 2 and none with 1
// (logs/ptxas-tv-uint8-two-rows.log, logs/ptxas-tv.log). The other types' 12-tap kernels spill 4-16 bytes with 2,
// as 8b1553e's did (logs/ptxas-tv-8b1553e.log); they were not timed.
template <int K> constexpr int kTvRowBatch = K <= 12 ? 4 : 1;
template <class T, int K> constexpr int kTvValueBatch = K <= 12 && sizeof(T) > 1 ? 2 : 1;
template <int K> constexpr int kTvMinBlocks = K <= 12 ? 3 : (K <= 24 ? 2 : 1);

// Phase 2 for uint8 rows of word loads (pixels one byte apart): the thread's rows r, r + step, ... of the tile, U at a
// time (kTvRowBatch; bench/probes/tv_tiles_variants.cu times others), every load of the U rows issued before any sum.
// `at` is the lane's first word (byte col.lo & ~3) of row r, 4-byte aligned, and `stride` the bytes from a row to the
// next: a source plane's rows (tvTileHorizontal) or a staged copy of them (tvTileStagedHorizontal). The address
// advances by a stride (no multiply per row) and Whole is the lane's, fixed for the tile (tvLoadWords).
template <int K, bool Whole, int U = kTvRowBatch<K>>
CVK_TV_HD void tvTileWordRows(const TvTile &t, const TvFixedColumn<K> &col, const uint8_t *at, int64_t stride, int32_t srcW, const TvBuffers &b,
                              int lane, int32_t r, int step) {
    constexpr int NW = tvWordsOf(K);
    const int32_t base = col.lo & ~3;
    stride *= step;
    for (; r + (U - 1) * step < t.rows; r += U * step, at += U * stride) {
        uint32_t w[U][NW];
        CVK_TV_UNROLL
        for (int u = 0; u < U; ++u) tvLoadWords<K, Whole>(at + u * stride, base, srcW, w[u]);
        CVK_TV_UNROLL
        for (int u = 0; u < U; ++u) b.h[(r + u * step) * kTvTileW + lane] = tvWordTaps<K>(col, w[u]);
    }
    for (; r < t.rows; r += step, at += stride) {
        uint32_t w[NW];
        tvLoadWords<K, Whole>(at, base, srcW, w);
        b.h[r * kTvTileW + lane] = tvWordTaps<K>(col, w);
    }
}

// Phase 2 (one channel plane): the horizontal sums of every source row of the tile for the thread's column.
// `words`: the rows are uint8, 4-byte aligned, pixels one byte apart (tvTileWordRows, WordBatch rows at a time).
template <class T, int K, int WordBatch = kTvRowBatch<K>>
CVK_TV_HD void tvTileHorizontal(const TvJob &j, const TvTile &t, const TvColumnOf<T, K> &col, const Plane &p, bool words,
                                const TvBuffers &b, int tid, int nthreads) {
    const int lane = tid % kTvTileW, step = nthreads / kTvTileW;
    if (lane >= t.tw) return;
    const int32_t r = tid / kTvTileW;
    if constexpr (sizeof(T) == 1) {
        if (words) {
            const auto *at = reinterpret_cast<const uint8_t *>(p.base + int64_t(t.row0 + r) * p.rowStride) + (col.lo & ~3);
            if ((col.lo & ~3) + 4 * tvWordsOf(K) <= j.srcW)
                tvTileWordRows<K, true, WordBatch>(t, col, at, p.rowStride, j.srcW, b, lane, r, step);
            else
                tvTileWordRows<K, false, WordBatch>(t, col, at, p.rowStride, j.srcW, b, lane, r, step);
            return;
        }
    }
    constexpr int U = kTvValueBatch<T, K>;
    int32_t q = r;
    for (; q + (U - 1) * step < t.rows; q += U * step) {
        float h[U];
        CVK_TV_UNROLL
        for (int u = 0; u < U; ++u) h[u] = tvRowSum<T, K>(col, p, t.row0 + q + u * step);
        CVK_TV_UNROLL
        for (int u = 0; u < U; ++u) b.h[(q + u * step) * kTvTileW + lane] = h[u];
    }
    for (; q < t.rows; q += step) b.h[q * kTvTileW + lane] = tvRowSum<T, K>(col, p, t.row0 + q);
}

// The staged variant (tvStagedKernel, resize_tv.cu): uint8 word rows of the smallest windows (K = 12: reductions up
// to about 5x, the benchmark's 4.2x among them) from 16-byte aligned rows. Each plane's source bytes of the tile (its
// rows' span that the columns' word loads cover) are first copied into shared memory with 16-byte cp.async copies,
// the next plane's while this one is summed, so that the horizontal phase reads shared memory where tvTileWordRows on
// the source waits on global loads row after row. The copies read nothing past the row's srcW bytes: a chunk's bytes
// there are zero (bandCopy16Zero), as tvLoadWords gives them, so the staged words are the word loads' (and the sums
// are the same).
struct TvStageSpan {
    int32_t origin; // byte offset of the span in each source row, a multiple of 16
    int32_t bytes;  // its length, a multiple of 16: also the staged rows' pitch
};

template <int K> CVK_TV_HD TvStageSpan tvStageSpan(const TvJob &j, const TvTile &t) {
    const int32_t first = tvJobWindowX(j, t.ox0).lo & ~3; // windows are monotone in the index
    const int32_t end = (tvJobWindowX(j, t.ox0 + t.tw - 1).lo & ~3) + 4 * tvWordsOf(K);
    TvStageSpan s;
    s.origin = first & ~15;
    s.bytes = (end - s.origin + 15) & ~15;
    return s;
}

// The 16-byte copy of a stage's chunk: bandCopy16Zero (cp.async where compiled for it). tvStagedBlock passes its
// block's instead.
struct TvCopy16 {
    CVK_TV_HD void operator()(uint8_t *to, const uint8_t *from, int32_t bytes) const { bandCopy16Zero(to, from, bytes); }
};

// Phase 2a (one channel plane, every thread): the tile's rows' span into `stage` (rows of span.bytes). Thread tid
// copies 16-byte chunk tid % chunks of rows tid / chunks, + nthreads / chunks, ... (the plan keeps chunks <=
// nthreads) with copy(to, from, bytes) (TvCopy16's contract); a chunk's bytes past the row's srcW are zero and not
// read. p.base and p.rowStride are 16-byte aligned.
template <class Copy = TvCopy16>
CVK_TV_HD void tvStageFill(const Plane &p, const TvTile &t, const TvStageSpan &span, int32_t srcW, uint8_t *stage, int tid, int nthreads,
                           const Copy &copy = Copy{}) {
    const int32_t chunks = span.bytes >> 4, perPass = nthreads / chunks;
    if (tid >= perPass * chunks) return;
    const int32_t k = tid % chunks, off = span.origin + 16 * k;
    const int32_t bytes = srcW - off >= 16 ? 16 : (srcW - off > 0 ? srcW - off : 0);
    int32_t r = tid / chunks;
    const auto *from = reinterpret_cast<const uint8_t *>(p.base + int64_t(t.row0 + r) * p.rowStride) + (bytes > 0 ? off : 0);
    uint8_t *to = stage + r * span.bytes + 16 * k;
    const int64_t fromStep = int64_t(perPass) * p.rowStride;
    const int32_t toStep = perPass * span.bytes;
    for (; r < t.rows; r += perPass, from += fromStep, to += toStep) copy(to, from, bytes);
}

// The staged kernel's rows a batch and most images a block (tvStagedImages). Measured on an H100 with
// bench/probes/tv_tiles_variants.cu on the benchmark's 64x3x1080x1920 -> 256x455
// (logs/probe-tv_tiles_variants-h100-staged.log; torchvision 2709.7 µs in the same lease): 4 rows and one image a
// block 302.3 µs, 2 images 275.1, 4 images 267.4, 8 images 283.7 (2.4 waves of blocks: a tail); 8 rows with 4 images
// 263.6, 2 rows 267.0; every output byte-identical to the tiles kernel's. A block's planes share its tile's column
// and row weights and overlap each plane's copies with the previous plane's sums, so more planes a block hide more of
// its first copies; kTvStagedMinBlocks keeps four waves of three blocks on a 132-SM GPU.
constexpr int kTvStagedRowBatch = 8;
constexpr int64_t kTvStagedImages = 4;
constexpr int64_t kTvStagedMinBlocks = int64_t(4) * 132 * 3;

// Images a staged block takes, of n, with `tiles` tiles an image: the most of 4, 2, 1 that leaves the grid
// kTvStagedMinBlocks blocks or more (1 when none does).
CVK_TV_HD int64_t tvStagedImages(int64_t tiles, int64_t n) {
    for (int64_t k = kTvStagedImages; k > 1; k /= 2)
        if (tiles * ((n + k - 1) / k) >= kTvStagedMinBlocks) return k;
    return 1;
}

// The staged grid's image slots (its z) for n images and `tiles` tiles an image: n / tvStagedImages, at most 65535
// (past that a block takes more images: the kernel steps through them by the grid's z).
CVK_TV_HD int64_t tvStagedGridZ(int64_t tiles, int64_t n) {
    const int64_t k = tvStagedImages(tiles, n), z = (n + k - 1) / k;
    return z < 65535 ? z : 65535;
}

// The planes of the block at z of a grid of gz image slots (images z, z + gz, ... of n, every channel of each):
// how many, and plane q's image and channel.
CVK_TV_HD int64_t tvBlockPlanes(int64_t n, int32_t channels, int64_t z, int64_t gz) { return n > z ? ((n - 1 - z) / gz + 1) * channels : 0; }
CVK_TV_HD void tvBlockPlane(int64_t q, int32_t channels, int64_t z, int64_t gz, int64_t &n, int32_t &c) {
    n = z + (q / channels) * gz;
    c = static_cast<int32_t>(q % channels);
}

// Phase 2b (one channel plane, after the plane's copies are complete and visible): tvTileHorizontal's sums from the
// staged rows.
template <int K, int U = kTvStagedRowBatch>
CVK_TV_HD void tvTileStagedHorizontal(const TvTile &t, const TvFixedColumn<K> &col, const uint8_t *stage, const TvStageSpan &span,
                                      const TvBuffers &b, int tid, int nthreads) {
    const int lane = tid % kTvTileW, step = nthreads / kTvTileW;
    if (lane >= t.tw) return;
    const int32_t r = tid / kTvTileW;
    tvTileWordRows<K, true, U>(t, col, stage + r * span.bytes + (col.lo & ~3) - span.origin, span.bytes, 0, b, lane, r, step);
}

// Phase 3 (one channel plane): the vertical sum of every output pixel of the tile, handed to emit(x, y, value) in
// output coordinates (uint8: scaled by 2^-14, the fixed-point weights' unit, as sampleTorch). Integer sources (whose
// horizontal sums are finite, and a buffer of K rows past the tile's most, zeroed by tvZeroBuffer: a window's first
// row plus K stays inside it, as ylo + size <= the tile's rows): every one of the K taps, unrolled, those past the
// window's size adding 0 * (a finite float) = +0, which leaves the sum's bits as they are; else the window's taps
// only (a float source's Inf or NaN in a row past the window must not reach the sum).
// Thread tid takes column tid % 32 of rows tid / 32, tid / 32 + nthreads / 32, ... (nthreads a multiple of 32).
template <class T, int K, class Emit>
CVK_TV_HD void tvTileVertical(const TvTile &t, const TvBuffers &b, int tid, int nthreads, Emit &&emit) {
    constexpr bool AllTaps = std::is_integral_v<T>;
    const int32_t x = tid % kTvTileW;
    if (x >= t.tw) return;
    for (int32_t y = tid / kTvTileW; y < t.th; y += nthreads / kTvTileW) {
        const float *col = b.h + b.ylo[y] * kTvTileW + x;
        const float *w = b.wy + y * K;
        float acc = 0.f;
        if constexpr (AllTaps) {
            CVK_TV_UNROLL
            for (int32_t q = 0; q < K / 4; ++q) {
                const float4 w4 = reinterpret_cast<const float4 *>(w)[q];
                acc += w4.x * col[(4 * q) * kTvTileW];
                acc += w4.y * col[(4 * q + 1) * kTvTileW];
                acc += w4.z * col[(4 * q + 2) * kTvTileW];
                acc += w4.w * col[(4 * q + 3) * kTvTileW];
            }
        } else {
            for (int32_t k = 0; k < b.ysize[y]; ++k) acc += w[k] * col[k * kTvTileW];
        }
        if constexpr (kTvFixed<T>) acc *= kTvFixedUnit;
        emit(t.ox0 + x, t.oy0 + y, acc);
    }
}

// One block of the staged kernel (tvStagedKernel, resize_tv.cu), whole: the tiles of tile column blk.x() and tile
// rows blk.y(), + blk.gy(), ..., each over the planes of image slot blk.z() of blk.gz() (tvBlockPlanes), plane
// q + 1's copies in flight while plane q is summed (two stages of s.maxRows rows of s.stagePitch bytes at
// s.stageOffset of `smem`, after the buffers), every output value handed to emit(n, c, x, y, value).
// `blk` is the block's primitives as its thread sees them: tid(); the block's place x(), y(), z() and the grid's
// extents gy(), gz() (blockIdx, gridDim); the barrier sync() (__syncthreads); copy16(to, from, bytes) (TvCopy16's
// contract, asynchronous: its bytes land by the thread's wait for its group), commit() and wait<Pending>()
// (cp.async's commit_group and wait_group); waitPriorGrid() (overlap_launch.cuh), before any global memory access.
// On the GPU they are the hardware's (resize_tv.cu); the CPU tests (tests/kernels/test_resize_tv_staged_block.cpp)
// run the block's threads one after another between barriers, each copy landing when issued or as late as the waits
// allow, so that a barrier or wait left out shows as a wrong output.
// Barriers: the one before a plane's horizontal phase makes its copies (each thread waited for its own) visible to all
// and ends the previous plane's vertical phase (the buffer); the one after it ends the reads of its stage, which the
// copies issued at the next plane's top overwrite with plane q + 2's.
template <int K, int U, class Block, class Emit>
CVK_TV_HD void tvStagedBlock(const TvJob &j, const View4 &src, const TvTileShape &s, void *smem, Block &blk, Emit &&emit) {
    const TvBuffers b = tvCarve<K>(smem, s.maxRows + s.padRows, s.tileH);
    uint8_t *const stages = static_cast<uint8_t *>(smem) + s.stageOffset;
    const int32_t stageBytes = s.maxRows * s.stagePitch;
    const int tid = blk.tid();
    const auto copy = [&](uint8_t *to, const uint8_t *from, int32_t bytes) { blk.copy16(to, from, bytes); };
    tvZeroBuffer(b, s.maxRows + s.padRows, tid, kTvThreads); // ordered by the barrier before the first tile's setup
    const int32_t tilesY = (j.outH + s.tileH - 1) / s.tileH;
    const int32_t C = static_cast<int32_t>(src.shape[kC]);
    const int64_t planes = tvBlockPlanes(src.shape[kN], C, blk.z(), blk.gz());
    const auto planeOf = [&](int64_t q, int64_t &n, int32_t &c) {
        tvBlockPlane(q, C, blk.z(), blk.gz(), n, c);
        return Plane{src.data + n * src.stride[kN] + c * src.stride[kC], src.stride[kH], src.stride[kW], 0};
    };
    for (int32_t ty = blk.y(); ty < tilesY; ty += blk.gy()) {
        const TvTile t = tvTileOf(j, s.tileH, static_cast<int32_t>(blk.x()), ty);
        const TvStageSpan span = tvStageSpan<K>(j, t);
        const TvFixedColumn<K> col = tvColumnOf<uint8_t, K>(j, t, tid % kTvTileW);
        blk.sync(); // the previous tile's vertical pass has read the row weights, its horizontal pass the stages
        tvTileRowsSetup<K>(j, t, b, tid, kTvThreads);
        blk.waitPriorGrid(); // launched overlapping the previous kernel (tvLaunch): nothing above reads global memory
        int64_t n = 0;
        int32_t c = 0;
        if (planes > 0) tvStageFill(planeOf(0, n, c), t, span, j.srcW, stages, tid, kTvThreads, copy);
        blk.commit();
        for (int64_t q = 0; q < planes; ++q) {
            if (q + 1 < planes) {
                int64_t n1;
                int32_t c1;
                tvStageFill(planeOf(q + 1, n1, c1), t, span, j.srcW, stages + ((q + 1) & 1) * stageBytes, tid, kTvThreads, copy);
                blk.commit();
                blk.template wait<1>(); // all but the newest group: plane q's copies
            } else {
                blk.template wait<0>();
            }
            planeOf(q, n, c);
            blk.sync();
            tvTileStagedHorizontal<K, U>(t, col, stages + (q & 1) * stageBytes, span, b, tid, kTvThreads);
            blk.sync();
            tvTileVertical<uint8_t, K>(t, b, tid, kTvThreads, [&](int32_t x, int32_t y, float v) { emit(n, c, x, y, v); });
        }
    }
}

#undef CVK_TV_HD
#undef CVK_TV_UNROLL

} // namespace cvk::resize
