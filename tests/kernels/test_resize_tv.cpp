// The separable path of cvResizeTorchvision's antialiased modes on the CPU, no GPU: which shapes take it
// (cvk::planTvResizeTile / planTvFusedTile, the benchmark's rows among them), PyTorch's window bound, and whole tiles
// run phase by phase for every thread of a block (the same __host__ __device__ functions the kernel runs), compared
// with the per-pixel sampler sampleTorch value for value (float equality, a NaN equal to a NaN) on random images, plain
// and cropped.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_tv_tile.cuh"
#include "guarded_bytes.hpp"
#include "resize_views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

using namespace cvk::resize;

namespace {

char *const kAligned = reinterpret_cast<char *>(uintptr_t(1) << 20); // never dereferenced

// A planar [n, h, w, c] view of elements of `elem` bytes (NCHW), rowPad elements after each row.
cvk::View4 nchw(char *data, int64_t n, int64_t h, int64_t w, int64_t c, int64_t elem, int64_t rowPad = 0) {
    const int64_t row = (w + rowPad) * elem;
    return cvk::View4{data, {n, h, w, c}, {c * h * row, row, elem, h * row}};
}
cvk::View4 nhwc(char *data, int64_t n, int64_t h, int64_t w, int64_t c, int64_t elem) {
    return cvk::View4{data, {n, h, w, c}, {h * w * c * elem, w * c * elem, c * elem, elem}};
}

cvk::ResizeParams params(cvk::View4 src, cvk::View4 dst, int32_t mode, int32_t type) {
    cvk::ResizeParams p{};
    p.src = src;
    p.dst = dst;
    p.type = type;
    p.interp = -1;
    p.torchMode = mode;
    return p;
}

struct PlanRow {
    const char *what;
    cvk::ResizeParams p;
    bool tiled;
    int32_t taps, tileH; // checked when tiled
    bool staged;         // the staged variant (tvStagedKernel), checked when tiled
};

} // namespace

