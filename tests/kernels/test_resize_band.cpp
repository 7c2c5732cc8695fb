// cvResize's band path on the CPU, no GPU: which shapes take it (cvk::planResizeBand, the benchmark's among them),
// how the batch's rows are cut into bands (cvk::setResizeBands), and whole blocks run phase by phase for every
// thread (the same __host__ __device__ functions the kernel runs), compared byte for byte with the per-pixel sampler
// on random images, with the destination's padding checked untouched. The emulation computes each row only after
// every thread has issued the loads of the rows after it, the latest order the kernel's one barrier per row allows,
// so a ring slot reused too early shows as wrong bytes.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_band.cuh"
#include "resize_views.hpp"

#include <algorithm>
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
    bool band;
    int32_t stripW, strips, threads; // checked when band
};

} // namespace

TEST_CASE("planResizeBand: the benchmark's rows and what stays on the other paths", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to224 = nhwc(kAligned, 32, 224, 224, 3), to720 = nhwc(kAligned, 32, 720, 1280, 3);
    auto unaligned = src;
    unaligned.data += 1;
    auto strided = src; // pixels 4 bytes apart, 3 channels
    strided.stride[cvk::kW] = 4;
    strided.stride[cvk::kH] = 1920 * 4;
    auto planar = src;
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, to720, -1);
    torch.torchMode = kTvLinear;
    auto f32 = params(nhwc(kAligned, 2, 100, 1000, 4), nhwc(kAligned, 2, 50, 700, 4), kNearest);
    f32.type = cvk::kResizeF32;
    const std::vector<PlanRow> rows = {
        {"bench: NEAREST -> 720x1280 (one strip, ring of 5 rows)", params(src, to720, kNearest), true, 1280, 1, 160},
        {"bench: NEAREST_FLOOR -> 720x1280", params(src, to720, kNearestFloor), true, 1280, 1, 160},
        {"bench: LINEAR -> 720x1280 (ring of 8 rows: two strips)", params(src, to720, kLinear), true, 640, 2, 96},
        {"bench: LINEAR -> 224x224 (factor 8.6 across, 26 bytes a pixel apart)", params(src, to224, kLinear), true, 112, 2, 32},
        {"bench: NEAREST -> 224x224", params(src, to224, kNearest), true, 224, 1, 32},
        {"NEAREST, source not aligned", params(unaligned, to720, kNearest), true, 1280, 1, 160},
        {"LINEAR, source not aligned", params(unaligned, to720, kLinear), true, 640, 2, 96},
        {"LINEAR 2 channels", params(nhwc(kAligned, 2, 100, 100, 2), nhwc(kAligned, 2, 77, 61, 2), kLinear), true, 61, 1, 32},
        {"LINEAR enlarging 1x1 -> 7x5", params(nhwc(kAligned, 2, 1, 1, 3), nhwc(kAligned, 2, 7, 5, 3), kLinear), true, 5, 1, 32},
        {"LINEAR 4 channels, factor 8.6 across (34 bytes a pixel apart: the row path's sampler)", params(nhwc(kAligned, 2, 10, 1920, 4), nhwc(kAligned, 2, 10, 224, 4), kLinear), false, 0, 0, 0},
        {"NEAREST float32 (the row path's gather)", f32, false, 0, 0, 0},
        {"CUBIC", params(src, to720, kCubic), false, 0, 0, 0},
        {"AREA", params(src, to224, kArea), false, 0, 0, 0},
        {"5 channels", params(nhwc(kAligned, 2, 10, 10, 5), nhwc(kAligned, 2, 7, 7, 5), kNearest), false, 0, 0, 0},
        {"pixels not packed", params(strided, to720, kNearest), false, 0, 0, 0},
        {"planar channels", params(planar, to720, kLinear), false, 0, 0, 0},
        {"torchvision modes", torch, false, 0, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeBandShape s{};
        const bool taken = cvk::planResizeBand(r.p, s);
        REQUIRE(taken == r.band);
        if (!taken) continue;
        CHECK(s.stripW == r.stripW);
        CHECK(s.strips == r.strips);
        CHECK(s.threads == r.threads);
        CHECK(s.smemBytes <= kBandSmemLimit);
        if (s.strips > 1) CHECK(s.stripW % kBandPixels == 0);
    }
}

