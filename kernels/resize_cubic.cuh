// cvResize's separable path for uint8 CUBIC on packed pixels of 1, 3 or 4 channels: a block owns a strip of
// destination columns and a band of consecutive destination rows of the batch (a band may cross from one image into
// the next). It walks the source rows the band reads in order, each once (its "items"): an item is staged whole (the
// strip's byte span of the row) into a ring of shared-memory slots with 16-byte cp.async copies (bandStage of
// resize_band.cuh), the next few items in flight (ResizeCubicShape::ahead), and then filtered horizontally: every
// thread computes, for its P destination pixels, the 4-tap horizontal sums of that source row and keeps the last 4
// items' sums in registers. After the item that is a destination row's last tap, the row is finished with the vertical 4-tap sum of
// those registers and stored. So each source row is read and filtered horizontally once, and 1080 -> 720 costs 1.5
// horizontal passes per destination row instead of 4 rows' vertical passes over the whole span.
//
// The arithmetic is samplePixel's (resize_filters.cuh) in its order: h_r = sum_k wx_k * src[y_r][x_k] per source
// row, acc = sum_r wy_r * h_r, fixedToU8(acc); the same taps and fixed-point weights, integers throughout, so the same
// bytes. The horizontal sum takes the 4 tap bytes of a channel as one word (funnel shifts and byte permutes of the
// staged words) and the weights split as w = 256 * hi + lo into signed bytes: h = 256 * dp4a(bytes, hi) +
// dp4a(bytes, lo), exact (|w| <= 2048 for CUBIC, |w| < 4096 for the folded border weights below). A column whose taps
// reach outside the row reads the 4 pixels at the row's border instead, its outside taps' weights added to the
// border pixel's (cubicWindow): the same integer sum regrouped by pixel, so the slot holds only the row's own bytes,
// all staged by cp.async. (Replicating the border pixels into the slot instead took a plain load per item, whose
// latency the whole block waited for at the next barrier: Nsight Compute put a third of variant 6's stalls there.)
// Taps outside the image's rows read the border row staged again: every tap is a plain offset, no clamping in the
// inner loops.
//
// Lanes of a warp take consecutive destination pixels (pixel j of a thread is 32 j + lane of its warp's 32 P), so a
// warp's loads of one tap word lie 4.5 bytes apart at 1.5x (about two shared-memory wavefronts), its stores are adjacent.
//
// The aligned variants (resize_cubic.cu) take sources whose rows are 16-byte aligned and whole 16-byte chunks long:
// they stage whole chunks at offsets fixed per strip (cubicIssueAligned), find byte b0 at the same slot offset in
// every row (no shift word), and sum the taps with dp2a on 16-bit weight pairs (pairDot).
//
// Each phase is a __host__ __device__ function over a thread index, so the CPU tests run whole blocks against
// samplePixel (the copies done at once, every item filtered only after the next items' copies are issued).
#pragma once

#include "common/read_only.cuh"
#include "common/register_bytes.cuh"
#include "resize_band.cuh"
#include "resize_filters.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_CUBIC_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_CUBIC_UNROLL _Pragma("unroll")
#else
#define CVK_CUBIC_UNROLL
#endif

using CubicShape = ResizeCubicShape;

constexpr int kCubicLead = 16;        // slot bytes before the span's 16-byte aligned start (the general variants' shift word)
// The ring's slots for `ahead` items whose copies are in flight while one is filtered (the kernel variant's): with
// one barrier per item a thread may still filter item i - 1 while another issues item i + ahead.
CVK_CUBIC_HD constexpr int cubicSlots(int ahead) { return ahead + 2; }
constexpr int kCubicMaxBandRows = 128; // destination rows per band at most (the band's table in shared memory)
constexpr int kCubicWindow = 4;       // the items whose horizontal sums a thread keeps: a row's 4 taps
constexpr int kCubicSmemLimit = 48 * 1024;

