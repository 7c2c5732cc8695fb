// The shifted row copy of kernels/common/span.cuh on the CPU, no GPU: its byte helpers, its launch plan for the
// benchmark's rows, and whole rows copied tile by tile as the warps of warp_tile.cuh copy them (the same
// __host__ __device__ functions; lane L's block i + 1 taken as the block the neighbouring lane holds), compared byte
// for byte with memcpy over every alignment of either side, odd and 1-byte widths, pitched rows and borders; and which
// copies launchCopy moves as flat aligned blocks instead (copyRowsAligned).
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/common/span.cuh"
#include "../../kernels/copy.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace cvk;

namespace {

std::vector<unsigned char> block(uint4 v) {
    std::vector<unsigned char> b(16);
    std::memcpy(b.data(), &v, 16);
    return b;
}

uint4 blockOf(const unsigned char *p) {
    uint4 v;
    std::memcpy(&v, p, 16);
    return v;
}

// A 16-byte aligned arena with guard bytes around what a case uses.
struct Arena {
    std::vector<unsigned char> bytes;
    unsigned char *base;
    explicit Arena(size_t n, unsigned char guard) : bytes(n + 64, guard) {
        base = reinterpret_cast<unsigned char *>((reinterpret_cast<uintptr_t>(bytes.data()) + 31) & ~uintptr_t(15));
    }
};

// Dst bytes o .. o + 15 of a row outside its copied part: a recognisable function of the offset.
uint4 borderAt(int64_t o) {
    unsigned char b[16];
    for (int j = 0; j < 16; ++j) b[j] = static_cast<unsigned char>(0x80 ^ (o + j));
    return blockOf(b);
}

// One row as copySpanTile copies it, tile by tile, slice by slice, lane by lane.
void copyRowAsWarps(const RowSpan &s, const SpanPlan &p) {
    for (int64_t tile = 0; tile < p.tilesPerRow; ++tile) {
        const int64_t first = tile * kWarpLanes * p.units;
        for (int j = 0; j < p.units; ++j)
            for (int lane = 0; lane < kWarpLanes; ++lane) {
                const int64_t i = first + j * kWarpLanes + lane;
                uint4 out = loadSrcBlock(s, i);
                if (s.shift != 0) out = shiftBytes(out, loadSrcBlock(s, i + 1), s.shift);
                const int64_t o = blockOffset(s, i);
                const int rb = clampByte(-o), re = clampByte(s.bytes - o);
                const int ib = clampByte(s.lo - o), ie = clampByte(s.hi - o);
                if (rb < re && (ib > rb || ie < re)) out = mergeBytes(out, borderAt(o), ib, ie);
                storeDstBlock(s, i, out);
            }
    }
}

struct RowsCase {
    int srcOffset, dstOffset; // bytes past a 16-byte boundary
    int64_t bytes;            // of a dst row
    int64_t lo, hi;           // its copied part
    int64_t srcPitch, dstPitch;
    int64_t rows;
};

std::string describe(const RowsCase &c) {
    return "src+" + std::to_string(c.srcOffset) + " dst+" + std::to_string(c.dstOffset) + " bytes=" + std::to_string(c.bytes) +
           " [" + std::to_string(c.lo) + "," + std::to_string(c.hi) + ") pitches " + std::to_string(c.srcPitch) + "/" +
           std::to_string(c.dstPitch) + " rows=" + std::to_string(c.rows);
}

// Runs a case; returns the first wrong byte's description, or "" when every byte is right and no guard moved.
std::string runRows(const RowsCase &c, std::mt19937 &rng) {
    const int64_t run = c.hi - c.lo;
    Arena src(c.srcOffset + c.rows * c.srcPitch + 16, 0xa5), dst(c.dstOffset + c.rows * c.dstPitch + 16, 0x5a);
    std::vector<unsigned char> expected(dst.bytes);
    unsigned char *s0 = src.base + c.srcOffset, *d0 = dst.base + c.dstOffset;
    for (int64_t r = 0; r < c.rows; ++r)
        for (int64_t k = 0; k < run; ++k) s0[r * c.srcPitch + k] = static_cast<unsigned char>(rng());
    unsigned char *e0 = expected.data() + (d0 - dst.bytes.data());
    for (int64_t r = 0; r < c.rows; ++r)
        for (int64_t k = 0; k < c.bytes; ++k) {
            const bool copied = k >= c.lo && k < c.hi;
            e0[r * c.dstPitch + k] = copied ? s0[r * c.srcPitch + k - c.lo] : static_cast<unsigned char>(0x80 ^ k);
        }
    const bool aligned = c.dstOffset == 0 && c.dstPitch % 16 == 0;
    const SpanPlan p = spanPlan(c.rows, spanBlocksPerRow(c.bytes, aligned));
    for (int64_t r = 0; r < c.rows; ++r) {
        const RowSpan s = rowSpan(reinterpret_cast<uintptr_t>(d0 + r * c.dstPitch), c.bytes, c.lo, c.hi,
                                  reinterpret_cast<uintptr_t>(s0 + r * c.srcPitch));
        if (s.blocks > p.tilesPerRow * kWarpLanes * p.units) return "row " + std::to_string(r) + " has more blocks than its tiles";
        copyRowAsWarps(s, p);
    }
    for (size_t k = 0; k < dst.bytes.size(); ++k)
        if (dst.bytes[k] != expected[k])
            return "byte " + std::to_string(static_cast<int64_t>(k) - (d0 - dst.bytes.data())) + " is " +
                   std::to_string(dst.bytes[k]) + ", expected " + std::to_string(expected[k]);
    return "";
}

} // namespace

