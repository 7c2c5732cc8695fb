// cvResize's periodic LINEAR path on the CPU, no GPU: which shapes take it (cvk::planResizeLinear and the probe's
// planResizeLinearWith, the benchmark's among them), and whole blocks run phase by phase for every thread (the same
// __host__ __device__ functions the kernel runs: staging, then computing), compared byte for byte with the per-pixel
// sampler on random images, with the destination's padding checked untouched.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_linear.cuh"
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
    bool taken;
    int32_t period, stripW, strips, stagedRows, threads, depth; // checked when taken
};

} // namespace

TEST_CASE("planResizeLinear: the benchmark's rows and what stays on the other paths", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to720 = nhwc(kAligned, 32, 720, 1280, 3), to540 = nhwc(kAligned, 32, 540, 960, 3);
    auto unaligned = src;
    unaligned.data += 2;
    auto dstUnaligned = to720;
    dstUnaligned.data += 1;
    auto planar = src;
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, to720, -1);
    torch.torchMode = kTvLinear;
    const std::vector<PlanRow> rows = {
        {"bench: LINEAR -> 720x1280 (3:2 across, one strip, 6 staged rows a band of 4, one buffer)", params(src, to720, kLinear), true, 1, 1280, 1, 6, 320, 1},
        {"LINEAR -> 540x960 (2:1, 2 staged rows a band of 1, one buffer)", params(src, to540, kLinear), true, 0, 960, 1, 2, 128, 1},
        {"LINEAR 1 channel -> 720x1280", params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 720, 1280, 1), kLinear), true, 1, 1280, 1, 3, 160, 2},
        {"LINEAR 4 channels -> 720x1280 (8 pixels a thread)", params(nhwc(kAligned, 32, 1080, 1920, 4), nhwc(kAligned, 32, 720, 1280, 4), kLinear), true, 1, 1280, 1, 3, 256, 2},
        {"LINEAR, destination not aligned (stored bytewise)", params(src, dstUnaligned, kLinear), true, 1, 1280, 1, 6, 320, 1},
        {"LINEAR odd widths 129 -> 86, rows 37 -> 25 (source rows padded to 388 bytes)", params(nhwc(kAligned, 2, 37, 129, 3, 1), nhwc(kAligned, 2, 25, 86, 3), kLinear), true, 1, 88, 1, 7, 32, 1},
        {"LINEAR -> 224x224 (ratio 60:7 across)", params(src, nhwc(kAligned, 32, 224, 224, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR 1440 -> 1080 across (4:3, not compiled)", params(nhwc(kAligned, 2, 20, 1440, 3), nhwc(kAligned, 2, 15, 1080, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR 2.5x down", params(nhwc(kAligned, 2, 50, 1920, 3), nhwc(kAligned, 2, 20, 1280, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR enlarging down", params(nhwc(kAligned, 2, 20, 1920, 3), nhwc(kAligned, 2, 21, 1280, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR enlarging across", params(nhwc(kAligned, 2, 20, 640, 3), nhwc(kAligned, 2, 20, 960, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR 2 channels", params(nhwc(kAligned, 2, 20, 96, 2), nhwc(kAligned, 2, 10, 64, 2), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR, source not 4-byte aligned", params(unaligned, to720, kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR, source rows padded by 2 bytes", params(nhwc(kAligned, 2, 30, 96, 3, 2), nhwc(kAligned, 2, 20, 64, 3), kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR, planar channels", params(planar, to720, kLinear), false, 0, 0, 0, 0, 0, 0},
        {"LINEAR uint16", params(nhwc(kAligned, 2, 30, 96, 3, 0, 2), nhwc(kAligned, 2, 20, 64, 3, 0, 2), kLinear, cvk::kResizeU16), false, 0, 0, 0, 0, 0, 0},
        {"CUBIC", params(src, to720, kCubic), false, 0, 0, 0, 0, 0, 0},
        {"NEAREST", params(src, to720, kNearest), false, 0, 0, 0, 0, 0, 0},
        {"torchvision modes", torch, false, 0, 0, 0, 0, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeLinearShape s{};
        const bool taken = cvk::planResizeLinear(r.p, s);
        REQUIRE(taken == r.taken);
        if (!taken) continue;
        CHECK(s.period == r.period);
        CHECK(s.stripW == r.stripW);
        CHECK(s.strips == r.strips);
        CHECK(s.stagedRows == r.stagedRows);
        CHECK(s.threads == r.threads);
        CHECK(s.stripW % s.pixels == 0);
        CHECK(s.smemBytes <= kLinearSmemLimit);
        CHECK(s.pitch % 16 == 0);
        CHECK(s.depth == r.depth);
    }
    // the benchmark's phases: 1.5 * d + 0.25, fractions 1/4 and 3/4 (OpenCV's 11-bit weights 1536 / 512)
    cvk::ResizeLinearShape s{};
    REQUIRE(cvk::planResizeLinear(params(src, to720, kLinear), s));
    CHECK(s.wx[0] == (1536 | (512 << 16)));
    CHECK(s.wx[1] == (512 | (1536 << 16)));
    REQUIRE(cvk::planResizeLinear(params(src, to540, kLinear), s));
    CHECK(s.wx[0] == (1024 | (1024 << 16)));
    // the probe's variants: narrower strips, taller bands, more pixels a thread
    REQUIRE(cvk::planResizeLinearWith(params(src, to720, kLinear), 1, 4, 2, 1, 1, s));
    CHECK(s.pixels == 16);
    CHECK(s.stripW == 640);
    CHECK(s.strips == 2);
    CHECK(s.stagedRows == 6);
    CHECK(s.threads == 160);
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 2, 2, 1, 2, 1, s));
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 0, 1, 2, 1, s));
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 2, 0, 2, 1, s));
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 12, 1, 1, 1, s)); // 18 staged rows: past 48 KiB
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 4, 1, 2, 1, s)); // two buffers of 6 rows
    CHECK(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 4, 1, 1, 1, s));
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 2, 1, 3, 1, s));
    CHECK_FALSE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 2, 1, 2, 0, s));
    REQUIRE(cvk::planResizeLinearWith(params(src, to720, kLinear), 0, 4, 2, 2, 2, s)); // 320 items a band, 2 a thread
    CHECK(s.threads == 160);
}

