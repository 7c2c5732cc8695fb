// cvResize's AREA row path for uint8 downscales (the integer box and the fractional table: no axis enlarged) on
// packed pixels of 1, 3 or 4 channels. A block owns a strip of destination columns, one per thread (lane l of warp v
// takes column l * warps + v of the strip, so that the 32 lanes of a warp read their source words from distinct
// shared-memory banks where the strip's factor allows), and one band of consecutive destination rows of the batch
// (the rows of the whole batch in order, so a band may cross from one image into the next). It streams the band's
// source rows in order, each one staged once, whole (the strip's byte span of it, 16-byte cp.async copies through
// resize_band.cuh's bandStage), into a ring of shared-memory slots, the copies of the next A rows in flight while
// one row is computed; one barrier per source row.
//
// For each staged row every thread computes its column's row sum, as samplePixel (resize_filters.cuh) does, in its
// order (areaSumFirst), from the column's K taps read from the run's first pixel with compile-time byte positions
// (the row's words aligned by funnel shifts). Kernels of at most kAreaPerTapTaps taps (x scale <= 5) weigh tap by
// tap, weights in registers for the whole band, taps past the run weighted 0. Longer ones sum the inner pixels'
// bytes, kept by a byte mask per word, per channel by dp4a against the channel's byte pattern (integers, exact),
// starting at kFloatBias so that one subtraction makes the sum a float, weigh it once, and read the tail pixel at
// its own offset. A missing head or tail has weight 0 (x + 0 * b is x exactly), so either way the sum is the
// sampler's bit for bit. The vertical pass accumulates each row sum into the destination rows that use it, again in the
// sampler's order (rows ascending: head, inner, tail). Cells of consecutive destination rows share at most one
// source row, so two accumulators per thread suffice (planResizeArea checks this on the host). The integer box is
// the same with weights 1 (exact integer sums) and the sampler's final multiply by 1 / (kx * ky). A completed
// destination row goes to a shared-memory buffer and, after the next barrier, to dst in consecutive words (the
// lanes' columns are `warps` apart: storing each pixel from its thread would write a sector per lane).
//
// The ring: the band's source rows get sequence numbers in order, row k lands in slot k % kAreaSlots<A>. With one
// barrier per row a thread may still compute row k - 1 while another issues the copies of row k + A, so the slots
// of those rows are distinct when kAreaSlots<A> >= A + 2.
//
// Each step is a __host__ __device__ function over a thread index, so the CPU tests run whole blocks against
// samplePixel (with the copies done at once, and every row computed only after the next rows' copies are issued).
// On the GPU every add of a product is a fused multiply-add, in the sampler and here alike; the bytes equal the
// tiled path's (bench/probes/resize_area_variants.cu checks them on an H200).
#pragma once

#include "resize_band.cuh"
#include "resize_tile.cuh"

#include <cstdint>