TEST_CASE("rowSpan: blocks, source grid and shift", "[span]") {
    struct Row {
        uintptr_t row;
        int64_t bytes, lo;
        uintptr_t src;
        uintptr_t dstBase, srcBase;
        uint32_t shift;
        int64_t blocks;
    };
    const std::vector<Row> rows = {
        {4096, 3840, 0, 8192 + 960, 4096, 8192 + 960, 0, 240},       // the benchmark's crop: both sides aligned
        {4096, 3840, 0, 8192 + 3, 4096, 8192, 3, 240},               // src 3 bytes past a boundary
        {4096 + 5, 3840, 0, 8192, 4096, 8192 - 16, 11, 241},         // dst 5 bytes past: src byte 0 is byte 5 of a block
        {4096 + 15, 1, 0, 8192 + 15, 4096, 8192, 0, 1},              // one byte, same offsets
        {4096 + 15, 2, 0, 8192, 4096, 8192 - 16, 1, 2},              // two bytes straddling a dst boundary
        {4096, 5856, 48, 8192, 4096, 8192 - 48, 0, 366},             // the benchmark's borders: 16 px of 3 bytes
        {4096, 5856, 3, 8192, 4096, 8192 - 16, 13, 366},             // a 1-pixel left border
    };
    for (const Row &r : rows) {
        INFO("row " << r.row << " bytes " << r.bytes << " lo " << r.lo << " src " << r.src);
        const RowSpan s = rowSpan(r.row, r.bytes, r.lo, r.bytes, r.src);
        CHECK(s.dstBase == r.dstBase);
        CHECK(s.srcBase == r.srcBase);
        CHECK(s.shift == r.shift);
        CHECK(s.blocks == r.blocks);
        // dst byte lo maps onto src byte src: block lo / 16 of dst, byte shift + lo % 16 of the src blocks
        const int64_t at = static_cast<int64_t>(r.row - s.dstBase) + r.lo;
        CHECK(s.srcBase + 16 * (at / 16) + s.shift + at % 16 == r.src);
    }
}

