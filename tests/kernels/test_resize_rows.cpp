// cvResize's row paths on the CPU, no GPU: which shapes take them (cvk::planResizeRows, the benchmark's rows among
// them), and whole blocks run phase by phase for every thread (the same __host__ __device__ functions the kernels
// run), compared byte for byte with the per-pixel sampler on random images, with the destination's padding checked
// untouched.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_rows.cuh"
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

constexpr int64_t kElementBytes[] = {1, 2, 2, 2, 4}; // in cvk::ResizeType order

struct PlanRow {
    const char *what;
    cvk::ResizeParams p;
    bool rows;
    int32_t stripW, strips; // checked when rows
};

} // namespace

TEST_CASE("planResizeRows: the benchmark's rows and what stays on the other paths", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to224 = nhwc(kAligned, 32, 224, 224, 3), to720 = nhwc(kAligned, 32, 720, 1280, 3);
    auto unaligned = src;
    unaligned.data += 1;
    auto dstUnaligned = to720;
    dstUnaligned.data += 1;
    auto strided = src; // pixels 4 bytes apart, 3 channels
    strided.stride[cvk::kW] = 4;
    strided.stride[cvk::kH] = 1920 * 4;
    auto planar = src; // CHW-like: channels a plane apart
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, to720, -1);
    torch.torchMode = cvk::resize::kTvLinear;
    const std::vector<PlanRow> rows = {
        {"bench: NEAREST -> 720x1280 (one strip of 1280 pixels: 3840 table entries)", params(src, to720, kNearest), true, 1280, 1},
        {"bench: LINEAR -> 720x1280 (5760 staged ints: two strips)", params(src, to720, kLinear), true, 640, 2},
        {"bench: CUBIC -> 720x1280", params(src, to720, kCubic), true, 640, 2},
        {"bench: LINEAR -> 224x224 (factor 8.6 across: the sampler)", params(src, to224, kLinear), false, 0, 0},
        {"bench: AREA -> 224x224 (the tiled path)", params(src, to224, kArea), false, 0, 0},
        {"NEAREST_FLOOR", params(src, to720, kNearestFloor), true, 1280, 1},
        {"NEAREST -> 224x224", params(src, to224, kNearest), true, 224, 1},
        {"NEAREST float32, 4 channels (16-byte pixels: strips of 256)",
         params(nhwc(kAligned, 2, 100, 1000, 4, 0, 4), nhwc(kAligned, 2, 50, 700, 4, 0, 4), kNearest, cvk::kResizeF32), true, 256, 3},
        {"NEAREST uint16, 5 channels", params(nhwc(kAligned, 2, 10, 10, 5, 0, 2), nhwc(kAligned, 2, 7, 7, 5, 0, 2), kNearest, cvk::kResizeU16), true, 7, 1},
        {"NEAREST, source not aligned", params(unaligned, to720, kNearest), true, 1280, 1},
        {"NEAREST, pixels not packed", params(strided, to720, kNearest), false, 0, 0},
        {"NEAREST, planar channels", params(planar, to720, kNearest), false, 0, 0},
        {"CUBIC -> 224x224 (factor 8.6 across)", params(src, to224, kCubic), false, 0, 0},
        {"CUBIC factor 3.9 across, 1 channel", params(nhwc(kAligned, 2, 117, 90, 1, 2), nhwc(kAligned, 2, 30, 23, 1), kCubic), true, 23, 1},
        {"LINEAR factor 2 across, 4 channels", params(nhwc(kAligned, 2, 100, 100, 4), nhwc(kAligned, 2, 10, 50, 4), kLinear), true, 50, 1},
        {"LINEAR factor 2.1 across", params(nhwc(kAligned, 2, 100, 105, 3), nhwc(kAligned, 2, 100, 50, 3), kLinear), false, 0, 0},
        {"LINEAR enlarging 1x1 -> 7x5, 4 channels", params(nhwc(kAligned, 2, 1, 1, 4), nhwc(kAligned, 2, 7, 5, 4), kLinear), true, 5, 1},
        {"LINEAR 1x1, 3 channels (3-byte rows: not aligned)", params(nhwc(kAligned, 2, 1, 1, 3), nhwc(kAligned, 2, 7, 5, 3), kLinear), false, 0, 0},
        {"LINEAR, 2 channels", params(nhwc(kAligned, 2, 100, 100, 2), nhwc(kAligned, 2, 77, 61, 2), kLinear), false, 0, 0},
        {"LINEAR uint16", params(nhwc(kAligned, 2, 100, 100, 3, 0, 2), nhwc(kAligned, 2, 77, 61, 3, 0, 2), kLinear, cvk::kResizeU16), false, 0, 0},
        {"LINEAR, source not 4-byte aligned", params(unaligned, to720, kLinear), false, 0, 0},
        {"LINEAR, source rows padded by 3 bytes", params(nhwc(kAligned, 2, 100, 100, 3, 3), nhwc(kAligned, 2, 77, 61, 3), kLinear), false, 0, 0},
        {"LINEAR, destination not aligned (stored bytewise)", params(src, dstUnaligned, kLinear), true, 640, 2},
        {"LINEAR, pixels not packed", params(strided, to720, kLinear), false, 0, 0},
        {"AREA", params(src, nhwc(kAligned, 32, 540, 960, 3), kArea), false, 0, 0},
        {"torchvision modes", torch, false, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeRowShape s{};
        const bool taken = cvk::planResizeRows(r.p, s);
        REQUIRE(taken == r.rows);
        if (!taken) continue;
        CHECK(s.stripW == r.stripW);
        CHECK(s.strips == r.strips);
        CHECK(s.smemBytes <= kRowSmemLimit);
        CHECK(s.staged <= kRowStaged);
        if (s.strips > 1) CHECK(s.stripW % 4 == 0);
    }
    // 1.5x across: consecutive columns' taps lie 4.5 ints apart (2-way bank conflicts), pairs 9 apart (none)
    cvk::ResizeRowShape s{};
    REQUIRE(cvk::planResizeRows(params(src, to720, kLinear), s));
    CHECK(s.paired == 1);
    REQUIRE(cvk::planResizeRows(params(src, to720, kCubic), s));
    CHECK(s.paired == 1);
    REQUIRE(cvk::planResizeRows(params(nhwc(kAligned, 2, 100, 1000, 3), nhwc(kAligned, 2, 100, 999, 3), kLinear), s));
    CHECK(s.paired == 0);
}