namespace cvk::resize {

#define CVK_AREA_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_AREA_UNROLL _Pragma("unroll")
#else
#define CVK_AREA_UNROLL
#endif

using AreaShape = ResizeAreaShape;

// The taps per destination column each kernel is compiled for (K), in the order of the dispatch table: the
// benchmark's 1920 -> 224 (factor 8.57) needs 10, 1080 -> 224 rows (4.82) are not bound by K.
constexpr int kAreaTaps[] = {3, 4, 6, 10, 16};
constexpr int kAreaTapVariants = 5;
// The most taps a kernel weighs one by one: the runs of an x scale of at most kAreaSumFirstScale (ceil(5) + 1 = 6
// taps); kernels of more taps sum the inner pixels first. planResizeArea gives a scale above 5 whose runs all fit
// 6 taps a kernel of 10.
constexpr int kAreaPerTapTaps = 6;
constexpr int kAreaMaxWarps = 8;
constexpr int kAreaMaxThreads = 32 * kAreaMaxWarps;
constexpr int kAreaSmemLimit = 48 * 1024; // the default dynamic shared-memory limit: no attribute call per launch
constexpr int kAreaMaxStreamRows = 512;   // source rows per band: its table (16 bytes a row) stays small
// Source rows whose copies are in flight while one is computed (the library's kernels; the probe times others).
constexpr int kAreaAhead = 3;
template <int A> constexpr int kAreaSlots = A + 2;
// Blocks per multiprocessor the kernels are compiled for (__launch_bounds__ of kAreaMaxThreads threads).
constexpr int kAreaBlocksPerSM = 4;

// One destination index's run of source pixels on one axis: taps first..last (inclusive), pixel x weighted
// x < lo ? head : x < hi ? inner : tail (areaCell's cell; the integer box: inner 1, no head or tail).
struct AreaRun {
    int32_t first, last, lo, hi;
    float head, inner, tail;
};

CVK_AREA_HD AreaRun areaRun(const Mapping &m, const Axis &a, int32_t d) {
    AreaRun r;
    if (m.areaKind == kAreaFast) {
        r.lo = d * a.iscale;
        r.hi = r.lo + a.iscale;
        r.first = r.lo;
        r.last = r.hi - 1;
        r.head = r.tail = 0.f;
        r.inner = 1.f;
    } else {
        const AreaCell c = areaCell(a, d);
        r.lo = c.lo;
        r.hi = c.hi;
        r.head = c.head;
        r.inner = c.inner;
        r.tail = c.tail;
        r.first = c.head != 0.f ? c.lo - 1 : c.lo;
        r.last = c.tail != 0.f ? c.hi : c.hi - 1;
    }
    return r;
}

CVK_AREA_HD float areaWeight(const AreaRun &r, int32_t x) { return x < r.lo ? r.head : (x < r.hi ? r.inner : r.tail); }

// Words of the row sum's K * CT bytes, aligned so each byte has a compile-time place.
template <int CT, int K> constexpr int kAreaWords = (K * CT + 3) / 4;

// The bytes a strip [x0, x0 + w) reads of every source row.
CVK_AREA_HD BandSpan areaSpan(const Mapping &m, int32_t C, int32_t x0, int32_t w) {
    return {areaRun(m, m.x, x0).first * C, (areaRun(m, m.x, x0 + w - 1).last + 1) * C};
}

// The words a column's row sum reads from the one holding its first byte: its K taps' words and one more for the
// funnel shifts, and where it sums first (K > kAreaPerTapTaps) the pair holding the tail, whose first byte lies at
// most (K - 1) C bytes on, 3 more at worst from the word's start (one word more for 1 channel, or 3 with 16 taps).
CVK_AREA_HD int32_t areaReadWords(int32_t C, int32_t K) {
    const int32_t taps = (K * C + 3) / 4 + 1, tail = (3 + (K - 1) * C) / 4 + 2;
    return K > kAreaPerTapTaps && tail > taps ? tail : taps;
}

// Bytes per ring slot: room for the span from its 16-byte shift on, and for the words a column's row sum reads from
// there (bytes past the run may lie past the span: they read bytes of the slot that the sum ignores).
CVK_AREA_HD int32_t areaSlotPitch(const Mapping &m, int32_t C, int32_t K, int32_t x0, int32_t w) {
    const BandSpan span = areaSpan(m, C, x0, w);
    const int32_t lastO = areaRun(m, m.x, x0 + w - 1).first * C - span.b0 + 15;
    const int32_t reads = 4 * ((lastO >> 2) + areaReadWords(C, K)), staged = 15 + span.b1 - span.b0;
    return ((reads > staged ? reads : staged) + 15) & ~15;
}

// The widest slot of any strip of `cols` destination columns across the destination width (the block kernel's
// strips of 32 warps columns, the warp kernel's warps of 32 P).
CVK_AREA_HD int32_t areaMaxPitch(const Mapping &m, int32_t C, int32_t K, int32_t cols) {
    int32_t pitch = 0;
    for (int32_t x0 = 0; x0 < m.x.dst; x0 += cols) {
        const int32_t w = m.x.dst - x0 < cols ? m.x.dst - x0 : cols, q = areaSlotPitch(m, C, K, x0, w);
        pitch = q > pitch ? q : pitch;
    }
    return pitch;
}

// The most source rows a band of `bandRows` destination rows stages, over every band: per image it touches, its
// rows d1..d2 read source rows first(d1) >= d1 * scale - 2 to last(d2) <= (d2 + 1) * scale, and it touches at most
// ceil(bandRows / dst) + 1 images.
CVK_AREA_HD int64_t areaMaxStream(const Axis &y, int64_t bandRows) {
    const int64_t images = (bandRows + y.dst - 1) / y.dst + 1;
    return static_cast<int64_t>(double(bandRows) * y.scale) + 3 * images + 2;
}

// Bytes per buffered destination row of a strip: its pixels, 4-byte words.
CVK_AREA_HD int32_t areaOutPitch(int32_t warps, int32_t C) { return (32 * warps * C + 15) & ~15; }

// Shared memory of a block: `slots` ring slots of `pitch` bytes, the table of `streamRows` source rows, then four
// destination rows of `outPitch` bytes (areaFlush).
CVK_AREA_HD int32_t areaSmemBytes(int32_t slots, int32_t pitch, int32_t streamRows, int32_t outPitch) {
    return slots * pitch + 16 * streamRows + 4 * outPitch;
}

// ------------------------------------------------------------------------------------------------ the block

// One block's strip and band, the same values in every thread.
struct AreaBlock {
    int32_t x0, w;           // the strip's destination columns
    BandSpan span;           // the bytes the strip reads of each source row
    int64_t first, end;      // the band's destination rows [first, end) of the batch's N * dstH
    int64_t length;          // the source rows the band stages
    int32_t n0, y0;          // the first of them: image n0, row y0
    int32_t nLast, lastY;    // the band's last image, and the last source row it reads there
    int32_t lastOfImage;     // the last source row any destination row of an image reads
};

// The four runs a block's edges need (first of the strip's first column, last of its last column, first of the
// band's first row, last of its last row): on the GPU lanes 0 to 3 of each warp compute one each and the warp shares
// them (one areaCell of double divisions per warp, not four per thread).
CVK_AREA_HD void areaEdges(const Mapping &m, int32_t x0, int32_t x1, int32_t y0, int32_t y1, int32_t (&e)[4]) {
#ifdef __CUDA_ARCH__
    const int lane = static_cast<int>(threadIdx.x & 31);
    const AreaRun r = areaRun(m, lane < 2 ? m.x : m.y, lane == 0 ? x0 : lane == 1 ? x1 : lane == 2 ? y0 : y1);
    const int32_t v = lane & 1 ? r.last : r.first;
    CVK_AREA_UNROLL
    for (int j = 0; j < 4; ++j) e[j] = __shfl_sync(0xffffffffu, v, j);
#else
    e[0] = areaRun(m, m.x, x0).first;
    e[1] = areaRun(m, m.x, x1).last;
    e[2] = areaRun(m, m.y, y0).first;
    e[3] = areaRun(m, m.y, y1).last;
#endif
}

// Every thread of a block calls it (areaEdges shares values within warps).
CVK_AREA_HD AreaBlock areaBlock(const Mapping &m, const AreaShape &s, int32_t C, int64_t rows, int32_t strip, int64_t band) {
    AreaBlock b;
    b.x0 = strip * 32 * s.warps;
    b.w = m.x.dst - b.x0 < 32 * s.warps ? m.x.dst - b.x0 : 32 * s.warps;
    b.first = band * s.bandRows;
    b.end = b.first + s.bandRows < rows ? b.first + s.bandRows : rows;
    const int32_t dstH = m.y.dst;
    b.n0 = static_cast<int32_t>(b.first / dstH);
    b.nLast = static_cast<int32_t>((b.end - 1) / dstH);
    int32_t e[4];
    areaEdges(m, b.x0, b.x0 + b.w - 1, static_cast<int32_t>(b.first % dstH), static_cast<int32_t>((b.end - 1) % dstH), e);
    b.span = {e[0] * C, (e[1] + 1) * C};
    b.y0 = e[2];
    b.lastY = e[3];
    b.lastOfImage = s.lastRow;
    b.length = b.n0 == b.nLast ? int64_t(b.lastY) - b.y0 + 1
                               : (int64_t(b.lastOfImage) - b.y0 + 1) + int64_t(b.nLast - b.n0 - 1) * (b.lastOfImage + 1) + b.lastY + 1;
    return b;
}

// A cursor over the band's source rows: image n, row y, and the last row of image n the band reads (stop).
struct AreaStream {
    int32_t n, y, stop;
};
CVK_AREA_HD AreaStream areaStream(const AreaBlock &b) { return {b.n0, b.y0, b.n0 == b.nLast ? b.lastY : b.lastOfImage}; }
CVK_AREA_HD void areaAdvance(AreaStream &s, const AreaBlock &b) {
    if (++s.y > s.stop) {
        ++s.n;
        s.y = 0; // the first row of destination row 0 of every image
        s.stop = s.n == b.nLast ? b.lastY : b.lastOfImage;
    }
}

// The cursor's source row.
CVK_AREA_HD const uint8_t *areaRowAt(const ResizeParams &p, const AreaStream &s) {
    return reinterpret_cast<const uint8_t *>(p.src.data + int64_t(s.n) * p.src.stride[kN] + int64_t(s.y) * p.src.stride[kH]);
}

// The copies of the cursor's row into `slot` (this thread's part).
CVK_AREA_HD void areaIssue(const ResizeParams &p, const AreaBlock &b, const AreaStream &s, uint8_t *slot, int tid, int nthreads) {
    bandStage(areaRowAt(p, s), b.span, slot, tid, nthreads);
}

// Where the span of the cursor's row starts in its slot (bandShift), in 32-bit arithmetic: only the address modulo 16.
CVK_AREA_HD int32_t areaShift(const ResizeParams &p, const AreaBlock &b, const AreaStream &s) {
    const uint32_t a = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p.src.data)) + uint32_t(s.n) * uint32_t(p.src.stride[kN]) +
                       uint32_t(s.y) * uint32_t(p.src.stride[kH]) + uint32_t(b.span.b0);
    return static_cast<int32_t>(a & 15u);
}

