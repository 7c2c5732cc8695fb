// The resize sampler's arithmetic on the CPU (the same __host__ __device__ functions the kernels run), row by row
// against values worked out by hand from OpenCV's resize.cpp and PyTorch's UpSample kernels. Needs no GPU.
#include "../../kernels/resize_filters.cuh"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace cvk::resize;
using Catch::Approx;

namespace {

struct TapRow {
    const char *name;
    int32_t src, dst, d;
    int32_t first;
    float w0, w1;
};

struct IndexRow {
    const char *name;
    int32_t src, dst, d, expected;
};

} // namespace

TEST_CASE("resize axis: OpenCV's scale and the integer factor of INTER_AREA", "[resize][cpu]") {
    CHECK(makeAxis(100, 50).iscale == 2);
    CHECK(makeAxis(99, 33).iscale == 3);
    CHECK(makeAxis(5, 2).iscale == 0);
    CHECK(makeAxis(4, 8).iscale == 0);
    CHECK(makeAxis(7, 7).iscale == 1);
    CHECK(areaKindOf(makeAxis(100, 50), makeAxis(99, 33)) == kAreaFast);
    CHECK(areaKindOf(makeAxis(5, 2), makeAxis(99, 33)) == kAreaTable);
    CHECK(areaKindOf(makeAxis(5, 2), makeAxis(2, 5)) == kAreaLinear);
}

TEST_CASE("resize nearest: INTER_NEAREST_EXACT (centre) and INTER_NEAREST (floor)", "[resize][cpu]") {
    const std::vector<IndexRow> exact = {
        {"3 -> 2, first", 3, 2, 0, 0},     // centre 0.75
        {"3 -> 2, second", 3, 2, 1, 2},    // centre 2.25
        {"2 -> 5, last", 2, 5, 4, 1},      // centre 1.8
        {"1 -> 7", 1, 7, 6, 0},
        {"1920 -> 1", 1920, 1, 0, 960},    // centre 960
        {"1080 -> 224, last", 1080, 224, 223, 1077},
        // A centre exactly on a pixel edge: OpenCV's accumulated sum lands on either side (values read from cv2 5.0).
        {"512 -> 224, centre on an edge", 512, 224, 3, 7},      // 3.5 * 512/224 = 8 exactly; the sum falls short
        {"1280 -> 300, centre on an edge", 1280, 300, 37, 160}, // 37.5 * 1280/300 = 160; the sum reaches it
        {"1280 -> 300, column 7", 1280, 300, 7, 31},            // 7.5 * 1280/300 = 32 exactly; the sum falls short
        {"1024 -> 512, even factor: ties of an exact sum", 1024, 512, 5, 11},
        {"odd source: origin step/2 - 1", 5, 3, 0, 0},
    };
    for (const IndexRow &r : exact) {
        INFO(r.name);
        CHECK(nearestExact(makeAxis(r.src, r.dst), nearestTiesOf(r.src, r.dst), r.d) == r.expected);
    }
    const std::vector<IndexRow> floorRows = {
        {"3 -> 2, second", 3, 2, 1, 1},
        {"2 -> 5, last", 2, 5, 4, 1},
        {"1920 -> 1", 1920, 1, 0, 0},
        {"5 -> 3, last", 5, 3, 2, 3},      // floor(2 * 5/3)
    };
    for (const IndexRow &r : floorRows) {
        INFO(r.name);
        CHECK(nearestFloor(makeAxis(r.src, r.dst), r.d) == r.expected);
    }
}

// OpenCV 5's INTER_NEAREST_EXACT table, written as it defines it: one running double sum per axis.
std::vector<int32_t> openCvNearestExactTable(int32_t src, int32_t dst) {
    std::vector<int32_t> t(dst);
    const double scale = static_cast<double>(src) / dst;
    double f = scale * 0.5;
    for (int32_t d = 0; d < dst; ++d, f += scale) t[d] = std::min(static_cast<int32_t>(f), src - 1);
    return t;
}

