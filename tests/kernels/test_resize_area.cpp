// cvResize's AREA row path on the CPU, no GPU: which shapes take it (cvk::planResizeArea,
// the benchmark's among them), and whole blocks run step by step for every thread (the same __host__ __device__
// functions the kernel runs), compared byte for byte with the per-pixel sampler on random images, with the
// destination's padding checked untouched. The emulation computes each source row only after every thread has
// issued the copies of the row after the ones the kernel keeps in flight (the latest order its one barrier per row
// allows), so a ring slot reused too early shows as wrong bytes. The warp kernel (resize_area_warp.cuh) likewise:
// its plan, and every warp of every block run lane by lane with its copies done as the kernel's (one bulk range and
// the bytes around it), each slot rewritten only after the row in it was summed.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_area.cuh"
#include "../../kernels/resize_area_ring.cuh"
#include "../../kernels/resize_area_warp.cuh"
#include "resize_views.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace cvk::resize;
using cvtest::kAligned;
using cvtest::nhwc;
using cvtest::params;

namespace {

struct PlanRow {
    const char *what;
    cvk::ResizeParams p;
    bool area;
    int32_t taps, warps, strips; // checked when area (taps: the compiled K)
};

} // namespace

TEST_CASE("planResizeArea: the benchmark's rows and what stays on the tiled path or the sampler", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    auto unaligned = src;
    unaligned.data += 1;
    auto strided = src; // pixels 4 bytes apart, 3 channels
    strided.stride[cvk::kW] = 4;
    strided.stride[cvk::kH] = 1920 * 4;
    auto planar = src;
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, nhwc(kAligned, 32, 224, 224, 3), -1);
    torch.torchMode = kTvLinearAA;
    const std::vector<PlanRow> rows = {
        // 1920 -> 224: 7 warps of 32 columns, lane stride 7 columns = 180 bytes = 45 words, 45 odd: 32 banks
        {"bench: AREA -> 224x224 (fractional 4.82 x 8.57)", params(src, nhwc(kAligned, 32, 224, 224, 3), kArea), true, 10, 7, 1},
        {"AREA by 4 (integer box, 270x480)", params(src, nhwc(kAligned, 32, 270, 480, 3), kArea), true, 4, 5, 3},
        {"AREA 1.5 (720x1280)", params(src, nhwc(kAligned, 32, 720, 1280, 3), kArea), true, 3, 8, 5},
        {"AREA 1 channel -> 224x224", params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 224, 224, 1), kArea), true, 10, 7, 1},
        {"AREA 4 channels -> 224x224 (60 words a lane apart at 7 warps: 4-way conflicts)", params(nhwc(kAligned, 32, 1080, 1920, 4), nhwc(kAligned, 32, 224, 224, 4), kArea), true, 10, 1, 7},
        {"AREA, source not aligned (any alignment)", params(unaligned, nhwc(kAligned, 32, 224, 224, 3), kArea), true, 10, 7, 1},
        {"AREA same size (box of 1)", params(nhwc(kAligned, 2, 19, 23, 3), nhwc(kAligned, 2, 19, 23, 3), kArea), true, 3, 1, 1},
        {"AREA enlarging (linear area mode)", params(nhwc(kAligned, 1, 100, 100, 3), nhwc(kAligned, 1, 300, 50, 3), kArea), false, 0, 0, 0},
        {"AREA 1080x1920 -> 1x1 (1920 taps a column)", params(src, nhwc(kAligned, 32, 1, 1, 3), kArea), false, 0, 0, 0},
        {"AREA 1920 -> 120 across (16 taps)", params(src, nhwc(kAligned, 32, 100, 120, 3), kArea), true, 16, 0, 0},
        {"AREA 1920 -> 360 (x 5.33: runs of 6 taps summed first, so a kernel of 10)", params(src, nhwc(kAligned, 32, 300, 360, 3), kArea), true, 10, 0, 0},
        {"AREA 1920 -> 384 (x 5 across, 3.6 down: runs of 5 taps weighed one by one)", params(src, nhwc(kAligned, 32, 300, 384, 3), kArea), true, 6, 0, 0},
        {"AREA 1920 -> 480, 1080 -> 300 (x 4 across, 3.6 down: 4 taps one by one)", params(src, nhwc(kAligned, 32, 300, 480, 3), kArea), true, 4, 0, 0},
        {"AREA 2 channels", params(nhwc(kAligned, 2, 100, 100, 2), nhwc(kAligned, 2, 30, 30, 2), kArea), false, 0, 0, 0},
        {"AREA uint16", params(nhwc(kAligned, 2, 100, 100, 3), nhwc(kAligned, 2, 30, 30, 3), kArea, cvk::kResizeU16), false, 0, 0, 0},
        {"source pixels not packed", params(strided, nhwc(kAligned, 32, 224, 224, 3), kArea), false, 0, 0, 0},
        {"planar channels", params(planar, nhwc(kAligned, 32, 224, 224, 3), kArea), false, 0, 0, 0},
        {"LINEAR", params(src, nhwc(kAligned, 32, 224, 224, 3), kLinear), false, 0, 0, 0},
        {"torchvision mode", torch, false, 0, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeAreaShape s{};
        const bool area = cvk::planResizeArea(r.p, s);
        REQUIRE(area == r.area);
        if (!area) continue;
        CHECK(kAreaTaps[s.taps] == r.taps);
        if (r.warps > 0) {
            CHECK(s.warps == r.warps);
            CHECK(s.strips == r.strips);
        }
        const Mapping m = mappingOf(r.p.src, r.p.dst.shape[cvk::kH], r.p.dst.shape[cvk::kW], r.p.interp);
        CHECK(s.strips * 32 * s.warps >= m.x.dst);
        CHECK((s.strips - 1) * 32 * s.warps < m.x.dst);
        CHECK(s.smemBytes <= kAreaSmemLimit);
        CHECK(s.smemBytes == areaSmemBytes(kAreaSlots<kAreaAhead>, s.slotPitch, s.streamRows, s.outPitch));
        CHECK(s.outPitch >= 32 * s.warps * r.p.src.shape[cvk::kC]);
        CHECK(s.slotPitch % 16 == 0);
        CHECK(s.streamRows <= kAreaMaxStreamRows);
        const int64_t rowsTotal = r.p.dst.shape[cvk::kN] * m.y.dst;
        CHECK(s.bands * s.bandRows >= rowsTotal);
        CHECK((s.bands - 1) * s.bandRows < rowsTotal);
        CHECK(s.bands <= 65535);
    }
}