// The table entry of one destination row of a band: its fixed-point vertical weights and the item after which it is
// complete (its last tap).
struct alignas(16) CubicRowEntry { // one 16-byte shared load
    int32_t w[4];
};

// The 4 source pixels [start, start + 4) a destination column's horizontal sum reads (source rows of at least 4
// pixels: planResizeCubic) and their fixed-point weights: its taps' first pixel moved inside the row, and the weight
// of each tap added to the pixel samplePixel reads for it (clampIndex), so sum_k w[k] * src[start + k] is
// samplePixel's sum_k fixedWeight(w_k) * src[clampIndex(first + k)] regrouped, the same integer. Each position's
// weight is a sum of selects (no indexed array: registers only on the device).
struct CubicWindow {
    int32_t start;
    int32_t w[4];
};
CVK_CUBIC_HD CubicWindow cubicWindow(const Axis &a, int32_t d) {
    const Taps t = cubicTaps(a, d);
    const int32_t W = a.src;
    CubicWindow win;
    win.start = t.first < 0 ? 0 : (t.first > W - 4 ? W - 4 : t.first);
    int32_t at[4], fw[4];
    CVK_CUBIC_UNROLL
    for (int k = 0; k < 4; ++k) {
        at[k] = clampIndex(int64_t(t.first) + k, W) - win.start;
        fw[k] = fixedWeight(t.w[k]);
    }
    CVK_CUBIC_UNROLL
    for (int j = 0; j < 4; ++j) {
        int32_t sum = 0;
        CVK_CUBIC_UNROLL
        for (int k = 0; k < 4; ++k) sum += at[k] == j ? fw[k] : 0;
        win.w[j] = sum;
    }
    return win;
}

// One strip: destination columns [x0, x0 + w); their windows cover source pixels [t0, t1] of the row, bytes [b0, b1).
struct CubicStrip {
    int32_t x0, w;
    int32_t t0, t1;
    int32_t b0, b1;
};

CVK_CUBIC_HD CubicStrip cubicStrip(const Mapping &m, int32_t C, int32_t x0, int32_t w) {
    CubicStrip s;
    s.x0 = x0;
    s.w = w;
    s.t0 = cubicWindow(m.x, x0).start; // windows grow with the column
    s.t1 = cubicWindow(m.x, x0 + w - 1).start + 3;
    s.b0 = s.t0 * C;
    s.b1 = (s.t1 + 1) * C;
    return s;
}

// Bytes per slot: the lead, the up to 15 bytes the span's start lies past its aligned chunk, the strip's pixels and
// the words a tap gather reads past its last byte (at most 16 bytes).
CVK_CUBIC_HD int32_t cubicSlotPitch(const CubicStrip &s, int32_t C) { return (kCubicLead + 15 + (s.t1 - s.t0 + 1) * C + 16 + 15) & ~15; }
CVK_CUBIC_HD int32_t cubicSmemBytes(int32_t slotPitch, int ahead) {
    return cubicSlots(ahead) * (slotPitch + 8) + kCubicMaxBandRows * int32_t(sizeof(CubicRowEntry) + sizeof(int32_t)); // + an mbarrier a slot
}

// Destination columns of strip `strip`.
CVK_CUBIC_HD void cubicStripOf(const CubicShape &s, int32_t dstW, int32_t strip, int32_t &x0, int32_t &w) {
    x0 = strip * s.stripW;
    w = dstW - x0 < s.stripW ? dstW - x0 : s.stripW;
}

// ------------------------------------------------------------------------------------------------ the band

// The items of the band of destination rows [d0, d1) of the batch: per image it touches, the virtual source rows
// from the first tap of its first row in the band to the last tap of its last one, images in order.
struct CubicBand {
    int64_t d0, d1;
    int64_t n0, nLast;        // the images of rows d0 and d1 - 1
    int32_t dy0, dyLast;      // their rows
    int32_t first0, firstAll; // first tap of row dy0, of row 0
    int32_t lastAll, lastEnd; // last tap of row H-1, of row dyLast
    int32_t len0, len;        // items of image n0's part, of a whole image
};