TEST_CASE("resize nearest: every index equals OpenCV's running sum, ties included", "[resize][cpu]") {
    struct Pair { int32_t src, dst; };
    std::vector<Pair> pairs = {{1280, 300}, {960, 225}, {512, 224}, {534, 224}, {800, 224}, {1920, 1080},
                               {1080, 1920}, {224, 512}, {300, 1280}, {4000, 3}, {3, 4000}, {1, 7}, {1920, 1},
                               {2048, 6144}, {4096, 6144}, {6000, 9000}}; // the last: ties past kTieBits checked below
    for (int32_t src = 1; src <= 96; ++src)
        for (int32_t dst = 1; dst <= 96; ++dst) pairs.push_back({src, dst});
    int64_t ties = 0;
    for (const Pair &p : pairs) {
        const Axis a = makeAxis(p.src, p.dst);
        const NearestTies t = nearestTiesOf(p.src, p.dst);
        const std::vector<int32_t> ref = openCvNearestExactTable(p.src, p.dst);
        int64_t tieIndex = -1;
        for (int32_t d = 0; d < p.dst; ++d) {
            const bool tie = (2 * int64_t(d) + 1) * p.src % (2 * int64_t(p.dst)) == 0;
            tieIndex += tie;
            ties += tie;
            if (tie && tieIndex >= kTieBits) continue; // past the table: the exact floor, one pixel right at most
            if (nearestExact(a, t, d) != ref[d]) {
                INFO(p.src << " -> " << p.dst << ", pixel " << d << (tie ? " (tie)" : ""));
                CHECK(nearestExact(a, t, d) == ref[d]);
            }
        }
    }
    CHECK(ties > 1000); // the pairs above do have ties to decide
    // Past the table a tie takes the exact floor: the right-hand of the two pixels whose shared edge is the centre.
    const Axis big = makeAxis(6000, 9000);
    const NearestTies t = nearestTiesOf(6000, 9000);
    const std::vector<int32_t> ref = openCvNearestExactTable(6000, 9000);
    for (int32_t d = 3 * kTieBits; d < 9000; ++d) {
        const int32_t got = nearestExact(big, t, d);
        CHECK((got == ref[d] || got == ref[d] + 1));
    }
}

TEST_CASE("resize linear taps: centre-aligned, clamped at both borders", "[resize][cpu]") {
    const std::vector<TapRow> rows = {
        {"upscale, left border", 4, 8, 0, 0, 1.f, 0.f},   // -0.25 -> clamped
        {"upscale, inside", 4, 8, 1, 0, 0.75f, 0.25f},    // 0.25
        {"upscale, right border", 4, 8, 7, 3, 1.f, 0.f},  // 3.25 -> clamped
        {"downscale by 2", 8, 4, 1, 2, 0.5f, 0.5f},       // 2.5
        {"one pixel", 1, 5, 3, 0, 1.f, 0.f},
    };
    for (const TapRow &r : rows) {
        INFO(r.name);
        const Taps t = linearTaps(makeAxis(r.src, r.dst), r.d);
        CHECK(t.first == r.first);
        CHECK(t.w[0] == Approx(r.w0));
        CHECK(t.w[1] == Approx(r.w1));
    }
    CHECK(fixedWeight(0.25f) == 512);
    CHECK(fixedWeight(0.75f) == 1536);
    CHECK(fixedWeight(1.f / 3) == 683);
    CHECK(fixedWeight(-0.09375f) == -192);
}

TEST_CASE("resize area-mode taps of an upscaled axis (OpenCV's INTER_AREA when enlarging)", "[resize][cpu]") {
    const Axis a = makeAxis(2, 5);
    CHECK(areaLinearTaps(a, 0).first == 0);
    CHECK(areaLinearTaps(a, 0).w[1] == 0.f);
    CHECK(areaLinearTaps(a, 1).w[1] == 0.f);
    CHECK(areaLinearTaps(a, 2).first == 0);
    CHECK(areaLinearTaps(a, 2).w[1] == Approx(0.5f)); // the pixel straddles source pixels 0 and 1
    CHECK(areaLinearTaps(a, 3).first == 1);
    CHECK(areaLinearTaps(a, 3).w[1] == 0.f);
}

