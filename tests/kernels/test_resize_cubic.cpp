// cvResize's separable CUBIC path on the CPU, no GPU: which shapes take it (cvk::planResizeCubic, the benchmark's
// among them), how the batch's rows are cut into bands (cvk::setResizeCubicBands), and whole blocks run phase by
// phase for every thread (the same __host__ __device__ functions the kernel runs), compared byte for byte with the
// per-pixel sampler on random images, with the destination's padding checked untouched. The emulation filters each
// item only after every thread has issued the copies of the items ahead + 1 on (ResizeCubicShape::ahead), the latest
// order the kernel's one barrier per item allows, so a ring slot reused too early shows as wrong bytes.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_cubic.cuh"
#include "resize_views.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
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
    int32_t stripW, strips, threads; // checked when taken
};

} // namespace

TEST_CASE("planResizeCubic: the benchmark's rows and what stays on the other paths", "[resize][dispatch]") {
    const auto src = nhwc(kAligned, 32, 1080, 1920, 3);
    const auto to720 = nhwc(kAligned, 32, 720, 1280, 3), to224 = nhwc(kAligned, 32, 224, 224, 3);
    auto unaligned = src;
    unaligned.data += 1;
    auto planar = src;
    planar.stride[cvk::kC] = 1080 * 1920;
    cvk::ResizeParams torch = params(src, to720, -1);
    torch.torchMode = kTvCubic;
    auto u16 = params(nhwc(kAligned, 2, 100, 100, 3, 0, 2), nhwc(kAligned, 2, 77, 61, 3, 0, 2), kCubic, cvk::kResizeU16);
    const std::vector<PlanRow> rows = {
        {"bench: CUBIC -> 720x1280, 4 pixels, 256 threads (two strips)", params(src, to720, kCubic), 1, true, 640, 2, 160},
        {"bench: CUBIC -> 720x1280, 4 pixels, 320 threads (one strip)", params(src, to720, kCubic), 2, true, 1280, 1, 320},
        {"bench: CUBIC -> 720x1280, 2 pixels, 320 threads", params(src, to720, kCubic), 0, true, 640, 2, 320},
        {"bench: CUBIC -> 720x1280, 4 pixels, 256 threads, 8 items in flight", params(src, to720, kCubic), 3, true, 640, 2, 160},
        {"CUBIC 2x down -> 540x960", params(src, nhwc(kAligned, 32, 540, 960, 3), kCubic), 1, true, 960, 1, 256},
        {"CUBIC 2x up 540x960 -> 1080x1920", params(nhwc(kAligned, 32, 540, 960, 3), src, kCubic), 1, true, 960, 2, 256},
        {"CUBIC 1 channel", params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 720, 1280, 1), kCubic), 1, true, 640, 2, 160},
        {"CUBIC 4 channels", params(nhwc(kAligned, 2, 1080, 1920, 4), nhwc(kAligned, 2, 720, 1280, 4), kCubic), 1, true, 640, 2, 160},
        {"CUBIC source not 4-byte aligned (the rows' strides are)", params(unaligned, to720, kCubic), 1, true, 640, 2, 160},
        {"CUBIC 1x4 -> 7x5, rows padded to 4 bytes", params(nhwc(kAligned, 2, 1, 4, 3, 0), nhwc(kAligned, 2, 7, 5, 3), kCubic), 1, true, 5, 1, 32},
        {"CUBIC 1x3: rows under cubicWindow's 4 pixels", params(nhwc(kAligned, 2, 1, 3, 3, 3), nhwc(kAligned, 2, 7, 5, 3), kCubic), 1, false, 0, 0, 0},
        {"CUBIC 1x1 -> 7x5", params(nhwc(kAligned, 2, 1, 1, 3, 1), nhwc(kAligned, 2, 7, 5, 3), kCubic), 1, false, 0, 0, 0},
        {"CUBIC -> 224x224 (factor 8.6 across)", params(src, to224, kCubic), 1, false, 0, 0, 0},
        {"CUBIC factor 4.5 down, 1.5 across", params(src, nhwc(kAligned, 32, 240, 1280, 3), kCubic), 1, false, 0, 0, 0},
        {"CUBIC source rows padded by 3 bytes", params(nhwc(kAligned, 2, 100, 100, 3, 3), nhwc(kAligned, 2, 77, 61, 3), kCubic), 1, false, 0, 0, 0},
        {"CUBIC 2 channels", params(nhwc(kAligned, 2, 100, 100, 2), nhwc(kAligned, 2, 77, 61, 2), kCubic), 1, false, 0, 0, 0},
        {"CUBIC planar channels", params(planar, to720, kCubic), 1, false, 0, 0, 0},
        {"CUBIC uint16", u16, 1, false, 0, 0, 0},
        {"LINEAR", params(src, to720, kLinear), 1, false, 0, 0, 0},
        {"torchvision bicubic", torch, 1, false, 0, 0, 0},
        {"bench, aligned: 2 pixels, 320 threads, 3 blocks per SM", params(src, to720, kCubic), 4, true, 640, 2, 320},
        {"bench, aligned: 4 pixels, 160 threads", params(src, to720, kCubic), 6, true, 640, 2, 160},
        {"bench, aligned: 1 pixel, 512 threads", params(src, to720, kCubic), 8, true, 427, 3, 448},
        {"aligned variant, source 1 byte off: variant 2 instead", params(unaligned, to720, kCubic), 4, true, 1280, 1, 320},
        {"aligned variant, rows of 100 x 3 bytes: variant 2 instead", params(nhwc(kAligned, 2, 100, 100, 3), nhwc(kAligned, 2, 77, 61, 3), kCubic), 4, true,
         61, 1, 32},
        {"bench, aligned: 3 pixels, 224 threads", params(src, to720, kCubic), 10, true, 640, 2, 224},
        {"bench, aligned: 4 pixels, 160 threads, 5 blocks per SM", params(src, to720, kCubic), 12, true, 640, 2, 160},
        {"bench, aligned: 4 pixels, 160 threads, 8 items in flight", params(src, to720, kCubic), 13, true, 640, 2, 160},
        {"bench, aligned: 5 pixels, 128 threads", params(src, to720, kCubic), 14, true, 640, 2, 128},
        {"bench, bulk copies: 5 pixels, 128 threads", params(src, to720, kCubic), 16, true, 640, 2, 128},
        {"bulk variant, source 1 byte off: variant 2 instead", params(unaligned, to720, kCubic), 16, true, 1280, 1, 320},
        {"no such variant", params(src, to720, kCubic), 18, false, 0, 0, 0},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::ResizeCubicShape s{};
        const bool taken = cvk::planResizeCubic(r.p, s, r.variant, 0); // strips as wide as the ring allows
        REQUIRE(taken == r.taken);
        if (!taken) continue;
        CHECK(s.variant == (std::strstr(r.what, "variant 2 instead") ? 2 : r.variant));
        CHECK(s.stripW == r.stripW);
        CHECK(s.strips == r.strips);
        CHECK(s.threads == r.threads);
        CHECK(s.smemBytes <= kCubicSmemLimit);
    }
    // launchResize's choice for the benchmark: kResizeCubicVariant in strips of at most kResizeCubicMaxStripW columns
    // (checked for whichever values those constants hold)
    cvk::ResizeCubicShape s{}, named{};
    REQUIRE(cvk::planResizeCubic(params(src, to720, kCubic), s));
    REQUIRE(cvk::planResizeCubic(params(src, to720, kCubic), named, cvk::kResizeCubicVariant, cvk::kResizeCubicMaxStripW));
    CHECK(s.variant == cvk::kResizeCubicVariant);
    CHECK(s.stripW == named.stripW);
    CHECK(s.strips == named.strips);
    CHECK(s.threads == named.threads);
    CHECK(s.stripW <= cvk::kResizeCubicMaxStripW);
    CHECK(s.strips * s.stripW >= 1280);
    // Which planned shapes launchResize sends to the separable path.
    struct PreferredRow {
        const char *what;
        cvk::ResizeParams p;
        bool preferred;
    };
    const PreferredRow preferred[] = {
        {"3 channels", params(src, to720, kCubic), true},
        {"4 channels", params(nhwc(kAligned, 2, 1080, 1920, 4), nhwc(kAligned, 2, 720, 1280, 4), kCubic), true},
        {"1 channel, aligned: kResizeCubicVariant", params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 720, 1280, 1), kCubic),
         cvk::kResizeCubicOneChannel},
        {"1 channel, source 1 byte off: variant 2, the row paths instead",
         params(nhwc(kAligned + 1, 32, 1080, 1920, 1), nhwc(kAligned, 32, 720, 1280, 1), kCubic), cvk::kResizeCubicVariant == 2 && cvk::kResizeCubicOneChannel},
    };
    for (const PreferredRow &r : preferred) {
        INFO(r.what);
        cvk::ResizeCubicShape planned{};
        REQUIRE(cvk::planResizeCubic(r.p, planned));
        CHECK(cvk::resizeCubicPreferred(r.p, planned) == r.preferred);
    }
    // launchResize's plan where the kernels lack sm_90 code (no bulk copies): one channel stays on the separable path
    cvk::ResizeCubicShape noBulk{};
    const cvk::ResizeParams one = params(nhwc(kAligned, 32, 1080, 1920, 1), nhwc(kAligned, 32, 720, 1280, 1), kCubic);
    REQUIRE(cvk::planResizeCubic(one, noBulk, cvk::kResizeCubicNoBulkVariant));
    CHECK(noBulk.variant == cvk::kResizeCubicNoBulkVariant);
    CHECK(cvk::resizeCubicPreferred(one, noBulk) == cvk::kResizeCubicOneChannel);
}