TEST_CASE("setResizeLinearBlocks: every item in exactly one block, at most the grid's 65535 blocks", "[resize][linear][cpu]") {
    struct BlocksRow {
        int64_t items, blocks, perBlock, used;
    };
    const std::vector<BlocksRow> rows = {{11520, 11520, 1, 11520}, {11520, 792, 15, 768}, {5, 100, 1, 5}, {7, 3, 3, 3},
                                         {1, 1, 1, 1},             {100, 1, 100, 1},      {200000, 200000, 4, 50000}};
    for (const BlocksRow &r : rows) {
        INFO("items " << r.items << ", blocks " << r.blocks);
        cvk::ResizeLinearShape s{};
        cvk::setResizeLinearBlocks(s, r.items, r.blocks);
        CHECK(s.perBlock == r.perBlock);
        CHECK(s.blocks == r.used);
        CHECK(s.blocks <= 65535);
        CHECK((s.blocks - 1) * s.perBlock < r.items);
        CHECK(s.blocks * s.perBlock >= r.items);
    }
}

namespace {

struct BlockRow {
    const char *what;
    int32_t n, h, w, c, oh, ow;
    int64_t srcPad, dstPad;     // bytes after each row
    int64_t srcShift, dstShift; // bytes each starts past a 16-byte aligned address
    int32_t variant, bandRows, strips, depth, itemsPerThread;
    int64_t blocks; // blocks per strip the items are cut for
};

// Every block of the kernel (linearKernel in resize_linear.cu): per strip and block, its items in order, each staged
// by every thread (the copies done at once) and computed by every thread; with two buffers the next item is staged
// before the current one is computed, as the kernel issues it, so a buffer mixed up shows as wrong bytes.
template <int C, int Q, int P, int PX> void runLinear(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeLinearShape &s) {
    std::vector<int4> smem(size_t(s.smemBytes) / 16 + 1);
    REQUIRE(s.depth * linearBufferBytes(s) == s.smemBytes);
    const int32_t items = int32_t(p.dst.shape[cvk::kN]) * s.bands;
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        linearStripOf(s, m.x.dst, strip, x0, w);
        const BandSpan span = linearSpan<C, Q, P>(x0, w), general = bandSpan<kLinear>(m, C, x0, w);
        REQUIRE(span.b0 == general.b0);
        REQUIRE(span.b1 == general.b1);
        for (int64_t block = 0; block < s.blocks; ++block) {
            std::memset(smem.data(), 0x5A, smem.size() * 16); // what a previous block left
            const int32_t first = int32_t(block * s.perBlock), end = std::min<int32_t>(items, first + int32_t(s.perBlock));
            LinearItem cur = linearItemOf(first, s.bands), next = cur;
            auto issue = [&](int buf) {
                int32_t y0, rows, lo, hi;
                linearBandOf(s, m.y.dst, next.band, y0, rows);
                linearSourceRows(m.y, y0, rows, lo, hi);
                REQUIRE(hi - lo + 1 <= s.stagedRows);
                const Plane plane{p.src.data + next.n * p.src.stride[cvk::kN], p.src.stride[cvk::kH], C, 1};
                for (int tid = 0; tid < s.threads; ++tid)
                    linearStage(plane, m, span, y0, rows, lo, hi, linearSlots(smem.data(), s, buf), s.pitch, linearTable(smem.data(), s, buf), tid, s.threads);
                linearStep(next, s.bands);
            };
            if (first < end) issue(0);
            for (int32_t it = first; it < end; ++it) {
                const int buf = s.depth == 2 ? (it - first) & 1 : 0;
                if (s.depth == 2 && it + 1 < end) issue(buf ^ 1);
                int32_t y0, rows;
                linearBandOf(s, m.y.dst, cur.band, y0, rows);
                auto *out0 = reinterpret_cast<uint8_t *>(p.dst.data + cur.n * p.dst.stride[cvk::kN] + int64_t(y0) * p.dst.stride[cvk::kH]) + int64_t(x0) * C;
                for (int tid = 0; tid < s.threads; ++tid)
                    linearCompute<C, Q, P, PX>(linearSlots(smem.data(), s, buf), linearTable(smem.data(), s, buf), s.wx, out0, p.dst.stride[cvk::kH], w, rows, tid,
                                               s.threads);
                linearStep(cur, s.bands);
                if (s.depth == 1 && it + 1 < end) issue(0);
            }
        }
    }
}

