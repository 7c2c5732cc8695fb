// Which flip kernel a canonical view reaches (cvk::planFlipKernel): pure host arithmetic, no GPU. Guards the fast
// paths that the benchmark rows rely on, and the folding of reversed src views, merged rows and in-place limits.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/flip.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace {

using cvk::FlipPath;

const char *pathName(FlipPath p) {
    switch (p) {
    case FlipPath::Nothing: return "Nothing";
    case FlipPath::RowCopy: return "RowCopy";
    case FlipPath::AlignedRows: return "AlignedRows";
    case FlipPath::ColumnGroups: return "ColumnGroups";
    case FlipPath::ColumnRows: return "ColumnRows";
    case FlipPath::ColumnFlat: return "ColumnFlat";
    case FlipPath::ColumnUnits: return "ColumnUnits";
    case FlipPath::Generic: return "Generic";
    }
    return "?";
}

char *const kAligned = reinterpret_cast<char *>(uintptr_t(1) << 20); // never dereferenced

// A packed [n, h, w, c] view of elemSize-byte elements; rowPad bytes after each row of src (pitched).
cvk::FlipParams nhwc(int64_t n, int64_t h, int64_t w, int64_t c, int elemSize, int flipCode, int64_t srcRowPad = 0) {
    cvk::FlipParams p{};
    p.src = kAligned + (int64_t(1) << 36);
    p.dst = kAligned;
    const int64_t shape[5] = {1, n, h, w, c};
    const int64_t row = w * c * elemSize;
    const int64_t dst[5] = {0, h * row, row, c * elemSize, elemSize};
    const int64_t src[5] = {0, h * (row + srcRowPad), row + srcRowPad, c * elemSize, elemSize};
    for (int i = 0; i < 5; ++i) {
        p.shape[i] = shape[i];
        p.dstStrides[i] = dst[i];
        p.srcStrides[i] = src[i];
    }
    p.elemSize = elemSize;
    p.flipRows = flipCode <= 0;
    p.flipCols = flipCode != 0;
    return p;
}

// The src strides (pitch included) become the dst's too.
cvk::FlipParams inPlace(cvk::FlipParams p) {
    p.src = p.dst;
    for (int i = 0; i < 5; ++i) p.dstStrides[i] = p.srcStrides[i];
    p.inPlace = true;
    return p;
}

cvk::FlipParams negativeSrcRows(cvk::FlipParams p) {
    p.src += (p.shape[cvk::kHeight] - 1) * p.srcStrides[cvk::kHeight];
    p.srcStrides[cvk::kHeight] = -p.srcStrides[cvk::kHeight];
    return p;
}

cvk::FlipParams withSrcStride(cvk::FlipParams p, int dim, int64_t stride) {
    p.srcStrides[dim] = stride;
    return p;
}

struct Row {
    const char *what;
    cvk::FlipParams params;
    FlipPath path;
    int unitBytes;      // checked when > 0
    int64_t width;      // width of the normalised view, checked when > 0
    bool flipRows;      // of the normalised view
    bool flipCols;
};

} // namespace