TEST_CASE("setResizeCubicBands: one band per block, at most kCubicMaxBandRows rows", "[resize][cubic][cpu]") {
    struct BandsRow {
        int64_t rows, blocks, bandRows, bands;
    };
    const std::vector<BandsRow> rows = {{23040, 396, 59, 391}, {23040, 264, 88, 262}, {23040, 100, 128, 180}, {5, 100, 1, 5}, {1, 1, 1, 1}, {300, 1, 128, 3}};
    for (const BandsRow &r : rows) {
        INFO("rows " << r.rows << ", blocks " << r.blocks);
        cvk::ResizeCubicShape s{};
        cvk::setResizeCubicBands(s, r.rows, r.blocks);
        CHECK(s.bandRows == r.bandRows);
        CHECK(s.bands == r.bands);
        CHECK(s.bandRows <= kCubicMaxBandRows);
        CHECK((s.bands - 1) * s.bandRows < r.rows);
        CHECK(s.bands * s.bandRows >= r.rows);
    }
}

namespace {

struct BlockRow {
    const char *what;
    int32_t n, h, w, c, oh, ow, variant;
    int64_t srcPad, dstPad;     // bytes after each row
    int64_t srcShift, dstShift; // bytes each starts past a 16-byte aligned address
    int64_t blocks;             // blocks per strip the bands are cut for
    int32_t maxStripW;
    bool alignedSource; // 16-byte aligned rows of whole 16-byte chunks (the aligned variants' sources)
};

// The kernel variants' pixels per thread and staging (resize_cubic.cu's kCubicVariants): 4 on are the aligned ones.
// The bulk variants (16 on) stage the same bytes at the same slot offsets as the aligned ones (one bulk copy of the
// span's chunks), so the same phases model them.
constexpr int kVariantPixels[] = {2, 4, 4, 4, 2, 2, 4, 4, 1, 2, 3, 4, 4, 4, 5, 5, 5, 5}; // resize_cubic.cu's kCubicVariants
static_assert(sizeof(kVariantPixels) / sizeof(kVariantPixels[0]) == 18, "one entry per variant");
constexpr bool variantAligned(int32_t v) { return v >= 4; }

template <int CT, int P, bool A, int S> void filter(std::vector<CubicThread<CT, P, A>> &threads, const uint8_t *slot) {
    for (auto &t : threads) t.template horizontal<S>(A ? reinterpret_cast<const uint32_t *>(slot) : cubicWords(slot));
}
template <int CT, int P, bool A, int S> void emitRow(const std::vector<CubicThread<CT, P, A>> &threads, const CubicRowEntry &e, uint8_t *out) {
    for (const auto &t : threads) t.template emit<S>(e, out + t.col0 * CT); // the kernel's: each thread's first pixel
}

// Every block of the kernel (cubicKernel in resize_cubic.cu): per strip the threads' column constants, then per band
// the table and its items, each filtered (and its rows emitted) after the copies of the next ahead + 1 items
// are issued (the kernel's worst case).
template <int CT, int P, bool A> void runCubic(const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeCubicShape &s) {
    std::vector<int4> smem(size_t(s.smemBytes) / 16 + 1, int4{0, 0, 0, 0});
    auto *slots = reinterpret_cast<uint8_t *>(smem.data());
    const int D = s.ahead, kSlots = cubicSlots(D);
    auto *table = reinterpret_cast<CubicRowEntry *>(slots + kSlots * s.slotPitch);
    auto *emitAt = reinterpret_cast<int32_t *>(table + kCubicMaxBandRows);
    REQUIRE(int64_t(kSlots) * (s.slotPitch + 8) + kCubicMaxBandRows * int64_t(sizeof(CubicRowEntry) + 4) == s.smemBytes); // + an mbarrier a slot
    const int nthreads = s.threads;
    const int64_t rows = p.dst.shape[cvk::kN] * m.y.dst;
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        cubicStripOf(s, m.x.dst, strip, x0, w);
        REQUIRE(w <= nthreads * P);
        const CubicStrip st = cubicStrip(m, CT, x0, w);
        REQUIRE(cubicSlotPitch(st, CT) <= s.slotPitch);
        const int copiers = cubicCopyThreads(st, nthreads);
        REQUIRE(copiers % 32 == 0);
        REQUIRE(copiers <= nthreads);
        std::vector<CubicThread<CT, P, A>> threads(static_cast<size_t>(nthreads));
        for (int tid = 0; tid < nthreads; ++tid)
            threads[size_t(tid)].init(m, st, int32_t((reinterpret_cast<uintptr_t>(p.src.data) + uintptr_t(st.b0)) & (A ? 15u : 3u)), tid);
        for (int64_t band = 0; band < s.bands; ++band) {
            const int64_t d0 = band * s.bandRows, d1 = std::min(rows, d0 + s.bandRows);
            const CubicBand b = cubicBand(m, d0, d1);
            for (int tid = 0; tid < nthreads; ++tid) cubicTable(m, b, table, emitAt, tid, nthreads);
            const int32_t items = cubicItems(b), bandRows = int32_t(d1 - d0);
            REQUIRE(emitAt[bandRows - 1] == items - 1);
            CubicWalk walk = cubicWalk(b);
            auto issue = [&](int32_t i) { // every thread's copy of the walk steps the same way
                const CubicWalk before = walk;
                for (int tid = 0; tid < nthreads; ++tid) {
                    walk = before;
                    if (A) cubicIssueAligned(p, m, st, b, walk, slots + (i % kSlots) * s.slotPitch, tid, copiers);
                    else cubicIssue(p, m, st, b, walk, slots + (i % kSlots) * s.slotPitch, tid, copiers);
                }
            };
            int32_t e = 0, dy = b.dy0;
            int64_t n = b.n0;
            auto compute = [&](int32_t i) {
                const uint8_t *slot = slots + (i % kSlots) * s.slotPitch;
                const int S = i % kCubicWindow;
                if (S == 0) filter<CT, P, A, 0>(threads, slot);
                if (S == 1) filter<CT, P, A, 1>(threads, slot);
                if (S == 2) filter<CT, P, A, 2>(threads, slot);
                if (S == 3) filter<CT, P, A, 3>(threads, slot);
                while (e < bandRows && emitAt[e] == i) {
                    REQUIRE(i >= 3);
                    auto *out = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[cvk::kN] + int64_t(dy) * p.dst.stride[cvk::kH]) + int64_t(x0) * CT;
                    if (S == 0) emitRow<CT, P, A, 0>(threads, table[e], out);
                    if (S == 1) emitRow<CT, P, A, 1>(threads, table[e], out);
                    if (S == 2) emitRow<CT, P, A, 2>(threads, table[e], out);
                    if (S == 3) emitRow<CT, P, A, 3>(threads, table[e], out);
                    ++e;
                    if (++dy == m.y.dst) dy = 0, ++n;
                }
            };
            for (int32_t i = 0; i < D && i < items; ++i) issue(i);
            for (int32_t i = 0; i < items; ++i) {
                if (i + D < items) issue(i + D);
                if (i > 0) compute(i - 1);
            }
            compute(items - 1);
            CHECK(e == bandRows);
        }
    }
}