CVK_CUBIC_HD int32_t cubicFirstTap(const Axis &a, int32_t d) { return cubicTaps(a, d).first; }

CVK_CUBIC_HD CubicBand cubicBand(const Mapping &m, int64_t d0, int64_t d1) {
    const int32_t H = m.y.dst;
    CubicBand b;
    b.d0 = d0;
    b.d1 = d1;
    b.n0 = d0 / H;
    b.dy0 = static_cast<int32_t>(d0 % H);
    b.nLast = (d1 - 1) / H;
    b.dyLast = static_cast<int32_t>((d1 - 1) % H);
    b.first0 = cubicFirstTap(m.y, b.dy0);
    b.firstAll = cubicFirstTap(m.y, 0);
    b.lastAll = cubicFirstTap(m.y, H - 1) + 3;
    b.lastEnd = cubicFirstTap(m.y, b.dyLast) + 3;
    b.len0 = (b.nLast == b.n0 ? b.lastEnd : b.lastAll) - b.first0 + 1;
    b.len = b.lastAll - b.firstAll + 1;
    return b;
}

// The item after which destination row (n, dy) of the band is complete: the items of the images before it, then its
// last tap's place in its image's part.
CVK_CUBIC_HD int32_t cubicEmitItem(const CubicBand &b, int64_t n, int32_t firstTap) {
    if (n == b.n0) return firstTap + 3 - b.first0;
    return b.len0 + static_cast<int32_t>(n - b.n0 - 1) * b.len + firstTap + 3 - b.firstAll;
}
CVK_CUBIC_HD int32_t cubicItems(const CubicBand &b) { return cubicEmitItem(b, b.nLast, b.lastEnd - 3) + 1; }

// Once per band: the entries of its rows (table[e] for row d0 + e; emitAt[e] its item).
CVK_CUBIC_HD void cubicTable(const Mapping &m, const CubicBand &b, CubicRowEntry *table, int32_t *emitAt, int tid, int nthreads) {
    const int32_t H = m.y.dst;
    const int32_t rows = static_cast<int32_t>(b.d1 - b.d0);
    for (int32_t e = tid; e < rows; e += nthreads) {
        const int64_t d = b.d0 + e;
        const int64_t n = d / H;
        const Taps t = cubicTaps(m.y, static_cast<int32_t>(d % H));
        CubicRowEntry r;
        CVK_CUBIC_UNROLL
        for (int k = 0; k < 4; ++k) r.w[k] = fixedWeight(t.w[k]);
        table[e] = r;
        emitAt[e] = cubicEmitItem(b, n, t.first);
    }
}

// The items in order, as the block walks them (the same values in every thread): image n, virtual row v.
struct CubicWalk {
    int64_t n;
    int32_t v, vLast;
};
CVK_CUBIC_HD CubicWalk cubicWalk(const CubicBand &b) {
    return {b.n0, b.first0, b.nLast == b.n0 ? b.lastEnd : b.lastAll};
}
CVK_CUBIC_HD void advance(const CubicBand &b, CubicWalk &w) {
    if (++w.v > w.vLast) {
        ++w.n;
        w.v = b.firstAll;
        w.vLast = w.n == b.nLast ? b.lastEnd : b.lastAll;
    }
}

// The source row of the walk's item: image n, virtual row v clamped into the image (OpenCV's replicated border).
CVK_CUBIC_HD const uint8_t *cubicRowAt(const ResizeParams &p, const Mapping &m, const CubicWalk &w) {
    const int32_t y = clampIndex(w.v, m.y.src);
    return reinterpret_cast<const uint8_t *>(p.src.data + w.n * p.src.stride[kN] + int64_t(y) * p.src.stride[kH]);
}