namespace {

struct BlockRow {
    const char *what;
    int32_t h, w, c, oh, ow, interp, type;
    int64_t srcPad, dstPad; // bytes after each row
    int64_t dstShift;       // bytes the destination starts past an aligned address
};

// Every block of the gather kernel (gatherKernel in resize_rows.cu), one strip at a time, every row.
template <int I> void runGather(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeRowShape &s) {
    const int32_t pixelBytes = int32_t(p.src.stride[cvk::kW]);
    std::vector<int4> smem(s.smemBytes / 16 + 1);
    auto *table = reinterpret_cast<int32_t *>(smem.data());
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        stripOf(s, m.x.dst, strip, x0, w);
        REQUIRE(4 * ((w * pixelBytes + 3) / 4) <= s.smemBytes);
        for (int tid = 0; tid < kRowThreads; ++tid) gatherTable<I>(m, pixelBytes, x0, w, table, tid, kRowThreads);
        // kGatherRows rows per iteration within each image, so an odd height ends on an iteration of fewer rows
        for (int64_t n = 0; n < p.dst.shape[cvk::kN]; ++n)
            for (int32_t dy0 = 0; dy0 < m.y.dst; dy0 += kGatherRows) {
                const uint8_t *rows[kGatherRows];
                uint8_t *outs[kGatherRows];
                int count = 0;
                for (int j = 0; j < kGatherRows; ++j) {
                    const int32_t dy = dy0 + j < m.y.dst ? dy0 + j : dy0;
                    count += dy0 + j < m.y.dst;
                    rows[j] = reinterpret_cast<const uint8_t *>(p.src.data + n * p.src.stride[cvk::kN] +
                                                                nearestIndex<I>(m.y, m.tiesY, dy) * p.src.stride[cvk::kH]);
                    outs[j] = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[cvk::kN] + dy * p.dst.stride[cvk::kH]) +
                              int64_t(x0) * pixelBytes;
                }
                for (int tid = 0; tid < kRowThreads; ++tid)
                    gatherRows<kGatherRows>(table, w * pixelBytes, rows, outs, count, tid, kRowThreads);
            }
    }
}