TEST_CASE("resize cubic taps: a = -0.75, partition of unity", "[resize][cpu]") {
    const Taps same = cubicTaps(makeAxis(9, 9), 4); // x = 0: the pixel itself
    CHECK(same.first == 3);
    CHECK(same.w[0] == Approx(0.f).margin(1e-7));
    CHECK(same.w[1] == Approx(1.f));
    CHECK(same.w[2] == Approx(0.f).margin(1e-7));
    const Taps half = cubicTaps(makeAxis(4, 8), 2); // 0.75 -> s = 0, x = 0.75
    CHECK(half.first == -1);
    const Taps mid = cubicTaps(makeAxis(8, 4), 1); // 2.5 -> x = 0.5
    CHECK(mid.first == 1);
    CHECK(mid.w[0] == Approx(-0.09375f));
    CHECK(mid.w[1] == Approx(0.59375f));
    CHECK(mid.w[2] == Approx(0.59375f));
    CHECK(mid.w[3] == Approx(-0.09375f));
}

TEST_CASE("resize area cells: OpenCV's computeResizeAreaTab", "[resize][cpu]") {
    const Axis a = makeAxis(5, 2); // scale 2.5
    const AreaCell c0 = areaCell(a, 0);
    CHECK(c0.lo == 0);
    CHECK(c0.hi == 2);
    CHECK(c0.inner == Approx(0.4f));
    CHECK(c0.head == 0.f);
    CHECK(c0.tail == Approx(0.2f)); // half of pixel 2
    const AreaCell c1 = areaCell(a, 1);
    CHECK(c1.lo == 3);
    CHECK(c1.hi == 4);
    CHECK(c1.head == Approx(0.2f)); // the other half of pixel 2
    CHECK(c1.tail == Approx(0.4f)); // pixel 4, whole
}

namespace {

// The AREA table row sum of cell c of `row` in each order of resize_filters.cuh's areaSumFirst, as float.
template <class T> void areaOrders(const std::vector<T> &row, const AreaCell &c, float &perPixel, float &sumFirst) {
    float inner = 0.f;
    perPixel = sumFirst = 0.f;
    if (c.head != 0.f) perPixel += c.head * float(row[size_t(c.lo - 1)]), sumFirst += c.head * float(row[size_t(c.lo - 1)]);
    for (int32_t x = c.lo; x < c.hi; ++x) perPixel += c.inner * float(row[size_t(x)]), inner += float(row[size_t(x)]);
    sumFirst += c.inner * inner;
    if (c.tail != 0.f) perPixel += c.tail * float(row[size_t(c.hi)]), sumFirst += c.tail * float(row[size_t(c.hi)]);
}

} // namespace

TEST_CASE("resize area row sums: uint8 sums the inner pixels first above an x scale of 5, else OpenCV's order", "[resize][cpu]") {
    CHECK_FALSE(areaSumFirst<uint8_t>(makeAxis(1920, 1280))); // 1.5
    CHECK_FALSE(areaSumFirst<uint8_t>(makeAxis(5, 1)));       // 5: runs of at most 6 taps
    CHECK(areaSumFirst<uint8_t>(makeAxis(1920, 360)));        // 5.33
    CHECK(areaSumFirst<uint8_t>(makeAxis(1920, 224)));        // 8.57
    CHECK_FALSE(areaSumFirst<float>(makeAxis(1920, 224)));    // no row kernel serves floats: OpenCV's order
    CHECK_FALSE(areaSumFirst<uint16_t>(makeAxis(1920, 224)));
    // One row, one destination row: the sampler's unrounded value against each order written out, and the two
    // orders differing somewhere, so that the check can tell them apart.
    std::vector<uint8_t> bytes(1920);
    std::vector<float> floats(1920);
    uint32_t state = 1;
    for (size_t i = 0; i < bytes.size(); ++i) {
        state = state * 1664525u + 1013904223u;
        bytes[i] = uint8_t(state >> 24);
        floats[i] = float(state >> 8) / 16777216.f * 1000.f;
    }
    const Plane pb{reinterpret_cast<const char *>(bytes.data()), 0, 1, 0};
    const Plane pf{reinterpret_cast<const char *>(floats.data()), 0, sizeof(float), 0};
    for (const int32_t dstW : {800, 700, 350, 224}) { // 2.4 and 2.74 pixel by pixel, 5.49 and 8.57 summed first (inner
        // weights that are no short binary fraction: 1 / 3.2 and 1 / 5.33 are, and make both orders exact)
        INFO("1920 -> " << dstW);
        const Mapping m{makeAxis(1920, dstW), makeAxis(1, 1), kArea, kAreaTable, {}, {}};
        REQUIRE(areaKindOf(m.x, m.y) == kAreaTable);
        int32_t differ8 = 0, differ32 = 0;
        for (int32_t dx = 0; dx < dstW; ++dx) {
            const AreaCell c = areaCell(m.x, dx);
            float perPixel, sumFirst, got = -1.f;
            areaOrders(bytes, c, perPixel, sumFirst);
            samplePixel<uint8_t, kArea>(m, pb, dx, 0, 1, [&](int32_t, uint8_t, float real) { got = real; });
            CHECK(got == (areaSumFirst<uint8_t>(m.x) ? sumFirst : perPixel));
            differ8 += perPixel != sumFirst;
            areaOrders(floats, c, perPixel, sumFirst);
            samplePixel<float, kArea>(m, pf, dx, 0, 1, [&](int32_t, float v, float) { got = v; });
            CHECK(got == perPixel);
            differ32 += perPixel != sumFirst;
        }
        CHECK(differ8 > 0);
        CHECK(differ32 > 0);
    }
}

