// Thread level, host and device: the byte geometry of a shifted row copy. A destination row of `bytes` bytes whose
// bytes [lo, hi) copy a source run of hi - lo bytes (crop: the whole row; borders: the part between them) is walked as
// the aligned 16-byte blocks of dst that it touches. Dst block i is bytes shift .. shift + 15 of source blocks i and
// i + 1 of an aligned source grid, so that every load and every store is an aligned 16-byte vector whatever the two
// alignments are (a funnel shift puts the bytes in place; warp_tile.cuh gets block i + 1 from the next lane). A block
// that straddles an end of the row or of the source run moves byte by byte: no byte outside them is read or written
// (a tensor's last byte need not end a 16-byte block of its allocation).
// Everything here is __host__ __device__, so the CPU tests run the same arithmetic (tests/kernels/test_span.cpp).
#pragma once

#include "register_bytes.cuh"
#include "launch.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

#define CVK_SPAN_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_SPAN_UNROLL _Pragma("unroll")
#else
#define CVK_SPAN_UNROLL
#endif

struct RowSpan {
    uintptr_t row;     // the dst row's first byte
    int64_t bytes;     // its length
    int64_t lo, hi;    // row bytes [lo, hi) copy src bytes [src, src + hi - lo); lo == hi: none (src unused)
    uintptr_t src;
    uintptr_t dstBase; // `row` rounded down to 16: dst block i is [dstBase + 16 i, dstBase + 16 i + 16)
    uintptr_t srcBase; // src block k is [srcBase + 16 k, srcBase + 16 k + 16)
    uint32_t shift;    // dst block i is bytes shift .. shift + 15 of src blocks i and i + 1
    int64_t blocks;    // dst blocks the row touches
};

// Addresses wrap modulo 2^64 on purpose: only differences of them are used.
CVK_SPAN_HD RowSpan rowSpan(uintptr_t row, int64_t bytes, int64_t lo, int64_t hi, uintptr_t src) {
    RowSpan s;
    s.row = row;
    s.bytes = bytes;
    s.lo = lo;
    s.hi = hi;
    s.src = src;
    s.dstBase = row & ~uintptr_t(15);
    s.blocks = static_cast<int64_t>((((row + static_cast<uintptr_t>(bytes) + 15) & ~uintptr_t(15)) - s.dstBase) >> 4);
    // The src byte that dst byte dstBase maps onto (dst byte row + lo <-> src byte src).
    const uintptr_t first = s.dstBase + (src - (row + static_cast<uintptr_t>(lo)));
    s.srcBase = first & ~uintptr_t(15);
    s.shift = static_cast<uint32_t>(first & 15);
    return s;
}

// v clamped to [0, 16]: a byte index of a block.
CVK_SPAN_HD int clampByte(int64_t v) { return v < 0 ? 0 : v > 16 ? 16 : static_cast<int>(v); }

// Byte 0 of dst block i as an offset in its row (> -16).
CVK_SPAN_HD int64_t blockOffset(const RowSpan &s, int64_t i) { return static_cast<int64_t>(s.dstBase - s.row) + 16 * i; }

// Bytes b <= j < e of the block at p, 0 elsewhere.
CVK_SPAN_HD uint4 loadBytesIn(const char *p, int b, int e) {
    uint32_t w[4] = {0, 0, 0, 0};
    CVK_SPAN_UNROLL
    for (int j = 0; j < 16; ++j)
        if (j >= b && j < e) w[j >> 2] |= uint32_t(static_cast<unsigned char>(p[j])) << (8 * (j & 3));
    return make_uint4(w[0], w[1], w[2], w[3]);
}

CVK_SPAN_HD void storeBytesIn(char *p, uint4 v, int b, int e) {
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    CVK_SPAN_UNROLL
    for (int j = 0; j < 16; ++j)
        if (j >= b && j < e) p[j] = static_cast<char>(w[j >> 2] >> (8 * (j & 3)));
}

// Aligned 16-byte moves; on the device through the global space (the addresses are integers here, so the compiler
// cannot tell), the loads through the read-only path: a source never overlaps its destination.
CVK_SPAN_HD uint4 load16(uintptr_t a) {
#ifdef __CUDA_ARCH__
    return __ldg(reinterpret_cast<const uint4 *>(a));
#else
    return *reinterpret_cast<const uint4 *>(a);
#endif
}
CVK_SPAN_HD void store16(uintptr_t a, uint4 v) {
#ifdef __CUDA_ARCH__
    // A plain st.global (__stwb's st.global.wb compiles to a store ordered at SM scope).
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
#else
    *reinterpret_cast<uint4 *>(a) = v;
#endif
}

// The same moves with streaming cache hints (ld.global.cs / st.global.cs: evict first), for plain copies whose bytes
// are touched once. On an H200 (bench/probes/crop_plans.cu) they made the flat copy of kernels/copy.cu no slower on
// any crop or vertical flip there and most 0.3-2 % faster (32x1080x1920x3 -> 720x1280: 46.14 µs against 46.43;
// 8 images 14.64 against 14.85; an 8-image vertical flip 27.81 against 28.32).
CVK_SPAN_HD uint4 load16Streaming(uintptr_t a) {
#ifdef __CUDA_ARCH__
    return __ldcs(reinterpret_cast<const uint4 *>(a));
#else
    return *reinterpret_cast<const uint4 *>(a);
#endif
}
CVK_SPAN_HD void store16Streaming(uintptr_t a, uint4 v) {
#ifdef __CUDA_ARCH__
    __stcs(reinterpret_cast<uint4 *>(a), v);
#else
    *reinterpret_cast<uint4 *>(a) = v;
#endif
}

