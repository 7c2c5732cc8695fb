// cvResize's shared-memory tiled path for uint8 LINEAR, CUBIC and AREA (integer box and fractional table): a block
// stages the source pixels its destination tile reads (coalesced 4-byte loads, one 32-bit word per pixel in shared
// memory), runs the horizontal pass into a per-source-row buffer, then the vertical pass, and writes the tile back in
// 16-byte vectors. The arithmetic is the sampler's (resize_filters.cuh) term for term: the same taps and fixed-point
// weights, integer sums for LINEAR/CUBIC (exact in any order), and for AREA the same float row sums accumulated in
// the same order, so both paths give the same bytes. Each phase is a __host__ __device__ function over a thread index,
// so the CPU tests run a whole block (phase by phase, every thread) against samplePixel.
//
// Bank layout: staged rows and buffer columns have odd pitches (in words); the horizontal pass gives consecutive
// threads consecutive source rows of one destination column, the vertical pass consecutive destination columns, so
// the threads of a warp read distinct banks in both.
#pragma once

#include "common/register_bytes.cuh"
#include "resize_filters.cuh"

#include <cstdint>
#include <type_traits>

namespace cvk::resize {

#define CVK_TILE_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_TILE_UNROLL _Pragma("unroll")
#define CVK_TILE_UNROLL4 _Pragma("unroll 4") // run-time trip counts: 4 taps per loop test and branch
#else
#define CVK_TILE_UNROLL
#define CVK_TILE_UNROLL4
#endif

constexpr int kTileThreads = 256;
// Pixel groups each thread loads before it stores them (tileLoad): 1536 per block, so the tile of AREA 1080x1920 ->
// 224x224 (1476 groups) is staged in one round of loads, not two (at 48 registers a few of them spill to L1).
constexpr int kStageBatch = 6;
constexpr int kTileSmemLimit = 48 * 1024; // the default dynamic shared-memory limit: no attribute call per launch

using TileShape = ResizeTileShape;

// Words per entry of the horizontal buffer: one channel in one word, 3 or 4 channels in one 16-byte vector.
template <int CT> constexpr int kTileHWords = CT == 1 ? 1 : 4;

// One destination index's taps in staged (tile-local) coordinates. LINEAR/CUBIC: idx[k] the clamped source index of
// tap k, iw[k] its fixed-point weight. AREA: idx[0] = lo, idx[1] = hi (areaCell, or lo + factor for the integer box),
// f = inner, head, tail.
struct TileTap {
    int32_t idx[4];
    int32_t iw[4];
    float f[4]; // f[3] pads the entry to 48 bytes: the output buffer after the taps stays 16-byte aligned
};
static_assert(sizeof(TileTap) % 16 == 0, "carveTile keeps the output buffer 16-byte aligned");

// Source indices [lo, hi] destination index d reads on axis a (every tap, clamped into the axis). Non-decreasing in
// d, so a run of destination indices reads [span(first).lo, span(last).hi].
CVK_TILE_HD void sourceSpan(const Axis &a, int32_t interp, int32_t areaKind, int32_t d, int32_t &lo, int32_t &hi) {
    if (interp == kLinear) {
        const Taps t = linearTaps(a, d);
        lo = t.first;
        hi = clampIndex(int64_t(t.first) + 1, a.src);
    } else if (interp == kCubic) {
        const Taps t = cubicTaps(a, d);
        lo = clampIndex(t.first, a.src);
        hi = clampIndex(int64_t(t.first) + 3, a.src);
    } else if (areaKind == kAreaFast) {
        lo = d * a.iscale;
        hi = lo + a.iscale - 1;
    } else {
        const AreaCell c = areaCell(a, d);
        lo = c.lo > 0 ? c.lo - 1 : 0;
        hi = c.hi;
    }
}

// The staged source window of the tile whose destination indices are [d0, d0 + n): rows [lo, lo + count). Columns
// start on a multiple of 4 pixels (aligned 4-byte loads of whole pixel groups) and count a multiple of 4.
struct Span {
    int32_t lo, count;
};
CVK_TILE_HD Span tileRows(const Mapping &m, int32_t d0, int32_t n) {
    int32_t lo, hi, l2, h2;
    sourceSpan(m.y, m.interp, m.areaKind, d0, lo, hi);
    sourceSpan(m.y, m.interp, m.areaKind, d0 + n - 1, l2, h2);
    return {lo, h2 - lo + 1};
}
CVK_TILE_HD Span tileCols(const Mapping &m, int32_t d0, int32_t n) {
    int32_t lo, hi, l2, h2;
    sourceSpan(m.x, m.interp, m.areaKind, d0, lo, hi);
    sourceSpan(m.x, m.interp, m.areaKind, d0 + n - 1, l2, h2);
    const int32_t col0 = lo & ~3;
    return {col0, (h2 + 1 - col0 + 3) & ~3};
}

// ------------------------------------------------------------------------------------------ word/byte helpers

CVK_TILE_HD int32_t byteOf(uint32_t w, int c) { return static_cast<int32_t>((w >> (8 * c)) & 0xffu); }

// float(byte c of w), exactly (the float 2^23 + b minus 2^23): no integer-to-float conversion instruction.
CVK_TILE_HD float byteToFloat(uint32_t w, int c) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(__byte_perm(w, 0x4b000000u, 0x7440u | static_cast<uint32_t>(c))) - 8388608.f;
#else
    return static_cast<float>(byteOf(w, c));
#endif
}