TEST_CASE("resize rounding: saturate_cast half to even, fixed point half up", "[resize][cpu]") {
    CHECK(saturateFloat<uint8_t>(2.5f) == 2);
    CHECK(saturateFloat<uint8_t>(3.5f) == 4);
    CHECK(saturateFloat<uint8_t>(-3.f) == 0);
    CHECK(saturateFloat<uint8_t>(300.f) == 255);
    CHECK(saturateFloat<int16_t>(-40000.f) == -32768);
    CHECK(saturateFloat<uint16_t>(70000.f) == 65535);
    CHECK(fixedToU8(1 << 21) == 1);
    CHECK(fixedToU8((1 << 21) - 1) == 0);
    CHECK(fixedToU8(-5) == 0);
    CHECK(fixedToU8(300 << 22) == 255);
}

TEST_CASE("resize sampler on a host image: uint8 fixed point and float agree with hand values", "[resize][cpu]") {
    const uint8_t img[4] = {0, 100, 200, 255}; // 2 x 2, one channel
    const Plane p{reinterpret_cast<const char *>(img), 2, 1, 1};
    Mapping m{makeAxis(2, 1), makeAxis(2, 1), kLinear, kAreaFast, {}, {}};
    int got = -1;
    float real = -1.f;
    samplePixel<uint8_t, kLinear>(m, p, 0, 0, 1, [&](int32_t, uint8_t v, float r) { got = v, real = r; });
    CHECK(got == 139); // 138.75, fixed point rounds half up
    CHECK(real == Approx(138.75f));
    m.interp = kArea;
    samplePixel<uint8_t, kArea>(m, p, 0, 0, 1, [&](int32_t, uint8_t v, float) { got = v; });
    CHECK(got == 139);
}

TEST_CASE("torchvision antialias windows: support scaled by the downscale factor, weights normalised", "[resize][cpu]") {
    // 8 -> 2 bilinear AA: scale 4, support 4, centre of output 0 at 2: source [0, 6), triangle of half-width 4.
    const TvWindow w = tvWindow(8, 4.f, 0, 1.f);
    CHECK(w.lo == 0);
    CHECK(w.size == 6);
    const float total = tvAATotal<false>(w);
    float sum = 0.f;
    for (int32_t j = 0; j < w.size; ++j) sum += tvAAWeight<false>(w, j, total);
    CHECK(sum == Approx(1.f));
    CHECK(tvAAWeight<false>(w, 1, total) == Approx(tvAAWeight<false>(w, 2, total))); // symmetric about 2
    // Upscaling: support stays at the filter's own size (1 for bilinear, 2 for bicubic).
    const TvWindow up = tvWindow(4, 0.5f, 3, 2.f);
    CHECK(up.lo == 0);
    CHECK(up.size == 4);
    CHECK(tvAAFilter<true>(0.f) == 1.f);
    CHECK(tvAAFilter<true>(1.5f) == Approx(-0.0625f)); // Keys a = -0.5
}