TEST_CASE("planTvResizeTile: the benchmark's rows and what stays per pixel", "[resize][dispatch]") {
    const auto src = nchw(kAligned, 64, 1080, 1920, 3, 1);
    const auto to256 = nchw(kAligned, 64, 256, 455, 3, 1);
    const std::vector<PlanRow> rows = {
        {"bench: bilinear antialias 1080x1920 -> 256x455 (staged)", params(src, to256, kTvLinearAA, cvk::kResizeU8), true, 0, 32, true},
        {"rows of 1924 bytes: word rows, not 16-byte aligned ones", params(nchw(kAligned, 64, 1080, 1920, 3, 1, 4), to256, kTvLinearAA, cvk::kResizeU8), true, 0, 32, false},
        {"a source 4 bytes off 16", params(nchw(kAligned + 4, 64, 1080, 1920, 3, 1), to256, kTvLinearAA, cvk::kResizeU8), true, 0, 32, false},
        {"channels_last uint8 (pixels 3 bytes apart)", params(nhwc(kAligned, 2, 1080, 1920, 3, 1), nhwc(kAligned, 2, 256, 455, 3, 1), kTvLinearAA, cvk::kResizeU8), true, 0, 32, false},
        {"bicubic antialias 1080x1920 -> 256x455 (19 taps)", params(src, to256, kTvCubicAA, cvk::kResizeU8), true, 1, 32, false},
        {"bilinear without antialias", params(src, to256, kTvLinear, cvk::kResizeU8), false, 0, 0, false},
        {"nearest", params(src, to256, kTvNearest, cvk::kResizeU8), false, 0, 0, false},
        {"float32 channels_last, antialias", params(nhwc(kAligned, 2, 1080, 1920, 3, 4), nhwc(kAligned, 2, 256, 455, 3, 4), kTvLinearAA, cvk::kResizeF32), true, 0, 32, false},
        {"float32 planar, antialias", params(nchw(kAligned, 2, 1080, 1920, 3, 4), nchw(kAligned, 2, 256, 455, 3, 4), kTvLinearAA, cvk::kResizeF32), true, 0, 32, false},
        {"enlarging with antialias (3 taps), rows of 20 bytes", params(nchw(kAligned, 1, 10, 20, 1, 1), nchw(kAligned, 1, 31, 47, 1, 1), kTvLinearAA, cvk::kResizeU8), true, 0, 32, false},
        {"enlarging with antialias (3 taps), rows of 32 bytes", params(nchw(kAligned, 1, 10, 32, 1, 1), nchw(kAligned, 1, 31, 47, 1, 1), kTvLinearAA, cvk::kResizeU8), true, 0, 32, true},
        {"bilinear by 20 (41 taps; 8 rows a tile: the buffer also holds 48 rows past the most a tile reads)", params(nchw(kAligned, 1, 2000, 2000, 1, 1), nchw(kAligned, 1, 100, 100, 1, 1), kTvLinearAA, cvk::kResizeU8), true, 2, 8, false},
        {"bilinear 1080x1920 -> 1x1 (too many taps)", params(src, nchw(kAligned, 64, 1, 1, 3, 1), kTvLinearAA, cvk::kResizeU8), false, 0, 0, false},
    };
    for (const PlanRow &r : rows) {
        INFO(r.what);
        cvk::TvTileShape s{};
        const bool tiled = cvk::planTvResizeTile(r.p, s);
        REQUIRE(tiled == r.tiled);
        if (!tiled) continue;
        CHECK(s.taps == r.taps);
        CHECK(s.tileH == r.tileH);
        const bool integer = r.p.type == cvk::kResizeU8 || r.p.type == cvk::kResizeU16 || r.p.type == cvk::kResizeS16;
        CHECK(s.padRows == (integer ? kTvTaps[s.taps] : 0)); // the all-taps vertical sums' rows, integer sources only
        const int32_t buffers = tvSmemBytes(s.maxRows + s.padRows, s.tileH, kTvTaps[s.taps]);
        REQUIRE((s.stagePitch > 0) == r.staged);
        if (!r.staged) {
            CHECK(s.smemBytes <= kTileSmemLimit);
            CHECK(s.smemBytes == buffers);
            continue;
        }
        // the stages follow the buffers, 16-byte aligned, two of maxRows rows of stagePitch bytes
        CHECK(s.stageOffset == (buffers + 15) / 16 * 16);
        CHECK(s.stagePitch % 16 == 0);
        CHECK(s.smemBytes == s.stageOffset + 2 * s.maxRows * s.stagePitch);
        CHECK(s.smemBytes <= 100 * 1024);
    }
}

TEST_CASE("planTvFusedTile: the ImageNet chain's crop of the resized image", "[resize][dispatch]") {
    cvk::FusedParams q{};
    q.src = nchw(kAligned, 64, 1080, 1920, 3, 1);
    q.dst = nchw(kAligned, 64, 224, 224, 3, 4);
    q.resizeH = 256;
    q.resizeW = 455;
    q.cropX = 116; // torchvision's center_crop: round(231 / 2) = 116, half to even
    q.cropY = 16;
    q.interp = -1;
    q.torchMode = kTvLinearAA;
    cvk::TvTileShape s{};
    REQUIRE(cvk::planTvFusedTile(q, s));
    CHECK(s.taps == 0);
    CHECK(s.tileH == 32);
    CHECK(s.maxRows <= 32 * 5 + 11); // about 4.2 source rows per output row plus one window
    CHECK(s.stagePitch <= 176);      // 32 columns 4.2 bytes apart and 4 words from the last one's first, in 16-byte chunks
    CHECK(s.smemBytes <= 75 * 1024); // three blocks an SM of 228 KiB (each also takes 1 KiB the system reserves)
    q.torchMode = kTvLinear;
    CHECK_FALSE(cvk::planTvFusedTile(q, s)); // without antialias: per pixel
}

