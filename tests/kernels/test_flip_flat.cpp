// The flat horizontal flip path on the CPU, no GPU: the whole grid of items run one by one through the same
// __host__ __device__ function the kernel runs (flip_thread.cuh, flipFlatItem), for each pixel size with a group shape
// and both item sizes, compared byte for byte with a per-pixel mirror on random images, with the destination
// poisoned first and its bytes outside the image (a pitch) checked untouched.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/flip_thread.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

constexpr uint8_t kPoison = 0xA5;

struct FlatRow {
    int64_t n, h, w, c;
    int elemSize;
    int flipCode;        // 1 or -1 (the flat path's flips: columns, and rows too)
    int64_t srcPad, dstPad; // bytes after each row
};

// Runs every item of [n, h, w, c] (rows pitched by the pads) through flipFlatItem<P, ItemBytes> and checks it.
template <int P, int ItemBytes> void runFlat(const FlatRow &r) {
    const int64_t row = r.w * P, srow = row + r.srcPad, drow = row + r.dstPad;
    REQUIRE(row % cvk::flip::groupBytes(P) == 0);
    std::vector<uint4> srcStore(size_t(r.n * r.h * srow / 16 + 1)), dstStore(size_t(r.n * r.h * drow / 16 + 1));
    auto *src = reinterpret_cast<uint8_t *>(srcStore.data());
    auto *dst = reinterpret_cast<uint8_t *>(dstStore.data());
    std::mt19937 rng(uint32_t(P * 1000 + r.w));
    for (size_t i = 0; i < srcStore.size() * 16; ++i) src[i] = uint8_t(rng());
    std::memset(dst, kPoison, dstStore.size() * 16);

    cvk::FlipParams p{};
    p.src = reinterpret_cast<const char *>(src);
    p.dst = reinterpret_cast<char *>(dst);
    const int64_t shape[5] = {1, r.n, r.h, r.w, r.c};
    const int64_t ss[5] = {r.n * r.h * srow, r.h * srow, srow, P, r.elemSize};
    const int64_t ds[5] = {r.n * r.h * drow, r.h * drow, drow, P, r.elemSize};
    for (int i = 0; i < 5; ++i) p.shape[i] = shape[i], p.srcStrides[i] = ss[i], p.dstStrides[i] = ds[i];
    p.elemSize = r.elemSize;
    p.flipRows = r.flipCode < 0;
    p.flipCols = true;
    const int64_t items = r.n * r.h * (row / ItemBytes);
    for (int64_t i = 0; i < items; ++i) cvk::flip::flipFlatItem<P, ItemBytes>(p, row, i);

    int64_t bad = 0, touched = 0;
    for (int64_t img = 0; img < r.n; ++img)
        for (int64_t y = 0; y < r.h; ++y) {
            const int64_t sy = r.flipCode < 0 ? r.h - 1 - y : y;
            const uint8_t *s = src + (img * r.h + sy) * srow;
            const uint8_t *d = dst + (img * r.h + y) * drow;
            for (int64_t x = 0; x < r.w; ++x) bad += std::memcmp(d + x * P, s + (r.w - 1 - x) * P, P) != 0;
            for (int64_t b = row; b < drow; ++b) touched += d[b] != kPoison;
        }
    CHECK(bad == 0);
    CHECK(touched == 0);
}

template <int P> void runBoth(const FlatRow &r) {
    INFO("pixel " << P << " bytes, " << r.n << "x" << r.h << "x" << r.w << ", flipCode " << r.flipCode << ", pads "
                  << r.srcPad << "/" << r.dstPad);
    {
        INFO("group items");
        runFlat<P, cvk::flip::groupBytes(P)>(r);
    }
    {
        INFO("16-byte items");
        runFlat<P, 16>(r);
    }
}

void runRow(const FlatRow &r) {
    switch (r.c * r.elemSize) {
    case 1: return runBoth<1>(r);
    case 2: return runBoth<2>(r);
    case 3: return runBoth<3>(r);
    case 4: return runBoth<4>(r);
    case 6: return runBoth<6>(r);
    case 8: return runBoth<8>(r);
    case 12: return runBoth<12>(r);
    case 16: return runBoth<16>(r);
    case 24: return runBoth<24>(r);
    case 48: return runBoth<48>(r);
    default: FAIL("pixel size without a group shape");
    }
}

} // namespace

TEST_CASE("flipFlatItem mirrors every row, item by item, as the per-pixel mirror does", "[flip][flat]") {
    const FlatRow table[] = {
        {1, 224, 224, 3, 1, 1, 0, 0},   // the small benchmark image
        {1, 224, 224, 3, 1, -1, 0, 0},
        {1, 1, 16, 3, 1, 1, 0, 0},      // one group a row
        {2, 5, 32, 3, 1, -1, 0, 0},     // two groups: the pair swaps
        {3, 7, 48, 3, 1, 1, 16, 32},    // three groups, pitched rows on both sides
        {2, 9, 16, 1, 1, 1, 0, 0},      // 1-byte pixels: one 16-byte group
        {2, 9, 48, 1, 1, -1, 16, 0},
        {2, 9, 24, 1, 2, 1, 0, 0},      // 2-byte pixels
        {2, 9, 64, 4, 1, 1, 0, 16},     // 4-byte pixels
        {2, 9, 64, 3, 2, -1, 0, 0},     // 6-byte pixels (uint16 x 3)
        {2, 9, 24, 2, 4, 1, 0, 0},      // 8-byte pixels
        {2, 9, 36, 3, 4, 1, 0, 0},      // 12-byte pixels (float32 x 3)
        {2, 9, 20, 4, 4, -1, 0, 0},     // 16-byte pixels
        {2, 9, 14, 3, 8, 1, 16, 16},    // 24-byte pixels
        {2, 9, 7, 3, 16, -1, 0, 0},     // 48-byte pixels
    };
    for (const FlatRow &r : table) runRow(r);
}