// The strip's span as whole 16-byte chunks of its row (the aligned and bulk variants' copies): the byte offset of
// the first chunk, and the count.
CVK_CUBIC_HD int32_t cubicChunk0(const CubicStrip &s) { return s.b0 & ~15; }
CVK_CUBIC_HD int32_t cubicChunks(const CubicStrip &s) { return (s.b1 - cubicChunk0(s) + 15) >> 4; }

// The threads that copy an item's row: whole warps, enough for 2 of its 16-byte chunks each. The others skip the
// row's address arithmetic, which every copying thread repeats (at 4 pixels a thread it would be a fifth of the
// block's instructions per item).
constexpr int kCubicChunksPerThread = 2;
CVK_CUBIC_HD int cubicCopyThreads(const CubicStrip &s, int nthreads) {
    const int32_t chunks = (s.b1 - s.b0 + 30) / 16, warps = (chunks + 32 * kCubicChunksPerThread - 1) / (32 * kCubicChunksPerThread);
    return 32 * warps < nthreads ? 32 * warps : nthreads;
}

// Phase 1 of an item: its row's span into `slot` from byte kCubicLead + shift on (shift: bandShift, which thread 0
// writes to the slot's first word: the lead's first 8 bytes hold no pixel), by the threads below cubicCopyThreads;
// every thread's walk steps to the next item.
CVK_CUBIC_HD void cubicIssue(const ResizeParams &p, const Mapping &m, const CubicStrip &s, const CubicBand &b, CubicWalk &walk,
                             uint8_t *slot, int tid, int nthreads) {
    if (tid >= nthreads) return advance(b, walk);
    const uint8_t *row = cubicRowAt(p, m, walk);
    const int32_t shift = bandShift(row, s.b0);
    bandStage(row, BandSpan{s.b0, s.b1}, slot + kCubicLead, tid, nthreads);
    if (tid == 0) *reinterpret_cast<int32_t *>(slot) = shift;
    advance(b, walk);
}

// Phase 1 for the aligned variants (cubicAligned: 16-byte aligned rows whose length is whole 16-byte chunks, so
// byte b0 lies at the same place of every slot, kCubicLead + (b0 & 15), and every chunk that holds a byte of the
// span lies inside the row): the span's chunks by cp.async at offsets fixed for the strip, no partial chunk, no
// shift word.
CVK_CUBIC_HD void cubicIssueAligned(const ResizeParams &p, const Mapping &m, const CubicStrip &s, const CubicBand &b, CubicWalk &walk,
                                    uint8_t *slot, int tid, int nthreads) {
    if (tid >= nthreads) return advance(b, walk);
    const uint8_t *row = cubicRowAt(p, m, walk);
    const int32_t chunk0 = cubicChunk0(s), chunks = cubicChunks(s);
    for (int32_t k = tid; k < chunks; k += nthreads) bandCopy16(slot + kCubicLead + 16 * k, row + chunk0 + 16 * k);
    advance(b, walk);
}

// Phase 2's view of an item's slot: its words from the one holding the row's 4-byte aligned byte 0 - shift % 4 on.
CVK_CUBIC_HD const uint32_t *cubicWords(const uint8_t *slot) {
    return reinterpret_cast<const uint32_t *>(slot) + (*reinterpret_cast<const int32_t *>(slot) >> 2);
}

// ----------------------------------------------------------------------------------------------- one thread

// sum over k of byte k of `bytes` (unsigned) times byte k of `weights` (signed).
CVK_CUBIC_HD int32_t dot4(uint32_t bytes, uint32_t weights) {
#ifdef __CUDA_ARCH__
    int32_t d;
    asm("dp4a.u32.s32 %0, %1, %2, 0;" : "=r"(d) : "r"(bytes), "r"(weights));
    return d;
#else
    int32_t d = 0;
    for (int k = 0; k < 4; ++k) d += int32_t((bytes >> (8 * k)) & 0xffu) * int32_t(int8_t(uint8_t(weights >> (8 * k))));
    return d;
#endif
}

