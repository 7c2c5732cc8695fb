// The fused pass's pair path on the CPU, no GPU: which shapes take it (cvk::fusedPairsTake), the pair fetch against
// per-byte reads for every row alignment, channel count and pair position (both row ends, the clamped border pair)
// with the words it reads checked inside the row, and whole crops run through its taps, fetch and sums (the same
// __host__ __device__ functions the kernel runs) against samplePixel for uint8 LINEAR, rounded and unrounded, float
// for float.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_fused_pairs.cuh"
#include "resize_views.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace cvk::resize;
using cvtest::kAligned;
using cvtest::nhwc;

namespace {

cvk::FusedParams fused(cvk::View4 src, int32_t interp, int32_t resizeH = 256, int32_t resizeW = 256) {
    cvk::FusedParams p{};
    p.src = src;
    const int64_t c = src.shape[cvk::kC];
    p.dst = cvk::View4{kAligned, {src.shape[cvk::kN], 224, 224, c}, {c * 224 * 224 * 4, 224 * 4, 4, 224 * 224 * 4}};
    p.resizeH = resizeH;
    p.resizeW = resizeW;
    p.cropX = p.cropY = 16;
    p.interp = interp;
    p.torchMode = -1;
    p.srcCast = true;
    p.scale = 1.f / 255;
    for (int i = 0; i < cvk::kFusedMaxChannels; ++i) p.mean[i] = 0.f, p.stddev[i] = 1.f;
    return p;
}

} // namespace

TEST_CASE("fusedPairsTake: uint8 LINEAR with packed pixels takes the pair path, the rest the general kernel", "[resize][fused][dispatch]") {
    const auto bench = nhwc(kAligned, 32, 1080, 1920, 3);
    auto strided = bench; // pixels 4 bytes apart, 3 channels
    strided.stride[cvk::kW] = 4;
    strided.stride[cvk::kH] = 1920 * 4;
    auto planar = bench; // channels a plane apart
    planar.stride[cvk::kC] = 1080 * 1920;
    auto gray = nhwc(kAligned, 2, 50, 70, 1); // one channel: its channel stride is never used
    gray.stride[cvk::kC] = 7;
    auto torch = fused(bench, -1);
    torch.torchMode = kTvLinear;
    struct Row {
        const char *what;
        cvk::FusedParams p;
        bool pairs;
    };
    const std::vector<Row> rows = {
        {"bench: 32x1080x1920x3 -> 256x256 LINEAR, crop 224", fused(bench, kLinear), true},
        {"source 1 byte past a word, rows padded by 3", fused(nhwc(kAligned + 1, 2, 40, 101, 3, 3), kLinear), true},
        {"1 channel, channel stride unused", fused(gray, kLinear), true},
        {"2 channels", fused(nhwc(kAligned, 2, 40, 101, 2), kLinear), true},
        {"4 channels", fused(nhwc(kAligned + 2, 2, 41, 97, 4, 1), kLinear), true},
        {"NEAREST", fused(bench, kNearest), false},
        {"NEAREST_FLOOR", fused(bench, kNearestFloor), false},
        {"CUBIC", fused(bench, kCubic), false},
        {"AREA", fused(bench, kArea), false},
        {"torchvision bilinear (cvResizeTorchvisionCropConvertReformat's modes)", torch, false},
        {"pixels not packed", fused(strided, kLinear), false},
        {"planar channels", fused(planar, kLinear), false},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        CHECK(cvk::fusedPairsTake(r.p) == r.pairs);
    }
}