TEST_CASE("shiftBytes, mergeBytes, byteMask: every shift and range", "[span]") {
    unsigned char bytes[32];
    for (int j = 0; j < 32; ++j) bytes[j] = static_cast<unsigned char>(3 * j + 1);
    const uint4 a = blockOf(bytes), b = blockOf(bytes + 16);
    for (uint32_t sh = 0; sh < 16; ++sh) {
        INFO("shift " << sh);
        CHECK(block(shiftBytes(a, b, sh)) == std::vector<unsigned char>(bytes + sh, bytes + sh + 16));
    }
    for (int lo = 0; lo <= 16; ++lo)
        for (int hi = lo; hi <= 16; ++hi) {
            INFO("bytes [" << lo << ", " << hi << ")");
            const std::vector<unsigned char> merged = block(mergeBytes(a, b, lo, hi));
            for (int j = 0; j < 16; ++j) CHECK(merged[j] == (j >= lo && j < hi ? bytes[j] : bytes[16 + j]));
        }
}

TEST_CASE("loadSrcBlock reads nothing outside the source run", "[span]") {
    Arena src(96, 0xee);
    for (int k = 0; k < 96; ++k) src.base[k] = static_cast<unsigned char>(k + 1);
    for (int start = 0; start < 20; ++start)
        for (int len : {1, 2, 5, 15, 16, 17, 31, 40}) {
            INFO("run [" << start << ", " << start + len << ")");
            const uintptr_t run = reinterpret_cast<uintptr_t>(src.base + start);
            const RowSpan s = rowSpan(4096, len, 0, len, run);
            for (int64_t k = 0; k <= s.blocks; ++k) {
                const std::vector<unsigned char> got = block(loadSrcBlock(s, k));
                for (int j = 0; j < 16; ++j) {
                    const int64_t at = static_cast<int64_t>(s.srcBase - reinterpret_cast<uintptr_t>(src.base)) + 16 * k + j;
                    const bool inside = at >= start && at < start + len;
                    CHECK(got[j] == (inside ? static_cast<unsigned char>(at + 1) : 0));
                }
            }
        }
}

TEST_CASE("spanPlan: the benchmark's rows and small launches", "[span][dispatch]") {
    struct PlanRow {
        const char *what;
        int64_t rows, bytes;
        bool aligned;
        int units;
        int64_t tilesPerRow;
        unsigned block; // spread over at least 128 blocks before a block gets more warps
    };
    const std::vector<PlanRow> rows = {
        {"crop 32x1080x1920x3 -> 720x1280", 32 * 720, 1280 * 3, true, 4, 2, 256},
        {"crop rows that may start unaligned", 32 * 720, 1280 * 3, false, 4, 2, 256},
        {"copymakeborder 32x1112x1952x3", 32 * 1112, 1952 * 3, true, 4, 3, 256},
        {"crop 8x1080x1920x3 -> 720x1280: 4 units, as the batch of 32", 8 * 720, 1280 * 3, true, 4, 2, 256},
        {"crop 1x1080x1920x3 -> 720x1280: fewer rows than fill the GPU at 4 or 2 units", 720, 1280 * 3, true, 1, 8, 256},
        {"crop 1x224x224x3 -> 149x149: one tile of 32 blocks per row, one-warp blocks", 149, 149 * 3, false, 1, 1, 32},
        {"copymakeborder 1x224x224x3 -> 256x256x3: 2 tiles a row, 512 items: 128 four-warp blocks", 256, 256 * 3, true, 1, 2, 128},
        {"cvtcolor 1x224x224x3, one contiguous row: 294 items, two-warp blocks", 1, 224 * 224 * 3, true, 1, 294, 64},
        {"one byte", 1, 1, false, 1, 1, 32},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        const SpanPlan p = spanPlan(r.rows, spanBlocksPerRow(r.bytes, r.aligned));
        CHECK(p.units == r.units);
        CHECK(p.tilesPerRow == r.tilesPerRow);
        CHECK(p.items == r.rows * r.tilesPerRow);
        CHECK(p.block == r.block);
        CHECK(int64_t(p.grid) * (p.block / kWarpLanes) >= p.items);
        CHECK(int64_t(p.grid - 1) * (p.block / kWarpLanes) < p.items); // no block without an item
    }
}