// fixedToU8 of acc + 2^21 (the bias already added): min(max(acc >> 22, 0), 255).
CVK_CUBIC_HD uint32_t cubicRound(int32_t biased) {
    const int32_t v = biased >> (2 * kCoefBits);
#ifdef __CUDA_ARCH__
    return static_cast<uint32_t>(__vimin_s32_relu(v, 255)); // one instruction from sm_90 on
#else
    return static_cast<uint32_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
#endif
}

// A thread's P destination pixels of the strip (pixel j: column 32 P warp + 32 j + lane) and, for the last
// kCubicWindow items, their horizontal sums. The column constants are computed once per block. Pairs: the weights
// as 16-bit pairs for pairDot (the aligned variants), else as bytes for dot4.
template <int CT, int P, bool Pairs = false> struct CubicThread {
    int32_t col0, w;       // pixel j: strip column col0 + 32 j, stored when below w (else computed as column w - 1)
    int32_t q[P];          // the slot word holding tap 0's channel 0, before the item's shift / 4
    uint32_t sh[P];        // that byte's bit offset in the word
    uint32_t lo[P], hi[P]; // the fixed-point weights as 256 * hi + lo, tap k in byte k (signed bytes); Pairs: taps
                           // 0 and 1 in lo, 2 and 3 in hi (signed 16-bit halves)
    int32_t h[kCubicWindow][P][CT];

    // r: (source address + s.b0) & 3, the same for every row (4-byte aligned row and image strides); for the aligned
    // variants the whole shift (source address + s.b0) & 15, q then counting from the slot's first word.
    CVK_CUBIC_HD void init(const Mapping &m, const CubicStrip &s, int32_t r, int tid) {
        col0 = (tid >> 5) * 32 * P + (tid & 31);
        w = s.w;
        CVK_CUBIC_UNROLL
        for (int j = 0; j < P; ++j) {
            const int32_t x = col0 + 32 * j;
            const CubicWindow win = cubicWindow(m.x, s.x0 + (x < s.w ? x : s.w - 1));
            const int32_t at = kCubicLead + r + (win.start - s.t0) * CT;
            q[j] = at >> 2;
            sh[j] = uint32_t(at & 3) * 8u;
            uint32_t l = 0, h8 = 0;
            if constexpr (Pairs) {
                l = (uint32_t(win.w[0]) & 0xffffu) | uint32_t(win.w[1]) << 16;
                h8 = (uint32_t(win.w[2]) & 0xffffu) | uint32_t(win.w[3]) << 16;
            } else {
                CVK_CUBIC_UNROLL
                for (int k = 0; k < 4; ++k) {
                    const int32_t w = win.w[k];
                    const int32_t wl = int32_t(int8_t(uint8_t(w & 0xff))), wh = (w - wl) / 256; // |w| < 4096
                    l |= (uint32_t(wl) & 0xffu) << (8 * k);
                    h8 |= (uint32_t(wh) & 0xffu) << (8 * k);
                }
            }
            lo[j] = l;
            hi[j] = h8;
        }
    }

    CVK_CUBIC_HD int32_t dot(uint32_t taps, int j) const {
        if constexpr (Pairs) return pairDot(taps, lo[j], hi[j], 0); // exact as well: |w| <= 2048 fits 16 bits
        else return dot4(taps, hi[j]) * 256 + dot4(taps, lo[j]);
    }

    // Phase 2 of an item: the horizontal sums of its row into window slot S; `words`: cubicWords of its slot.
    template <int S> CVK_CUBIC_HD void horizontal(const uint32_t *words) {
        CVK_CUBIC_UNROLL
        for (int j = 0; j < P; ++j) {
            const uint32_t *w = words + q[j];
            if constexpr (CT == 1) {
                h[S][j][0] = dot(funnelRight(w[0], w[1], sh[j]), j);
            } else if constexpr (CT == 3) { // 12 bytes from tap 0's channel 0: 4 pixels of 3 channels
                const uint32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
                const uint32_t a = funnelRight(w0, w1, sh[j]), b = funnelRight(w1, w2, sh[j]), c = funnelRight(w2, w3, sh[j]);
                h[S][j][0] = dot(bytePerm(bytePerm(a, b, 0x0630u), c, 0x5210u), j);
                h[S][j][1] = dot(bytePerm(bytePerm(a, b, 0x0741u), c, 0x6210u), j);
                h[S][j][2] = dot(bytePerm(bytePerm(a, b, 0x0052u), c, 0x7410u), j);
            } else { // one word per tap: a 4x4 byte transpose
                static_assert(CT == 4, "1, 3 or 4 channels");
                const uint32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
                const uint32_t t0 = bytePerm(w0, w1, 0x5140u), t1 = bytePerm(w0, w1, 0x7362u);
                const uint32_t t2 = bytePerm(w2, w3, 0x5140u), t3 = bytePerm(w2, w3, 0x7362u);
                h[S][j][0] = dot(bytePerm(t0, t2, 0x5410u), j);
                h[S][j][1] = dot(bytePerm(t0, t2, 0x7632u), j);
                h[S][j][2] = dot(bytePerm(t1, t3, 0x5410u), j);
                h[S][j][3] = dot(bytePerm(t1, t3, 0x7632u), j);
            }
        }
    }

    // Phase 3: the destination row whose last tap is the item in window slot S (its taps: the window's 4 items,
    // oldest first), stored from `out` (the row's strip column col0, the thread's first pixel) on. Every pixel is computed (a column past the
    // strip's end holds column w - 1's sums, init) and only the stores are conditional, so the compiler predicates
    // them instead of branching around each pixel (three instructions a pixel, a tenth of an emit).
    template <int S> CVK_CUBIC_HD void emit(const CubicRowEntry e, uint8_t *out) const {
        // e by value: the stores are uint8_t stores, which may alias the shared table, so the weights of a reference
        // were loaded again after every store (16 shared loads an emit where 1 is enough).
        constexpr int r0 = (S + 1) % kCubicWindow, r1 = (S + 2) % kCubicWindow, r2 = (S + 3) % kCubicWindow;
        const bool aligned = (reinterpret_cast<uintptr_t>(out) & 3) == 0;
        const bool whole = col0 + 32 * (P - 1) < w; // every pixel of the thread lies in the strip
        CVK_CUBIC_UNROLL
        for (int j = 0; j < P; ++j) {
            const int32_t x = col0 + 32 * j;
            uint32_t v[CT];
            CVK_CUBIC_UNROLL
            for (int c = 0; c < CT; ++c)
                v[c] = cubicRound((1 << (2 * kCoefBits - 1)) + e.w[0] * h[r0][j][c] + e.w[1] * h[r1][j][c] + e.w[2] * h[r2][j][c] +
                                  e.w[3] * h[S][j][c]);
            const bool store = whole || x < w;
            uint8_t *px = out + 32 * j * CT; // immediate offsets from one pointer
            if (CT == 4 && aligned) {
                if (store) *reinterpret_cast<uint32_t *>(px) = v[0] | v[CT > 1 ? 1 : 0] << 8 | v[CT > 2 ? 2 : 0] << 16 | v[CT - 1] << 24;
            } else {
                CVK_CUBIC_UNROLL
                for (int c = 0; c < CT; ++c)
                    if (store) px[c] = static_cast<uint8_t>(v[c]);
            }
        }
    }
};

#undef CVK_CUBIC_HD
#undef CVK_CUBIC_UNROLL

} // namespace cvk::resize