// The warp-unit paths' choices: the flat path off (flatMaxBytes 0), as main had them before it.
TEST_CASE("planFlipKernel picks the kernel and normalises the view", "[flip][dispatch]") {
    const Row table[] = {
        {"uint8x3 horizontal", nhwc(32, 1080, 1920, 3, 1, 1), FlipPath::ColumnGroups, 16, 1920, false, true},
        {"uint8x3 both: rows merged", nhwc(32, 1080, 1920, 3, 1, -1), FlipPath::ColumnGroups, 16, 1080 * 1920, false, true},
        {"uint8x3 vertical: flat aligned blocks at any size", nhwc(32, 1080, 1920, 3, 1, 0), FlipPath::AlignedRows, 16, 1920, true, false},
        {"uint8x3 vertical, one image: flat aligned blocks", nhwc(1, 1080, 1920, 3, 1, 0), FlipPath::AlignedRows, 16, 1920, true, false},
        {"uint8x3 vertical, 5 images (29.7 MiB): flat", nhwc(5, 1080, 1920, 3, 1, 0), FlipPath::AlignedRows, 16, 1920, true, false},
        {"uint8x3 vertical, 256x224x224", nhwc(256, 224, 224, 3, 1, 0), FlipPath::AlignedRows, 16, 224, true, false},
        {"uint8x3 vertical, one image, pitch 5757: the row copy", nhwc(1, 1080, 1919, 3, 1, 0), FlipPath::RowCopy, 1, 1919, true, false},
        {"uint8x1 horizontal", nhwc(32, 1080, 1920, 1, 1, 1), FlipPath::ColumnGroups, 16, 1920, false, true},
        {"uint8x4 horizontal", nhwc(32, 1080, 1920, 4, 1, 1), FlipPath::ColumnGroups, 16, 1920, false, true},
        {"float32x3 horizontal", nhwc(32, 1080, 1920, 3, 4, 1), FlipPath::ColumnGroups, 16, 1920, false, true},
        {"uint8x3 224x224 both: whole-row units, rows mirrored", nhwc(256, 224, 224, 3, 1, -1), FlipPath::ColumnRows, 16, 224, true, true},
        {"uint8x3 224x224 horizontal of a src backwards along H: both, whole-row units", negativeSrcRows(nhwc(256, 224, 224, 3, 1, 1)), FlipPath::ColumnRows, 16, 224, true, true},
        {"uint8x3 224x224 both, 170 images (24 MiB, under the flat size): one long row", nhwc(170, 224, 224, 3, 1, -1), FlipPath::ColumnGroups, 16, 224 * 224, false, true},
        {"uint8x3 224x224 both, in place: one long row", inPlace(nhwc(256, 224, 224, 3, 1, -1)), FlipPath::ColumnGroups, 16, 224 * 224, false, true},
        {"uint8x3 224x224 horizontal: whole rows", nhwc(256, 224, 224, 3, 1, 1), FlipPath::ColumnRows, 16, 224, false, true},
        {"float32x3 128 wide: two rows fill a stage", nhwc(4, 16, 128, 3, 4, 1), FlipPath::ColumnRows, 16, 128, false, true},
        {"float32x3 144 wide: two rows overflow a stage", nhwc(4, 16, 144, 3, 4, 1), FlipPath::ColumnGroups, 16, 144, false, true},
        {"uint8x1 1024 wide: two rows fill a stage", nhwc(4, 16, 1024, 1, 1, 1), FlipPath::ColumnRows, 16, 1024, false, true},
        {"uint8x1 1040 wide: two rows overflow a stage", nhwc(4, 16, 1040, 1, 1, 1), FlipPath::ColumnGroups, 16, 1040, false, true},
        {"pitched src, horizontal: rows do not follow", nhwc(4, 16, 224, 3, 1, 1, 32), FlipPath::ColumnGroups, 16, 224, false, true},
        {"pitched src, both: rows stay", nhwc(32, 1080, 1920, 3, 1, -1, 384), FlipPath::ColumnGroups, 16, 1920, true, true},
        {"pitched src, vertical", nhwc(32, 1080, 1920, 3, 1, 0, 384), FlipPath::AlignedRows, 16, 1920, true, false},
        {"pitched src, vertical, one image", nhwc(1, 1080, 1920, 3, 1, 0, 384), FlipPath::AlignedRows, 16, 1920, true, false},
        {"unaligned pitch", nhwc(2, 8, 16, 3, 1, 1, 3), FlipPath::ColumnUnits, 1, 16, false, true},
        {"uint8x5: no group shape", nhwc(2, 8, 16, 5, 1, 1), FlipPath::ColumnUnits, 1, 16, false, true},
        {"uint16x5", nhwc(2, 8, 16, 5, 2, 1), FlipPath::ColumnUnits, 2, 16, false, true},
        {"float32x8: 32-byte pixels", nhwc(2, 8, 16, 8, 4, 1), FlipPath::ColumnUnits, 16, 16, false, true},
        {"113x113x3 rows not 16-byte multiples", nhwc(2, 113, 113, 3, 1, 1), FlipPath::ColumnUnits, 1, 113, false, true},
        {"vertical 113-byte rows", nhwc(2, 113, 113, 1, 1, 0), FlipPath::RowCopy, 1, 113, true, false},
        {"src backwards along H, vertical: a plain copy", negativeSrcRows(nhwc(2, 8, 16, 3, 1, 0)), FlipPath::AlignedRows, 16, 16, false, false},
        {"src backwards along H, horizontal: both, merged", negativeSrcRows(nhwc(2, 8, 16, 3, 1, 1)), FlipPath::ColumnRows, 16, 128, false, true},
        {"zero src row stride", withSrcStride(nhwc(2, 8, 16, 3, 1, 1), cvk::kHeight, 0), FlipPath::ColumnGroups, 16, 16, false, true},
        {"zero src width stride", withSrcStride(nhwc(2, 8, 16, 3, 1, 1), cvk::kWidth, 0), FlipPath::Generic, 0, 16, false, true},
        {"channels not packed", withSrcStride(nhwc(2, 8, 16, 3, 1, 1), cvk::kInner, 2), FlipPath::Generic, 0, 16, false, true},
        {"1x1 image", nhwc(2, 1, 1, 3, 1, -1), FlipPath::RowCopy, 0, 1, false, false},
        {"in place 1x1", inPlace(nhwc(2, 1, 1, 3, 1, -1)), FlipPath::Nothing, 0, 0, false, false},
        {"in place Hx1 horizontal", inPlace(nhwc(2, 7, 1, 3, 1, 1)), FlipPath::Nothing, 0, 0, false, false},
        {"in place vertical", inPlace(nhwc(2, 8, 16, 3, 1, 0)), FlipPath::RowCopy, 16, 16, true, false},
        {"in place both, packed: one row", inPlace(nhwc(2, 8, 16, 3, 1, -1)), FlipPath::ColumnRows, 16, 128, false, true},
        {"in place both, pitched", inPlace(nhwc(2, 8, 16, 3, 1, -1, 32)), FlipPath::Generic, 0, 16, true, true},
    };
    for (const Row &r : table) {
        INFO(r.what);
        const cvk::FlipPlan plan = cvk::planFlipKernel(r.params, 0);
        CHECK(std::string(pathName(plan.path)) == pathName(r.path));
        if (r.path == FlipPath::Nothing) continue;
        if (r.unitBytes > 0) CHECK(plan.unitBytes == r.unitBytes);
        CHECK(plan.params.shape[cvk::kWidth] == r.width);
        CHECK(plan.params.flipRows == r.flipRows);
        CHECK(plan.params.flipCols == r.flipCols);
        // The normalised view addresses the same first dst element and never a reversed src row or column.
        CHECK(plan.params.dst == r.params.dst);
        CHECK(plan.params.srcStrides[cvk::kHeight] >= 0);
    }
}