namespace {

// The words a pair's fetch may read, computed here from addresses: the aligned words covering the pair's bytes,
// taken only when they all lie inside the row.
PairWords expectedWords(uintptr_t row, int64_t rowBytes, int64_t offset, int32_t bytes) {
    const uintptr_t begin = (row + offset) & ~uintptr_t(3), end = (row + offset + bytes + 3) & ~uintptr_t(3);
    if (begin < row || end > row + uintptr_t(rowBytes)) return {0, 0, 0};
    return {int64_t(begin - row), int32_t((end - begin) / 4), int32_t(8 * ((row + offset) & 3))};
}

template <int C> void checkPairs(int lead, int32_t width) {
    std::mt19937 rng(uint32_t(97 * C + 13 * lead + width));
    // Word-aligned storage; the row starts `lead` bytes past a word, 8 random bytes on either side of it.
    std::vector<uint32_t> storage(size_t((16 + width * C + 8) / 4 + 2));
    auto *bytes = reinterpret_cast<uint8_t *>(storage.data());
    for (size_t i = 0; i < storage.size() * 4; ++i) bytes[i] = uint8_t(rng());
    const uint8_t *row = bytes + 8 + lead;
    const int64_t rowBytes = int64_t(width) * C;
    int64_t byWords = 0;
    for (int32_t x0 = 0; x0 < width; ++x0)
        for (const int32_t x1 : {x0 + 1, x0}) {
            if (x1 >= width) continue;
            INFO("x0 " << x0 << " x1 " << x1);
            const PixelPair got = fetchPair<C>(row, rowBytes, x0, x1);
            for (int i = 0; i < 2 * C; ++i) {
                const int32_t want = i < C ? row[x0 * C + i] : row[x1 * C + i - C];
                INFO("byte " << i);
                CHECK(pairByte(got, i) == want);
            }
            // The fetch reads words exactly where they lie inside the row (else bytes of the row).
            if (x1 == x0 + 1) {
                const PairWords w = pairWords(reinterpret_cast<uintptr_t>(row), rowBytes, int64_t(x0) * C, 2 * C);
                const PairWords e = expectedWords(reinterpret_cast<uintptr_t>(row), rowBytes, int64_t(x0) * C, 2 * C);
                CHECK(w.words == e.words);
                if (e.words > 0) {
                    CHECK(w.first == e.first);
                    CHECK(w.shift == e.shift);
                    CHECK(w.words <= 3);
                    CHECK(w.first >= 0);
                    CHECK(w.first + 4 * w.words <= rowBytes);
                }
                byWords += w.words > 0;
            }
        }
    // Rows of at least 4 pixels have interior pairs, which take words.
    if (width >= 4) CHECK(byWords > 0);
    // fetchPairs of this row and one starting 0 to 3 bytes further (another alignment: words for one row, bytes for
    // the other at the edges) equals fetchPair of each.
    for (int skew = 0; skew < 4; ++skew) {
        const uint8_t *other = row + skew - (lead + skew >= 4 ? 4 : 0); // stays inside the 8 guard bytes
        for (int32_t x0 = 0; x0 < width; ++x0)
            for (const int32_t x1 : {x0 + 1, x0}) {
                if (x1 >= width) continue;
                INFO("fetchPairs, skew " << skew << ", x0 " << x0 << " x1 " << x1);
                PixelPair a, b;
                fetchPairs<C>(row, other, rowBytes, x0, x1, a, b);
                const PixelPair wantA = fetchPair<C>(row, rowBytes, x0, x1), wantB = fetchPair<C>(other, rowBytes, x0, x1);
                for (int i = 0; i < 2 * C; ++i) {
                    CHECK(pairByte(a, i) == pairByte(wantA, i));
                    CHECK(pairByte(b, i) == pairByte(wantB, i));
                }
            }
    }
}

} // namespace

TEST_CASE("fetchPair: every pair of a row equals its bytes, on every alignment, and reads only the row; fetchPairs equals it", "[resize][fused]") {
    struct Row {
        int channels, lead;
        int32_t width; // widths put the row's end on every alignment too
    };
    const std::vector<Row> rows = {
        {1, 0, 9}, {1, 1, 8}, {1, 2, 7}, {1, 3, 6}, {1, 1, 1}, {1, 3, 2},
        {2, 0, 9}, {2, 1, 8}, {2, 2, 7}, {2, 3, 6}, {2, 2, 1}, {2, 1, 2},
        {3, 0, 9}, {3, 1, 8}, {3, 2, 7}, {3, 3, 6}, {3, 1, 1}, {3, 3, 2}, {3, 2, 13},
        {4, 0, 9}, {4, 1, 8}, {4, 2, 7}, {4, 3, 6}, {4, 3, 1}, {4, 1, 2},
    };
    for (const Row &r : rows) {
        INFO(r.channels << " channels, row " << r.lead << " bytes past a word, " << r.width << " pixels");
        switch (r.channels) {
        case 1: checkPairs<1>(r.lead, r.width); break;
        case 2: checkPairs<2>(r.lead, r.width); break;
        case 3: checkPairs<3>(r.lead, r.width); break;
        default: checkPairs<4>(r.lead, r.width); break;
        }
    }
}