TEST_CASE("setResizeBands: one band per block, every row in exactly one band", "[resize][band][cpu]") {
    struct BandsRow {
        int64_t rows, blocks, bandRows, bands;
    };
    const std::vector<BandsRow> rows = {{23040, 792, 30, 768}, {23040, 23040, 1, 23040}, {5, 100, 1, 5},
                                        {7, 3, 3, 3}, {1, 1, 1, 1}, {100, 1, 100, 1}, {10000000, 1000000, 153, 65360}}; // the grid's 65535 rows at most
    for (const BandsRow &r : rows) {
        INFO("rows " << r.rows << ", blocks " << r.blocks);
        cvk::ResizeBandShape s{};
        cvk::setResizeBands(s, r.rows, r.blocks);
        CHECK(s.bandRows == r.bandRows);
        CHECK(s.bands == r.bands);
        CHECK(s.bands <= std::min<int64_t>(r.blocks, 65535));
        CHECK((s.bands - 1) * s.bandRows < r.rows);
        CHECK(s.bands * s.bandRows >= r.rows);
    }
}

namespace {

struct BlockRow {
    const char *what;
    int32_t n, h, w, c, oh, ow, interp;
    int64_t srcPad, dstPad;       // bytes after each row
    int64_t srcShift, dstShift;   // bytes each starts past a 16-byte aligned address
    int64_t blocks;               // blocks per strip the bands are cut for
};

// Every block of the band kernel (bandKernel in resize_band.cu): per strip the table, then per band its rows, each
// computed after the loads of the next kBandAhead<I> + 1 rows are issued (the kernel's worst case).
template <int I, int CT> void runBand(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeBandShape &s) {
    std::vector<int4> smem(size_t(s.smemBytes) / 16 + 1);
    auto *slots = reinterpret_cast<uint8_t *>(smem.data());
    auto *table = reinterpret_cast<BandEntry<I> *>(slots + kBandSlots<I> * s.slotPitch);
    REQUIRE(kBandSlots<I> * s.slotPitch + bandTableBytes<I>(s.stripW) == s.smemBytes);
    const int nthreads = s.threads;
    const int64_t rows = p.dst.shape[cvk::kN] * m.y.dst;
    constexpr int D = kBandAhead<I>;
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        bandStripOf(s, m.x.dst, strip, x0, w);
        const BandSpan span = bandSpan<I>(m, CT, x0, w);
        REQUIRE(bandSlotPitch(span.b1 - span.b0) <= s.slotPitch);
        for (int tid = 0; tid < nthreads; ++tid) bandTable<I>(m, CT, x0, w, span, table, tid, nthreads);
        for (int64_t band = 0; band < s.bands; ++band) {
            int64_t first, end;
            bandRowsOf(s, rows, band, first, end);
            BandRing ring = bandRing(first, m.y.dst);
            std::vector<BandRow<I>> issued(size_t(end - first));
            auto issue = [&](int64_t key) { // every thread's copy of the ring steps the same way
                const BandRing before = ring;
                for (int tid = 0; tid < nthreads; ++tid) {
                    ring = before;
                    issued[size_t(key - first)] = bandIssue<I>(p, m, span, x0, ring, slots, s.slotPitch, tid, nthreads);
                }
            };
            auto compute = [&](int64_t key) {
                for (int tid = 0; tid < nthreads; ++tid)
                    bandCompute<I, CT>(table, slots, s.slotPitch, issued[size_t(key - first)], w, tid, nthreads);
            };
            for (int64_t key = first; key < first + D && key < end; ++key) issue(key);
            for (int64_t cur = first; cur < end; ++cur) {
                if (cur + D < end) issue(cur + D);
                if (cur > first) compute(cur - 1);
            }
            compute(end - 1);
        }
    }
}

template <int I> void runBandFor(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeBandShape &s) {
    if (c == 1) runBand<I, 1>(p, m, s);
    if (c == 2) runBand<I, 2>(p, m, s);
    if (c == 3) runBand<I, 3>(p, m, s);
    if (c == 4) runBand<I, 4>(p, m, s);
}

} // namespace