TEST_CASE("planFlipKernel sends small horizontal flips of aligned group rows to the flat path", "[flip][dispatch]") {
    struct Flat {
        const char *what;
        cvk::FlipParams params;
        FlipPath path;
        int unitBytes; // checked when > 0
    };
    const Flat table[] = {
        {"1x224x224x3 horizontal: group items", nhwc(1, 224, 224, 3, 1, 1), FlipPath::ColumnFlat, 48},
        {"1x224x224x3 both: one row, group items", nhwc(1, 224, 224, 3, 1, -1), FlipPath::ColumnFlat, 48},
        {"1x224x224x3 vertical: the row paths", nhwc(1, 224, 224, 3, 1, 0), FlipPath::AlignedRows, 16},
        {"1x1080x1920x3 horizontal: 129600 groups, group items", nhwc(1, 1080, 1920, 3, 1, 1), FlipPath::ColumnFlat, 48},
        {"1x1080x1920x3 both: group items", nhwc(1, 1080, 1920, 3, 1, -1), FlipPath::ColumnFlat, 48},
        {"uint8x4: 16-byte groups", nhwc(1, 224, 224, 4, 1, 1), FlipPath::ColumnFlat, 16},
        {"uint16x3: 48-byte groups of 6-byte pixels", nhwc(1, 224, 224, 3, 2, 1), FlipPath::ColumnFlat, 48},
        {"float32x3 1080p: group items", nhwc(1, 1080, 1920, 3, 4, 1), FlipPath::ColumnFlat, 48},
        {"pitched src, both: rows stay, flat", nhwc(4, 16, 224, 3, 1, -1, 32), FlipPath::ColumnFlat, 48},
        {"5x1080x1920x3 (29.7 MiB): flat", nhwc(5, 1080, 1920, 3, 1, 1), FlipPath::ColumnFlat, 48},
        {"6x1080x1920x3 (35.6 MiB): warp units", nhwc(6, 1080, 1920, 3, 1, 1), FlipPath::ColumnGroups, 16},
        {"256x224x224x3 (36.8 MiB): whole-row units", nhwc(256, 224, 224, 3, 1, 1), FlipPath::ColumnRows, 16},
        {"256x224x224x3 both (36.8 MiB): whole-row units, rows mirrored", nhwc(256, 224, 224, 3, 1, -1), FlipPath::ColumnRows, 16},
        // test_flip.cpp's mirroredRowsTable shapes (33 MiB each), whose GPU results it checks.
        {"1392x37x224x3 both", nhwc(1392, 37, 224, 3, 1, -1), FlipPath::ColumnRows, 16},
        {"3897x37x80x3 both: 5 groups a row", nhwc(3897, 37, 80, 3, 1, -1), FlipPath::ColumnRows, 16},
        {"1044x37x224x4 both: 16-byte groups", nhwc(1044, 37, 224, 4, 1, -1), FlipPath::ColumnRows, 16},
        {"1392x37x112x3 uint16 both", nhwc(1392, 37, 112, 3, 2, -1), FlipPath::ColumnRows, 16},
        {"914x37x1024x1 both", nhwc(914, 37, 1024, 1, 1, -1), FlipPath::ColumnRows, 16},
        {"32x1080x1920x3: warp units", nhwc(32, 1080, 1920, 3, 1, 1), FlipPath::ColumnGroups, 16},
        {"in place: whole-row units", inPlace(nhwc(1, 224, 224, 3, 1, 1)), FlipPath::ColumnRows, 16},
        {"113x113x3 rows not 16-byte multiples", nhwc(1, 113, 113, 3, 1, 1), FlipPath::ColumnUnits, 1},
    };
    for (const Flat &f : table) {
        INFO(f.what);
        const cvk::FlipPlan plan = cvk::planFlipKernel(f.params);
        CHECK(std::string(pathName(plan.path)) == pathName(f.path));
        if (f.unitBytes > 0) CHECK(plan.unitBytes == f.unitBytes);
        // Every flat plan is the warp-unit plan's view with another kernel: the same normalisation.
        const cvk::FlipPlan old = cvk::planFlipKernel(f.params, 0);
        CHECK(plan.params.shape[cvk::kWidth] == old.params.shape[cvk::kWidth]);
        CHECK(plan.params.shape[cvk::kHeight] == old.params.shape[cvk::kHeight]);
        CHECK(plan.params.flipRows == old.params.flipRows);
        CHECK(plan.pixelBytes == old.pixelBytes);
    }
}