template <int C, int Row> void runLinearFor(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeLinearShape &s) {
    if (s.period == 0 && s.variant == 0) runLinear<C, kLinearPeriods[0].q, kLinearPeriods[0].p, kLinearPixels[Row][0]>(p, m, s);
    if (s.period == 0 && s.variant == 1) runLinear<C, kLinearPeriods[0].q, kLinearPeriods[0].p, kLinearPixels[Row][1]>(p, m, s);
    if (s.period == 1 && s.variant == 0) runLinear<C, kLinearPeriods[1].q, kLinearPeriods[1].p, kLinearPixels[Row][0]>(p, m, s);
    if (s.period == 1 && s.variant == 1) runLinear<C, kLinearPeriods[1].q, kLinearPeriods[1].p, kLinearPixels[Row][1]>(p, m, s);
}

} // namespace

TEST_CASE("periodic LINEAR path: every block equals the per-pixel sampler byte for byte", "[resize][linear][cpu]") {
    const std::vector<BlockRow> rows = {
        {"1.5x both ways (the 720p row, scaled), bands of 2", 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 0, 2, 1, 2, 1, 3},
        {"1.5x, 16 pixels a thread, bands of 4, two strips", 2, 108, 192, 3, 72, 128, 0, 0, 0, 0, 1, 4, 2, 1, 2, 1},
        {"1920 -> 1280 across, 9 rows -> 6, bands of 1", 2, 9, 1920, 3, 6, 1280, 0, 0, 0, 0, 0, 1, 1, 2, 1, 7},
        {"1920 -> 1280 across, three strips, 16 pixels a thread", 1, 9, 1920, 3, 6, 1280, 0, 0, 0, 0, 1, 2, 3, 2, 3, 2},
        {"2x both ways (1080 -> 540, scaled)", 2, 54, 96, 3, 27, 48, 0, 0, 0, 0, 0, 2, 1, 1, 1, 100},
        {"2x across, 1.5x down, 16 pixels a thread, bands of 3", 2, 45, 96, 3, 30, 48, 0, 0, 0, 0, 1, 3, 1, 2, 2, 5},
        {"2x across, same height (vertical weights 2048 / 0)", 2, 20, 64, 3, 20, 32, 0, 0, 0, 0, 0, 2, 1, 2, 1, 3},
        {"1.5x across, 2x down exactly, bands of 4", 2, 40, 48, 3, 20, 32, 0, 0, 0, 0, 0, 4, 1, 1, 3, 1},
        {"odd widths 129 -> 86 (partial last span), rows 37 -> 25", 2, 37, 129, 3, 25, 86, 1, 0, 0, 0, 0, 2, 1, 2, 1, 7},
        {"odd widths, 16 pixels a thread, bands of 3, three strips", 2, 37, 129, 3, 25, 86, 5, 2, 0, 0, 1, 3, 3, 2, 2, 2},
        {"2x, odd widths 94 -> 47, rows 31 -> 17, source rows padded to 284 bytes", 2, 31, 94, 3, 17, 47, 2, 0, 0, 0, 0, 2, 1, 1, 1, 100},
        {"source rows padded by 4 (each row's own 16-byte shift), source 4 bytes off", 2, 27, 96, 3, 18, 64, 4, 0, 4, 0, 0, 2, 1, 2, 3, 5},
        {"source 12 bytes off, rows padded by 8, destination 1 byte off and padded", 2, 27, 96, 3, 18, 64, 8, 3, 12, 1, 0, 2, 1, 2, 1, 3},
        {"destination 4 bytes off (word stores)", 2, 27, 96, 3, 18, 64, 0, 0, 0, 4, 1, 2, 1, 1, 2, 1},
        {"destination 8 bytes off (8-byte stores), source 8 off", 2, 27, 96, 3, 18, 64, 0, 0, 8, 8, 0, 2, 1, 2, 1, 7},
        {"1 channel 1.5x, 8 pixels a thread", 2, 33, 99, 1, 22, 66, 1, 0, 0, 0, 0, 2, 1, 2, 3, 2},
        {"1 channel 1.5x, 16 pixels a thread, padded rows", 2, 33, 99, 1, 22, 66, 5, 2, 8, 2, 1, 4, 2, 1, 1, 100},
        {"1 channel 2x, odd rows", 2, 35, 130, 1, 19, 65, 2, 0, 0, 0, 0, 2, 1, 2, 2, 5},
        {"1 channel 2x, 16 pixels a thread", 2, 35, 130, 1, 19, 65, 2, 1, 4, 3, 1, 2, 1, 2, 1, 3},
        {"4 channels 1.5x, 4 pixels a thread", 2, 30, 45, 4, 20, 30, 0, 0, 0, 0, 0, 2, 1, 1, 3, 1},
        {"4 channels 1.5x, 8 pixels a thread, both 4 bytes off, padded rows", 2, 30, 45, 4, 20, 30, 4, 4, 4, 4, 1, 3, 2, 2, 1, 7},
        {"4 channels 2x", 2, 30, 62, 4, 15, 31, 0, 0, 0, 0, 0, 2, 1, 2, 2, 2},
        {"4 channels 2x, 8 pixels a thread, 1.5x down", 2, 30, 62, 4, 20, 31, 0, 0, 12, 0, 1, 2, 1, 1, 1, 100},
        {"smallest: 3 -> 2 across, 2 -> 1 down, source rows padded to 12 bytes", 2, 2, 3, 3, 1, 2, 3, 0, 0, 0, 0, 2, 1, 2, 3, 5},
        {"one source row: 1 -> 1 down, 2 -> 1 across", 3, 1, 2, 4, 1, 1, 0, 0, 0, 0, 0, 1, 1, 2, 1, 3},
    };
    std::mt19937 rng(29);
    constexpr uint8_t kPoison = 0xA5;
    for (const BlockRow &r : rows) {
        INFO(r.what);
        const int64_t N = r.n;
        cvtest::BlockImages img(N, r.h, r.w, r.c, r.oh, r.ow, r.srcPad, r.dstPad, r.srcShift, r.dstShift, kLinear, rng, kPoison);
        const cvk::ResizeParams &p = img.p;
        cvk::ResizeLinearShape s{};
        REQUIRE(cvk::planResizeLinearWith(p, r.variant, r.bandRows, r.strips, r.depth, r.itemsPerThread, s));
        cvk::setResizeLinearBlocks(s, N * s.bands, r.blocks);
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], kLinear);
        const auto want = cvtest::samplerBytes<uint8_t, kLinear>(p, m, img.outBytes(), kPoison);
        if (r.c == 1) runLinearFor<1, 0>(p, m, s);
        if (r.c == 3) runLinearFor<3, 1>(p, m, s);
        if (r.c == 4) runLinearFor<4, 2>(p, m, s);
        img.check(want, "periodic path", kPoison);
    }
}