// ------------------------------------------------------------------------------------------------ a thread

// One destination column's run as its row sum reads it, in registers for the whole band: its first tap at byte o
// of the staged span (before the row's shift). At most kAreaPerTapTaps taps: the weight of each tap in w (0 past
// the run). More: tap 0 weighted head (0 where the run has no head: tap 0 is then an inner one), the inner taps'
// bytes marked in `inner` (0xff bytes of the run's words), weighted innerWeight, and the tap at byte tailAt weighted
// tail (0, and tailAt 0, where the run has no tail). Only the members of the kernel's form are set.
template <int CT, int K> struct AreaTaps {
    static constexpr bool kSumFirst = K > kAreaPerTapTaps;
    int32_t o, tailAt;
    float head, innerWeight, tail;
    float w[kSumFirst ? 1 : K];
    uint32_t inner[kSumFirst ? kAreaWords<CT, K> : 1];
};

template <int CT, int K> CVK_AREA_HD AreaTaps<CT, K> areaTaps(const Mapping &m, int32_t x, int32_t b0) {
    const AreaRun r = areaRun(m, m.x, x);
    AreaTaps<CT, K> t;
    t.o = r.first * CT - b0;
    if constexpr (!AreaTaps<CT, K>::kSumFirst) {
        CVK_AREA_UNROLL
        for (int k = 0; k < K; ++k) t.w[k] = r.first + k <= r.last ? areaWeight(r, r.first + k) : 0.f;
    } else {
        t.head = r.first < r.lo ? r.head : 0.f;
        t.innerWeight = r.inner;
        const bool tail = r.last >= r.hi;
        t.tail = tail ? r.tail : 0.f;
        t.tailAt = tail ? (r.last - r.first) * CT : 0;
        const int32_t lo = (r.lo - r.first) * CT, hi = (r.hi - r.first) * CT; // the inner taps' bytes of the run
        CVK_AREA_UNROLL
        for (int j = 0; j < kAreaWords<CT, K>; ++j) {
            uint32_t mask = 0;
            for (int k = 0; k < 4; ++k) mask |= (4 * j + k >= lo && 4 * j + k < hi ? 0xffu : 0u) << (8 * k);
            t.inner[j] = mask;
        }
    }
    return t;
}