TEST_CASE("planFlipKernel merges images whose rows follow each other, unless rows flip", "[flip][dispatch]") {
    struct Merge {
        const char *what;
        cvk::FlipParams params;
        int64_t planes, height; // of the normalised view: outer1 * outer0, and rows per plane
    };
    const Merge table[] = {
        {"packed, horizontal", nhwc(256, 224, 224, 3, 1, 1), 1, 256 * 224},
        {"pitched src, horizontal: the pitch chains too", nhwc(4, 16, 224, 3, 1, 1, 32), 1, 4 * 16},
        {"packed, vertical: rows flip within each image", nhwc(4, 16, 224, 3, 1, 0), 4, 16},
        {"pitched src, both: rows flip within each image", nhwc(4, 16, 224, 3, 1, -1, 32), 4, 16},
        {"packed, both: one long row per image, images merged", nhwc(4, 16, 224, 3, 1, -1), 1, 4},
        {"zero src row stride: no chain", withSrcStride(nhwc(2, 8, 16, 3, 1, 1), cvk::kHeight, 0), 2, 8},
    };
    for (const Merge &m : table) {
        INFO(m.what);
        const cvk::FlipPlan plan = cvk::planFlipKernel(m.params);
        CHECK(plan.params.shape[cvk::kOuter1] * plan.params.shape[cvk::kOuter0] == m.planes);
        CHECK(plan.params.shape[cvk::kHeight] == m.height);
    }
}