TEST_CASE("torchvision antialias, uint8: fixed-point weights, two signed 16-bit parts within 2^-29", "[resize][cpu]") {
    struct SplitRow {
        float w;
        int32_t hi, lo;
    };
    const float u = kTvFixedUnit, uu = kTvFixedUnit * kTvFixedUnit;
    const std::vector<SplitRow> rows = {
        {1.f, 16384, 0}, {0.f, 0, 0}, {0.5f * u, 1, -8192}, {-0.5f * u, -1, 8192}, {0.49f * u, 0, 8028},
        {-1.51f * u, -2, 8028}, {3 * u + 5 * uu, 3, 5}, {0.25f, 4096, 0}, {-0.0625f, -1024, 0},
    };
    for (const SplitRow &r : rows) {
        INFO("w " << r.w);
        int32_t hi = 0, lo = 0;
        tvFixedSplit(r.w, hi, lo);
        CHECK(hi == r.hi);
        CHECK(lo == r.lo);
    }
    // Every normalised weight of every window, both filters, sources and outputs of 1 to 70 pixels and the
    // benchmark's axes: inside (-0.2, 1.2), as tvFixedSplit's comment says, so hi fits 16 bits; |lo| <= 2^13; and the
    // parts give the weight within 2^-29.
    std::vector<std::pair<int32_t, int32_t>> axes = {{1080, 256}, {1920, 455}, {1080, 224}, {2000, 100}, {4000, 3}};
    for (int32_t s = 1; s <= 70; ++s)
        for (int32_t d = 1; d <= 70; ++d) axes.emplace_back(s, d);
    float lowest = 0.f, highest = 0.f;
    double worst = 0.;
    int32_t mostLo = 0;
    for (const auto &[src, dst] : axes)
        for (bool cubic : {false, true})
            for (int32_t i = 0; i < dst; ++i) {
                const TvWindow w = tvWindow(src, tvScale(src, dst), i, cubic ? 2.f : 1.f);
                const float total = cubic ? tvAATotal<true>(w) : tvAATotal<false>(w);
                for (int32_t k = 0; k < w.size; ++k) {
                    const float v = cubic ? tvAAWeight<true>(w, k, total) : tvAAWeight<false>(w, k, total);
                    lowest = std::min(lowest, v);
                    highest = std::max(highest, v);
                    int32_t hi = 0, lo = 0;
                    tvFixedSplit(v, hi, lo);
                    worst = std::max(worst, std::abs(double(v) - (hi + lo / 16384.) / 16384.));
                    mostLo = std::max(mostLo, std::abs(lo));
                }
            }
    CHECK(lowest > -0.2f);
    CHECK(highest < 1.2f);
    CHECK(mostLo <= 8192);
    CHECK(worst <= std::ldexp(1., -29));
}

namespace {

struct FixedRow {
    const char *name;
    int32_t srcH, srcW, dstH, dstW;
    bool cubic;
};

// PyTorch's all-float value of an antialiased output pixel of a one-channel uint8 image (torchvision converts uint8 to
// float32 before interpolating): the sum sampleTorch computes for float sources, term for term.
template <bool Cubic> float torchFloatValue(const std::vector<uint8_t> &img, const FixedRow &r, int32_t dx, int32_t dy) {
    const TvWindow wx = tvWindow(r.srcW, tvScale(r.srcW, r.dstW), dx, Cubic ? 2.f : 1.f);
    const TvWindow wy = tvWindow(r.srcH, tvScale(r.srcH, r.dstH), dy, Cubic ? 2.f : 1.f);
    const float tx = tvAATotal<Cubic>(wx), ty = tvAATotal<Cubic>(wy);
    float acc = 0.f;
    for (int32_t j = 0; j < wy.size; ++j) {
        float h = 0.f;
        for (int32_t i = 0; i < wx.size; ++i) h += tvAAWeight<Cubic>(wx, i, tx) * float(img[size_t(wy.lo + j) * r.srcW + wx.lo + i]);
        acc += tvAAWeight<Cubic>(wy, j, ty) * h;
    }
    return acc;
}

} // namespace

