// The fused pass's staged path on the CPU, no GPU: which shapes it takes and with what geometry (cvk::planFusedStaged),
// and whole crops run block by block as fusedStagedKernel runs them (each block's source rows staged as the plan's
// segment, then every pixel sampled from the staged words with the same __host__ __device__ functions the kernel
// runs: stagedPair, pairTaps, pairValues) against samplePixel for uint8 LINEAR, rounded and unrounded, float for
// float, with every word read checked inside the staged segment.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_fused_staged.cuh"
#include "resize_views.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace cvk::resize;
using cvtest::kAligned;
using cvtest::nhwc;

namespace {

cvk::FusedParams fused(cvk::View4 src, int32_t resizeH, int32_t resizeW, int32_t cropX, int32_t cropY, int64_t cropW, int64_t cropH) {
    cvk::FusedParams p{};
    p.src = src;
    const int64_t c = src.shape[cvk::kC];
    p.dst = cvk::View4{kAligned, {src.shape[cvk::kN], cropH, cropW, c}, {c * cropH * cropW * 4, cropW * 4, 4, cropH * cropW * 4}};
    p.resizeH = resizeH;
    p.resizeW = resizeW;
    p.cropX = cropX;
    p.cropY = cropY;
    p.interp = kLinear;
    p.torchMode = -1;
    p.srcCast = true;
    p.scale = 1.f / 255;
    for (int i = 0; i < cvk::kFusedMaxChannels; ++i) p.mean[i] = 0.f, p.stddev[i] = 1.f;
    return p;
}

cvk::FusedParams imagenet(cvk::View4 src) { return fused(src, 256, 256, 16, 16, 224, 224); }

} // namespace

TEST_CASE("fusedStagedPreferred: the staged path below kFusedPairsFromScaleX columns a resized column, 1 to 3 channels", "[resize][fused][dispatch]") {
    auto nearest = imagenet(nhwc(kAligned, 2, 1080, 1280, 3));
    nearest.interp = kNearest;
    struct Row {
        const char *what;
        cvk::FusedParams p;
        bool staged;
    };
    const std::vector<Row> rows = {
        {"1920 -> 256 across (7.5 columns a column: the ImageNet chain)", imagenet(nhwc(kAligned, 32, 1080, 1920, 3)), false},
        {"1536 -> 256 (6: the threshold itself)", imagenet(nhwc(kAligned, 2, 1080, 1536, 3)), false},
        {"1535 -> 256 (just below 6)", imagenet(nhwc(kAligned, 2, 1080, 1535, 3)), true},
        {"1280 -> 256 (5)", imagenet(nhwc(kAligned, 2, 720, 1280, 3)), true},
        {"640 -> 256 (2.5)", imagenet(nhwc(kAligned, 2, 480, 640, 3)), true},
        {"1 channel, 1280 -> 256", imagenet(nhwc(kAligned, 2, 720, 1280, 1)), true},
        {"4 channels, 1280 -> 256: the pair path's whole-pixel words", imagenet(nhwc(kAligned, 2, 720, 1280, 4)), false},
        {"NEAREST: neither (the general kernel)", nearest, false},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        CHECK(cvk::fusedStagedPreferred(r.p) == r.staged);
    }
}