TEST_CASE("torchvision antialias windows: never more taps than PyTorch's interp_size", "[resize][cpu]") {
    struct Axis2 {
        int32_t src, dst;
    };
    const std::vector<Axis2> axes = {{1080, 256}, {1920, 455}, {1080, 224}, {7, 3}, {100, 99}, {5, 17}, {2000, 100}, {1, 1}, {3, 1}};
    for (const Axis2 &a : axes)
        for (bool cubic : {false, true}) {
            INFO(a.src << " -> " << a.dst << (cubic ? " bicubic" : " bilinear"));
            const float scale = tvScale(a.src, a.dst);
            const int32_t bound = tvWindowBound(scale, cubic);
            int32_t most = 0;
            for (int32_t i = 0; i < a.dst; ++i) {
                const TvWindow w = tvWindow(a.src, scale, i, cubic ? 2.f : 1.f);
                CHECK(w.lo >= 0);
                CHECK(w.lo + w.size <= a.src);
                most = w.size > most ? w.size : most;
            }
            CHECK(most <= bound);
        }
    CHECK(tvWindowBound(tvScale(1080, 256), false) == 11);
    CHECK(tvWindowBound(tvScale(1080, 256), true) == 19);
    CHECK(tvWindowBound(0.5f, false) == 3);
    CHECK(tvWindowBound(0.5f, true) == 5);
}