// dp4a's weights that sum the bytes of channel c of word j of a run (byte i of the run is channel i % CT).
template <int CT> CVK_AREA_HD constexpr uint32_t areaChannelBytes(int c, int j) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= ((4 * j + k) % CT == c ? 1u : 0u) << (8 * k);
    return v;
}

// The sampler's row sum of one column, every channel: its taps from byte o of the slot (o: the run's first tap
// plus the row's shift).
template <int CT, int K> CVK_AREA_HD void areaRowSum(const uint8_t *slot, int32_t o, const AreaTaps<CT, K> &t, float (&h)[CT]) {
    constexpr int NW = kAreaWords<CT, K>;
    const uint32_t *at = reinterpret_cast<const uint32_t *>(slot) + (o >> 2);
    const uint32_t sh = 8u * uint32_t(o & 3);
    uint32_t raw[NW + 1], words[NW];
    CVK_AREA_UNROLL
    for (int j = 0; j <= NW; ++j) raw[j] = at[j];
    CVK_AREA_UNROLL
    for (int j = 0; j < NW; ++j) words[j] = funnelRight(raw[j], raw[j + 1], sh);
    if constexpr (!AreaTaps<CT, K>::kSumFirst) {
        CVK_AREA_UNROLL
        for (int c = 0; c < CT; ++c) h[c] = 0.f;
        CVK_AREA_UNROLL
        for (int k = 0; k < K; ++k) {
            CVK_AREA_UNROLL
            for (int c = 0; c < CT; ++c) h[c] += t.w[k] * byteToFloat(words[(k * CT + c) / 4], (k * CT + c) % 4);
        }
    } else {
        const int32_t ot = o + t.tailAt;
        const uint32_t *tailAt = reinterpret_cast<const uint32_t *>(slot) + (ot >> 2);
        const uint32_t tail = funnelRight(tailAt[0], tailAt[1], 8u * uint32_t(ot & 3));
        uint32_t sums[CT];
        CVK_AREA_UNROLL
        for (int c = 0; c < CT; ++c) sums[c] = kFloatBias;
        CVK_AREA_UNROLL
        for (int j = 0; j < NW; ++j) {
            const uint32_t bytes = words[j] & t.inner[j];
            CVK_AREA_UNROLL
            for (int c = 0; c < CT; ++c) sums[c] = byteDot(bytes, areaChannelBytes<CT>(c, j), sums[c]);
        }
        CVK_AREA_UNROLL
        for (int c = 0; c < CT; ++c) {
            h[c] = 0.f;
            h[c] += t.head * byteToFloat(words[0], c);
            h[c] += t.innerWeight * biasedToFloat(sums[c]);
            h[c] += t.tail * byteToFloat(tail, c);
        }
    }
}