// An integer n < 2^23 added to kFloatBias is the bits of the float 2^23 + n: a sum started at kFloatBias becomes a
// float with one subtraction (biasedToFloat), exactly, and no integer-to-float conversion instruction.
constexpr uint32_t kFloatBias = 0x4b000000u;
CVK_TILE_HD float biasedToFloat(uint32_t bits) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(bits) - 8388608.f;
#else
    return static_cast<float>(bits - kFloatBias);
#endif
}

CVK_TILE_HD uint32_t pick4(uint32_t a, uint32_t b, uint32_t c, uint32_t d, int j) {
    return j == 0 ? a : (j == 1 ? b : (j == 2 ? c : d));
}

// The items i = tid, tid + nthreads, ... of a thread as (i % n, i / n), stepped without a division per item (an
// integer division by a run-time divisor costs about 20 instructions, several times an item's own work).
struct Walk {
    int32_t a, b;   // i % n, i / n
    int32_t da, db; // nthreads % n, nthreads / n
    int32_t n;
};
CVK_TILE_HD Walk walkOf(int tid, int nthreads, int32_t n) { return {tid % n, tid / n, nthreads % n, nthreads / n, n}; }
CVK_TILE_HD void advance(Walk &w) {
    w.a += w.da;
    w.b += w.db;
    if (w.a >= w.n) w.a -= w.n, ++w.b;
}

// ------------------------------------------------------------------------------------------------ one tile

// Where one tile's pieces lie in shared memory (staged source words, horizontal buffer, taps, output bytes).
struct TileBuffers {
    uint32_t *src;  // [maxRows][pitch] words, pixel (row0 + r, col0 + x) at r * pitch + x, channel c in byte c
    uint32_t *h;    // [tileW][hpitch][hwords]: the horizontal pass of staged row r for destination column x
    TileTap *xt;    // [tileW]
    TileTap *yt;    // [tileH]
    uint8_t *out;   // [tileH][outPitch]
};

CVK_TILE_HD int32_t tileSmemBytes(const TileShape &s) {
    return 4 * s.maxRows * s.pitch + 4 * s.tileW * s.hpitch * s.hwords + int32_t(sizeof(TileTap)) * (s.tileW + s.tileH) +
           s.tileH * s.outPitch;
}

// base must be 16-byte aligned; every piece but the last (the staged rows) is a multiple of 16 bytes long, so each
// starts 16-byte aligned (the horizontal buffer and the output buffer are read and written in 16-byte vectors).
CVK_TILE_HD TileBuffers carveTile(void *base, const TileShape &s) {
    char *p = static_cast<char *>(base);
    TileBuffers b;
    b.h = reinterpret_cast<uint32_t *>(p);
    p += 4 * s.tileW * s.hpitch * s.hwords;
    b.xt = reinterpret_cast<TileTap *>(p);
    p += sizeof(TileTap) * s.tileW;
    b.yt = reinterpret_cast<TileTap *>(p);
    p += sizeof(TileTap) * s.tileH;
    b.out = reinterpret_cast<uint8_t *>(p);
    p += s.tileH * s.outPitch;
    b.src = reinterpret_cast<uint32_t *>(p);
    return b;
}

// One tile of one image: destination pixels [dx0, dx0 + tw) x [dy0, dy0 + th), staged source rows/columns.
struct TileCtx {
    int64_t n;
    int32_t dx0, dy0, tw, th;
    Span rows, cols;
};

