// cvResize's band path for uint8 NEAREST, NEAREST_FLOOR and LINEAR on packed pixels of 1 to 4 channels: a block owns
// a strip of destination columns and one band of consecutive destination rows (the rows of the whole batch in
// order, so a band may cross from one image into the next), and stages each source row the band reads once, whole
// (the strip's byte span of it), into a ring of shared-memory slots with 16-byte cp.async copies. The loads of the
// next kBandAhead<I> destination rows are in flight while the current one is computed from shared memory; adjacent
// destination rows that share a source row (LINEAR 1080 -> 720: three source rows for every two destination rows)
// stage it once. Each thread computes 4 consecutive destination pixels (C bytes each: C words, stored as words where
// the destination row is 4-byte aligned) reading the source bytes as words (funnel shifts); the arithmetic is
// samplePixel's (resize_filters.cuh): the same taps, the same fixed-point weights and integer sums, so the same bytes.
//
// The ring: the distinct source rows a band reads get sequence numbers in order, a row's slot is its number modulo
// kBandSlots<I>. A destination row introduces at most kBandTaps<I> new rows, and with one barrier per row a thread
// may still compute row r - 1 while another issues the loads of row r + kBandAhead<I>; the slots of those rows'
// numbers are distinct when kBandSlots<I> >= kBandTaps<I> * (kBandAhead<I> + 2).
//
// Each phase is a __host__ __device__ function over a thread index, so the CPU tests run whole blocks against
// samplePixel (with the copies done at once, and every row computed only after the next rows' loads are issued).
#pragma once

#include "common/read_only.cuh"
#include "common/register_bytes.cuh"
#include "resize_filters.cuh"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cvk::resize {

#define CVK_BAND_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_BAND_UNROLL _Pragma("unroll")
#else
#define CVK_BAND_UNROLL
#endif

using BandShape = ResizeBandShape;

constexpr int kBandPixels = 4;          // destination pixels per thread item: C words of output
constexpr int kBandItems = 2;           // items per thread and row: the per-row work of every thread spent on more
constexpr int kBandMaxThreads = 512;
constexpr int kBandSmemTarget = 36 * 1024; // strips narrow until a block fits: several blocks per SM
constexpr int kBandSmemLimit = 48 * 1024;  // the default dynamic shared-memory limit: no attribute call per launch
template <int I> constexpr int kBandTaps = I == kLinear ? 2 : 1;
template <int I> constexpr int kBandAhead = I == kLinear ? 2 : 3; // destination rows whose loads are in flight
template <int I> constexpr int kBandSlots = kBandTaps<I> * (kBandAhead<I> + 2);

// One table entry per destination pixel of the strip: NEAREST the byte offset of its source pixel in the staged
// span; LINEAR that of its left tap and the two fixed-point weights (w0 | w1 << 16; the right tap is C bytes on, or
// its weight is 0: linearTaps clamps only with a zero fraction).
template <int I> using BandEntry = typename std::conditional<I == kLinear, int2, int32_t>::type;

// The source bytes [b0, b1) of a row that strip [x0, x0 + w) reads.
struct BandSpan {
    int32_t b0, b1;
};

CVK_BAND_HD int32_t bandSourceIndex(const Axis &a, const NearestTies &t, int32_t interp, int32_t d) {
    return interp == kNearest ? nearestExact(a, t, d) : nearestFloor(a, d);
}

template <int I> CVK_BAND_HD BandSpan bandSpan(const Mapping &m, int32_t C, int32_t x0, int32_t w) {
    if constexpr (I == kLinear) {
        const Taps lo = linearTaps(m.x, x0), hi = linearTaps(m.x, x0 + w - 1);
        return {lo.first * C, (clampIndex(int64_t(hi.first) + 1, m.x.src) + 1) * C};
    } else {
        return {bandSourceIndex(m.x, m.tiesX, I, x0) * C, (bandSourceIndex(m.x, m.tiesX, I, x0 + w - 1) + 1) * C};
    }
}

// Bytes per ring slot: the span, the up to 15 bytes its 16-byte aligned start lies before it, and the words a
// LINEAR pixel's fetch may read past the span (at most 11 bytes).
CVK_BAND_HD int32_t bandSlotPitch(int32_t spanBytes) { return (spanBytes + 32 + 15) & ~15; }
template <int I> CVK_BAND_HD int32_t bandTableBytes(int32_t stripW) {
    return int32_t(sizeof(BandEntry<I>)) * ((stripW + kBandPixels - 1) / kBandPixels * kBandPixels);
}
template <int I> CVK_BAND_HD int32_t bandSmemBytes(int32_t stripW, int32_t slotPitch) {
    return kBandSlots<I> * slotPitch + bandTableBytes<I>(stripW);
}