// This thread's destination column of the block kernel and its taps.
template <int CT, int K> struct AreaColumn {
    int32_t x;  // destination column
    bool valid; // x lies in the strip
    AreaTaps<CT, K> taps;
};

CVK_AREA_HD int32_t areaColumnIndex(const AreaShape &s, int tid) { return (tid & 31) * s.warps + (tid >> 5); }

template <int CT, int K> CVK_AREA_HD AreaColumn<CT, K> areaColumn(const Mapping &m, const AreaShape &s, const AreaBlock &b, int tid) {
    AreaColumn<CT, K> c;
    const int32_t i = areaColumnIndex(s, tid);
    c.valid = i < b.w;
    c.x = b.x0 + (c.valid ? i : 0);
    c.taps = areaTaps<CT, K>(m, c.x, b.span.b0);
    return c;
}

// What a thread does with one source row of the band, the same for every thread (one table entry per row, built
// once per block): the weights of the row sum in the destination row being summed (cur) and in the one after it
// (next: nonzero only on the one source row two consecutive cells share), whether the row completes cur and then
// next too (next's cell being that row alone), and where its span starts in its slot (bandShift). wCur is positive:
// planResizeArea takes only mappings whose cells leave no source row between them unweighed.
struct AreaRowEntry {
    float wCur, wNext;
    uint8_t finCur, finNext, pad0, pad1;
    int32_t shift;
};
static_assert(sizeof(AreaRowEntry) == 16, "areaSmemBytes counts 16 bytes a table entry");