TEST_CASE("planResizeArea: a forced block width, and the benchmark's bands", "[resize][dispatch]") {
    const auto p = params(nhwc(kAligned, 32, 1080, 1920, 3), nhwc(kAligned, 32, 224, 224, 3), kArea);
    cvk::ResizeAreaShape s{};
    REQUIRE(cvk::planResizeArea(p, s, 4));
    CHECK(s.warps == 4);
    CHECK(s.strips == 2);
    REQUIRE(cvk::planResizeArea(p, s));
    // 7 warps, 64 registers: 4 blocks on each of 132 multiprocessors, 528 bands of 14 rows (7168 rows)
    CHECK(s.bandRows == 14);
    CHECK(s.bands == 512);
}

namespace {

// One table row's images: a random source of n x h x w x c (rows padded by rowPad bytes, starting `offset` bytes past
// a 16-byte aligned address: operator new's) and a destination poisoned with 0xA5, 16 bytes of it on each side.
struct AreaImages {
    std::vector<uint8_t> src, dst;
    cvk::ResizeParams p;
    AreaImages(std::mt19937 &rng, int32_t n, int32_t h, int32_t w, int32_t c, int32_t oh, int32_t ow, int64_t rowPad, int64_t offset)
        : src(size_t(n * h * (int64_t(w) * c + rowPad) + 16)), dst(size_t(n) * oh * ow * c + 32, 0xA5) {
        for (auto &v : src) v = static_cast<uint8_t>(rng());
        p = params(nhwc(reinterpret_cast<char *>(src.data()) + offset, n, h, w, c, rowPad), nhwc(reinterpret_cast<char *>(dst.data()) + 16, n, oh, ow, c),
                   kArea);
    }
};

// s with bands of bandRows rows (0: as planned) and the table they need.
void setBands(cvk::ResizeAreaShape &s, const Mapping &m, int64_t rows, int64_t bandRows) {
    if (bandRows <= 0) return;
    s.bandRows = bandRows;
    s.bands = (rows + bandRows - 1) / bandRows;
    s.streamRows = static_cast<int32_t>(areaMaxStream(m.y, bandRows));
}

struct BlockRow {
    const char *what;
    int32_t n, h, w, c, oh, ow;
    int64_t rowPad;    // bytes after each source row
    int64_t offset;    // bytes the source starts after a 16-byte aligned address
    int32_t warps;     // 0: the plan's
    int64_t bandRows;  // 0: the plan's; else bands of this many rows (crossing images where it exceeds oh)
};

// Runs every block the way the kernel does, into p.dst: per block, the copies of the first A + 1 source rows, the
// table and the columns; then per row k the copies of row k + A + 1 by every thread before any computes row k,
// and thread by thread the write-out of its part of the rows row k - 1 completed and its sums of row k (so the
// later threads write out after the earlier ones have stored row k's pixels: one output buffer pair would show).
template <int CT, int K> void runBlocks(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s) {
    constexpr int A = kAreaAhead, S = kAreaSlots<A>;
    const int nthreads = 32 * s.warps;
    std::vector<uint4> smem(size_t(s.smemBytes) / 16 + 1);
    auto *slots = reinterpret_cast<uint8_t *>(smem.data());
    auto *table = reinterpret_cast<AreaRowEntry *>(slots + S * s.slotPitch);
    auto *outBufs = reinterpret_cast<uint8_t *>(table + s.streamRows);
    const int64_t rows = p.dst.shape[cvk::kN] * m.y.dst;
    for (int64_t band = 0; band < s.bands; ++band)
        for (int32_t strip = 0; strip < s.strips; ++strip) {
            const AreaBlock b = areaBlock(m, s, CT, rows, strip, band);
            REQUIRE(b.length <= s.streamRows);
            AreaStream issue = areaStream(b);
            auto issueRow = [&](int64_t k) {
                if (k >= b.length) return;
                for (int tid = 0; tid < nthreads; ++tid) areaIssue(p, b, issue, slots + (k % S) * s.slotPitch, tid, nthreads);
                areaAdvance(issue, b);
            };
            for (int64_t k = 0; k <= A; ++k) issueRow(k);
            std::vector<AreaColumn<CT, K>> cols;
            std::vector<AreaSums<CT>> sums;
            for (int tid = 0; tid < nthreads; ++tid) {
                areaRowTable(p, m, b, table, tid, nthreads);
                cols.push_back(areaColumn<CT, K>(m, s, b, tid));
                sums.push_back(areaSums<CT>(m, b));
            }
            for (int64_t k = 0; k < b.length; ++k) {
                issueRow(k + A + 1);
                for (int tid = 0; tid < nthreads; ++tid) { // thread by thread: later threads write out after earlier ones computed
                    if (k > 0) areaFlush<CT>(p, m, b, sums[size_t(tid)], table[k - 1], k - 1, outBufs, s.outPitch, tid, nthreads);
                    areaProcess<CT, K>(m, b, table[k], cols[size_t(tid)], sums[size_t(tid)], slots + (k % S) * s.slotPitch, k, outBufs, s.outPitch);
                }
            }
            for (int tid = 0; b.length > 0 && tid < nthreads; ++tid)
                areaFlush<CT>(p, m, b, sums[size_t(tid)], table[b.length - 1], b.length - 1, outBufs, s.outPitch, tid, nthreads);
        }
}

template <int CT> void runBlocksFor(int32_t taps, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s) {
    switch (taps) {
    case 3: runBlocks<CT, 3>(p, m, s); break;
    case 4: runBlocks<CT, 4>(p, m, s); break;
    case 6: runBlocks<CT, 6>(p, m, s); break;
    case 10: runBlocks<CT, 10>(p, m, s); break;
    default: runBlocks<CT, 16>(p, m, s); break;
    }
}

} // namespace