// Every block of the rows kernel (rowsKernel in resize_rows.cu), one strip at a time, every row.
template <int I, int CT> void runRows(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeRowShape &s) {
    std::vector<int4> smem(s.smemBytes / 16 + 1);
    const RowBuffers<I> b = carveRows<I>(smem.data(), s, CT);
    std::vector<RowWords<I>> words(kRowThreads);
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        stripOf(s, m.x.dst, strip, x0, w);
        const RowSpan span = rowSpan<I>(m, CT, x0, w);
        REQUIRE(span.count <= s.staged);
        for (int tid = 0; tid < kRowThreads; ++tid) rowTaps<I, CT>(m, x0, w, span, b, tid, kRowThreads);
        // kRowRows<I> rows per iteration within each image, so an odd height ends on an iteration of fewer rows
        constexpr int R = kRowRows<I>;
        for (int64_t n = 0; n < p.dst.shape[cvk::kN]; ++n) {
            const Plane plane{p.src.data + n * p.src.stride[cvk::kN], p.src.stride[cvk::kH], CT, 1};
            for (int32_t dy0 = 0; dy0 < m.y.dst; dy0 += R) {
                const int count = std::min(R, m.y.dst - dy0);
                for (int j = 0; j < count; ++j) {
                    const RowRows<I> rr = rowRows<I>(m, dy0 + j);
                    for (int tid = 0; tid < kRowThreads; ++tid) rowLoad<I>(rr, plane, m.x.src * CT, span, tid, words[size_t(tid)]);
                    for (int tid = 0; tid < kRowThreads; ++tid) rowVertical<I>(rr, words[size_t(tid)], span, b.staged + j * b.stagedPitch, tid);
                }
                for (int tid = 0; tid < kRowThreads; ++tid) rowHorizontal<I, CT>(w, s.paired, b, count, tid, kRowThreads);
                for (int j = 0; j < count; ++j) {
                    auto *out = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[cvk::kN] + (dy0 + j) * p.dst.stride[cvk::kH]) +
                                int64_t(x0) * CT;
                    for (int tid = 0; tid < kRowThreads; ++tid) rowStore(b.out + j * b.outPitch, w * CT, out, tid, kRowThreads);
                }
            }
        }
    }
}

template <int I> void runRowsFor(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeRowShape &s) {
    if (c == 1) runRows<I, 1>(p, m, s);
    if (c == 3) runRows<I, 3>(p, m, s);
    if (c == 4) runRows<I, 4>(p, m, s);
}

template <class T> std::vector<uint8_t> expectedFor(int32_t interp, const cvk::ResizeParams &p, const Mapping &m, size_t bytes, uint8_t poison) {
    switch (interp) {
    case kNearest: return cvtest::samplerBytes<T, kNearest>(p, m, bytes, poison);
    case kNearestFloor: return cvtest::samplerBytes<T, kNearestFloor>(p, m, bytes, poison);
    case kLinear: return cvtest::samplerBytes<T, kLinear>(p, m, bytes, poison);
    default: return cvtest::samplerBytes<T, kCubic>(p, m, bytes, poison);
    }
}

std::vector<uint8_t> expectedOf(int32_t type, int32_t interp, const cvk::ResizeParams &p, const Mapping &m, size_t bytes, uint8_t poison) {
    switch (type) {
    case cvk::kResizeU8: return expectedFor<uint8_t>(interp, p, m, bytes, poison);
    case cvk::kResizeU16: return expectedFor<uint16_t>(interp, p, m, bytes, poison);
    case cvk::kResizeS16: return expectedFor<int16_t>(interp, p, m, bytes, poison);
    case cvk::kResizeF16: return expectedFor<__half>(interp, p, m, bytes, poison);
    default: return expectedFor<float>(interp, p, m, bytes, poison);
    }
}

} // namespace