// Src block k: one 16-byte load inside the source run, the bytes inside it one by one at its ends, 0 outside.
CVK_SPAN_HD uint4 loadSrcBlock(const RowSpan &s, int64_t k) {
    const uintptr_t a = s.srcBase + 16 * static_cast<uintptr_t>(k);
    const int64_t from = static_cast<int64_t>(a - s.src), run = s.hi - s.lo; // the block's offset in the run
    if (from >= 0 && from <= run - 16) return load16(a);                      // the common case: two compares
    const int b = clampByte(-from), e = clampByte(run - from);
    if (b >= e) return make_uint4(0, 0, 0, 0);
    return loadBytesIn(reinterpret_cast<const char *>(a), b, e);
}

// Dst block i: the bytes of it inside the row (one 16-byte store when that is all of them).
CVK_SPAN_HD void storeDstBlock(const RowSpan &s, int64_t i, uint4 v) {
    const int64_t o = blockOffset(s, i);
    const uintptr_t p = s.dstBase + 16 * static_cast<uintptr_t>(i);
    if (o >= 0 && o <= s.bytes - 16) return store16(p, v);
    const int b = clampByte(-o), e = clampByte(s.bytes - o);
    if (b < e) storeBytesIn(reinterpret_cast<char *>(p), v, b, e);
}

// Bytes sh .. sh + 15 (0 <= sh < 16) of the 32 bytes a, b (a first). The word offset is picked by selects, not by an
// indexed array (which would live in local memory); sh is the same across a row, so they do not diverge.
CVK_SPAN_HD uint4 shiftBytes(uint4 a, uint4 b, uint32_t sh) {
    const uint32_t w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    const uint32_t k = sh >> 2, bits = (sh & 3) * 8;
    uint32_t t[5];
    CVK_SPAN_UNROLL
    for (int m = 0; m < 5; ++m) t[m] = k == 0 ? w[m] : k == 1 ? w[m + 1] : k == 2 ? w[m + 2] : w[m + 3];
    return make_uint4(funnelRight(t[0], t[1], bits), funnelRight(t[1], t[2], bits), funnelRight(t[2], t[3], bits),
                      funnelRight(t[3], t[4], bits));
}

// Byte mask of word m (bytes 4m .. 4m + 3) of a block for bytes [b, e): 0xff where inside.
CVK_SPAN_HD uint32_t byteMask(int m, int b, int e) {
    const uint32_t bits = ((1u << e) - 1u) & ~((1u << b) - 1u); // one bit per byte of the block
    const uint32_t nibble = (bits >> (4 * m)) & 15u;
    return ((nibble * 0x204081u) & 0x01010101u) * 0xffu; // bit j of the nibble -> byte j
}

// Bytes [b, e) from `inside`, the others from `outside`.
CVK_SPAN_HD uint4 mergeBytes(uint4 inside, uint4 outside, int b, int e) {
    const uint32_t m0 = byteMask(0, b, e), m1 = byteMask(1, b, e), m2 = byteMask(2, b, e), m3 = byteMask(3, b, e);
    return make_uint4((inside.x & m0) | (outside.x & ~m0), (inside.y & m1) | (outside.y & ~m1),
                      (inside.z & m2) | (outside.z & ~m2), (inside.w & m3) | (outside.w & ~m3));
}

// Device level plan: a warp copies one tile (32 * units consecutive dst blocks of one row) per work item.
constexpr int kWarpLanes = 32;
constexpr int kSpanUnits = 4; // blocks per lane at most: 64 bytes in flight per thread
struct SpanPlan {
    int units;          // blocks per lane (1, 2 or 4)
    int64_t tilesPerRow;
    int64_t items;      // rows * tilesPerRow
    unsigned grid;      // 1-D grid (grid-stride over items past kMaxGridX)
    unsigned block;     // threads a block: one warp an item, spread over blocks by spreadWarps (launch.cuh)
};

// Dst blocks a row of `bytes` bytes touches at most: one more than a whole number when its start may be unaligned.
inline int64_t spanBlocksPerRow(int64_t bytes, bool rowStartsAligned) {
    return rowStartsAligned ? ceilDiv(bytes, 16) : (bytes + 30) / 16;
}

// The most units that still fill the GPU once (kResidentThreads, launch.cuh), then the one of those at most that
// wastes the fewest lanes on a row's last tile (ties: more units, more bytes in flight). A rule of four fills took 1
// unit for a crop of 8x1080x1920x3 to 720x1280, 22.1 µs against 14.8 with 4 (H200, bench/probes/crop_plans.cu).
inline SpanPlan spanPlan(int64_t rows, int64_t blocksPerRow) {
    int u = kSpanUnits;
    while (u > 1 && rows * blocksPerRow / u < kResidentThreads) u /= 2;
    SpanPlan p{};
    int64_t best = -1;
    for (int c = u; c >= 1; c /= 2) {
        const int64_t slots = ceilDiv(blocksPerRow, int64_t(kWarpLanes) * c) * kWarpLanes * c;
        if (best < 0 || slots < best) best = slots, p.units = c;
    }
    p.tilesPerRow = ceilDiv(blocksPerRow, int64_t(kWarpLanes) * p.units);
    p.items = rows * p.tilesPerRow;
    const int warps = spreadWarps(p.items);
    p.block = static_cast<unsigned>(warps * kWarpLanes);
    const int64_t blocks = ceilDiv(p.items, warps);
    p.grid = static_cast<unsigned>(blocks < kMaxGridX ? (blocks > 0 ? blocks : 1) : kMaxGridX);
    return p;
}

} // namespace cvk