CVK_TILE_HD TileCtx tileContext(const Mapping &m, const TileShape &s, int64_t n, int32_t tx, int32_t ty) {
    TileCtx t;
    t.n = n;
    t.dx0 = tx * s.tileW;
    t.dy0 = ty * s.tileH;
    t.tw = m.x.dst - t.dx0 < s.tileW ? m.x.dst - t.dx0 : s.tileW;
    t.th = m.y.dst - t.dy0 < s.tileH ? m.y.dst - t.dy0 : s.tileH;
    t.rows = tileRows(m, t.dy0, t.th);
    t.cols = tileCols(m, t.dx0, t.tw);
    return t;
}

template <int I> CVK_TILE_HD TileTap tapOf(const Mapping &m, const Axis &a, int32_t d, int32_t base) {
    TileTap t{};
    if constexpr (I == kLinear || I == kCubic) {
        const Taps w = I == kLinear ? linearTaps(a, d) : cubicTaps(a, d);
        CVK_TILE_UNROLL
        for (int k = 0; k < 4; ++k) {
            t.idx[k] = clampIndex(int64_t(w.first) + k, a.src) - base;
            t.iw[k] = fixedWeight(w.w[k]);
        }
    } else if (m.areaKind == kAreaFast) {
        t.idx[0] = d * a.iscale - base;
        t.idx[1] = t.idx[0] + a.iscale;
    } else {
        const AreaCell c = areaCell(a, d);
        t.idx[0] = c.lo - base;
        t.idx[1] = c.hi - base;
        t.f[0] = c.inner;
        t.f[1] = c.head;
        t.f[2] = c.tail;
    }
    return t;
}

// Phase 1 (before the first barrier): the taps of the tile's columns and rows, and the staged source words.
template <int I, int CT>
CVK_TILE_HD void tileLoad(const Mapping &m, const TileShape &s, const TileCtx &t, const Plane &src, const TileBuffers &b,
                          int tid, int nthreads) {
    for (int i = tid; i < t.tw + t.th; i += nthreads) {
        if (i < t.tw)
            b.xt[i] = tapOf<I>(m, m.x, t.dx0 + i, t.cols.lo);
        else
            b.yt[i - t.tw] = tapOf<I>(m, m.y, t.dy0 + i - t.tw, t.rows.lo);
    }
    const int32_t groups = t.cols.count / 4, srcW = m.x.src;
    const int32_t items = groups * t.rows.count;
    // kStageBatch groups per thread are loaded before any is stored, so that many loads are in flight at once.
    Walk walk = walkOf(tid, nthreads, groups);
    for (int32_t first = tid; first < items; first += kStageBatch * nthreads) {
        uint32_t px[kStageBatch][4] = {};
        Walk again = walk;
        CVK_TILE_UNROLL
        for (int q = 0; q < kStageBatch; ++q) {
            const int32_t i = first + q * nthreads;
            if (i >= items) break;
            const int32_t g = walk.a, r = walk.b;
            advance(walk);
            const int32_t x = t.cols.lo + 4 * g;
            const char *row = src.base + int64_t(t.rows.lo + r) * src.rowStride + int64_t(x) * CT;
            if (x + 3 < srcW) {
                uint32_t w[CT];
                CVK_TILE_UNROLL
                for (int k = 0; k < CT; ++k) w[k] = reinterpret_cast<const uint32_t *>(row)[k];
                CVK_TILE_UNROLL
                for (int j = 0; j < 4; ++j) {
                    const int byte = j * CT, k = byte >> 2;
                    px[q][j] = funnelRight(w[k], k + 1 < CT ? w[k + 1] : 0u, 8u * (byte & 3));
                }
            } else { // the image's last pixels: byte loads, never past its last pixel
                CVK_TILE_UNROLL
                for (int j = 0; j < 4; ++j) {
                    uint32_t v = 0;
                    if (x + j < srcW)
                        for (int c = 0; c < CT; ++c) v |= uint32_t(reinterpret_cast<const uint8_t *>(row)[j * CT + c]) << (8 * c);
                    px[q][j] = v;
                }
            }
        }
        CVK_TILE_UNROLL
        for (int q = 0; q < kStageBatch; ++q) {
            const int32_t i = first + q * nthreads;
            if (i >= items) break;
            const int32_t g = again.a, r = again.b;
            advance(again);
            // Rotate the store order by g / 8 so the 32 threads of a warp hit 32 banks on each of the 4 stores.
            uint32_t *dst = b.src + r * s.pitch + 4 * g;
            const int rot = (g >> 3) & 3;
            CVK_TILE_UNROLL
            for (int jj = 0; jj < 4; ++jj) {
                const int j = (jj + rot) & 3;
                dst[j] = pick4(px[q][0], px[q][1], px[q][2], px[q][3], j);
            }
        }
    }
}

