// cvResize's tiled path on the CPU, no GPU: which shapes take it (cvk::planResizeTile, the benchmark's rows among
// them; launchResize offers a shape to the row paths of test_resize_rows.cpp first), and whole tiles run phase by
// phase for every thread of a block (the same __host__ __device__ functions the kernel runs), compared byte for byte
// with the per-pixel sampler on random images.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_tile.cuh"
#include "resize_views.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace cvk::resize;
using cvtest::kAligned;
using cvtest::nhwc;
using cvtest::params;

namespace {

struct PlanRow {
    const char *what;
    cvk::ResizeParams p;
    bool tiled;
    int32_t tileW, tileH; // checked when tiled
};

} // namespace

TEST_CASE("planResizeTile: the benchmark's rows and what stays on the per-pixel sampler", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to224 = nhwc(kAligned, 32, 224, 224, 3), to720 = nhwc(kAligned, 32, 720, 1280, 3);
    auto unaligned = src;
    unaligned.data += 1;
    auto strided = src; // pixels 4 bytes apart, 3 channels
    strided.stride[cvk::kW] = 4;
    strided.stride[cvk::kH] = 1920 * 4;
    const std::vector<PlanRow> rows = {
        {"bench: LINEAR -> 720x1280", params(src, to720, kLinear), true, 32, 16},
        {"bench: CUBIC -> 720x1280", params(src, to720, kCubic), true, 32, 16},
        {"bench: AREA -> 224x224 (fractional table)", params(src, to224, kArea), true, 16, 8},
        {"bench: LINEAR -> 224x224 (factor 4.8: the taps skip rows)", params(src, to224, kLinear), false, 0, 0},
        {"bench: NEAREST -> 720x1280", params(src, to720, kNearest), false, 0, 0},
        {"CUBIC -> 224x224 (factor 4.8)", params(src, to224, kCubic), false, 0, 0},
        {"AREA by 4 and 5 (integer box)", params(src, nhwc(kAligned, 32, 216, 480, 3), kArea), true, 32, 8},
        {"AREA enlarging (linear area mode)", params(nhwc(kAligned, 1, 100, 100, 3), nhwc(kAligned, 1, 300, 50, 3), kArea), false, 0, 0},
        {"LINEAR enlarging, 4 channels", params(nhwc(kAligned, 2, 100, 100, 4), nhwc(kAligned, 2, 301, 257, 4), kLinear), true, 32, 16},
        {"LINEAR, 1 channel", params(nhwc(kAligned, 2, 100, 100, 1), nhwc(kAligned, 2, 77, 61, 1), kLinear), true, 32, 16},
        {"LINEAR, 2 channels", params(nhwc(kAligned, 2, 100, 100, 2), nhwc(kAligned, 2, 77, 61, 2), kLinear), false, 0, 0},
        {"uint16", params(nhwc(kAligned, 2, 100, 100, 3), nhwc(kAligned, 2, 77, 61, 3), kLinear, cvk::kResizeU16), false, 0, 0},
        {"source not 4-byte aligned", params(unaligned, to720, kLinear), false, 0, 0},
        {"source rows padded by 3 bytes", params(nhwc(kAligned, 2, 100, 100, 3, 3), nhwc(kAligned, 2, 77, 61, 3), kLinear), false, 0, 0},
        {"source rows padded by 4 bytes", params(nhwc(kAligned, 2, 100, 100, 3, 4), nhwc(kAligned, 2, 77, 61, 3), kLinear), true, 32, 16},
        {"source pixels not packed", params(strided, to720, kLinear), false, 0, 0},
        {"AREA 1080x1920 -> 1x1 (too large a tile)", params(src, nhwc(kAligned, 32, 1, 1, 3), kArea), false, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeTileShape s{};
        const bool tiled = cvk::planResizeTile(r.p, s);
        REQUIRE(tiled == r.tiled);
        if (!tiled) continue;
        CHECK(s.tileW == r.tileW);
        CHECK(s.tileH == r.tileH);
        CHECK(s.smemBytes <= kTileSmemLimit);
        CHECK(s.smemBytes == tileSmemBytes(s));
        CHECK(s.pitch % 2 == 1);
        CHECK(s.hpitch % 2 == 1);
        CHECK(s.outPitch % 16 == 0);
    }
}

TEST_CASE("the shapes of tests/python/test_resize_tiled.py take the fast path they name", "[resize][dispatch]") {
    enum Path { kPeriodic, kNearestPeriodic, kBand, kCubicSep, kRows, kAreaRows, kTiled, kSampler };
    struct Shape {
        int32_t interp, c, h, w, oh, ow;
        Path path; // launchResize: the periodic LINEAR path, the periodic NEAREST path, the band path where
                   // preferred, the separable CUBIC path where preferred, then the row paths, the AREA row path, the
                   // tiled path, the sampler
    };
    const std::vector<Shape> shapes = {
        {kNearest, 3, 1080, 1920, 720, 1280, kNearestPeriodic}, {kNearest, 3, 960, 1280, 225, 300, kRows},
        {kNearest, 1, 37, 53, 29, 71, kRows},          {kNearestFloor, 4, 37, 53, 80, 101, kRows},
        {kLinear, 1, 3, 4000, 5, 5003, kRows},         {kCubic, 3, 4, 1920, 3, 1280, kCubicSep},
        {kLinear, 3, 1080, 1920, 720, 640, kTiled},    {kCubic, 3, 1080, 1920, 540, 400, kTiled},
        {kLinear, 3, 1080, 1920, 720, 1280, kPeriodic}, {kCubic, 3, 1080, 1920, 720, 1280, kCubicSep},
        {kArea, 3, 1080, 1920, 224, 224, kAreaRows},   {kArea, 3, 1080, 1920, 216, 480, kAreaRows},
        {kArea, 3, 534, 800, 224, 224, kAreaRows},     {kArea, 4, 96, 64, 32, 16, kAreaRows},
        {kArea, 1, 70, 68, 35, 34, kAreaRows},         {kLinear, 4, 37, 53, 80, 101, kRows},
        {kLinear, 1, 101, 120, 77, 61, kBand},         {kCubic, 1, 117, 92, 30, 23, kRows},
        {kCubic, 3, 5, 8, 41, 37, kCubicSep},              {kCubic, 4, 1, 1, 7, 5, kRows},
        {kCubic, 4, 1, 4, 7, 5, kCubicSep},
        {kLinear, 3, 1080, 1920, 224, 224, kSampler},  {kNearest, 3, 1080, 1920, 224, 224, kRows},
        {kLinear, 2, 40, 101, 30, 75, kBand},          {kNearest, 2, 37, 53, 40, 19, kRows},
        {kLinear, 1, 1080, 1920, 720, 1280, kPeriodic}, {kLinear, 4, 1080, 1920, 720, 1280, kPeriodic},
        {kLinear, 3, 1080, 1920, 540, 960, kPeriodic},  {kLinear, 3, 37, 132, 25, 88, kPeriodic},
        {kLinear, 1, 35, 132, 19, 66, kPeriodic},       {kArea, 3, 1080, 1920, 720, 1280, kAreaRows},
        {kCubic, 3, 540, 960, 1080, 1920, kCubicSep},       {kCubic, 4, 1080, 1920, 540, 960, kCubicSep},
        {kNearestFloor, 3, 1080, 1920, 720, 1280, kNearestPeriodic}, {kNearest, 1, 1080, 1920, 720, 1280, kNearestPeriodic},
        {kNearestFloor, 4, 1080, 1920, 540, 960, kNearestPeriodic}, {kNearest, 3, 37, 132, 25, 88, kNearestPeriodic},
        {kNearestFloor, 1, 35, 132, 19, 66, kNearestPeriodic},  {kNearest, 4, 30, 62, 20, 31, kNearestPeriodic},
        {kNearest, 3, 1280, 12, 300, 8, kNearestPeriodic}, {kNearest, 3, 37, 129, 25, 86, kBand},
    };
    for (const Shape &s : shapes) {
        INFO("interp " << s.interp << ", " << s.c << " channels, " << s.h << "x" << s.w << " -> " << s.oh << "x" << s.ow);
        cvk::ResizeBandShape band{};
        cvk::ResizeRowShape rows{};
        cvk::ResizeTileShape tile{};
        cvk::ResizeLinearShape linear{};
        cvk::ResizeAreaShape area{};
        cvk::ResizeCubicShape cubic{};
        cvk::ResizeNearestShape nearest{};
        const auto p = params(nhwc(kAligned, 2, s.h, s.w, s.c), nhwc(kAligned, 2, s.oh, s.ow, s.c), s.interp);
        // launchResize's order of paths (kernels/resize.cu)
        const auto taken = [&] {
            if (cvk::planResizeLinear(p, linear)) return kPeriodic;
            if (cvk::planResizeNearest(p, nearest)) return kNearestPeriodic;
            if (cvk::planResizeBand(p, band) && cvk::resizeBandPreferred(p)) return kBand;
            if (cvk::planResizeCubic(p, cubic) && cvk::resizeCubicPreferred(p, cubic)) return kCubicSep;
            if (cvk::planResizeRows(p, rows)) return kRows;
            if (s.interp == kArea && cvk::planResizeArea(p, area)) return kAreaRows;
            return cvk::planResizeTile(p, tile) ? kTiled : kSampler;
        };
        CHECK(taken() == s.path);
        // the same pixels 4 channels apart (the test's comparison view) stay on the sampler
        cvk::View4 wide = nhwc(kAligned, 2, s.h, s.w, s.c + 1);
        wide.shape[cvk::kC] = s.c;
        const auto sampler = params(wide, nhwc(kAligned, 2, s.oh, s.ow, s.c), s.interp);
        CHECK_FALSE(cvk::planResizeBand(sampler, band));
        CHECK_FALSE(cvk::planResizeRows(sampler, rows));
        CHECK_FALSE(cvk::planResizeTile(sampler, tile));
        CHECK_FALSE(cvk::planResizeArea(sampler, area));
        CHECK_FALSE(cvk::planResizeLinear(sampler, linear));
        CHECK_FALSE(cvk::planResizeCubic(sampler, cubic));
        CHECK_FALSE(cvk::planResizeNearest(sampler, nearest));
    }
}

namespace {

struct BlockRow {
    const char *what;
    int32_t h, w, c, oh, ow, interp;
    int64_t rowPad; // bytes after each source row beyond the padding to 4 bytes (the tiled path needs aligned rows)
};

// Runs every tile of image n the way the kernel does (phases in order, each for every thread) into dst.
template <int I, int CT>
void runTiles(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeTileShape &s, int64_t n) {
    std::vector<uint4> smem(s.smemBytes / 16 + 1);
    const TileBuffers b = carveTile(smem.data(), s);
    const int32_t tilesX = (m.x.dst + s.tileW - 1) / s.tileW, tilesY = (m.y.dst + s.tileH - 1) / s.tileH;
    const Plane plane{p.src.data + n * p.src.stride[cvk::kN], p.src.stride[cvk::kH], p.src.stride[cvk::kW], p.src.stride[cvk::kC]};
    for (int32_t ty = 0; ty < tilesY; ++ty)
        for (int32_t tx = 0; tx < tilesX; ++tx) {
            const TileCtx t = tileContext(m, s, n, tx, ty);
            REQUIRE(t.rows.count <= s.maxRows);
            REQUIRE(t.cols.count <= s.pitch);
            for (int tid = 0; tid < kTileThreads; ++tid) tileLoad<I, CT>(m, s, t, plane, b, tid, kTileThreads);
            for (int tid = 0; tid < kTileThreads; ++tid) tileHorizontal<I, CT>(m, s, t, b, tid, kTileThreads);
            for (int tid = 0; tid < kTileThreads; ++tid) tileVertical<I, CT>(m, s, t, b, tid, kTileThreads);
            for (int tid = 0; tid < kTileThreads; ++tid)
                tileStore<CT>(s, t, p.dst.data + n * p.dst.stride[cvk::kN], p.dst.stride[cvk::kH], b, tid, kTileThreads);
        }
}

template <int I>
void runTilesFor(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeTileShape &s, int64_t n) {
    if (c == 1) runTiles<I, 1>(p, m, s, n);
    if (c == 3) runTiles<I, 3>(p, m, s, n);
    if (c == 4) runTiles<I, 4>(p, m, s, n);
}

template <int I> uint8_t samplerValue(const Mapping &m, const Plane &plane, int32_t x, int32_t y, int32_t C, int32_t c) {
    uint8_t out = 0;
    samplePixel<uint8_t, I>(m, plane, x, y, C, [&](int32_t k, uint8_t v, float) {
        if (k == c) out = v;
    });
    return out;
}

} // namespace

TEST_CASE("tiled resize: every tile equals the per-pixel sampler byte for byte", "[resize][tiled][cpu]") {
    const std::vector<BlockRow> rows = {
        {"LINEAR 1.5x down (the 720p row, scaled)", 108, 192, 3, 72, 128, kLinear, 0},
        {"CUBIC 1.5x down (the 720p row, scaled)", 108, 192, 3, 72, 128, kCubic, 0},
        {"AREA 1080x1920 -> 224x224 (the benchmark row, one image)", 1080, 1920, 3, 224, 224, kArea, 0},
        {"LINEAR odd sizes, padded rows", 37, 53, 3, 25, 35, kLinear, 8},
        {"CUBIC odd sizes, 4 channels", 37, 53, 4, 29, 17, kCubic, 0},
        {"CUBIC 3.9x down, 1 channel", 117, 90, 1, 30, 23, kCubic, 4},
        {"LINEAR enlarging 13x7 -> 40x33", 13, 7, 3, 40, 33, kLinear, 0},
        {"CUBIC enlarging 5x6 -> 41x37", 5, 6, 3, 41, 37, kCubic, 0},
        {"CUBIC 1x1 -> 7x5", 1, 1, 3, 7, 5, kCubic, 0},
        {"AREA integer box 3 x 4, 4 channels", 96, 64, 4, 32, 16, kArea, 0},
        {"AREA integer box 2, 1 channel, odd width", 70, 66, 1, 35, 33, kArea, 0},
        {"AREA fractional 534x800 -> 224x224", 534, 800, 3, 224, 224, kArea, 4},
        {"AREA fractional 960x1280 -> 225x300, 1 channel", 960, 1280, 1, 225, 300, kArea, 0},
        {"AREA same size", 19, 23, 3, 19, 23, kArea, 0},
    };
    std::mt19937 rng(7);
    for (const BlockRow &r : rows) {
        INFO(r.what);
        const int64_t N = 2, rowBytes = (int64_t(r.w) * r.c + 3) / 4 * 4 + r.rowPad;
        std::vector<uint8_t> src(size_t(N * r.h * rowBytes)), dst(size_t(N * r.oh * r.ow * r.c), 0xA5);
        for (auto &v : src) v = static_cast<uint8_t>(rng());
        const auto p = params(nhwc(reinterpret_cast<char *>(src.data()), N, r.h, r.w, r.c, rowBytes - int64_t(r.w) * r.c),
                              nhwc(reinterpret_cast<char *>(dst.data()), N, r.oh, r.ow, r.c), r.interp);
        cvk::ResizeTileShape s{};
        REQUIRE(cvk::planResizeTile(p, s));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        int64_t mismatches = 0;
        for (int64_t n = 0; n < N; ++n) {
            if (r.interp == kLinear) runTilesFor<kLinear>(r.c, p, m, s, n);
            if (r.interp == kCubic) runTilesFor<kCubic>(r.c, p, m, s, n);
            if (r.interp == kArea) runTilesFor<kArea>(r.c, p, m, s, n);
            const Plane plane{p.src.data + n * p.src.stride[cvk::kN], p.src.stride[cvk::kH], r.c, 1};
            for (int32_t y = 0; y < r.oh; ++y)
                for (int32_t x = 0; x < r.ow; ++x)
                    for (int32_t c = 0; c < r.c; ++c) {
                        const uint8_t want = r.interp == kLinear  ? samplerValue<kLinear>(m, plane, x, y, r.c, c)
                                             : r.interp == kCubic ? samplerValue<kCubic>(m, plane, x, y, r.c, c)
                                                                  : samplerValue<kArea>(m, plane, x, y, r.c, c);
                        const uint8_t got = dst[size_t(((n * r.oh + y) * r.ow + x) * r.c + c)];
                        if (got != want && mismatches++ < 5)
                            FAIL_CHECK("n " << n << " y " << y << " x " << x << " c " << c << ": tiled " << int(got)
                                            << ", sampler " << int(want));
                    }
        }
        CHECK(mismatches == 0);
    }
}