TEST_CASE("planFusedStaged: aligned packed uint8 LINEAR away from the right border, segments within 48 KiB", "[resize][fused][dispatch]") {
    const auto bench = nhwc(kAligned, 32, 1080, 1920, 3);
    auto nearest = imagenet(bench);
    nearest.interp = kNearest;
    auto torch = imagenet(bench);
    torch.interp = -1;
    torch.torchMode = kTvLinear;
    auto imageUnaligned = nhwc(kAligned, 2, 1080, 1920, 3); // images 8 bytes apart from a multiple of 16
    imageUnaligned.stride[cvk::kN] += 8;
    struct Row {
        const char *what;
        cvk::FusedParams p;
        int32_t variant;
        bool takes;
        int32_t rows, segLo, segChunks; // when it takes
    };
    const std::vector<Row> rows = {
        // 1920 -> 256: taps of columns 16 and 239 are 123 and 1795: bytes [368, 5408) of the row.
        {"bench: 32x1080x1920x3 -> 256x256, crop 224 at (16, 16), variant 0", imagenet(bench), 0, true, 4, 368, 315},
        {"the same, variant 1 (2 rows a block)", imagenet(bench), 1, true, 2, 368, 315},
        {"the same, variant 3 (4 rows a block, 8 pixels a thread)", imagenet(bench), 3, true, 4, 368, 315},
        {"the same, variant 4 (two stages of 2 rows)", imagenet(bench), 4, true, 2, 368, 315},
        {"the same, variant 2 (kFusedStagedVariant: 1 row a block)", imagenet(bench), cvk::kFusedStagedVariant, true, 1, 368, 315},
        {"variant -1: the pair path", imagenet(bench), -1, false, 0, 0, 0},
        {"variant past the table", imagenet(bench), cvk::fusedStagedVariantCount(), false, 0, 0, 0},
        // 4 channels: bytes [480, 7200) of the row; 8 segments would take 52.5 KiB.
        {"4 channels: 3 rows a block", imagenet(nhwc(kAligned, 16, 1080, 1920, 4)), 0, true, 3, 480, 420},
        {"1 channel: bytes [112, 1808)", imagenet(nhwc(kAligned, 8, 1080, 1920, 1)), 0, true, 4, 112, 106},
        {"a crop of 3 rows: blocks of 3 rows", fused(bench, 256, 256, 16, 16, 224, 3), 0, true, 3, 368, 315},
        // 7680 -> 1024, crop 1000 at 8: bytes [176, 22688), two segments fit 48 KiB: one row a block.
        {"wide rows: fewer rows a block", fused(nhwc(kAligned, 1, 64, 7680, 3), 32, 1024, 8, 0, 1000, 32), 0, true, 1, 176, 1407},
        {"rows too wide for two segments in 48 KiB", fused(nhwc(kAligned, 1, 64, 9600, 3), 32, 1024, 8, 0, 1000, 32), 0, false, 0, 0, 0},
        // 192 -> 256: column 255's taps clamp to pixel 191, the words past it leave the row.
        {"crop at the right border of an enlargement", fused(nhwc(kAligned, 2, 108, 192, 3), 256, 256, 32, 16, 224, 224), 0, false, 0, 0, 0},
        // 1920 -> 256: column 255's taps are 1915 and 1916, words to byte 5756 of 5760.
        {"crop at the right edge of a downscale, taps inside", fused(bench, 256, 256, 32, 16, 224, 224), 0, true, 4, 720, 315},
        {"source 4 bytes past 16", imagenet(nhwc(kAligned + 4, 32, 1080, 1920, 3)), 0, false, 0, 0, 0},
        {"rows padded to 5764 bytes", imagenet(nhwc(kAligned, 32, 1080, 1920, 3, 4)), 0, false, 0, 0, 0},
        {"image stride not a multiple of 16", fused(imageUnaligned, 256, 256, 16, 16, 224, 224), 0, false, 0, 0, 0},
        {"NEAREST", nearest, 0, false, 0, 0, 0},
        {"torchvision bilinear", torch, 0, false, 0, 0, 0},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        cvk::FusedStagedShape s{};
        REQUIRE(cvk::planFusedStaged(r.p, s, r.variant) == r.takes);
        if (!r.takes) continue;
        CHECK(s.variant == r.variant);
        CHECK(s.rows == r.rows);
        CHECK(s.segLo == r.segLo);
        CHECK(s.segChunks == r.segChunks);
        CHECK(s.smemBytes == s.depth * 2 * s.rows * s.segChunks * 16);
        CHECK(s.bands == (r.p.dst.shape[cvk::kH] + s.rows - 1) / s.rows);
        CHECK(s.items == r.p.dst.shape[cvk::kN] * s.bands);
        CHECK(s.smemBytes <= 48 * 1024);
        CHECK(s.bx * s.by <= 256);
        CHECK(int64_t(s.segLo) + 16 * int64_t(s.segChunks) <= r.p.src.shape[cvk::kW] * r.p.src.shape[cvk::kC]);
    }
}