TEST_CASE("AREA row path: every block equals the per-pixel sampler byte for byte", "[resize][area][cpu]") {
    const std::vector<BlockRow> rows = {
        {"the benchmark row (1080x1920 -> 224x224, two images)", 2, 1080, 1920, 3, 224, 224, 0, 0, 0, 0},
        {"the integer box by 4 (1080x1920 -> 270x480)", 2, 1080, 1920, 3, 270, 480, 0, 0, 0, 0},
        {"1.5 down (1080x1920 -> 720x1280)", 1, 1080, 1920, 3, 720, 1280, 0, 0, 0, 0},
        {"1 channel -> 224x224, rows padded by 3 bytes, start 1 byte off", 2, 1080, 1920, 1, 224, 224, 3, 1, 0, 0},
        {"4 channels 534x800 -> 224x224, rows padded by 8 bytes", 2, 534, 800, 4, 224, 224, 8, 0, 0, 0},
        {"4 channels -> 224x224 start 2 bytes off (word stores unaligned)", 1, 540, 960, 4, 112, 112, 2, 2, 0, 0},
        {"1 channel 960x1280 -> 225x300", 2, 960, 1280, 1, 225, 300, 0, 0, 0, 0},
        {"odd sizes, rows padded by 1 byte, start 3 bytes off", 3, 37, 53, 3, 11, 7, 1, 3, 0, 0},
        {"integer box 3 x 4, 4 channels", 2, 96, 64, 4, 32, 16, 0, 0, 0, 0},
        {"integer box 2, 1 channel, odd width", 2, 70, 66, 1, 35, 33, 0, 0, 0, 0},
        {"same size (box of 1)", 2, 19, 23, 3, 19, 23, 0, 0, 0, 0},
        {"tall cells: 1000x50 -> 10x25", 2, 1000, 50, 3, 10, 25, 0, 0, 0, 0},
        {"16 taps across: 40x1920 -> 9x120", 2, 40, 1920, 3, 9, 120, 0, 0, 0, 0},
        {"bands of 7 rows crossing images (13x17 -> 5x6)", 5, 13, 17, 3, 5, 6, 0, 0, 0, 7},
        {"bands of 3 rows, 3 warps, two strips", 3, 50, 400, 3, 11, 90, 4, 0, 1, 3},
        {"one destination row per band", 2, 61, 77, 4, 9, 10, 0, 0, 0, 1},
    };
    std::mt19937 rng(11);
    for (const BlockRow &r : rows) {
        INFO(r.what);
        AreaImages im(rng, r.n, r.h, r.w, r.c, r.oh, r.ow, r.rowPad, r.offset);
        const cvk::ResizeParams &p = im.p;
        std::vector<uint8_t> &dst = im.dst;
        cvk::ResizeAreaShape s{};
        REQUIRE(cvk::planResizeArea(p, s, r.warps));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        setBands(s, m, int64_t(r.n) * r.oh, r.bandRows);
        s.smemBytes = areaSmemBytes(kAreaSlots<kAreaAhead>, s.slotPitch, s.streamRows, s.outPitch);
        const std::vector<uint8_t> want = cvtest::samplerBytes<uint8_t, kArea>(p, m, size_t(r.n) * r.oh * r.ow * r.c, 0xA5);
        const int32_t taps = kAreaTaps[s.taps];
        if (r.c == 1) runBlocksFor<1>(taps, p, m, s);
        if (r.c == 3) runBlocksFor<3>(taps, p, m, s);
        if (r.c == 4) runBlocksFor<4>(taps, p, m, s);
        cvtest::checkAgainstSampler(dst.data(), dst.size(), 16, want, int64_t(r.ow) * r.c, "area path", 0xA5);
    }
}