// Destination columns [x0, x0 + w) of strip `strip`.
CVK_BAND_HD void bandStripOf(const BandShape &s, int32_t dstW, int32_t strip, int32_t &x0, int32_t &w) {
    x0 = strip * s.stripW;
    w = dstW - x0 < s.stripW ? dstW - x0 : s.stripW;
}

// Destination rows [first, end) of the batch's N * H rows that band `band` owns.
CVK_BAND_HD void bandRowsOf(const BandShape &s, int64_t rows, int64_t band, int64_t &first, int64_t &end) {
    first = band * s.bandRows;
    end = first + s.bandRows < rows ? first + s.bandRows : rows;
}

// ----------------------------------------------------------------------------------------------------- copies

// cp.async exists from sm_80 on; older GPUs (the build's sm_75) copy through registers at once, which the barrier
// after a row's copies orders just the same (only the loads in flight are fewer).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CVK_BAND_CP_ASYNC 1
#endif
CVK_BAND_HD void bandCopy16(uint8_t *smem, const uint8_t *gmem) {
#if defined(CVK_BAND_CP_ASYNC)
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
#elif defined(__CUDA_ARCH__)
    *reinterpret_cast<uint4 *>(smem) = __ldg(reinterpret_cast<const uint4 *>(gmem));
#else
    std::memcpy(smem, gmem, 16);
#endif
}
// bandCopy16 of the chunk's first `bytes` (0 to 16) bytes, the rest of the slot's 16 zero (cp.async's src-size
// operand), so that a chunk reaching past the end of a row reads nothing beyond it; gmem is 16-byte aligned and read
// only where bytes > 0.
CVK_BAND_HD void bandCopy16Zero(uint8_t *smem, const uint8_t *gmem, int32_t bytes) {
#if defined(CVK_BAND_CP_ASYNC)
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(bytes) : "memory");
#else
    for (int32_t i = 0; i < 16; ++i) smem[i] = i < bytes ? loadByte(gmem + i) : uint8_t(0);