namespace {

struct CropRow {
    const char *what;
    int64_t n;
    int32_t srcH, srcW, resizeH, resizeW, cropX, cropY, cropW, cropH;
    int rowPad; // bytes after each row, past a multiple of 16
};

// Mismatching values of the whole crop (every pixel, every channel, srcCast both ways, every variant's blocks)
// between the staged path's block run and samplePixel.
template <int C> int64_t cropMismatches(const CropRow &r) {
    std::mt19937 rng(uint32_t(r.srcH * 131 + r.srcW + C));
    const int64_t rowStride = ((int64_t(r.srcW) * C + 15) & ~int64_t(15)) + r.rowPad, imageStride = r.srcH * rowStride;
    std::vector<uint4> storage(size_t(r.n * imageStride / 16 + 1));
    auto *bytes = reinterpret_cast<uint8_t *>(storage.data());
    for (size_t i = 0; i < storage.size() * 16; ++i) bytes[i] = uint8_t(rng());
    char *base = reinterpret_cast<char *>(bytes);
    const cvk::View4 view = nhwc(base, r.n, r.srcH, r.srcW, C, rowStride - int64_t(r.srcW) * C);
    const cvk::FusedParams p = fused(view, r.resizeH, r.resizeW, r.cropX, r.cropY, r.cropW, r.cropH);
    const Mapping m = mappingOf(view, r.resizeH, r.resizeW, kLinear);
    int64_t bad = 0, outside = 0;
    for (int32_t variant = 0; variant < cvk::fusedStagedVariantCount(); ++variant) {
        INFO("variant " << variant);
        cvk::FusedStagedShape s{};
        REQUIRE(cvk::planFusedStaged(p, s, variant));
        REQUIRE(int64_t(s.segLo) + 16 * int64_t(s.segChunks) <= int64_t(r.srcW) * C);
        const int32_t slotWords = 4 * s.segChunks;
        std::vector<uint32_t> stage(size_t(2 * s.rows * slotWords));
        for (int64_t n = 0; n < r.n; ++n)
            for (int32_t y0 = 0; y0 < r.cropH; y0 += s.rows) {
                const int32_t rows = std::min(s.rows, r.cropH - y0);
                // The block's copies: slot 2r row ty.i0, slot 2r + 1 row ty.i1, the segment's bytes.
                for (int32_t k = 0; k < rows; ++k) {
                    const PairTaps ty = pairTaps(m.y, y0 + k + r.cropY);
                    const char *image = base + n * imageStride + s.segLo;
                    std::memcpy(&stage[size_t(2 * k * slotWords)], image + ty.i0 * rowStride, size_t(16 * s.segChunks));
                    std::memcpy(&stage[size_t((2 * k + 1) * slotWords)], image + ty.i1 * rowStride, size_t(16 * s.segChunks));
                }
                const cvk::resize::Plane plane{base + n * imageStride, rowStride, C, 1};
                for (const bool srcCast : {true, false})
                    for (int32_t k = 0; k < rows; ++k) {
                        const int32_t y = y0 + k;
                        const PairTaps ty = pairTaps(m.y, y + r.cropY);
                        for (int32_t x = 0; x < r.cropW; ++x) {
                            const PairTaps tx = pairTaps(m.x, x + r.cropX);
                            const int32_t offset = tx.i0 * C - s.segLo;
                            // The words stagedPair reads lie in the slot.
                            outside += offset < 0 || (offset >> 2) + stagedPairWords<C>() > slotWords;
                            float v[C];
                            pairValues<C>(stagedPair<C>(&stage[size_t(2 * k * slotWords)], offset),
                                          stagedPair<C>(&stage[size_t((2 * k + 1) * slotWords)], offset), PairTaps{0, 0, tx.w0, tx.w1}, ty,
                                          srcCast, v);
                            samplePixel<uint8_t, kLinear>(m, plane, x + r.cropX, y + r.cropY, C, [&](int32_t c, uint8_t u, float real) {
                                const float want = srcCast ? static_cast<float>(u) : real;
                                bad += std::memcmp(&want, &v[c], sizeof(float)) != 0;
                            });
                        }
                    }
            }
    }
    CHECK(outside == 0);
    return bad;
}

} // namespace

TEST_CASE("The staged path's values equal samplePixel's on whole crops, block by block, rounded and unrounded", "[resize][fused]") {
    const std::vector<CropRow> rows = {
        {"the bench's ratios, scaled down: 108x192 -> 256x256 (enlarging), crop 224 at (16, 16)", 2, 108, 192, 256, 256, 16, 16, 224, 224, 0},
        {"downscale 300x200 -> 150x100, odd crop 31x67 at (37, 83), padded rows", 1, 300, 200, 150, 100, 37, 83, 31, 67, 16},
        {"enlarging 37x53 -> 80x90, crop 70x61 from (0, 0): the left and top borders clamp", 2, 37, 53, 80, 90, 0, 0, 70, 61, 0},
        {"downscale by 7.5 across and 4.2 down (the bench's 1920 -> 256, 1080 -> 256), 2 crop rows", 1, 1080, 1920, 256, 256, 16, 16, 224, 2, 0},
        {"downscale by 7.5 across, 5 rows of 1 source row (the vertical taps clamp)", 1, 1, 1920, 5, 256, 3, 0, 201, 5, 32},
        {"vertical factor below 2 (rows shared between crop rows), crop 1 pixel wide", 1, 45, 64, 30, 40, 9, 1, 1, 27, 0},
    };
    for (const CropRow &r : rows) {
        INFO(r.what);
        CHECK(cropMismatches<1>(r) == 0);
        CHECK(cropMismatches<2>(r) == 0);
        CHECK(cropMismatches<3>(r) == 0);
        CHECK(cropMismatches<4>(r) == 0);
    }
}