TEST_CASE("areaMaxStream bounds every band's source rows", "[resize][area][cpu]") {
    struct Axes {
        int32_t src, dst;
    };
    const std::vector<Axes> axes = {{1080, 224}, {1080, 720}, {1080, 270}, {13, 5}, {1000, 10}, {19, 19}, {61, 9}, {534, 224}, {1081, 1080}};
    for (const Axes &a : axes)
        for (int64_t bandRows : {1, 2, 3, 7, 11, 14, 64, 300}) {
            INFO(a.src << " -> " << a.dst << " rows, bands of " << bandRows);
            const auto p = params(nhwc(kAligned, 4, a.src, 64, 3), nhwc(kAligned, 4, a.dst, 16, 3), kArea);
            const Mapping m = mappingOf(p.src, a.dst, 16, kArea);
            cvk::ResizeAreaShape s{};
            s.warps = 1;
            s.bandRows = bandRows;
            s.lastRow = areaRun(m, m.y, a.dst - 1).last;
            const int64_t rows = 4 * int64_t(a.dst), bands = (rows + bandRows - 1) / bandRows;
            for (int64_t band = 0; band < bands; ++band) CHECK(areaBlock(m, s, 3, rows, 0, band).length <= areaMaxStream(m.y, bandRows));
        }
}