template <int P, bool A> void runCubicFor(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeCubicShape &s) {
    if (c == 1) runCubic<1, P, A>(p, m, s);
    if (c == 3) runCubic<3, P, A>(p, m, s);
    if (c == 4) runCubic<4, P, A>(p, m, s);
}
void runVariant(int32_t c, const cvk::ResizeParams &p, const Mapping &m, const cvk::ResizeCubicShape &s) {
    const int P = kVariantPixels[s.variant];
    if (!variantAligned(s.variant)) {
        if (P == 2) runCubicFor<2, false>(c, p, m, s);
        else runCubicFor<4, false>(c, p, m, s);
    } else if (P == 1) {
        runCubicFor<1, true>(c, p, m, s);
    } else if (P == 2) {
        runCubicFor<2, true>(c, p, m, s);
    } else if (P == 3) {
        runCubicFor<3, true>(c, p, m, s);
    } else if (P == 5) {
        runCubicFor<5, true>(c, p, m, s);
    } else {
        runCubicFor<4, true>(c, p, m, s);
    }
}

} // namespace

TEST_CASE("separable CUBIC path: every block equals the per-pixel sampler byte for byte", "[resize][cubic][cpu]") {
    const std::vector<BlockRow> rows = {
        {"1.5x down (the 720p row, scaled), bands across images", 3, 108, 192, 3, 72, 128, 1, 0, 0, 0, 0, 7, 0, false},
        {"1.5x down, 2 pixels a thread", 3, 108, 192, 3, 72, 128, 0, 0, 0, 0, 0, 5, 0, false},
        {"1.5x down, 8 items in flight", 3, 108, 192, 3, 72, 128, 3, 0, 0, 0, 0, 5, 0, false},
        {"2x up, 4 channels, 8 items in flight, unaligned both", 2, 21, 30, 4, 42, 60, 3, 0, 1, 4, 2, 4, 0, false},
        {"1.5x down, 4 pixels, 320 threads, narrow strips", 2, 54, 192, 3, 36, 128, 2, 0, 0, 0, 0, 3, 40, false},
        {"1920 -> 1280 across (two strips), 9 rows -> 6", 2, 9, 1920, 3, 6, 1280, 1, 0, 0, 0, 0, 3, 0, false},
        {"1920 -> 1280 across, one strip of 320 threads", 1, 9, 1920, 3, 6, 1280, 2, 0, 0, 0, 0, 2, 0, false},
        {"2x down, 1 channel, rows padded by 2, source 8 bytes off", 2, 64, 130, 1, 32, 65, 1, 2, 1, 8, 0, 4, 0, false},
        {"2x down, 4 channels", 2, 40, 64, 4, 20, 32, 1, 0, 0, 0, 0, 3, 0, false},
        {"2x up, 3 channels", 2, 27, 48, 3, 54, 96, 1, 0, 0, 0, 0, 5, 0, false},
        {"enlarging 13x7 -> 40x33, 4 channels, unaligned destination", 2, 13, 7, 4, 40, 33, 1, 0, 3, 0, 1, 5, 0, false},
        {"4x down", 2, 40, 80, 3, 10, 20, 1, 0, 0, 0, 0, 2, 0, false},
        {"2.6x up, 1.3x down, source 1 byte off, rows padded by 1", 2, 97, 41, 3, 250, 31, 1, 1, 0, 1, 0, 6, 0, false},
        {"odd 333x517 -> 211x290, 3 channels, padded rows", 1, 333, 517, 3, 211, 290, 0, 1, 3, 0, 0, 3, 0, false},
        {"1x4 -> 7x5, 3 channels (every window the whole row)", 2, 1, 4, 3, 7, 5, 1, 0, 0, 0, 0, 3, 0, false},
        {"1x4 -> 1x1, 4 channels", 2, 1, 4, 4, 1, 1, 1, 0, 0, 0, 0, 1, 0, false},
        {"5x5 -> 17x3, 1 channel, rows padded by 3 (both borders in one window)", 2, 5, 5, 1, 17, 3, 1, 3, 0, 0, 0, 2, 0, false},
        {"same size, 1 channel, rows padded by 1", 2, 19, 23, 1, 19, 23, 1, 1, 2, 2, 2, 4, 0, false},
        {"300 rows in one block (bands of kCubicMaxBandRows)", 1, 450, 20, 1, 300, 20, 2, 0, 0, 0, 0, 1, 0, false},
        {"4001 wide -> 3000 (several strips), 1 channel", 1, 4, 4001, 1, 3, 3000, 0, 3, 0, 0, 0, 2, 0, false},
        {"aligned: 1.5x down, 2 pixels, bands across images", 3, 108, 192, 3, 72, 128, 4, 0, 0, 0, 0, 7, 0, true},
        {"aligned: 1.5x down, 6 ahead, narrow strips", 2, 54, 192, 3, 36, 128, 5, 0, 0, 0, 0, 3, 40, true},
        {"aligned: 1920 -> 1280 across, 4 pixels, 160 threads", 2, 9, 1920, 3, 6, 1280, 6, 0, 0, 0, 0, 3, 0, true},
        {"aligned: 1920 -> 1280 across, 1 pixel, 512 threads", 1, 9, 1920, 3, 6, 1280, 8, 0, 0, 0, 0, 2, 0, true},
        {"aligned: 2x up, 4 channels, unaligned destination", 2, 21, 32, 4, 42, 64, 7, 0, 1, 0, 2, 4, 0, true},
        {"aligned: odd 67x80 -> 45x53, 3 channels, padded destination", 3, 67, 80, 3, 45, 53, 9, 0, 3, 0, 0, 3, 0, true},
        {"aligned: 4x down, 1 channel, rows padded by 16", 2, 50, 48, 1, 13, 12, 4, 16, 0, 0, 0, 2, 0, true},
        {"aligned: 2.6x up, 1.3x down, 1 channel, narrow strips", 2, 37, 64, 1, 96, 49, 8, 0, 1, 0, 0, 3, 20, true},
        {"aligned: enlarging 13x4 -> 40x33, 4 channels", 2, 13, 4, 4, 40, 33, 4, 0, 0, 0, 0, 5, 0, true},
        {"aligned: 300 rows in one block", 1, 450, 16, 1, 300, 20, 9, 0, 0, 0, 0, 1, 0, true},
        {"aligned: 1.5x down, 3 pixels, bands across images", 3, 108, 192, 3, 72, 128, 10, 0, 0, 0, 0, 5, 0, true},
        {"aligned: 2x down, 4 channels, 6 ahead", 2, 40, 64, 4, 20, 32, 11, 0, 0, 0, 0, 3, 0, true},
        {"aligned: 1.5x down, 4 pixels, 5 blocks per SM", 3, 108, 192, 3, 72, 128, 12, 0, 0, 0, 0, 7, 0, true},
        {"aligned: 2x up, 1 channel, 8 ahead, narrow strips", 2, 27, 48, 1, 54, 96, 13, 0, 0, 0, 0, 5, 40, true},
        {"aligned: 1.5x down, 5 pixels, bands across images", 3, 108, 192, 3, 72, 128, 14, 0, 0, 0, 0, 7, 0, true},
        {"aligned: 2x up, 4 channels, 5 pixels, 6 ahead, unaligned destination", 2, 21, 32, 4, 42, 64, 15, 0, 1, 0, 2, 4, 0, true},
        {"aligned: 2x up, 3 channels, 3 pixels, destination 1 byte off", 2, 27, 48, 3, 54, 96, 10, 0, 0, 0, 1, 5, 0, true},
        {"bulk: 1.5x down, 5 pixels, bands across images", 3, 108, 192, 3, 72, 128, 16, 0, 0, 0, 0, 7, 0, true},
        {"bulk: 2x up, 4 channels, 6 ahead, destination 2 bytes off", 2, 21, 32, 4, 42, 64, 17, 0, 1, 0, 2, 4, 0, true},
        {"bulk: 1 channel, 4x down, rows padded by 16, narrow strips", 2, 50, 48, 1, 13, 12, 16, 16, 0, 0, 0, 2, 20, true},
        {"aligned variant on 517 x 3 bytes a row (+ 1 of padding): variant 2", 1, 33, 517, 3, 21, 290, 4, 1, 0, 0, 0, 3, 0, false},
        {"aligned variant on a source 4 bytes off: variant 2", 2, 21, 32, 4, 42, 64, 6, 0, 0, 4, 0, 3, 0, false},
    };
    std::mt19937 rng(23);
    constexpr uint8_t kPoison = 0xA5;
    for (const BlockRow &r : rows) {
        INFO(r.what);
        const int64_t N = r.n;
        cvtest::BlockImages img(N, r.h, r.w, r.c, r.oh, r.ow, r.srcPad, r.dstPad, r.srcShift, r.dstShift, kCubic, rng, kPoison);
        const cvk::ResizeParams &p = img.p;
        cvk::ResizeCubicShape s{};
        REQUIRE(cvk::planResizeCubic(p, s, r.variant, r.maxStripW));
        cvk::setResizeCubicBands(s, N * r.oh, r.blocks);
        const Mapping m = mappingOf(p.src, p.dst.shape[cvk::kH], p.dst.shape[cvk::kW], p.interp);
        const size_t bytes = img.outBytes();
        const std::vector<uint8_t> want = cvtest::samplerBytes<uint8_t, kCubic>(p, m, bytes, kPoison);
        // the aligned variants run only on sources they take (planResizeCubic gives the others variant 2)
        CHECK(s.variant == (variantAligned(r.variant) && !r.alignedSource ? 2 : r.variant));
        runVariant(r.c, p, m, s);
        img.check(want, "separable CUBIC path", kPoison);
    }
}