// Once per block, before its first barrier: the entries of the band's source rows, each written by the thread of
// the first destination row of the band whose cell holds it (one thread per destination row: three runs each).
CVK_AREA_HD void areaRowTable(const ResizeParams &p, const Mapping &m, const AreaBlock &b, AreaRowEntry *table, int tid, int nthreads) {
    const int32_t dstH = m.y.dst;
    const int64_t rows = b.end - b.first;
    const int64_t inFirst = int64_t(b.n0 == b.nLast ? b.lastY : b.lastOfImage) - b.y0 + 1; // stream rows of image n0
    for (int64_t i = tid; i < rows; i += nthreads) {
        const int32_t n = static_cast<int32_t>((b.first + i) / dstH), d = static_cast<int32_t>((b.first + i) % dstH);
        const AreaRun r = areaRun(m, m.y, d);
        const bool shareBefore = i > 0 && d > 0 && areaRun(m, m.y, d - 1).last == r.first; // that row's thread writes it
        const bool hasNext = i + 1 < rows && d + 1 < dstH;
        const AreaRun next = hasNext ? areaRun(m, m.y, d + 1) : r;
        const int64_t base = n == b.n0 ? -int64_t(b.y0) : inFirst + int64_t(n - b.n0 - 1) * (int64_t(b.lastOfImage) + 1);
        for (int32_t y = shareBefore ? r.first + 1 : r.first; y <= r.last; ++y) {
            const bool shared = hasNext && y == r.last && next.first == y;
            AreaRowEntry e;
            e.wCur = areaWeight(r, y);
            e.wNext = shared ? areaWeight(next, y) : 0.f;
            e.finCur = y == r.last;
            e.finNext = shared && next.last == y;
            e.pad0 = e.pad1 = 0;
            e.shift = areaShift(p, b, AreaStream{n, y, 0});
            table[base + y] = e;
        }
    }
}

// This thread's column as the vertical pass sees it: the sums of the destination row being summed and of the next,
// and the destination row the next completed one is (image n, row y).
template <int CT> struct AreaSums {
    float acc[CT], accNext[CT];
    int32_t n, y;
};

template <int CT> CVK_AREA_HD AreaSums<CT> areaSums(const Mapping &m, const AreaBlock &b) {
    AreaSums<CT> v;
    for (int c = 0; c < CT; ++c) v.acc[c] = v.accNext[c] = 0.f;
    v.n = static_cast<int32_t>(b.first / m.y.dst);
    v.y = static_cast<int32_t>(b.first % m.y.dst);
    return v;
}