TEST_CASE("planResizeAreaWarp: warps of 32 P columns, bands, shared memory", "[resize][dispatch]") {
    struct Row {
        const char *what;
        cvk::ResizeParams p;
        int32_t perLane; // 0: the plan's
        bool takes;
        int32_t warps, strips; // checked when takes
    };
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const std::vector<Row> rows = {
        {"bench: -> 224x224, 1 column a lane: 7 warps", params(src, nhwc(kAligned, 32, 224, 224, 3), kArea), 1, true, 7, 1},
        {"bench: -> 224x224, 2 columns a lane: 4 warps, the last half full", params(src, nhwc(kAligned, 32, 224, 224, 3), kArea), 2, true, 4, 1},
        {"-> 270x480, 2 columns a lane: 8 warps", params(src, nhwc(kAligned, 32, 270, 480, 3), kArea), 2, true, 8, 1},
        {"-> 720x1280, 1 column a lane: 8 warps, 5 strips", params(src, nhwc(kAligned, 32, 720, 1280, 3), kArea), 1, true, 8, 5},
        {"4 channels -> 224x224, 1 column a lane: 7 warps within 48 KiB (48576 bytes)",
         params(nhwc(kAligned, 32, 1080, 1920, 4), nhwc(kAligned, 32, 224, 224, 4), kArea), 1, true, 7, 1},
        {"7x5 from 64x70: one warp", params(nhwc(kAligned, 3, 64, 70, 3), nhwc(kAligned, 3, 7, 5, 3), kArea), 0, true, 1, 1},
        {"3 columns a lane", params(src, nhwc(kAligned, 32, 224, 224, 3), kArea), 3, false, 0, 0},
        {"what planResizeArea declines (1x1)", params(src, nhwc(kAligned, 32, 1, 1, 3), kArea), 0, false, 0, 0},
        {"LINEAR", params(src, nhwc(kAligned, 32, 224, 224, 3), kLinear), 0, false, 0, 0},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        cvk::ResizeAreaShape s{};
        REQUIRE(cvk::planResizeAreaWarp(r.p, s, r.perLane) == r.takes);
        if (!r.takes) continue;
        const Mapping m = mappingOf(r.p.src, r.p.dst.shape[cvk::kH], r.p.dst.shape[cvk::kW], r.p.interp);
        if (r.perLane > 0) CHECK(s.perLane == r.perLane);
        CHECK(s.perLane >= 1);
        CHECK(s.warps == r.warps);
        CHECK(s.strips == r.strips);
        const int32_t cols = 32 * s.perLane;
        CHECK(int64_t(s.strips) * cols * s.warps >= m.x.dst);
        CHECK(int64_t(s.strips - 1) * cols * s.warps < m.x.dst);
        CHECK(s.slotPitch % 16 == 0);
        CHECK(s.slotPitch == areaMaxPitch(m, int32_t(r.p.src.shape[cvk::kC]), kAreaTaps[s.taps], cols));
        CHECK(s.smemBytes <= kAreaSmemLimit);
        CHECK(s.streamRows == areaMaxStream(m.y, s.bandRows));
        CHECK(s.streamRows <= kAreaMaxStreamRows);
        const int64_t rowsTotal = r.p.dst.shape[cvk::kN] * m.y.dst;
        CHECK(s.bands * s.bandRows >= rowsTotal);
        CHECK((s.bands - 1) * s.bandRows < rowsTotal);
    }
}

namespace {

// Every warp of every block the way the warp kernel runs it, into p.dst: the band's table, then per warp its rows
// in order, row k copied into slot k % A (the bulk range with memcpy, the other span bytes one by one, the rest of
// the slot left holding what it held) only after row k - A in that slot was summed by every lane.
// Returns the rows staged by interior warps (areaWarpInterior's one bulk copy).
template <int CT, int K, int P> int64_t runWarps(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s, int A) {
    const int nthreads = 32 * s.warps;
    int64_t interiorRows = 0;
    std::vector<uint4> smem(size_t(s.streamRows) + size_t(A * s.slotPitch) / 16 + 1);
    auto *table = reinterpret_cast<AreaRowEntry *>(smem.data());
    auto *ring = reinterpret_cast<uint8_t *>(table + s.streamRows);
    std::memset(ring, 0x5A, size_t(A * s.slotPitch)); // stale bytes: the sums must never weigh them
    cvk::ResizeAreaShape strip = s;
    strip.warps = s.warps * P;
    const int64_t rows = p.dst.shape[cvk::kN] * m.y.dst;
    const int32_t rowBytes = m.x.src * CT;
    for (int64_t band = 0; band < s.bands; ++band)
        for (int32_t x = 0; x < s.strips; ++x) {
            const AreaBlock b = areaBlock(m, strip, CT, rows, x, band);
            REQUIRE(b.length <= s.streamRows);
            for (int tid = 0; tid < nthreads; ++tid) areaRowTable(p, m, b, table, tid, nthreads);
            for (int warp = 0; warp < s.warps; ++warp) {
                const AreaWarp g = areaWarp(m, b, CT, 32 * P, warp);
                if (g.w <= 0) continue;
                std::vector<AreaLane<CT, K, P>> lanes;
                for (int lane = 0; lane < 32; ++lane) lanes.push_back(areaLane<CT, K, P>(m, b, g, lane));
                AreaStream issue = areaStream(b);
                const uint8_t *row = areaRowAt(p, issue);
                auto stage = [&](int64_t k) {
                    uint8_t *slot = ring + (k % A) * s.slotPitch;
                    const AreaWarpCopy c = areaWarpCopy(row, rowBytes, g.span);
                    REQUIRE(16 * c.chunks <= s.slotPitch);
                    if (g.interior) { // the kernel's one bulk copy: the same bytes as every chunk of areaWarpCopy's
                        const AreaWarpChunks whole = areaWarpInterior(row, g.span);
                        REQUIRE(c.c0 == 0);
                        REQUIRE(c.c1 == c.chunks);
                        REQUIRE(whole.base == c.base);
                        REQUIRE(whole.bytes == uint32_t(16 * c.chunks));
                        std::memcpy(slot, whole.base, whole.bytes);
                        ++interiorRows;
                    } else {
                        std::memcpy(slot + 16 * c.c0, c.base + 16 * c.c0, size_t(16 * (c.c1 - c.c0)));
                        for (int32_t j = c.lo; j < c.hi; ++j)
                            if (areaWarpByteCopied(c, j)) slot[j] = c.base[j];
                    }
                    areaStep(p, b, issue, row);
                };
                for (int64_t k = 0; k < A && k < b.length; ++k) stage(k);
                for (int64_t k = 0; k < b.length; ++k) {
                    for (auto &l : lanes) areaLaneRow<CT, K, P>(p, m, g, table[k], ring + (k % A) * s.slotPitch, l);
                    if (k + A < b.length) stage(k + A);
                }
            }
        }
    return interiorRows;
}

template <int CT, int P> int64_t runWarpsFor(int32_t taps, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s, int A) {
    switch (taps) {
    case 3: return runWarps<CT, 3, P>(p, m, s, A);
    case 4: return runWarps<CT, 4, P>(p, m, s, A);
    case 6: return runWarps<CT, 6, P>(p, m, s, A);
    case 10: return runWarps<CT, 10, P>(p, m, s, A);
    default: return runWarps<CT, 16, P>(p, m, s, A);
    }
}

} // namespace