namespace {

struct CropRow {
    const char *what;
    int32_t srcH, srcW, resizeH, resizeW, cropX, cropY, cropW, cropH;
    int lead, rowPad; // the image starts `lead` bytes past a word; rowPad bytes after each row
};

// Mismatching values of the whole crop (every pixel, every channel, srcCast both ways) between the pair path's
// functions and samplePixel.
template <int C> int64_t cropMismatches(const CropRow &r) {
    std::mt19937 rng(uint32_t(r.srcH * 131 + r.srcW + C));
    const int64_t rowStride = int64_t(r.srcW) * C + r.rowPad;
    std::vector<uint32_t> storage(size_t((r.srcH * rowStride + 16) / 4 + 1));
    auto *bytes = reinterpret_cast<uint8_t *>(storage.data());
    for (size_t i = 0; i < storage.size() * 4; ++i) bytes[i] = uint8_t(rng());
    char *base = reinterpret_cast<char *>(bytes) + r.lead;
    const cvk::View4 view = nhwc(base, 1, r.srcH, r.srcW, C, r.rowPad);
    const Mapping m = mappingOf(view, r.resizeH, r.resizeW, kLinear);
    const Plane plane{base, rowStride, C, 1};
    int64_t bad = 0;
    for (const bool srcCast : {true, false})
        for (int32_t y = 0; y < r.cropH; ++y) {
            const PairTaps ty = pairTaps(m.y, y + r.cropY);
            for (int32_t x = 0; x < r.cropW; ++x) {
                const PairTaps tx = pairTaps(m.x, x + r.cropX);
                const auto *row0 = reinterpret_cast<const uint8_t *>(base + ty.i0 * rowStride);
                const auto *row1 = reinterpret_cast<const uint8_t *>(base + ty.i1 * rowStride);
                float v[C];
                PixelPair p0, p1; // the kernel's fetch of both rows (fetchPairs)
                fetchPairs<C>(row0, row1, int64_t(r.srcW) * C, tx.i0, tx.i1, p0, p1);
                pairValues<C>(p0, p1, tx, ty, srcCast, v);
                samplePixel<uint8_t, kLinear>(m, plane, x + r.cropX, y + r.cropY, C, [&](int32_t c, uint8_t u, float real) {
                    const float want = srcCast ? static_cast<float>(u) : real;
                    bad += std::memcmp(&want, &v[c], sizeof(float)) != 0;
                });
            }
        }
    return bad;
}

} // namespace

TEST_CASE("The pair path's values equal samplePixel's on whole crops, rounded and unrounded", "[resize][fused]") {
    const std::vector<CropRow> rows = {
        {"the bench's ratios, scaled down: 108x192 -> 256x256 (enlarging), crop 224 at (16, 16)", 108, 192, 256, 256, 16, 16, 224, 224, 0, 0},
        {"downscale 300x200 -> 150x100, crop at the right and bottom edges", 300, 200, 150, 100, 69, 83, 31, 67, 1, 3},
        {"enlarging 37x53 -> 80x90, whole image (both borders clamp)", 37, 53, 80, 90, 0, 0, 90, 80, 3, 1},
        {"downscale by 7.5 across (the bench's 1920 -> 256), 1 row", 1, 1920, 1, 256, 0, 0, 256, 1, 2, 0},
        {"one column source", 9, 1, 5, 7, 0, 0, 7, 5, 1, 2},
        {"two column source", 5, 2, 6, 9, 0, 0, 9, 6, 2, 0},
    };
    for (const CropRow &r : rows) {
        INFO(r.what);
        CHECK(cropMismatches<1>(r) == 0);
        CHECK(cropMismatches<2>(r) == 0);
        CHECK(cropMismatches<3>(r) == 0);
        CHECK(cropMismatches<4>(r) == 0);
    }
}