TEST_CASE("band path: every block equals the per-pixel sampler byte for byte", "[resize][band][cpu]") {
    const std::vector<BlockRow> rows = {
        {"NEAREST 1.5x down (the 720p row, scaled), bands across images", 3, 108, 192, 3, 72, 128, kNearest, 0, 0, 0, 0, 7},
        {"NEAREST_FLOOR 1.5x down", 2, 108, 192, 3, 72, 128, kNearestFloor, 0, 0, 0, 0, 5},
        {"LINEAR 1.5x down (the 720p row, scaled)", 3, 108, 192, 3, 72, 128, kLinear, 0, 0, 0, 0, 7},
        {"LINEAR 1920 -> 1280 across (two strips), 9 rows -> 6", 2, 9, 1920, 3, 6, 1280, kLinear, 0, 0, 0, 0, 3},
        {"NEAREST 1920 -> 1280 across, 9 rows -> 6", 2, 9, 1920, 3, 6, 1280, kNearest, 0, 0, 0, 0, 4},
        {"LINEAR 1080 -> 224 across and down (factor 4.8 down, 8.6 across)", 1, 1080, 1920, 3, 224, 224, kLinear, 0, 0, 0, 0, 9},
        {"NEAREST 4.8x down, 8.6x across, 3 channels", 1, 270, 480, 3, 56, 56, kNearest, 0, 0, 0, 0, 3},
        {"LINEAR 2x down, 1 channel, rows padded by 3, source 5 bytes off", 2, 64, 130, 1, 32, 65, kLinear, 3, 0, 5, 0, 4},
        {"LINEAR 1.333x down, 2 channels, odd widths, unaligned destination", 2, 40, 101, 2, 30, 75, kLinear, 1, 2, 7, 3, 5},
        {"LINEAR 4 channels, 1.333x down, source 12 bytes off, padded rows", 2, 41, 97, 4, 31, 73, kLinear, 4, 4, 12, 0, 6},
        {"LINEAR 3 channels, source 1 byte off, rows padded by 1", 2, 33, 77, 3, 22, 51, kLinear, 1, 5, 1, 1, 3},
        {"LINEAR enlarging 13x7 -> 40x33", 2, 13, 7, 3, 40, 33, kLinear, 0, 0, 3, 0, 5},
        {"LINEAR enlarging 1x1 -> 7x5, 3 channels", 2, 1, 1, 3, 7, 5, kLinear, 0, 0, 0, 1, 3},
        {"LINEAR 1x1 -> 1x1, 4 channels", 2, 1, 1, 4, 1, 1, kLinear, 0, 0, 0, 0, 1},
        {"LINEAR tall: 2000 rows -> 3 (factor 667 down)", 2, 2000, 8, 3, 3, 8, kLinear, 0, 0, 0, 0, 2},
        {"LINEAR same size, 1 channel", 2, 19, 23, 1, 19, 23, kLinear, 0, 0, 2, 2, 4},
        {"LINEAR 4001 wide enlarging to 5003 (several strips), 1 channel", 1, 3, 4001, 1, 5, 5003, kLinear, 0, 0, 0, 0, 2},
        {"NEAREST 1280 -> 300 and 960 -> 225 (ties on pixel edges)", 1, 96, 1280, 3, 225, 300, kNearest, 0, 0, 0, 0, 11},
        {"NEAREST enlarging 1x1 -> 7x5, unaligned destination", 2, 1, 1, 3, 7, 5, kNearest, 0, 0, 0, 1, 3},
        {"NEAREST 3000 wide (several strips), padded rows", 1, 4, 3000, 3, 5, 2999, kNearest, 5, 3, 9, 0, 2},
        {"NEAREST to 1x1, 1 channel", 2, 50, 30, 1, 1, 1, kNearest, 0, 0, 0, 0, 1},
        {"NEAREST 1 channel, odd sizes, unaligned both", 2, 37, 53, 1, 29, 71, kNearest, 1, 1, 3, 3, 4},
        {"NEAREST 2 channels", 2, 37, 53, 2, 40, 19, kNearest, 0, 2, 6, 0, 7},
        {"NEAREST_FLOOR odd sizes, 4 channels, unaligned both", 2, 37, 53, 4, 29, 71, kNearestFloor, 2, 1, 14, 2, 6},
        {"NEAREST_FLOOR enlarging", 2, 5, 9, 3, 13, 31, kNearestFloor, 0, 0, 0, 0, 5},
    };
    std::mt19937 rng(17);
    constexpr uint8_t kPoison = 0xA5;
    for (const BlockRow &r : rows) {
        INFO(r.what);
        const int64_t N = r.n;
        cvtest::BlockImages img(N, r.h, r.w, r.c, r.oh, r.ow, r.srcPad, r.dstPad, r.srcShift, r.dstShift, r.interp, rng, kPoison);
        const cvk::ResizeParams &p = img.p;
        cvk::ResizeBandShape s{};
        REQUIRE(cvk::planResizeBand(p, s));
        cvk::setResizeBands(s, N * r.oh, r.blocks);
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        const size_t bytes = img.outBytes();
        std::vector<uint8_t> want;
        if (r.interp == kNearest) want = cvtest::samplerBytes<uint8_t, kNearest>(p, m, bytes, kPoison), runBandFor<kNearest>(r.c, p, m, s);
        if (r.interp == kNearestFloor) want = cvtest::samplerBytes<uint8_t, kNearestFloor>(p, m, bytes, kPoison), runBandFor<kNearestFloor>(r.c, p, m, s);
        if (r.interp == kLinear) want = cvtest::samplerBytes<uint8_t, kLinear>(p, m, bytes, kPoison), runBandFor<kLinear>(r.c, p, m, s);
        img.check(want, "band path", kPoison);
    }
}