TEST_CASE("AREA warp kernel: every warp equals the per-pixel sampler byte for byte", "[resize][area][cpu]") {
    struct Row {
        const char *what;
        int32_t n, h, w, c, oh, ow;
        int64_t rowPad, offset;
        int32_t perLane, ahead;
        int64_t bandRows; // 0: the plan's
        bool interior;    // some warp is an interior one (areaWarpInterior)
    };
    const std::vector<Row> rows = {
        {"the benchmark row, 1 column a lane", 2, 1080, 1920, 3, 224, 224, 0, 0, 1, 8, 0, true},
        {"the benchmark row, 2 columns a lane (a half warp)", 2, 1080, 1920, 3, 224, 224, 0, 0, 2, 6, 0, true},
        {"the integer box by 4, 2 columns a lane", 1, 1080, 1920, 3, 270, 480, 0, 0, 2, 6, 0, true},
        {"1.5 down, 1 channel", 1, 540, 960, 1, 360, 640, 0, 0, 1, 8, 0, true},
        {"rows padded by 5 bytes, start 1 byte off: byte copies at both row ends", 3, 107, 191, 3, 23, 21, 5, 1, 1, 8, 0, false},
        {"4 channels, start 4 bytes off, 2 columns a lane", 2, 540, 960, 4, 112, 112, 0, 4, 2, 6, 0, false},
        {"odd sizes, start 3 bytes off, bands of 3 rows crossing images", 5, 37, 53, 3, 11, 7, 1, 3, 1, 8, 3, false},
        {"one destination row a band, 2 rows in flight", 2, 61, 77, 4, 9, 10, 0, 0, 1, 2, 1, false},
        {"16 taps across, 2 columns a lane", 2, 40, 1920, 3, 9, 120, 0, 0, 2, 6, 0, false},
        {"an interior warp between two edge ones, rows 7 bytes off 16", 2, 30, 300, 3, 10, 96, 7, 7, 1, 4, 0, true},
    };
    std::mt19937 rng(12);
    for (const Row &r : rows) {
        INFO(r.what);
        AreaImages im(rng, r.n, r.h, r.w, r.c, r.oh, r.ow, r.rowPad, r.offset);
        const cvk::ResizeParams &p = im.p;
        std::vector<uint8_t> &dst = im.dst;
        cvk::ResizeAreaShape s{};
        REQUIRE(cvk::planResizeAreaWarp(p, s, r.perLane));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        setBands(s, m, int64_t(r.n) * r.oh, r.bandRows);
        const std::vector<uint8_t> want = cvtest::samplerBytes<uint8_t, kArea>(p, m, size_t(r.n) * r.oh * r.ow * r.c, 0xA5);
        const int32_t taps = kAreaTaps[s.taps];
        int64_t interiorRows = 0;
        if (r.perLane == 1) {
            if (r.c == 1) interiorRows = runWarpsFor<1, 1>(taps, p, m, s, r.ahead);
            if (r.c == 3) interiorRows = runWarpsFor<3, 1>(taps, p, m, s, r.ahead);
            if (r.c == 4) interiorRows = runWarpsFor<4, 1>(taps, p, m, s, r.ahead);
        } else {
            if (r.c == 1) interiorRows = runWarpsFor<1, 2>(taps, p, m, s, r.ahead);
            if (r.c == 3) interiorRows = runWarpsFor<3, 2>(taps, p, m, s, r.ahead);
            if (r.c == 4) interiorRows = runWarpsFor<4, 2>(taps, p, m, s, r.ahead);
        }
        CHECK((interiorRows > 0) == r.interior);
        cvtest::checkAgainstSampler(dst.data(), dst.size(), 16, want, int64_t(r.ow) * r.c, "area warp kernel", 0xA5);
    }
}

