// cvResize's periodic NEAREST path on the CPU, no GPU: which shapes take it (cvk::planResizeNearest, the benchmark's
// among them), and the whole grid run thread by thread (the same __host__ __device__ function the kernel runs),
// compared byte for byte with the per-pixel sampler on random images, with the destination's padding checked
// untouched.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_nearest.cuh"
#include "resize_views.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <utility>
#include <vector>

using namespace cvk::resize;
using cvtest::kAligned;
using cvtest::nhwc;
using cvtest::params;

namespace {

struct PlanRow {
    const char *what;
    cvk::ResizeParams p;
    int32_t variant;
    bool taken;
    int32_t period, pixels, groups, kernel, threads; // checked when taken (kernel: the variant after any fallback)
};

} // namespace

TEST_CASE("planResizeNearest: the benchmark's rows and what stays on the other paths", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to720 = nhwc(kAligned, 32, 720, 1280, 3), to540 = nhwc(kAligned, 32, 540, 960, 3);
    auto unaligned = src;
    unaligned.data += 2;
    auto dstUnaligned = to720;
    dstUnaligned.data += 1;
    auto planar = src;
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, to720, -1);
    torch.torchMode = kTvNearest;
    const auto c1 = nhwc(kAligned, 32, 1080, 1920, 1), c4 = nhwc(kAligned, 32, 1080, 1920, 4);
    const std::vector<PlanRow> rows = {
        {"bench: NEAREST -> 720x1280, launchResize's variant for 3 channels (pipelined tiles)", params(src, to720, kNearest), -1, true, 1, 32, 40, 7, 128},
        {"launchResize's variant for 1 channel (per thread, 16 pixels)", params(c1, nhwc(kAligned, 32, 720, 1280, 1), kNearest), -1, true, 1, 16, 80, 0, 256},
        {"launchResize's variant for 4 channels (per thread, 4 pixels)", params(c4, nhwc(kAligned, 32, 720, 1280, 4), kNearest), -1, true, 1, 4, 320, 0, 256},
        {"launchResize's variant, destination not 16-byte aligned: variant 0", params(src, dstUnaligned, kNearest), -1, true, 1, 16, 80, 0, 256},
        {"bench: NEAREST -> 720x1280, 16 pixels a thread", params(src, to720, kNearest), 0, true, 1, 16, 80, 0, 256},
        {"NEAREST_FLOOR -> 720x1280", params(src, to720, kNearestFloor), 0, true, 1, 16, 80, 0, 256},
        {"NEAREST -> 720x1280, 32 pixels a thread", params(src, to720, kNearest), 1, true, 1, 32, 40, 1, 256},
        {"NEAREST -> 540x960 (2:1)", params(src, to540, kNearest), 0, true, 0, 16, 60, 0, 256},
        {"NEAREST_FLOOR 1 channel -> 720x1280", params(c1, nhwc(kAligned, 32, 720, 1280, 1), kNearestFloor), 0, true, 1, 16, 80, 0, 256},
        {"NEAREST 4 channels -> 720x1280", params(c4, nhwc(kAligned, 32, 720, 1280, 4), kNearest), 0, true, 1, 4, 320, 0, 256},
        {"NEAREST 4 channels -> 540x960, 8 pixels a thread", params(c4, nhwc(kAligned, 32, 540, 960, 4), kNearest), 1, true, 0, 8, 120, 1, 256},
        {"NEAREST, destination not aligned (stored bytewise)", params(src, dstUnaligned, kNearest), 0, true, 1, 16, 80, 0, 256},
        {"NEAREST 3x down, 1.5x across", params(src, nhwc(kAligned, 32, 360, 1280, 3), kNearest), 0, true, 1, 16, 80, 0, 256},
        {"NEAREST same height, odd width 129 -> 86 (rows padded to 388 bytes)", params(nhwc(kAligned, 2, 37, 129, 3, 1), nhwc(kAligned, 2, 37, 86, 3), kNearest), 0, true, 1, 16, 6, 0, 256},
        {"NEAREST enlarging down", params(nhwc(kAligned, 2, 20, 1920, 3), nhwc(kAligned, 2, 21, 1280, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST -> 224x224 (ratio 60:7 across)", params(src, nhwc(kAligned, 32, 224, 224, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST 1440 -> 1080 across (4:3, not compiled)", params(nhwc(kAligned, 2, 20, 1440, 3), nhwc(kAligned, 2, 15, 1080, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST 1920 -> 768 across (5:2)", params(nhwc(kAligned, 2, 20, 1920, 3), nhwc(kAligned, 2, 10, 768, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST enlarging across", params(nhwc(kAligned, 2, 20, 640, 3), nhwc(kAligned, 2, 20, 960, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST 2 channels", params(nhwc(kAligned, 2, 20, 96, 2), nhwc(kAligned, 2, 10, 64, 2), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST, source not 4-byte aligned", params(unaligned, to720, kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST, source rows padded by 2 bytes", params(nhwc(kAligned, 2, 30, 96, 3, 2), nhwc(kAligned, 2, 20, 64, 3), kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST, planar channels", params(planar, to720, kNearest), 0, false, 0, 0, 0, 0, 0},
        {"NEAREST uint16", params(nhwc(kAligned, 2, 30, 96, 3, 0, 2), nhwc(kAligned, 2, 20, 64, 3, 0, 2), kNearest, cvk::kResizeU16), 0, false, 0, 0, 0, 0, 0},
        {"LINEAR", params(src, to720, kLinear), 0, false, 0, 0, 0, 0, 0},
        {"CUBIC", params(src, to720, kCubic), 0, false, 0, 0, 0, 0, 0},
        {"AREA", params(src, to720, kArea), 0, false, 0, 0, 0, 0, 0},
        {"torchvision nearest", torch, 0, false, 0, 0, 0, 0, 0},
        {"bench: NEAREST -> 720x1280, tiled (32 pixels a thread, 128 a block)", params(src, to720, kNearest), 3, true, 1, 32, 40, 3, 128},
        {"NEAREST_FLOOR -> 720x1280, tiled, streaming", params(src, to720, kNearestFloor), 4, true, 1, 32, 40, 4, 128},
        {"NEAREST -> 540x960, tiled, own stores", params(src, to540, kNearest), 5, true, 0, 32, 30, 5, 128},
        {"NEAREST 1 channel -> 720x1280, tiled, 64 a block", params(c1, nhwc(kAligned, 32, 720, 1280, 1), kNearest), 6, true, 1, 32, 40, 6, 64},
        {"NEAREST 4 channels -> 720x1280, tiled", params(c4, nhwc(kAligned, 32, 720, 1280, 4), kNearest), 3, true, 1, 8, 160, 3, 128},
        {"NEAREST 0 with streaming loads and stores", params(src, to720, kNearest), 2, true, 1, 16, 80, 2, 256},
        {"tiled, destination not 16-byte aligned: variant 0", params(src, dstUnaligned, kNearest), 3, true, 1, 16, 80, 0, 256},
        {"tiled, source 4 bytes off 16: variant 0", params(nhwc(kAligned + 4, 2, 30, 96, 3), nhwc(kAligned, 2, 20, 64, 3), kNearest), 4, true, 1, 16, 4, 0, 256},
        {"tiled, destination rows of 200 bytes: variant 0", params(nhwc(kAligned, 2, 30, 96, 3), nhwc(kAligned, 2, 20, 64, 3, 8), kNearest), 3, true, 1, 16, 4, 0, 256},
        {"tiled, partial last group (129 -> 86 wide): variant 0", params(nhwc(kAligned, 2, 37, 129, 3, 1), nhwc(kAligned, 2, 37, 86, 3), kNearest), 3, true, 1, 16, 6, 0, 256},
        {"tiled, one 16-byte aligned image with an odd image stride", params(cvk::View4{kAligned, {1, 30, 96, 3}, {8641, 288, 3, 1}}, nhwc(kAligned, 1, 20, 64, 3), kNearest), 3, true, 1, 32, 2, 3, 128},
        {"bench: NEAREST -> 720x1280, pipelined", params(src, to720, kNearest), 7, true, 1, 32, 40, 7, 128},
        {"NEAREST 4 channels -> 540x960, pipelined, not streaming", params(c4, nhwc(kAligned, 32, 540, 960, 4), kNearest), 8, true, 0, 8, 120, 8, 128},
        {"pipelined, destination not 16-byte aligned: variant 0", params(src, dstUnaligned, kNearest), 7, true, 1, 16, 80, 0, 256},
        {"variant past the table (not compiled)", params(src, to720, kNearest), kNearestVariantCount, false, 0, 0, 0, 0, 0},
        {"variant -2", params(src, to720, kNearest), -2, false, 0, 0, 0, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeNearestShape s{};
        const bool taken = cvk::planResizeNearest(r.p, s, r.variant);
        REQUIRE(taken == r.taken);
        if (!taken) continue;
        CHECK(s.period == r.period);
        CHECK(s.pixels == r.pixels);
        CHECK(s.groups == r.groups);
        CHECK(s.variant == r.kernel);
        CHECK(s.threads == r.threads);
        CHECK(int64_t(s.items) == r.p.dst.shape[cvk::kN] * r.p.dst.shape[cvk::kH] * r.groups);
    }
}

namespace {

struct GridRow {
    const char *what;
    int32_t interp, n, h, w, c, oh, ow;
    int64_t srcPad, dstPad;     // bytes after each row
    int64_t srcShift, dstShift; // bytes each starts past a 16-byte aligned address
    int32_t variant;
};

// Every thread of the grid (nearestKernel, nearestTileKernel or nearestPipeKernel in resize_nearest.cu), in order:
// a tiled block's phases one after the other over all its threads (the kernel's barriers), its shared tile
// poisoned first; a pipelined grid of kPipeBlocks blocks, each walking its tiles as the kernel does.
constexpr int32_t kPipeBlocks = 3;

template <int I, int C, int Row, int Q, int P, int V> void runVariant(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeNearestShape &s) {
    constexpr cvk::resize::NearestVariant v = kNearestVariants[V];
    constexpr int PX = v.pixels[Row], T = v.threads;
    REQUIRE(s.pixels == PX);
    REQUIRE(s.threads == T);
    using Geo = NearestGeometry<I, C, Q, P, PX>;
    if constexpr (v.pipelined) {
        using Tile = NearestTile<Geo, T, true, v.streaming, 3>;
        const auto tile = std::make_unique<Tile>();
        struct Regs {
            uint4 v[Tile::kIn];
        };
        std::vector<Regs> regs(T); // each thread's v
        auto fetch = [&](int32_t first, int a) {
            for (int t = 0; t < T; ++t) nearestTileFetch(nearestTileValid(s.items, first, T), t, *tile, a, regs[t].v);
        };
        const int32_t tiles = (s.items + T - 1) / T, grid = std::min(tiles, kPipeBlocks);
        for (int32_t b = 0; b < grid; ++b) {
            std::memset(static_cast<void *>(tile.get()), 0x5A, sizeof(Tile));
            int a = 0;
            for (int t = 0; t < T; ++t) nearestTileAddresses(p, m, s.groups, b * T, nearestTileValid(s.items, b * T, T), t, *tile, a);
            fetch(b * T, a);
            for (int32_t k = b; k < tiles; k += grid) {
                const int32_t valid = nearestTileValid(s.items, k * T, T), next = k + grid;
                const int na = a == 2 ? 0 : a + 1;
                for (int t = 0; t < T; ++t) nearestTilePut(valid, t, *tile, regs[t].v);
                if (next < tiles)
                    for (int t = 0; t < T; ++t) nearestTileAddresses(p, m, s.groups, next * T, nearestTileValid(s.items, next * T, T), t, *tile, na);
                if (next < tiles) fetch(next * T, na);
                for (int t = 0; t < T; ++t) nearestTileGather(valid, t, *tile, a);
                for (int t = 0; t < T; ++t) nearestTileStore(valid, t, *tile, a);
                a = na;
            }
        }
    } else if constexpr (v.tiled) {
        using Tile = NearestTile<Geo, T, v.stageOut, v.streaming, 1>;
        const auto tile = std::make_unique<Tile>();
        for (int32_t first = 0; first < s.items; first += T) {
            const int32_t valid = nearestTileValid(s.items, first, T);
            std::memset(static_cast<void *>(tile.get()), 0x5A, sizeof(Tile));
            uint4 regs[Tile::kIn];
            for (int t = 0; t < T; ++t) nearestTileAddresses(p, m, s.groups, first, valid, t, *tile, 0);
            for (int t = 0; t < T; ++t) {
                nearestTileFetch(valid, t, *tile, 0, regs);
                nearestTilePut(valid, t, *tile, regs);
            }
            for (int t = 0; t < T; ++t) nearestTileGather(valid, t, *tile, 0);
            if constexpr (v.stageOut)
                for (int t = 0; t < T; ++t) nearestTileStore(valid, t, *tile, 0);
        }
    } else {
        for (int32_t i = 0; i < s.items; ++i) nearestGroup<I, C, Q, P, PX, v.streaming>(p, m, s.groups, i);
    }
}

template <int I, int C, int Row, int Per, size_t... V>
void runPeriod(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeNearestShape &s, std::index_sequence<V...>) {
    ((s.variant == int(V) ? runVariant<I, C, Row, kLinearPeriods[Per].q, kLinearPeriods[Per].p, int(V)>(p, m, s) : void()), ...);
}

template <int I, int C, int Row> void runGridFor(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeNearestShape &s) {
    constexpr auto variants = std::make_index_sequence<kNearestVariantCount>{};
    if (s.period == 0) runPeriod<I, C, Row, 0>(p, m, s, variants);
    if (s.period == 1) runPeriod<I, C, Row, 1>(p, m, s, variants);
}

template <int I> void runGridOf(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeNearestShape &s) {
    if (c == 1) runGridFor<I, 1, 0>(p, m, s);
    if (c == 3) runGridFor<I, 3, 1>(p, m, s);
    if (c == 4) runGridFor<I, 4, 2>(p, m, s);
}

} // namespace

TEST_CASE("periodic NEAREST path: the whole grid equals the per-pixel sampler byte for byte", "[resize][nearest][cpu]") {
    const std::vector<GridRow> rows = {
        {"1.5x both ways (the 720p row, scaled)", kNearest, 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 0},
        {"1.5x both ways, NEAREST_FLOOR", kNearestFloor, 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 0},
        {"1.5x both ways, 32 pixels a thread", kNearest, 2, 108, 192, 3, 72, 128, 0, 0, 0, 0, 1},
        {"1.5x both ways, NEAREST_FLOOR, 32 pixels a thread", kNearestFloor, 2, 108, 192, 3, 72, 128, 0, 0, 0, 0, 1},
        {"1920 -> 1280 across, 9 rows -> 6", kNearest, 2, 9, 1920, 3, 6, 1280, 0, 0, 0, 0, 0},
        {"2x both ways (1080 -> 540, scaled)", kNearest, 2, 54, 96, 3, 27, 48, 0, 0, 0, 0, 0},
        {"2x both ways, NEAREST_FLOOR", kNearestFloor, 2, 54, 96, 3, 27, 48, 0, 0, 0, 0, 1},
        {"2x across, same height", kNearest, 2, 20, 64, 3, 20, 32, 0, 0, 0, 0, 0},
        {"1.5x across, same height, NEAREST_FLOOR", kNearestFloor, 2, 20, 48, 3, 20, 32, 0, 0, 0, 0, 0},
        {"1.5x across, 2x down exactly", kNearest, 2, 40, 48, 3, 20, 32, 0, 0, 0, 0, 0},
        {"1.5x across, 3x down", kNearestFloor, 2, 60, 48, 3, 20, 32, 0, 0, 0, 0, 1},
        {"odd widths 129 -> 86 (partial last group), rows 37 -> 25", kNearest, 2, 37, 129, 3, 25, 86, 1, 0, 0, 0, 0},
        {"odd widths 129 -> 86, NEAREST_FLOOR, 32 pixels a thread, padded destination", kNearestFloor, 2, 37, 129, 3, 25, 86, 5, 3, 0, 0, 1},
        {"2x, odd widths 94 -> 47, rows 31 -> 17, source rows padded to 284 bytes", kNearest, 2, 31, 94, 3, 17, 47, 2, 0, 0, 0, 0},
        {"2x, odd widths, NEAREST_FLOOR, 32 pixels a thread", kNearestFloor, 3, 31, 94, 3, 17, 47, 2, 1, 0, 0, 1},
        {"source 4 bytes off, rows padded by 4, destination 1 byte off", kNearest, 2, 27, 96, 3, 18, 64, 4, 0, 4, 1, 0},
        {"source 12 bytes off, destination 1 byte off and padded", kNearestFloor, 2, 27, 96, 3, 18, 64, 8, 3, 12, 1, 1},
        {"destination 4 bytes off (word stores)", kNearest, 2, 27, 96, 3, 18, 64, 0, 0, 0, 4, 1},
        {"destination 8 bytes off (8-byte stores)", kNearest, 2, 27, 96, 3, 18, 64, 0, 0, 8, 8, 0},
        {"destination rows of 200 bytes (every other row 8 bytes off 16)", kNearest, 2, 27, 96, 3, 18, 64, 0, 8, 0, 0, 0},
        {"vertical 1280 -> 300 (ties on pixel edges that take the left pixel)", kNearest, 1, 1280, 12, 3, 300, 8, 0, 0, 0, 0, 0},
        {"vertical 1280 -> 300, NEAREST_FLOOR", kNearestFloor, 1, 1280, 12, 3, 300, 8, 0, 0, 0, 0, 1},
        {"1 channel 1.5x", kNearest, 2, 33, 99, 1, 22, 66, 1, 0, 0, 0, 0},
        {"1 channel 1.5x, 32 pixels a thread, padded rows, NEAREST_FLOOR", kNearestFloor, 2, 33, 99, 1, 22, 66, 5, 2, 8, 2, 1},
        {"1 channel 2x, odd rows", kNearest, 2, 35, 130, 1, 19, 65, 2, 0, 0, 0, 0},
        {"1 channel 2x, NEAREST_FLOOR, destination 3 bytes off", kNearestFloor, 2, 35, 130, 1, 19, 65, 2, 1, 4, 3, 1},
        {"1 channel 1920 -> 1280, one row", kNearest, 1, 1, 1920, 1, 1, 1280, 0, 0, 0, 0, 0},
        {"4 channels 1.5x", kNearest, 2, 30, 45, 4, 20, 30, 0, 0, 0, 0, 0},
        {"4 channels 1.5x, 8 pixels a thread, both 4 bytes off, padded rows", kNearestFloor, 2, 30, 45, 4, 20, 30, 4, 4, 4, 4, 1},
        {"4 channels 2x", kNearest, 2, 30, 62, 4, 15, 31, 0, 0, 0, 0, 0},
        {"4 channels 2x, 8 pixels a thread, 1.5x down, destination 2 bytes off", kNearestFloor, 2, 30, 62, 4, 20, 31, 0, 0, 12, 2, 1},
        {"tiled: 1.5x both ways (partial last block)", kNearest, 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 3},
        {"tiled, NEAREST_FLOOR, streaming", kNearestFloor, 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 4},
        {"tiled, own stores", kNearest, 2, 108, 192, 3, 72, 128, 0, 0, 0, 0, 5},
        {"tiled, 64 a block, rows padded by 16 and 32 bytes", kNearestFloor, 2, 45, 192, 3, 30, 128, 16, 32, 0, 0, 6},
        {"tiled: 1920 -> 1280 across, 9 rows -> 6", kNearest, 2, 9, 1920, 3, 6, 1280, 0, 0, 0, 0, 4},
        {"tiled: 2x both ways", kNearest, 2, 54, 128, 3, 27, 64, 0, 0, 0, 0, 3},
        {"tiled: 2x, NEAREST_FLOOR, own stores", kNearestFloor, 2, 54, 128, 3, 27, 64, 0, 0, 0, 0, 5},
        {"tiled: vertical 1280 -> 300 (ties)", kNearest, 1, 1280, 48, 3, 300, 32, 0, 0, 0, 0, 6},
        {"tiled: 1 channel 1.5x", kNearest, 2, 33, 96, 1, 22, 64, 0, 0, 0, 0, 3},
        {"tiled: 1 channel 2x, NEAREST_FLOOR", kNearestFloor, 2, 35, 128, 1, 19, 64, 0, 0, 0, 0, 4},
        {"tiled: 4 channels 1.5x", kNearest, 2, 30, 48, 4, 20, 32, 0, 0, 0, 0, 5},
        {"tiled: 4 channels 2x, NEAREST_FLOOR, 64 a block", kNearestFloor, 3, 30, 64, 4, 15, 32, 0, 0, 0, 0, 6},
        {"pipelined: 1.5x both ways (3 blocks, 7 tiles, the last partial)", kNearest, 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 7},
        {"pipelined, NEAREST_FLOOR, not streaming, padded rows", kNearestFloor, 2, 45, 192, 3, 30, 128, 16, 32, 0, 0, 8},
        {"pipelined: one tile", kNearest, 1, 3, 192, 3, 2, 128, 0, 0, 0, 0, 7},
        {"pipelined: two tiles", kNearest, 1, 96, 192, 3, 64, 128, 0, 0, 0, 0, 8},
        {"pipelined: 2x, 1 channel", kNearest, 2, 54, 128, 1, 27, 64, 0, 0, 0, 0, 7},
        {"pipelined: 4 channels 1.5x, NEAREST_FLOOR", kNearestFloor, 2, 30, 48, 4, 20, 32, 0, 0, 0, 0, 8},
        {"pipelined: 4 channels 2x, vertical ties", kNearest, 1, 1280, 64, 4, 300, 32, 0, 0, 0, 0, 7},
        {"tiled asked, partial last group: variant 0", kNearest, 2, 37, 129, 3, 25, 86, 1, 0, 0, 0, 3},
        {"tiled asked, destination 8 bytes off: variant 0", kNearest, 2, 27, 96, 3, 18, 64, 0, 0, 0, 8, 4},
        {"0 with streaming loads and stores, odd widths", kNearestFloor, 2, 37, 129, 3, 25, 86, 5, 3, 0, 0, 2},
        {"0 with streaming, 2x, 4 channels", kNearest, 2, 30, 64, 4, 15, 32, 0, 0, 0, 0, 2},
        {"smallest: 3 -> 2 across, 2 -> 1 down, source rows padded to 12 bytes", kNearest, 2, 2, 3, 3, 1, 2, 3, 0, 0, 0, 0},
        {"one source row: 1 -> 1 down, 2 -> 1 across", kNearestFloor, 3, 1, 2, 4, 1, 1, 0, 0, 0, 0, 0},
    };
    std::mt19937 rng(31);
    constexpr uint8_t kPoison = 0xA5;
    for (const GridRow &r : rows) {
        INFO(r.what);
        const int64_t N = r.n;
        cvtest::BlockImages img(N, r.h, r.w, r.c, r.oh, r.ow, r.srcPad, r.dstPad, r.srcShift, r.dstShift, r.interp, rng, kPoison);
        const cvk::ResizeParams &p = img.p;
        cvk::ResizeNearestShape s{};
        REQUIRE(cvk::planResizeNearest(p, s, r.variant));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], r.interp);
        const size_t outBytes = img.outBytes();
        const auto want = r.interp == kNearest ? cvtest::samplerBytes<uint8_t, kNearest>(p, m, outBytes, kPoison)
                                               : cvtest::samplerBytes<uint8_t, kNearestFloor>(p, m, outBytes, kPoison);
        if (r.interp == kNearest)
            runGridOf<kNearest>(r.c, p, m, s);
        else
            runGridOf<kNearestFloor>(r.c, p, m, s);
        img.check(want, "periodic NEAREST path", kPoison);
    }
}

TEST_CASE("periodic NEAREST path: the 1280 -> 300 rows of the grid test do hold ties that move", "[resize][nearest][cpu]") {
    // 1280 -> 300 rows: cv2 5.0 takes source row 31 for destination row 7 (the exact centre, 31.5, is a pixel edge)
    const Mapping m = mappingOf(nhwc(kAligned, 1, 1280, 12, 3), 300, 8, kNearest);
    CHECK(bandSourceIndex(m.y, m.tiesY, kNearest, 7) == 31);
    CHECK(bandSourceIndex(m.y, m.tiesY, kNearest, 37) == 160);
}