// One entry of the horizontal buffer (CT values of type V: int32_t or float), as one word or one 16-byte vector.
template <int CT, class V> CVK_TILE_HD void storeEntry(uint32_t *at, const V (&v)[4]) {
    if constexpr (CT == 1) {
        *reinterpret_cast<V *>(at) = v[0];
    } else {
        using V4 = typename std::conditional<std::is_same<V, float>::value, float4, int4>::type;
        V4 q;
        q.x = v[0], q.y = v[1], q.z = v[2], q.w = v[3];
        *reinterpret_cast<V4 *>(at) = q;
    }
}
template <int CT, class V> CVK_TILE_HD void loadEntry(const uint32_t *at, V (&v)[4]) {
    if constexpr (CT == 1) {
        v[0] = *reinterpret_cast<const V *>(at);
    } else {
        using V4 = typename std::conditional<std::is_same<V, float>::value, float4, int4>::type;
        const V4 q = *reinterpret_cast<const V4 *>(at);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
}

// Phase 2: for every staged row r and destination column x of the tile, the horizontal pass of every channel.
template <int I, int CT>
CVK_TILE_HD void tileHorizontal(const Mapping &m, const TileShape &s, const TileCtx &t, const TileBuffers &b, int tid,
                                int nthreads) {
    constexpr int HW = kTileHWords<CT>;
    const int32_t rows = t.rows.count, items = rows * t.tw;
    Walk walk = walkOf(tid, nthreads, rows);
    for (int32_t i = tid; i < items; i += nthreads, advance(walk)) {
        const int32_t r = walk.a, x = walk.b;
        const TileTap &tap = b.xt[x];
        const uint32_t *line = b.src + r * s.pitch;
        uint32_t *out = b.h + (x * s.hpitch + r) * HW;
        if constexpr (I == kLinear || I == kCubic) {
            constexpr int K = I == kLinear ? 2 : 4;
            int32_t h[4] = {0, 0, 0, 0};
            CVK_TILE_UNROLL
            for (int k = 0; k < K; ++k) {
                const uint32_t w = line[tap.idx[k]];
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) h[c] += tap.iw[k] * byteOf(w, c);
            }
            storeEntry<CT>(out, h);
        } else if (m.areaKind == kAreaFast) {
            float h[4] = {0.f, 0.f, 0.f, 0.f};
            CVK_TILE_UNROLL4
            for (int32_t k = tap.idx[0]; k < tap.idx[1]; ++k) {
                const uint32_t w = line[k];
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) h[c] += byteToFloat(w, c);
            }
            storeEntry<CT>(out, h);
        } else { // the sampler's rowSum, channel by channel in the same order (areaSumFirst: inner pixels weighed
                 // one by one, or summed and then weighed)
            const float inner = tap.f[0], head = tap.f[1], tail = tap.f[2];
            float h[4] = {0.f, 0.f, 0.f, 0.f}, sum[4] = {0.f, 0.f, 0.f, 0.f};
            if (head != 0.f) {
                const uint32_t w = line[tap.idx[0] - 1];
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) h[c] += head * byteToFloat(w, c);
            }
            if (areaSumFirst<uint8_t>(m.x)) {
                CVK_TILE_UNROLL4
                for (int32_t k = tap.idx[0]; k < tap.idx[1]; ++k) {
                    const uint32_t w = line[k];
                    CVK_TILE_UNROLL
                    for (int c = 0; c < CT; ++c) sum[c] += byteToFloat(w, c);
                }
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) h[c] += inner * sum[c];
            } else {
                CVK_TILE_UNROLL4
                for (int32_t k = tap.idx[0]; k < tap.idx[1]; ++k) {
                    const uint32_t w = line[k];
                    CVK_TILE_UNROLL
                    for (int c = 0; c < CT; ++c) h[c] += inner * byteToFloat(w, c);
                }
            }
            if (tail != 0.f) {
                const uint32_t w = line[tap.idx[1]];
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) h[c] += tail * byteToFloat(w, c);
            }
            storeEntry<CT>(out, h);
        }
    }
}