namespace {

// Every block the way the ring kernel runs it, into p.dst: the band's table, then row by row every thread's
// areaRingRow, row k copied into slot k % A (the span's bytes outside whole chunks one by one, the chunks inside the
// row with memcpy, the rest of the slot left holding what it held) before row k is summed and only after every warp
// summed row k - A: the latest the ring's done count allows the slot's refill, and the earliest.
template <int CT, int K> void runRing(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s, int A) {
    const int nthreads = 32 * s.warps;
    std::vector<uint4> smem(size_t(s.streamRows) + size_t(A * s.slotPitch) / 16 + 1);
    auto *table = reinterpret_cast<AreaRowEntry *>(smem.data());
    auto *ring = reinterpret_cast<uint8_t *>(table + s.streamRows);
    std::memset(ring, 0x5A, size_t(A * s.slotPitch)); // stale bytes: the sums must never weigh them
    const int64_t rows = p.dst.shape[cvk::kN] * m.y.dst;
    const int32_t rowBytes = m.x.src * CT;
    for (int64_t band = 0; band < s.bands; ++band)
        for (int32_t x = 0; x < s.strips; ++x) {
            const AreaBlock b = areaBlock(m, s, CT, rows, x, band);
            REQUIRE(b.length <= s.streamRows);
            for (int tid = 0; tid < nthreads; ++tid) areaRowTable(p, m, b, table, tid, nthreads);
            std::vector<AreaColumn<CT, K>> cols;
            std::vector<AreaSums<CT>> sums;
            for (int tid = 0; tid < nthreads; ++tid) {
                cols.push_back(areaColumn<CT, K>(m, s, b, tid));
                sums.push_back(areaSums<CT>(m, b));
            }
            AreaStream issue = areaStream(b);
            const uint8_t *row = areaRowAt(p, issue);
            auto stage = [&](int64_t k) {
                uint8_t *slot = ring + (k % A) * s.slotPitch;
                const AreaWarpCopy c = areaWarpCopy(row, rowBytes, b.span);
                REQUIRE(16 * c.chunks <= s.slotPitch);
                for (int32_t j = c.lo; j < c.hi; ++j)
                    if (areaWarpByteCopied(c, j)) slot[j] = c.base[j];
                std::memcpy(slot + 16 * c.c0, c.base + 16 * c.c0, size_t(16 * (c.c1 - c.c0)));
                areaStep(p, b, issue, row);
            };
            for (int64_t k = 0; k < A && k < b.length; ++k) stage(k);
            for (int64_t k = 0; k < b.length; ++k) {
                for (int tid = 0; tid < nthreads; ++tid) areaRingRow<CT, K>(p, m, table[k], ring + (k % A) * s.slotPitch, cols[size_t(tid)], sums[size_t(tid)]);
                if (k + A < b.length) stage(k + A);
            }
        }
}

template <int CT> void runRingFor(int32_t taps, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeAreaShape &s, int A) {
    switch (taps) {
    case 3: return runRing<CT, 3>(p, m, s, A);
    case 4: return runRing<CT, 4>(p, m, s, A);
    case 6: return runRing<CT, 6>(p, m, s, A);
    case 10: return runRing<CT, 10>(p, m, s, A);
    default: return runRing<CT, 16>(p, m, s, A);
    }
}

} // namespace