TEST_CASE("torchvision antialias, uint8: the fixed-point sums stay within float rounding of PyTorch's float sums", "[resize][cpu]") {
    // The bound of tvFixedSplit's comment, independent of the weights the code computes: each weight within 2^-29, so
    // a horizontal sum of n taps within n * 255 * 2^-29, times the vertical weights' absolute sum; plus float32
    // rounding of both sides' sums, (n + m + 2) * 2^-24 of 255 * 1.25 (m vertical taps). The rounded uint8 outputs
    // differ only where a value lies that close to a half. Horizontal windows past kTvFixedMaxTaps keep PyTorch's
    // float sums, the same values.
    const std::vector<FixedRow> rows = {
        {"bilinear 1080x1920 -> 256x455 (the benchmark's), a band", 64, 1920, 15, 455, false},
        {"bicubic 4.2x down (19 taps)", 135, 241, 32, 57, true},
        {"bilinear 9x down", 300, 290, 33, 32, false},
        {"bicubic 11x down (45 taps, a 48-tap tile's)", 440, 440, 40, 40, true},
        {"bicubic 20x down (81 taps: float sums)", 400, 400, 20, 20, true},
        {"bilinear enlarging", 9, 14, 40, 33, false},
        {"bicubic enlarging", 9, 14, 40, 33, true},
        {"1x1 source", 1, 1, 5, 4, true},
    };
    std::mt19937 rng(5);
    for (const FixedRow &r : rows) {
        INFO(r.name);
        std::vector<uint8_t> img(size_t(r.srcH) * r.srcW);
        for (auto &v : img) v = static_cast<uint8_t>(rng());
        const Plane p{reinterpret_cast<const char *>(img.data()), r.srcW, 1, 0};
        const Axis ax = makeAxis(r.srcW, r.dstW), ay = makeAxis(r.srcH, r.dstH);
        int64_t bad = 0, roundedApart = 0;
        float worst = 0.f;
        for (int32_t dy = 0; dy < r.dstH; ++dy)
            for (int32_t dx = 0; dx < r.dstW; ++dx) {
                float fixed = 0.f;
                uint8_t rounded = 0;
                const auto emit = [&](int32_t, uint8_t v, float real) { fixed = real, rounded = v; };
                const float want = r.cubic ? torchFloatValue<true>(img, r, dx, dy) : torchFloatValue<false>(img, r, dx, dy);
                if (r.cubic)
                    sampleTorch<uint8_t, kTvCubicAA>(ax, ay, p, dx, dy, 1, emit);
                else
                    sampleTorch<uint8_t, kTvLinearAA>(ax, ay, p, dx, dy, 1, emit);
                const TvWindow wx = tvWindow(r.srcW, tvScale(r.srcW, r.dstW), dx, r.cubic ? 2.f : 1.f);
                const TvWindow wy = tvWindow(r.srcH, tvScale(r.srcH, r.dstH), dy, r.cubic ? 2.f : 1.f);
                const float ty = r.cubic ? tvAATotal<true>(wy) : tvAATotal<false>(wy);
                float vertical = 0.f;
                for (int32_t j = 0; j < wy.size; ++j)
                    vertical += std::abs(r.cubic ? tvAAWeight<true>(wy, j, ty) : tvAAWeight<false>(wy, j, ty));
                const float rounding = float(wx.size + wy.size + 2) * 255.f * 1.25f * 0x1p-24f;
                const float bound = wx.size > kTvFixedMaxTaps ? 0.f : vertical * float(wx.size) * 255.f * 0x1p-29f + rounding;
                worst = std::max(worst, bound);
                const float diff = std::abs(fixed - want);
                const int apart = std::abs(int(rounded) - int(saturateFloat<uint8_t>(want)));
                if ((diff > bound || apart > 1) && bad++ < 5)
                    FAIL_CHECK("(" << dx << ", " << dy << "): fixed " << fixed << ", float " << want << ", bound " << bound);
                roundedApart += apart;
            }
        CHECK(bad == 0);
        CHECK(worst < 0.01f);
        CHECK(roundedApart * 1000 <= int64_t(r.dstH) * r.dstW); // outputs a rounding apart: under 0.1 %
    }
}