// Phase 3: the vertical pass of every destination pixel of the tile, rounded to uint8 into the output buffer.
template <int I, int CT>
CVK_TILE_HD void tileVertical(const Mapping &m, const TileShape &s, const TileCtx &t, const TileBuffers &b, int tid,
                              int nthreads) {
    constexpr int HW = kTileHWords<CT>;
    const int32_t items = t.tw * t.th;
    Walk walk = walkOf(tid, nthreads, t.tw);
    for (int32_t i = tid; i < items; i += nthreads, advance(walk)) {
        const int32_t x = walk.a, y = walk.b;
        const TileTap &tap = b.yt[y];
        const uint32_t *col = b.h + x * s.hpitch * HW;
        uint8_t *out = b.out + y * s.outPitch + x * CT;
        if constexpr (I == kLinear || I == kCubic) {
            constexpr int K = I == kLinear ? 2 : 4;
            int32_t acc[4] = {0, 0, 0, 0};
            CVK_TILE_UNROLL
            for (int k = 0; k < K; ++k) {
                int32_t e[4];
                loadEntry<CT>(col + tap.idx[k] * HW, e);
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) acc[c] += tap.iw[k] * e[c];
            }
            CVK_TILE_UNROLL
            for (int c = 0; c < CT; ++c) out[c] = fixedToU8(acc[c]);
        } else if (m.areaKind == kAreaFast) {
            const float norm = 1.f / static_cast<float>(m.x.iscale * m.y.iscale);
            float sum[4] = {0.f, 0.f, 0.f, 0.f};
            for (int32_t r = tap.idx[0]; r < tap.idx[1]; ++r) {
                float e[4];
                loadEntry<CT>(col + r * HW, e);
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) sum[c] += e[c];
            }
            CVK_TILE_UNROLL
            for (int c = 0; c < CT; ++c) out[c] = saturateFloat<uint8_t>(sum[c] * norm);
        } else { // the sampler's column of row sums, in the same order
            const float inner = tap.f[0], head = tap.f[1], tail = tap.f[2];
            float acc[4] = {0.f, 0.f, 0.f, 0.f}, e[4];
            if (head != 0.f) {
                loadEntry<CT>(col + (tap.idx[0] - 1) * HW, e);
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) acc[c] += head * e[c];
            }
            for (int32_t r = tap.idx[0]; r < tap.idx[1]; ++r) {
                loadEntry<CT>(col + r * HW, e);
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) acc[c] += inner * e[c];
            }
            if (tail != 0.f) {
                loadEntry<CT>(col + tap.idx[1] * HW, e);
                CVK_TILE_UNROLL
                for (int c = 0; c < CT; ++c) acc[c] += tail * e[c];
            }
            CVK_TILE_UNROLL
            for (int c = 0; c < CT; ++c) out[c] = saturateFloat<uint8_t>(acc[c]);
        }
    }
}

// Phase 4: the output buffer to dst (packed pixels): 16-byte stores where the chunk is aligned and whole.
template <int CT>
CVK_TILE_HD void tileStore(const TileShape &s, const TileCtx &t, char *dstImage, int64_t dstRowStride,
                           const TileBuffers &b, int tid, int nthreads) {
    const int32_t bytes = t.tw * CT, chunks = (bytes + 15) / 16, items = chunks * t.th;
    Walk walk = walkOf(tid, nthreads, chunks);
    for (int32_t i = tid; i < items; i += nthreads, advance(walk)) {
        const int32_t k = walk.a, y = walk.b;
        char *dst = dstImage + int64_t(t.dy0 + y) * dstRowStride + int64_t(t.dx0) * CT + 16 * k;
        const uint8_t *from = b.out + y * s.outPitch + 16 * k;
        if (16 * (k + 1) <= bytes && (reinterpret_cast<uintptr_t>(dst) & 15) == 0) {
            *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(from);
        } else {
            const int32_t n = bytes - 16 * k < 16 ? bytes - 16 * k : 16;
            for (int32_t j = 0; j < n; ++j) dst[j] = static_cast<char>(from[j]);
        }
    }
}

#undef CVK_TILE_HD
#undef CVK_TILE_UNROLL
#undef CVK_TILE_UNROLL4

} // namespace cvk::resize