// Source row k's output buffers: pair k % 2, one buffer per destination row it completes.
CVK_AREA_HD uint8_t *areaOutBuffer(uint8_t *outBufs, int32_t outPitch, int64_t k, int j) {
    return outBufs + (2 * static_cast<int32_t>(k & 1) + j) * outPitch;
}

// A completed destination row's pixel of one column into px when px is not null (the sampler's rounding; the
// integer box's multiply by 1 / (kx * ky) as the sampler computes it), and the sums moved on to the next row.
template <int CT> CVK_AREA_HD void areaFinishPixel(const Mapping &m, AreaSums<CT> &v, uint8_t *px) {
    if (px != nullptr) {
        const float norm = 1.f / static_cast<float>(m.x.iscale * m.y.iscale);
        CVK_AREA_UNROLL
        for (int c = 0; c < CT; ++c) px[c] = saturateFloat<uint8_t>(m.areaKind == kAreaFast ? v.acc[c] * norm : v.acc[c]);
    }
    CVK_AREA_UNROLL
    for (int c = 0; c < CT; ++c) v.acc[c] = v.accNext[c], v.accNext[c] = 0.f;
    if (++v.y == m.y.dst) v.y = 0, ++v.n;
}

// A source row's row sums h added to the destination rows that weigh it (entry e): x + 0 * h is x, so next's weight
// is 0 outside its cell.
template <int CT> CVK_AREA_HD void areaAccumulate(const AreaRowEntry &e, const float (&h)[CT], AreaSums<CT> &v) {
    CVK_AREA_UNROLL
    for (int c = 0; c < CT; ++c) {
        v.acc[c] += e.wCur * h[c];
        v.accNext[c] += e.wNext * h[c];
    }
}

// The j-th destination row source row k completes: this column's pixel into its output buffer, the sums moved on.
template <int CT, int K>
CVK_AREA_HD void areaFinishRow(const Mapping &m, const AreaBlock &b, const AreaColumn<CT, K> &col, AreaSums<CT> &v, uint8_t *out) {
    areaFinishPixel<CT>(m, v, col.valid ? out + (col.x - b.x0) * CT : nullptr);
}

// One staged source row k (entry e, in `slot`): this thread's row sum added to the destination rows that weigh it
// (x + 0 * h is x: next's weight is 0 outside its cell), and the rows it completes into its output buffers.
template <int CT, int K>
CVK_AREA_HD void areaProcess(const Mapping &m, const AreaBlock &b, const AreaRowEntry &e, const AreaColumn<CT, K> &col, AreaSums<CT> &v,
                             const uint8_t *slot, int64_t k, uint8_t *outBufs, int32_t outPitch) {
    float h[CT];
    if (col.valid) {
        areaRowSum<CT, K>(slot, col.taps.o + e.shift, col.taps, h);
    } else {
        CVK_AREA_UNROLL
        for (int c = 0; c < CT; ++c) h[c] = 0.f;
    }
    areaAccumulate<CT>(e, h, v);
    if (e.finCur) areaFinishRow<CT, K>(m, b, col, v, areaOutBuffer(outBufs, outPitch, k, 0));
    if (e.finNext) areaFinishRow<CT, K>(m, b, col, v, areaOutBuffer(outBufs, outPitch, k, 1));
}