TEST_CASE("rows copied as warp tiles equal memcpy: every alignment, odd widths, pitches, borders", "[span]") {
    std::mt19937 rng(12);
    std::vector<RowsCase> cases;
    for (int so = 0; so < 16; ++so)
        for (int dof = 0; dof < 16; ++dof)
            for (int64_t n : {1, 2, 3, 15, 16, 17, 33, 447})
                cases.push_back({so, dof, n, 0, n, n + 5 + so, n + 16 + dof, 3});
    // Pitched and packed rows of the benchmark's widths, and rows as long as several tiles.
    cases.push_back({0, 0, 3840, 0, 3840, 5760, 3840, 4});
    cases.push_back({3, 0, 3840, 0, 3840, 5760, 3840, 4});
    cases.push_back({0, 7, 3840, 0, 3840, 5760, 3840, 2});
    cases.push_back({9, 0, 5 * 2048 + 3, 0, 5 * 2048 + 3, 5 * 2048 + 20, 5 * 2048 + 3, 2}); // packed dst rows share blocks
    // Borders either side (copymakeborder): left/right widths of 0, 1 and 16 pixels of 3 bytes, 1-pixel sources.
    for (int so : {0, 1, 8})
        for (int dof : {0, 4})
            for (int64_t left : {0, 3, 48})
                for (int64_t right : {0, 3, 48})
                    for (int64_t w : {3, 12, 5760}) cases.push_back({so, dof, left + w + right, left, left + w, w + 11, left + w + right, 3});
    cases.push_back({0, 0, 96, 0, 0, 16, 96, 2}); // no source bytes at all (a constant row)
    for (const RowsCase &c : cases) {
        INFO(describe(c));
        CHECK(runRows(c, rng) == "");
    }
}

TEST_CASE("copyRowsAligned: which crops launchCopy moves as flat 16-byte blocks", "[span][dispatch]") {
    struct CropRow {
        const char *what;
        int64_t n, h, w, c, itemSize; // source image
        int64_t x, y, cw, ch;         // the crop
        int64_t dataOffset;           // bytes the source's data lies past a 16-byte boundary
        bool aligned;
    };
    const std::vector<CropRow> rows = {
        {"the benchmark's crop: 960-byte offset, 3840-byte rows, 5760-byte pitch", 32, 1080, 1920, 3, 1, 320, 180, 1280, 720, 0, true},
        {"float32, the same crop", 2, 1080, 1920, 3, 4, 320, 180, 1280, 720, 0, true},
        {"x one pixel on: rows start 3 bytes past a boundary", 32, 1080, 1920, 3, 1, 321, 180, 1280, 720, 0, false},
        {"rows of 3839 bytes", 2, 1080, 3840, 1, 1, 0, 0, 3839, 720, 0, false},
        {"pitch 5757 bytes (1919 pixels)", 2, 1081, 1919, 3, 1, 16, 0, 1888, 1081, 0, false},
        {"source data 8 bytes past a boundary", 2, 64, 64, 4, 1, 0, 0, 32, 32, 8, false},
        {"one row of one image", 1, 1, 64, 4, 1, 4, 0, 8, 1, 0, true},
        {"every row whole: the crop is the image (rows merged into one)", 2, 9, 11, 3, 1, 0, 0, 11, 9, 0, false},
    };
    const uintptr_t base = uintptr_t(1) << 20; // addresses only: nothing is read or written
    for (const CropRow &r : rows) {
        INFO(r.what);
        const int64_t pitch = r.w * r.c * r.itemSize, image = r.h * pitch;
        char *src = reinterpret_cast<char *>(base + static_cast<uintptr_t>(r.dataOffset + r.y * pitch + r.x * r.c * r.itemSize));
        View4 s{src, {r.n, r.ch, r.cw, r.c}, {image, pitch, r.c * r.itemSize, r.itemSize}};
        View4 d{reinterpret_cast<char *>(base), {r.n, r.ch, r.cw, r.c}, {r.ch * r.cw * r.c * r.itemSize, r.cw * r.c * r.itemSize, r.c * r.itemSize, r.itemSize}};
        RowView v;
        REQUIRE(collapseImages(s, d, false, DimOrder::Keep, v));
        CHECK(copyRowsContiguous(v, static_cast<int32_t>(r.itemSize)));
        CHECK(copyRowsAligned(v, static_cast<int32_t>(r.itemSize)) == r.aligned);
    }
}