#endif
}
CVK_BAND_HD void bandCommit() {
#if defined(CVK_BAND_CP_ASYNC)
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int Pending> CVK_BAND_HD void bandWait() {
#if defined(CVK_BAND_CP_ASYNC)
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

// Where byte b0 of a row lands in its slot: the slot mirrors the 16-byte aligned address at or below it.
CVK_BAND_HD int32_t bandShift(const uint8_t *row, int32_t b0) { return static_cast<int32_t>(reinterpret_cast<uintptr_t>(row + b0) & 15); }

// Phase 1 of a source row: its bytes [b0, b1) into `slot` from byte bandShift on; the 16-byte chunks wholly inside
// the span by cp.async, the bytes of a partial first or last chunk one by one (nothing outside the span is read).
CVK_BAND_HD void bandStage(const uint8_t *row, const BandSpan &span, uint8_t *slot, int tid, int nthreads) {
    const int32_t shift = bandShift(row, span.b0);
    const uint8_t *base = row + span.b0 - shift;
    const int32_t lo = shift, hi = shift + span.b1 - span.b0, chunks = (hi + 15) >> 4;
    for (int32_t k = tid; k < chunks; k += nthreads) {
        const int32_t cs = 16 * k;
        if (cs >= lo && cs + 16 <= hi) {
            bandCopy16(slot + cs, base + cs);
        } else {
            for (int32_t j = cs < lo ? lo : cs; j < cs + 16 && j < hi; ++j) slot[j] = loadByte(base + j);
        }
    }
}

// ------------------------------------------------------------------------------------------------ the table

// Once per block: the entries of the strip's pixels, and up to the next multiple of kBandPixels the last pixel's.
template <int I>
CVK_BAND_HD void bandTable(const Mapping &m, int32_t C, int32_t x0, int32_t w, const BandSpan &span, BandEntry<I> *table, int tid, int nthreads) {
    const int32_t padded = (w + kBandPixels - 1) / kBandPixels * kBandPixels;
    for (int32_t px = tid; px < padded; px += nthreads) {
        const int32_t x = x0 + (px < w ? px : w - 1);
        if constexpr (I == kLinear) {
            const Taps t = linearTaps(m.x, x);
            const uint32_t w0 = uint32_t(fixedWeight(t.w[0])) & 0xffffu, w1 = uint32_t(fixedWeight(t.w[1])) & 0xffffu;
            table[px] = int2{t.first * C - span.b0, int32_t(w0 | (w1 << 16))};
        } else {
            table[px] = bandSourceIndex(m.x, m.tiesX, I, x) * C - span.b0;
        }
    }
}

// ------------------------------------------------------------------------------------------------ the rows

// One destination row as the block sees it (the same values in every thread): its source rows' slots and where
// their span starts in the slot, its vertical weights (LINEAR), and its destination bytes.
template <int I> struct BandRow {
    int32_t slot[kBandTaps<I>];
    int32_t shift[kBandTaps<I>];
    int32_t wy[kBandTaps<I>];
    uint8_t *out;
};

// The ring's state: the last two source rows staged (batch-wide row numbers n * H + y) and their sequence numbers,
// and the next destination row to issue (image n, row dy: stepped, no 64-bit division per row).
struct BandRing {
    int64_t rowA, rowB;
    int32_t seqA, seqB, next;
    int64_t n;
    int32_t dy;
};
CVK_BAND_HD BandRing bandRing(int64_t first, int32_t dstH) { return {-1, -1, 0, 0, 0, first / dstH, static_cast<int32_t>(first % dstH)}; }

// The ring's next destination row: its description, and the loads of the source rows it is the first to read
// (phase 1, this thread's part); the ring steps to the row after. The source rows of consecutive destination rows
// never decrease, so a row already staged is one of the last two.
template <int I>
CVK_BAND_HD BandRow<I> bandIssue(const ResizeParams &p, const Mapping &m, const BandSpan &span, int32_t x0, BandRing &ring, uint8_t *slots,
                                 int32_t slotPitch, int tid, int nthreads) {
    const int32_t C = static_cast<int32_t>(p.src.shape[kC]);
    const int64_t n = ring.n;
    const int32_t dy = ring.dy;
    if (++ring.dy == m.y.dst) ring.dy = 0, ++ring.n;
    int32_t ys[kBandTaps<I>];
    BandRow<I> r;
    if constexpr (I == kLinear) {
        const Taps t = linearTaps(m.y, dy);
        ys[0] = t.first;
        ys[1] = clampIndex(int64_t(t.first) + 1, m.y.src);
        r.wy[0] = fixedWeight(t.w[0]);
        r.wy[1] = fixedWeight(t.w[1]);
    } else {
        ys[0] = bandSourceIndex(m.y, m.tiesY, I, dy);
        r.wy[0] = 1;
    }
    CVK_BAND_UNROLL
    for (int k = 0; k < kBandTaps<I>; ++k) {
        const int64_t srcRow = n * m.y.src + ys[k];
        const auto *row = reinterpret_cast<const uint8_t *>(p.src.data + n * p.src.stride[kN] + int64_t(ys[k]) * p.src.stride[kH]);
        int32_t seq;
        if (srcRow == ring.rowB) {
            seq = ring.seqB;
        } else if (srcRow == ring.rowA) {
            seq = ring.seqA;
        } else {
            seq = ring.next++;
            ring.rowA = ring.rowB, ring.seqA = ring.seqB;
            ring.rowB = srcRow, ring.seqB = seq;
            bandStage(row, span, slots + (seq % kBandSlots<I>) * slotPitch, tid, nthreads);
        }
        r.slot[k] = seq % kBandSlots<I>;
        r.shift[k] = bandShift(row, span.b0);
    }
    r.out = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[kN] + int64_t(dy) * p.dst.stride[kH]) + int64_t(x0) * C;
    return r;
}

CVK_BAND_HD uint32_t bandWord(const uint8_t *slot, int32_t q) { return reinterpret_cast<const uint32_t *>(slot)[q]; }

// The 4 bytes of a slot from byte o on.
CVK_BAND_HD uint32_t bandBytes4(const uint8_t *slot, int32_t o) {
    const int32_t q = o >> 2;
    return funnelRight(bandWord(slot, q), bandWord(slot, q + 1), uint32_t(8 * (o & 3)));
}

CVK_BAND_HD uint32_t bandByte(uint32_t v, int b) { return (v >> (8 * b)) & 0xffu; }

// Phase 2 of a destination row: every pixel of the strip from the staged rows, stored to r.out.
template <int I, int CT>
CVK_BAND_HD void bandCompute(const BandEntry<I> *table, const uint8_t *slots, int32_t slotPitch, const BandRow<I> &r, int32_t w, int tid,
                             int nthreads) {
    const uint8_t *a = slots + r.slot[0] * slotPitch;
    const uint8_t *b = slots + r.slot[kBandTaps<I> - 1] * slotPitch;
    const int32_t items = (w + kBandPixels - 1) / kBandPixels;
    const uintptr_t outAddr = reinterpret_cast<uintptr_t>(r.out);
    for (int32_t k = tid; k < items; k += nthreads) {
        uint32_t words[CT];
        CVK_BAND_UNROLL
        for (int j = 0; j < CT; ++j) words[j] = 0;
        CVK_BAND_UNROLL
        for (int i = 0; i < kBandPixels; ++i) {
            const BandEntry<I> e = table[kBandPixels * k + i];
            uint32_t v[CT];
            if constexpr (I == kLinear) {
                const int32_t w0 = int16_t(uint32_t(e.y) & 0xffffu), w1 = int16_t(uint32_t(e.y) >> 16);
                uint32_t lo[2], hi[2]; // the 2C bytes of the two taps, of the rows of tap 0 and tap 1
                CVK_BAND_UNROLL
                for (int t = 0; t < 2; ++t) {
                    const uint8_t *s = t == 0 ? a : b;
                    const int32_t o = e.x + r.shift[t];
                    const int32_t q = o >> 2;
                    const uint32_t sh = uint32_t(8 * (o & 3));
                    const uint32_t w0w = bandWord(s, q), w1w = bandWord(s, q + 1);
                    lo[t] = funnelRight(w0w, w1w, sh);
                    hi[t] = CT > 2 ? funnelRight(w1w, bandWord(s, q + 2), sh) : 0u;
                }
                CVK_BAND_UNROLL
                for (int c = 0; c < CT; ++c) {
                    auto tap = [&](int t, int byte) { return int32_t(byte < 4 ? bandByte(lo[t], byte) : bandByte(hi[t], byte - 4)); };
                    const int32_t h0 = w0 * tap(0, c) + w1 * tap(0, CT + c);
                    const int32_t h1 = w0 * tap(1, c) + w1 * tap(1, CT + c);
                    v[c] = fixedToU8(r.wy[0] * h0 + r.wy[1] * h1);
                }
            } else {
                const int32_t o = e + r.shift[0];
                if constexpr (CT == 1) {
                    v[0] = a[o];
                } else {
                    const uint32_t x = bandBytes4(a, o);
                    CVK_BAND_UNROLL
                    for (int c = 0; c < CT; ++c) v[c] = bandByte(x, c);
                }
            }
            CVK_BAND_UNROLL
            for (int c = 0; c < CT; ++c) words[(i * CT + c) / 4] |= v[c] << (8 * ((i * CT + c) % 4));
        }
        uint8_t *out = r.out + int64_t(k) * (kBandPixels * CT);
        const int32_t valid = (w - kBandPixels * k < kBandPixels ? w - kBandPixels * k : kBandPixels) * CT;
        if (valid == kBandPixels * CT && (outAddr & 3) == 0) {
            if (CT == 4 && (outAddr & 15) == 0) {
                *reinterpret_cast<uint4 *>(out) = uint4{words[0], words[CT > 1 ? 1 : 0], words[CT > 2 ? 2 : 0], words[CT - 1]};
            } else if (CT == 2 && (outAddr & 7) == 0) {
                *reinterpret_cast<uint2 *>(out) = uint2{words[0], words[CT - 1]};
            } else {
                CVK_BAND_UNROLL
                for (int j = 0; j < CT; ++j) reinterpret_cast<uint32_t *>(out)[j] = words[j];
            }
        } else {
            CVK_BAND_UNROLL // constant indices: the words stay in registers
            for (int j = 0; j < kBandPixels * CT; ++j)
                if (j < valid) out[j] = static_cast<uint8_t>(words[j / 4] >> (8 * (j % 4)));
        }
    }
}

#undef CVK_BAND_HD
#undef CVK_BAND_UNROLL
#undef CVK_BAND_CP_ASYNC

} // namespace cvk::resize