TEST_CASE("flipLaunchShape spreads small launches over blocks of fewer warps", "[flip][dispatch]") {
    struct Shape {
        int64_t warpUnits;
        unsigned grid, block;
    };
    const Shape table[] = {
        {0, 1, 32},            // nothing to do: still one block (kernels exit at once)
        {1, 1, 32},
        {56, 56, 32},          // 1x224x224x3 u8, flipCode 1 (whole-row units of 4 rows): one warp on each of 56 SMs
        {75, 75, 32},          // 1x224x224x3 u8, flipCode 0 (3 rows per row-copy unit)
        {255, 255, 32},
        {256, 128, 64},
        {600, 150, 128},
        {1023, 256, 128},
        {1024, 128, 256},      // from here on: blocks of 8 warps, as before
        {3240, 405, 256},      // 1x1080x1920x3 u8, flipCode 0 (3 row-copy units per row)
        {(int64_t(1) << 20) * 8 + 1, 1u << 20, 256}, // capped: the grid-stride loops take the rest
    };
    for (const Shape &s : table) {
        INFO("warpUnits " << s.warpUnits);
        const cvk::FlipLaunchShape g = cvk::flipLaunchShape(s.warpUnits);
        CHECK(g.grid == s.grid);
        CHECK(g.block == s.block);
        CHECK(uint64_t(g.grid) * (g.block / 32) >= uint64_t(std::min<int64_t>(s.warpUnits, int64_t(1) << 23)));
    }
}

TEST_CASE("flipRowView: the rows launchCopy moves for a vertical flip", "[flip][dispatch]") {
    // 2 images of 8 rows of 48 bytes: dst row (n, h) <- src row (n, 7 - h).
    const cvk::FlipPlan plan = cvk::planFlipKernel(nhwc(2, 8, 16, 3, 1, 0));
    const cvk::RowView v = cvk::flipRowView(plan.params);
    CHECK(v.inner == 48);
    CHECK(v.srcInner == 1);
    CHECK(v.dstInner == 1);
    CHECK(v.rows[0] == 1);
    CHECK(v.rows[1] == 2);
    CHECK(v.rows[2] == 8);
    CHECK(v.src == plan.params.src + 7 * 48);
    CHECK(v.srcRow[2] == -48);
    CHECK(v.srcRow[1] == 8 * 48);
    CHECK(v.dst == plan.params.dst);
    CHECK(v.dstRow[2] == 48);
    CHECK(v.dstRow[1] == 8 * 48);
    // Without a row flip the rows map one to one, and being contiguous on both sides merge into one run of 768 bytes.
    cvk::FlipParams same = plan.params;
    same.flipRows = false;
    const cvk::RowView w = cvk::flipRowView(same);
    CHECK(w.src == same.src);
    CHECK(w.rows[0] * w.rows[1] * w.rows[2] == 1);
    CHECK(w.inner == 16 * 48);
}