TEST_CASE("planResizeAreaRing: the block's geometry, bands of one resident block, the default shared memory", "[resize][dispatch]") {
    // takes: every row here (a block whose A slots pass 48 KiB is declined); preferred: what launchResize runs
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    struct Row {
        const char *what;
        cvk::ResizeParams p;
        bool takes, preferred;
    };
    const std::vector<Row> rows = {
        {"bench: -> 224x224 (10 taps, 7 warps)", params(src, nhwc(kAligned, 32, 224, 224, 3), kArea), true, true},
        {"1 channel -> 224x224", params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 224, 224, 1), kArea), true, true},
        {"-> 270x480 (integer box, 4 taps: the warp kernel's 2 columns a lane)", params(src, nhwc(kAligned, 32, 270, 480, 3), kArea), true, false},
        {"-> 720x1280, 5 strips (3 taps)", params(src, nhwc(kAligned, 32, 720, 1280, 3), kArea), true, false},
        {"4 channels -> 224x224 (1 warp a block)", params(nhwc(kAligned, 32, 1080, 1920, 4), nhwc(kAligned, 32, 224, 224, 4), kArea), true, false},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        cvk::ResizeAreaShape block{}, s{};
        REQUIRE(cvk::planResizeArea(r.p, block));
        REQUIRE(cvk::planResizeAreaRing(r.p, block, s) == r.takes);
        if (!r.takes) continue;
        CHECK(cvk::resizeAreaRingPreferred(block) == r.preferred);
        CHECK(cvk::resizeAreaRingPreferred(s) == r.preferred);
        const Mapping m = mappingOf(r.p.src, r.p.dst.shape[cvk::kH], r.p.dst.shape[cvk::kW], r.p.interp);
        CHECK(s.ring == 1);
        CHECK(s.perLane == 0);
        CHECK(s.warps == block.warps);
        CHECK(s.strips == block.strips);
        CHECK(s.taps == block.taps);
        CHECK(s.slotPitch == block.slotPitch);
        CHECK(s.smemBytes <= kAreaSmemLimit);
        CHECK(s.streamRows == areaMaxStream(m.y, s.bandRows));
        CHECK(s.streamRows <= kAreaMaxStreamRows);
        const int64_t rowsTotal = r.p.dst.shape[cvk::kN] * m.y.dst;
        CHECK(s.bands * s.bandRows >= rowsTotal);
        CHECK((s.bands - 1) * s.bandRows < rowsTotal);
    }
    // A block of 7 warps over 4 channels at 9.3 to 1: slots of about 8.4 KiB, which the block kernel's 5 fit in 48 KiB
    // and the ring's 6 do not, so launchResize keeps the warp or block kernel there.
    const auto wide = params(nhwc(kAligned, 2, 90, 2080, 4), nhwc(kAligned, 2, 10, 224, 4), kArea);
    cvk::ResizeAreaShape block{}, s{};
    REQUIRE(cvk::planResizeArea(wide, block, 7));
    CHECK(6 * block.slotPitch > kAreaSmemLimit - 16 * block.streamRows);
    CHECK_FALSE(cvk::planResizeAreaRing(wide, block, s));
}

TEST_CASE("AREA ring kernel: every block equals the per-pixel sampler byte for byte", "[resize][area][cpu]") {
    struct Row {
        const char *what;
        int32_t n, h, w, c, oh, ow;
        int64_t rowPad, offset;
        int32_t ahead;
        int64_t bandRows; // 0: the plan's
    };
    const std::vector<Row> rows = {
        {"the benchmark row", 2, 1080, 1920, 3, 224, 224, 0, 0, 6, 0},
        {"the integer box by 4", 1, 1080, 1920, 3, 270, 480, 0, 0, 6, 0},
        {"1.5 down, 1 channel, several strips", 1, 540, 960, 1, 360, 640, 0, 0, 4, 0},
        {"rows padded by 5 bytes, start 1 byte off: byte copies at both row ends", 3, 107, 191, 3, 23, 21, 5, 1, 6, 0},
        {"4 channels, start 4 bytes off", 2, 540, 960, 4, 112, 112, 0, 4, 6, 0},
        {"odd sizes, start 3 bytes off, bands of 3 rows crossing images", 5, 37, 53, 3, 11, 7, 1, 3, 6, 3},
        {"one destination row a band, 2 rows in flight", 2, 61, 77, 4, 9, 10, 0, 0, 2, 1},
        {"16 taps across", 2, 40, 1920, 3, 9, 120, 0, 0, 8, 0},
        {"x 5.33 across: runs of 6 taps in a kernel of 10, summed first", 2, 30, 1920, 3, 10, 360, 0, 0, 6, 0},
        {"x 5 across, 3.6 down: a kernel of 6 weighing tap by tap", 2, 36, 1920, 3, 10, 384, 0, 0, 6, 0},
        {"x 1.5 across and down: weighed tap by tap", 2, 540, 960, 3, 360, 640, 0, 0, 6, 0},
    };
    std::mt19937 rng(13);
    for (const Row &r : rows) {
        INFO(r.what);
        AreaImages im(rng, r.n, r.h, r.w, r.c, r.oh, r.ow, r.rowPad, r.offset);
        const cvk::ResizeParams &p = im.p;
        cvk::ResizeAreaShape block{}, s{};
        REQUIRE(cvk::planResizeArea(p, block));
        REQUIRE(cvk::planResizeAreaRing(p, block, s));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        setBands(s, m, int64_t(r.n) * r.oh, r.bandRows);
        const std::vector<uint8_t> want = cvtest::samplerBytes<uint8_t, kArea>(p, m, size_t(r.n) * r.oh * r.ow * r.c, 0xA5);
        const int32_t taps = kAreaTaps[s.taps];
        if (r.c == 1) runRingFor<1>(taps, p, m, s, r.ahead);
        if (r.c == 3) runRingFor<3>(taps, p, m, s, r.ahead);
        if (r.c == 4) runRingFor<4>(taps, p, m, s, r.ahead);
        cvtest::checkAgainstSampler(im.dst.data(), im.dst.size(), 16, want, int64_t(r.ow) * r.c, "area ring kernel", 0xA5);
    }
}