// After the barrier that follows areaProcess of source row k (entry e): the destination rows it completed, the last
// ones before v's, from their output buffers to dst (this thread's part), in 4-byte words where the strip's bytes of
// the row start 4-byte aligned, else byte by byte: either way a warp writes consecutive bytes. Row k's buffers are
// written again only by row k + 2, after the next barrier.
template <int CT>
CVK_AREA_HD void areaFlush(const ResizeParams &p, const Mapping &m, const AreaBlock &b, const AreaSums<CT> &v, const AreaRowEntry &e, int64_t k,
                           uint8_t *outBufs, int32_t outPitch, int tid, int nthreads) {
    const int32_t count = e.finCur + e.finNext, bytes = b.w * CT;
    int32_t n = v.n, y = v.y - count;
    if (y < 0) y += m.y.dst, --n;
    for (int32_t j = 0; j < count; ++j) {
        const uint8_t *from = areaOutBuffer(outBufs, outPitch, k, j);
        uint8_t *to = reinterpret_cast<uint8_t *>(p.dst.data + int64_t(n) * p.dst.stride[kN] + int64_t(y) * p.dst.stride[kH]) + int64_t(b.x0) * CT;
        int32_t done = 0;
        if ((reinterpret_cast<uintptr_t>(to) & 3) == 0) {
            done = bytes & ~3;
            for (int32_t i = tid; i < bytes / 4; i += nthreads) reinterpret_cast<uint32_t *>(to)[i] = reinterpret_cast<const uint32_t *>(from)[i];
        }
        for (int32_t i = done + tid; i < bytes; i += nthreads) to[i] = from[i];
        if (++y == m.y.dst) y = 0, ++n;
    }
}

// ------------------------------------------------------------------------------------------------ the kernel

#ifdef __CUDACC__
// Grid (strips, bands). The copies of the band's first A source rows are issued, the column's taps and the band's
// table of source rows computed while they load (the first row's barrier publishes the table); then per source row: the copies of the row A further on
// (one cp.async group per row, empty past the band's end), this thread's copies of the row complete, one barrier
// (every thread's copies are, and nobody still reads the slot the next copies overwrite: resize_area.cuh's ring),
// the destination rows the previous row completed written out from shared memory, and the row's sums; after the
// last row one more barrier and write-out. A is a template parameter so that the probe can time other depths.
template <int CT, int K, int A>
__global__ void __launch_bounds__(kAreaMaxThreads, kAreaBlocksPerSM) areaKernel(ResizeParams p, Mapping m, AreaShape s) {
    extern __shared__ int4 areaSmem[];
    constexpr int S = kAreaSlots<A>;
    auto *slots = reinterpret_cast<uint8_t *>(areaSmem);
    auto *table = reinterpret_cast<AreaRowEntry *>(slots + S * s.slotPitch);
    uint8_t *outBufs = reinterpret_cast<uint8_t *>(table + s.streamRows);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    const AreaBlock b = areaBlock(m, s, CT, p.dst.shape[kN] * m.y.dst, static_cast<int32_t>(blockIdx.x), blockIdx.y);
    AreaStream issue = areaStream(b);
#pragma unroll
    for (int j = 0; j < A; ++j) {
        if (j < b.length) {
            areaIssue(p, b, issue, slots + j * s.slotPitch, tid, nthreads);
            areaAdvance(issue, b);
        }
        bandCommit();
    }
    areaRowTable(p, m, b, table, tid, nthreads);
    const AreaColumn<CT, K> col = areaColumn<CT, K>(m, s, b, tid);
    AreaSums<CT> v = areaSums<CT>(m, b);
    int32_t slot = 0, issueSlot = A;
    for (int64_t k = 0; k < b.length; ++k) {
        if (k + A < b.length) {
            areaIssue(p, b, issue, slots + issueSlot * s.slotPitch, tid, nthreads);
            areaAdvance(issue, b);
        }
        bandCommit();
        bandWait<A>();
        __syncthreads();
        if (k > 0) areaFlush<CT>(p, m, b, v, table[k - 1], k - 1, outBufs, s.outPitch, tid, nthreads);
        areaProcess<CT, K>(m, b, table[k], col, v, slots + slot * s.slotPitch, k, outBufs, s.outPitch);
        slot = slot + 1 == S ? 0 : slot + 1;
        issueSlot = issueSlot + 1 == S ? 0 : issueSlot + 1;
    }
    __syncthreads();
    if (b.length > 0) areaFlush<CT>(p, m, b, v, table[b.length - 1], b.length - 1, outBufs, s.outPitch, tid, nthreads);
}
#endif

#undef CVK_AREA_HD
#undef CVK_AREA_UNROLL

} // namespace cvk::resize