namespace {

struct BlockRow {
    const char *what;
    int32_t h, w, c;          // source
    int32_t rh, rw;           // resized image
    int32_t x0, y0, oh, ow;   // the part computed (a crop, or the whole resized image)
    bool cubic, planar;
    int64_t rowPad;           // elements after each source row
};

bool sameValue(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Runs every tile of image n the way tvTiledKernel does, one block a tile (phases in order, each for every thread),
// and compares each output value with the sampler's (NaN equal to NaN: a float source holds infinities). Each block's
// buffer starts as NaN, then, as in the kernel, zeroed when the vertical sums take all K taps; before each plane the
// rows the horizontal phase must write are NaN again. So a row it missed, a zeroing left out or a buffer too short
// for the all-taps sums shows as a NaN or a REQUIRE. `staged`: the horizontal phase as tvStagedKernel's, the plane's
// span copied into a stage (poisoned with 0xA5 first: a chunk left out that holds taps changes sums) by tvStageFill,
// then summed from there (tvTileStagedHorizontal). A fill that read past a row shows only where that row ends at the
// source's guard page (the bottom-right crop's row below); the pipeline of two stages across planes runs whole in
// test_resize_tv_staged_block.cpp (an emulated block) and on the GPU (test_resize_torchvision.py).
template <class T, int K>
int64_t runAndCompare(const TvJob &j, const cvk::TvTileShape &s, const cvk::View4 &src, int32_t rh, int32_t rw, bool words, bool staged,
                      int64_t n, int64_t &compared, int64_t &finite) {
    constexpr bool allTaps = std::is_integral_v<T>; // as tvTiledKernel, which launches only when the plan has the rows
    const int32_t bufferRows = s.maxRows + s.padRows;
    std::vector<float4> smem(s.smemBytes / 16 + 1);
    const TvBuffers b = tvCarve<K>(smem.data(), bufferRows, s.tileH);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const int32_t tilesX = (j.outW + kTvTileW - 1) / kTvTileW, tilesY = (j.outH + s.tileH - 1) / s.tileH;
    const int32_t C = static_cast<int32_t>(src.shape[cvk::kC]);
    int64_t mismatches = 0;
    std::vector<TvColumnOf<T, K>> cols(kTvThreads);
    for (int32_t ty = 0; ty < tilesY; ++ty)
        for (int32_t tx = 0; tx < tilesX; ++tx) {
            std::fill(b.h, b.h + bufferRows * kTvTileW, nan);
            if (allTaps)
                for (int tid = 0; tid < kTvThreads; ++tid) tvZeroBuffer(b, bufferRows, tid, kTvThreads);
            const TvTile t = tvTileOf(j, s.tileH, tx, ty);
            REQUIRE(t.rows <= s.maxRows);
            for (int tid = 0; tid < kTvThreads; ++tid) cols[tid] = tvColumnOf<T, K>(j, t, tid % kTvTileW);
            for (int tid = 0; tid < kTvThreads; ++tid) tvTileRowsSetup<K>(j, t, b, tid, kTvThreads);
            for (int32_t y = 0; y < t.th; ++y) {
                REQUIRE(b.ylo[y] + b.ysize[y] <= t.rows); // every window inside the rows the horizontal phase writes
                if (allTaps) REQUIRE(b.ylo[y] + K <= bufferRows);
            }
            for (int32_t c = 0; c < C; ++c) {
                const char *plane = src.data + n * src.stride[cvk::kN] + c * src.stride[cvk::kC];
                const Plane p{plane, src.stride[cvk::kH], src.stride[cvk::kW], 0};
                std::fill(b.h, b.h + t.rows * kTvTileW, nan);
                if constexpr (kTvFixed<T> && K == kTvTaps[0]) {
                    if (staged) {
                        auto *stage = reinterpret_cast<uint8_t *>(smem.data()) + s.stageOffset;
                        const TvStageSpan span = tvStageSpan<K>(j, t);
                        REQUIRE(span.bytes <= s.stagePitch);
                        REQUIRE(span.origin % 16 == 0);
                        std::fill(stage, stage + s.maxRows * s.stagePitch, uint8_t(0xA5));
                        for (int tid = 0; tid < kTvThreads; ++tid) tvStageFill(p, t, span, j.srcW, stage, tid, kTvThreads);
                        for (int tid = 0; tid < kTvThreads; ++tid) tvTileStagedHorizontal<K>(t, cols[tid], stage, span, b, tid, kTvThreads);
                    }
                }
                if (!staged)
                    for (int tid = 0; tid < kTvThreads; ++tid) tvTileHorizontal<T, K>(j, t, cols[tid], p, words, b, tid, kTvThreads);
                const Plane whole{src.data + n * src.stride[cvk::kN], src.stride[cvk::kH], src.stride[cvk::kW], src.stride[cvk::kC]};
                const auto check = [&](int32_t x, int32_t y, float v) {
                    const float want = cvtest::tvSamplerValue<T>(j.srcW, j.srcH, rw, rh, j.cubic, whole, j.x0 + x, j.y0 + y, C, c);
                    ++compared;
                    finite += std::isfinite(want) ? 1 : 0;
                    if (!sameValue(v, want) && mismatches++ < 5)
                        FAIL_CHECK("n " << n << " y " << y << " x " << x << " c " << c << ": tiled " << v << ", sampler " << want);
                };
                for (int tid = 0; tid < kTvThreads; ++tid) tvTileVertical<T, K>(t, b, tid, kTvThreads, check);
            }
        }
    return mismatches;
}

// Random bytes, or floats in [-1, 2).
template <class T> void fill(T *v, int64_t count, std::mt19937 &rng) {
    for (int64_t i = 0; i < count; ++i) {
        if constexpr (sizeof(T) == 1)
            v[i] = static_cast<T>(rng());
        else
            v[i] = static_cast<T>(std::uniform_real_distribution<float>(-1.f, 2.f)(rng));
    }
}

// One +Inf in every plane of a float source, at its centre pixel: the outputs whose windows hold it are Inf or NaN in
// the sampler and the tiles alike, and the others must stay finite (a float source's infinities must stay inside the
// windows that hold them: tvTileVertical's window-only sums). Sources under 16 pixels a plane keep finite values (their
// outputs' windows all hold the centre).
void plantInfinities(const cvk::View4 &v) {
    if (v.shape[cvk::kH] * v.shape[cvk::kW] < 16) return;
    for (int64_t n = 0; n < v.shape[cvk::kN]; ++n)
        for (int64_t c = 0; c < v.shape[cvk::kC]; ++c) {
            char *at = v.data + n * v.stride[cvk::kN] + c * v.stride[cvk::kC] + v.shape[cvk::kH] / 2 * v.stride[cvk::kH] +
                       v.shape[cvk::kW] / 2 * v.stride[cvk::kW];
            *reinterpret_cast<float *>(at) = std::numeric_limits<float>::infinity();
        }
}

template <class T> void runRow(const BlockRow &r, std::mt19937 &rng) {
    INFO(r.what << (sizeof(T) == 1 ? " uint8" : " float32"));
    const int64_t N = 2, elem = sizeof(T);
    const int64_t count = r.planar ? N * r.c * r.h * (r.w + r.rowPad) : N * r.h * r.w * r.c;
    cvtest::GuardedBytes src(size_t(count) * sizeof(T)); // the source's last byte (its last row's padding, if any) ends at the guard page
    fill(reinterpret_cast<T *>(src.data()), count, rng);
    char *base = src.data();
    const cvk::View4 sv = r.planar ? nchw(base, N, r.h, r.w, r.c, elem, r.rowPad) : nhwc(base, N, r.h, r.w, r.c, elem);
    if constexpr (!std::is_integral_v<T>) plantInfinities(sv);
    const cvk::FusedParams q = cvtest::tvFusedParams(sv, r.rh, r.rw, r.x0, r.y0, r.oh, r.ow, r.cubic);
    cvk::TvTileShape s{};
    REQUIRE(cvk::planTvFusedTile(q, s));
    if constexpr (!std::is_integral_v<T>) {
        // The fused pass is uint8 only; a float source's plan (planTvResizeTile's) adds no rows for all-taps sums.
        s.padRows = 0;
        s.smemBytes = tvSmemBytes(s.maxRows, s.tileH, kTvTaps[s.taps]);
    }
    const TvJob j = tvJobOf(q);
    const bool words = sizeof(T) == 1 && r.planar && (r.w + r.rowPad) % 4 == 0;
    // the staged variant where the plan takes it (16-byte aligned uint8 rows, 12 taps), as well as the tiled one
    const bool staged = s.stagePitch > 0;
    CHECK(staged == (sizeof(T) == 1 && r.planar && s.taps == 0 && (r.w + r.rowPad) % 16 == 0 && reinterpret_cast<uintptr_t>(base) % 16 == 0));
    for (const bool stage : {false, true}) {
        if (stage && !staged) continue;
        INFO((stage ? "staged" : "tiled"));
        for (int64_t n = 0; n < N; ++n) {
            int64_t bad = 0, compared = 0, finite = 0;
            if (s.taps == 0) bad = runAndCompare<T, kTvTaps[0]>(j, s, sv, r.rh, r.rw, words, stage, n, compared, finite);
            if (s.taps == 1) bad = runAndCompare<T, kTvTaps[1]>(j, s, sv, r.rh, r.rw, words, stage, n, compared, finite);
            if (s.taps == 2) bad = runAndCompare<T, kTvTaps[2]>(j, s, sv, r.rh, r.rw, words, stage, n, compared, finite);
            CHECK(bad == 0);
            CHECK(compared == int64_t(r.c) * r.oh * r.ow); // every output value of the image, once
            CHECK(finite * 2 >= compared);                   // most of them finite values compared exactly
        }
    }
}

} // namespace

TEST_CASE("separable antialiased resize: every tile equals sampleTorch value for value", "[resize][tv][cpu]") {
    const std::vector<BlockRow> rows = {
        {"the ImageNet crop, scaled: 270x480 -> 64x113, crop 56x56 at (29, 4)", 270, 480, 3, 64, 113, 29, 4, 56, 56, false, true, 0},
        {"bilinear 4.2x down, whole image, odd sizes", 135, 241, 3, 32, 57, 0, 0, 32, 57, false, true, 0},
        {"bilinear 4.2x down, rows padded to 256 bytes (staged; the last chunks past the row's 241)", 135, 241, 3, 32, 57, 0, 0, 32, 57, false, true, 15},
        {"bilinear 3x down, crop at the bottom right (staged: the last tile's span has a chunk wholly past the row, whose read would fault at the guard page)", 96, 160, 2, 32, 53, 20, 20, 12, 33, false, true, 0},
        {"bicubic 4.2x down (19 taps), whole image", 135, 241, 3, 32, 57, 0, 0, 32, 57, true, true, 0},
        {"bilinear, one channel, rows of 77 bytes (byte loads)", 61, 77, 1, 20, 13, 0, 0, 20, 13, false, true, 0},
        {"bilinear, rows padded to 80 bytes (word loads reach the row end)", 61, 77, 2, 20, 13, 0, 0, 20, 13, false, true, 3},
        {"bicubic 9x down (37 taps), crop", 300, 290, 1, 33, 32, 3, 2, 29, 27, true, true, 2},
        {"bicubic 11.5x across (47 taps: the widest tile's, uint8 sums in fixed point)", 45, 1012, 1, 15, 88, 0, 0, 15, 88, true, true, 0},
        {"enlarging with antialias", 9, 14, 3, 40, 33, 0, 0, 40, 33, false, true, 2},
        {"bicubic enlarging with antialias, crop", 9, 14, 2, 40, 33, 5, 7, 30, 21, true, true, 2},
        {"interleaved (channels_last) source", 90, 70, 3, 21, 17, 1, 1, 20, 16, false, false, 0},
        {"1x1 source", 1, 1, 3, 5, 4, 0, 0, 5, 4, true, true, 3},
    };
    std::mt19937 rng(11);
    for (const BlockRow &r : rows) {
        runRow<uint8_t>(r, rng);
        runRow<float>(r, rng);
    }
}

TEST_CASE("staged tv kernel: the images a block takes, and every plane of the batch in exactly one block", "[resize][tv][cpu]") {
    struct ImagesRow {
        const char *what;
        int64_t tiles, n, images;
    };
    const std::vector<ImagesRow> images = {
        {"the benchmark: 15 x 8 tiles, 64 images (1920 blocks with 4 a block)", 120, 64, 4},
        {"the ImageNet crop: 7 x 7 tiles, 64 images (1568 blocks with 2 a block: too few)", 49, 64, 1},
        {"120 tiles, 32 images (1920 blocks with 2 a block)", 120, 32, 2},
        {"one image", 120, 1, 1},
        {"many tiles, 5 images (up to 4 a block: 2 slots, taking images 0, 2, 4 and 1, 3)", 1000, 5, 4},
    };
    for (const ImagesRow &r : images) {
        INFO(r.what);
        CHECK(tvStagedImages(r.tiles, r.n) == r.images);
    }
    struct GridRow {
        int64_t tiles, n, z;
    };
    const std::vector<GridRow> grids = {
        {120, 64, 16}, {120, 1, 1}, {1000, 5, 2}, {49, 64, 64}, {120, 65535, 16384}, {120, 65536, 16384}, {120, 262141, 65535},
        {1, 100000, 25000}, // one tile an image: still 4 images a block (25000 blocks)
    };
    for (const GridRow &r : grids) {
        INFO("tiles " << r.tiles << ", " << r.n << " images");
        CHECK(tvStagedGridZ(r.tiles, r.n) == r.z);
    }
    for (int64_t n : {1, 2, 3, 5, 64, 65})
        for (int32_t channels : {1, 3})
            for (int64_t gz : {1, 2, 3, 4, 11, 16, 18, 25, 64, 65}) {
                if (gz > n) continue;
                INFO("n " << n << " channels " << channels << " grid z " << gz);
                std::vector<int> seen(size_t(n * channels), 0);
                for (int64_t z = 0; z < gz; ++z)
                    for (int64_t q = 0, planes = tvBlockPlanes(n, channels, z, gz); q < planes; ++q) {
                        int64_t image = -1;
                        int32_t c = -1;
                        tvBlockPlane(q, channels, z, gz, image, c);
                        REQUIRE(image >= 0);
                        REQUIRE(image < n);
                        REQUIRE(c >= 0);
                        REQUIRE(c < channels);
                        ++seen[size_t(image * channels + c)];
                    }
                CHECK(std::count(seen.begin(), seen.end(), 1) == n * channels);
            }
}