TEST_CASE("row paths: every block equals the per-pixel sampler byte for byte", "[resize][rows][cpu]") {
    const std::vector<BlockRow> rows = {
        {"NEAREST 1.5x down (the 720p row, scaled)", 108, 192, 3, 72, 128, kNearest, cvk::kResizeU8, 0, 0, 0},
        {"NEAREST 1280 -> 300 and 960 -> 225 (ties on pixel edges)", 96, 1280, 3, 225, 300, kNearest, cvk::kResizeU8, 0, 0, 0},
        {"NEAREST enlarging 1x1 -> 7x5, unaligned destination", 1, 1, 3, 7, 5, kNearest, cvk::kResizeU8, 0, 0, 1},
        {"NEAREST 3000 wide (three strips), padded rows", 4, 3000, 3, 5, 2999, kNearest, cvk::kResizeU8, 5, 3, 0},
        {"NEAREST to 1x1", 50, 70, 4, 1, 1, kNearest, cvk::kResizeU8, 0, 0, 0},
        {"NEAREST 1 channel, odd sizes, unaligned destination", 37, 53, 1, 29, 71, kNearest, cvk::kResizeU8, 1, 1, 3},
        {"NEAREST 2 channels", 37, 53, 2, 40, 19, kNearest, cvk::kResizeU8, 0, 2, 0},
        {"NEAREST 5 channels uint16", 17, 23, 5, 31, 11, kNearest, cvk::kResizeU16, 2, 2, 2},
        {"NEAREST int16 3 channels", 17, 23, 3, 9, 45, kNearest, cvk::kResizeS16, 0, 0, 0},
        {"NEAREST float16 4 channels", 17, 23, 4, 9, 45, kNearest, cvk::kResizeF16, 0, 0, 0},
        {"NEAREST float32 4 channels (16-byte pixels, three strips)", 5, 700, 4, 6, 600, kNearest, cvk::kResizeF32, 0, 4, 0},
        {"NEAREST float32 1 channel", 17, 23, 1, 30, 7, kNearest, cvk::kResizeF32, 0, 0, 0},
        {"NEAREST_FLOOR odd sizes", 37, 53, 3, 29, 71, kNearestFloor, cvk::kResizeU8, 0, 0, 0},
        {"NEAREST_FLOOR float32 3 channels", 37, 53, 3, 80, 20, kNearestFloor, cvk::kResizeF32, 0, 0, 0},
        {"LINEAR 1.5x down (the 720p row, scaled)", 108, 192, 3, 72, 128, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"CUBIC 1.5x down (the 720p row, scaled)", 108, 192, 3, 72, 128, kCubic, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR 1920 -> 1280 across (two strips), 4 rows -> 3", 4, 1920, 3, 3, 1280, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"CUBIC 1920 -> 1280 across (two strips), 4 rows -> 3", 4, 1920, 3, 3, 1280, kCubic, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR odd sizes, padded rows, unaligned destination", 37, 53, 3, 25, 35, kLinear, cvk::kResizeU8, 8, 1, 1},
        {"CUBIC odd sizes, 4 channels", 37, 53, 4, 29, 17, kCubic, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR 4 channels, factor 2 across, 1000 wide (two strips)", 9, 1000, 4, 7, 500, kLinear, cvk::kResizeU8, 4, 0, 0},
        {"LINEAR 4 channels enlarging, unaligned destination", 7, 9, 4, 20, 31, kLinear, cvk::kResizeU8, 0, 3, 1},
        {"CUBIC 3.9x down, 1 channel", 117, 90, 1, 30, 23, kCubic, cvk::kResizeU8, 4, 0, 0},
        {"CUBIC 1 channel, odd width (the last source word partial)", 31, 47, 1, 63, 45, kCubic, cvk::kResizeU8, 0, 3, 2},
        {"LINEAR 1 channel enlarging 4001 wide (several strips)", 3, 4001, 1, 5, 5003, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR enlarging 13x7 -> 40x33", 13, 7, 3, 40, 33, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"CUBIC enlarging 5x6 -> 41x37", 5, 6, 3, 41, 37, kCubic, cvk::kResizeU8, 0, 0, 0},
        {"CUBIC 1x1 -> 7x5", 1, 1, 3, 7, 5, kCubic, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR 1x1 -> 1x1, 4 channels", 1, 1, 4, 1, 1, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"LINEAR tall: 2000 rows -> 3 (factor 667 down)", 2000, 8, 3, 3, 8, kLinear, cvk::kResizeU8, 0, 0, 0},
        {"CUBIC same size", 19, 23, 3, 19, 23, kCubic, cvk::kResizeU8, 0, 0, 0},
    };
    std::mt19937 rng(11);
    constexpr uint8_t kPoison = 0xA5;
    int32_t pairedRuns[2] = {0, 0}; // LINEAR/CUBIC blocks run with consecutive and with paired columns
    for (const BlockRow &r : rows) {
        INFO(r.what);
        const int64_t N = 2, elem = kElementBytes[r.type];
        const int64_t srcRow = (int64_t(r.w) * r.c * elem + 3) / 4 * 4 + r.srcPad, dstRow = int64_t(r.ow) * r.c * elem + r.dstPad;
        std::vector<uint32_t> srcWords(size_t((N * r.h * srcRow + 3) / 4));
        std::vector<uint32_t> dstWords(size_t((N * r.oh * dstRow + r.dstShift + 3) / 4 + 1));
        for (auto &v : srcWords) v = static_cast<uint32_t>(rng());
        auto *dstBytes = reinterpret_cast<uint8_t *>(dstWords.data());
        std::memset(dstBytes, kPoison, dstWords.size() * 4);
        const auto p = params(nhwc(reinterpret_cast<char *>(srcWords.data()), N, r.h, r.w, r.c, srcRow - int64_t(r.w) * r.c * elem, elem),
                              nhwc(reinterpret_cast<char *>(dstBytes + r.dstShift), N, r.oh, r.ow, r.c, r.dstPad, elem), r.interp, r.type);
        cvk::ResizeRowShape s{};
        REQUIRE(cvk::planResizeRows(p, s));
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        const size_t bytes = size_t(N * r.oh * dstRow);
        const std::vector<uint8_t> want = expectedOf(r.type, r.interp, p, m, bytes, kPoison);
        if (r.interp == kNearest) runGather<kNearest>(p, m, s);
        if (r.interp == kNearestFloor) runGather<kNearestFloor>(p, m, s);
        if (r.interp == kLinear || r.interp == kCubic) ++pairedRuns[s.paired];
        if (r.interp == kLinear) runRowsFor<kLinear>(r.c, p, m, s);
        if (r.interp == kCubic) runRowsFor<kCubic>(r.c, p, m, s);
        cvtest::checkAgainstSampler(dstBytes, dstWords.size() * 4, r.dstShift, want, dstRow, "rows path", kPoison);
    }
    CHECK(pairedRuns[0] > 0);
    CHECK(pairedRuns[1] > 0);
}

TEST_CASE("the kernels' index walks visit i = first, first + step, ... as (i % n, i / n)", "[resize][rows][tiled][cpu]") {
    struct WalkRow {
        int64_t first, step;
        int32_t n;
    };
    const std::vector<WalkRow> rows = {{0, 1, 1}, {0, 792, 720}, {5, 792, 720}, {791, 792, 720}, {3, 792, 1},
                                       {0, 256, 41}, {255, 256, 41}, {7, 256, 300}, {100, 256, 7}, {0, 5, 5}};
    for (const WalkRow &r : rows) {
        INFO("first " << r.first << ", step " << r.step << ", n " << r.n);
        RowWalk rw = rowWalkOf(r.first, r.step, r.n);
        Walk tw = walkOf(int(r.first), int(r.step), r.n);
        for (int64_t i = r.first; i < r.first + 50 * r.step; i += r.step, advance(rw), advance(tw)) {
            REQUIRE(rw.n == i / r.n);
            REQUIRE(rw.dy == i % r.n);
            REQUIRE(tw.b == i / r.n);
            REQUIRE(tw.a == i % r.n);
        }
    }
}
