// Resize kernels (cvResize) and the fused resize -> crop -> convert -> normalize -> reformat pass, and their dispatch.
// Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

namespace resize {
// Interpolations, in the order of the dispatch tables (semantics: resize_filters.cuh).
enum Interp : int32_t { kNearest = 0, kNearestFloor, kLinear, kCubic, kArea, kInterpCount };
// PyTorch's interpolate modes (torchvision's resize), in the order of their dispatch table.
enum TvMode : int32_t { kTvNearest = 0, kTvNearestFloor, kTvLinear, kTvCubic, kTvLinearAA, kTvCubicAA, kTvModeCount };
} // namespace resize

// Element types the resize kernels handle, in the order of the dispatch tables.
enum ResizeType : int32_t { kResizeU8 = 0, kResizeU16, kResizeS16, kResizeF16, kResizeF32, kResizeTypeCount };

struct ResizeParams {
    View4 src, dst; // [N, H, W, C] with byte strides (common/view.hpp): same N and C and element type; H, W >= 1
    int32_t type;        // ResizeType
    int32_t interp;      // cvk::resize::Interp (OpenCV semantics), or -1 when torchMode is used
    int32_t torchMode;   // cvk::resize::TvMode (PyTorch semantics), or -1 when interp is used
};

// Enqueues the resize on `stream`; returns the launch status. Never blocks the host.
cudaError_t launchResize(const ResizeParams &p, cudaStream_t stream);

// The block geometry of cvResize's shared-memory tiled path (resize_tile.cuh).
struct ResizeTileShape {
    int32_t tileW, tileH; // destination pixels per block
    int32_t maxRows;      // the most source rows one tile stages
    int32_t pitch;        // words per staged row: odd, >= the most staged columns (one word per pixel)
    int32_t hpitch;       // entries per destination column of the horizontal buffer: odd, >= maxRows
    int32_t hwords;       // words per entry of the horizontal buffer: 1 for one channel, else 4
    int32_t outPitch;     // bytes per destination row of the output buffer (multiple of 16)
    int32_t smemBytes;    // dynamic shared memory per block
};

// Whether launchResize takes the tiled path for p, and its geometry (exposed so CPU tests can check the dispatch).
// The tiled path takes uint8 with 1, 3 or 4 channels, packed pixels on both sides and 4-byte aligned source images
// and rows, for LINEAR when the vertical factor is at most 2 (beyond, it would stage rows the taps skip), CUBIC at
// most 4, AREA when neither axis is enlarged, and a tile that fits 48 KiB of shared memory. It is exact: the same
// bytes as the per-pixel sampler. Pure host arithmetic.
bool planResizeTile(const ResizeParams &p, ResizeTileShape &shape);
cudaError_t launchResizeTiled(const ResizeParams &p, const ResizeTileShape &shape, cudaStream_t stream);

// The block geometry of the separable path of cvResizeTorchvision's antialiased modes (resize_tv_tile.cuh).
struct TvTileShape {
    int32_t taps;      // index into resize::kTvTaps: the compiled window size, >= every window of both axes
    int32_t tileH;     // output rows per block (32 columns)
    int32_t maxRows;   // the most source rows one tile's horizontal buffer holds
    int32_t padRows;   // rows of the buffer past maxRows: taps for an integer source (all-taps vertical sums), else 0
    int32_t smemBytes; // dynamic shared memory per block
    // The staged variant (tvStagedKernel): bytes a staged source row takes (the widest tile's span, 16-byte chunks),
    // 0 when the plan does not stage; where the two stages start in shared memory (16-byte aligned).
    int32_t stagePitch;
    int32_t stageOffset;
};

// The geometry of cvResize's row paths (resize_rows.cuh): the destination width is cut into strips of stripW
// columns, one per block column of the grid.
struct ResizeRowShape {
    int32_t stripW;    // destination pixels per strip (a multiple of 4 when there are several strips)
    int32_t strips;
    int32_t staged;    // LINEAR/CUBIC: the most staged ints of any strip row; 0 for NEAREST
    int32_t smemBytes; // dynamic shared memory per block
    int32_t paired;    // LINEAR/CUBIC: 1 when each warp of the horizontal pass takes every other column (fewer
                       // shared-memory bank conflicts for this ratio), 0 when consecutive columns
};

// Whether launchResize takes a row path for p, and its geometry (exposed so CPU tests can check the dispatch).
// NEAREST and NEAREST_FLOOR (OpenCV semantics) take the byte gather for every element type when pixels are packed on
// both sides; uint8 LINEAR and CUBIC with 1, 3 or 4 packed channels, a 4-byte aligned source (data, rows, images)
// and a horizontal factor of at most 2 (LINEAR) or 4 (CUBIC) take the staged rows (beyond, most staged columns
// would feed no tap). Exact: the same bytes as the per-pixel sampler. Pure host arithmetic. Tried after the band
// path where resizeBandPreferred, and after the separable CUBIC path where resizeCubicPreferred.
bool planResizeRows(const ResizeParams &p, ResizeRowShape &shape);
cudaError_t launchResizeRows(const ResizeParams &p, const ResizeRowShape &shape, cudaStream_t stream);

// The geometry of cvResize's band path (resize_band.cuh): strips of stripW destination columns (one per block column
// of the grid) and bands of bandRows consecutive destination rows of the batch (one per block row).
struct ResizeBandShape {
    int32_t stripW;    // destination pixels per strip (a multiple of 4 when there are several strips)
    int32_t strips;
    int32_t slotPitch; // bytes per staged source row (resize_band.cuh, bandSlotPitch of the widest strip span)
    int32_t threads;   // per block
    int32_t smemBytes; // dynamic shared memory per block
    int64_t bandRows;  // destination rows per band; set by launchResizeBand (the device's resident blocks)
    int64_t bands;
};

// Whether launchResize takes the band path for p, and its geometry but the bands (exposed so CPU tests can check the
// dispatch): uint8 NEAREST, NEAREST_FLOOR and LINEAR with 1 to 4 channels, pixels packed on both sides, any row
// strides and alignment, a horizontal factor of at most 32 / C (beyond, staging whole row spans reads sectors no
// pixel needs) and a strip whose ring fits 48 KiB of shared memory. Exact: the same bytes as the per-pixel sampler.
// Pure host arithmetic.
bool planResizeBand(const ResizeParams &p, ResizeBandShape &shape);
// Whether launchResize prefers the band path, for a shape planResizeBand takes (tried before planResizeRows then):
// downscales by more than 1 and at most 2 across that do not enlarge down. Measured on an H200 (docs/perf.md),
// 32x1080x1920x3 -> 720x1280 is faster on the band path (NEAREST 76 against 96 us, LINEAR 188 against 201), and
// -> 224x224 slower (NEAREST 28.5 against 18.4, LINEAR 63 against 35): staging whole row spans costs more than the
// taps save once most of a row feeds none. Enlargements were not measured and stay where they were.
bool resizeBandPreferred(const ResizeParams &p);
// The bands for `blocks` blocks per strip over `rows` destination rows (rows >= 1, blocks >= 1).
void setResizeBands(ResizeBandShape &shape, int64_t rows, int64_t blocks);
cudaError_t launchResizeBand(const ResizeParams &p, ResizeBandShape shape, cudaStream_t stream);

// The geometry of cvResize's periodic LINEAR path (resize_linear.cuh): strips of stripW destination columns (one per
// block column of the grid) and bands of bandRows destination rows of one image (one per block row).
struct ResizeLinearShape {
    int32_t period;     // index into resize_linear.cuh's kLinearPeriods
    int32_t variant;    // 0 or 1: the destination pixels per thread (resize_linear.cuh, kLinearPixels)
    int32_t pixels;     // destination pixels per thread
    int32_t stripW, strips; // stripW a multiple of pixels
    int32_t bandRows, bands;
    int32_t stagedRows; // the most source rows a band stages
    int32_t pitch;      // bytes per staged row (a multiple of 16)
    int32_t depth;      // staging buffers: 1 (stage, compute), or 2 (the next band's rows load while one computes)
    int32_t threads, smemBytes;
    int32_t wx[2];      // the horizontal fixed-point weights of each phase of the period: w0 | w1 << 16
    int64_t perBlock;   // (image, band) items per block, in order; set by setResizeLinearBlocks
    int64_t blocks;     // blocks per strip
};

// Whether launchResize may take the periodic LINEAR path for p, and its geometry (exposed so CPU tests can check the
// dispatch): uint8 LINEAR (OpenCV semantics) with 1, 3 or 4 packed channels on both sides, a 4-byte aligned source
// (data, rows, images), a vertical factor from 1 to 2 and a horizontal ratio of exactly 2:1 or 3:2 whose every
// destination column's taps and weights (linearTaps, fixedWeight) follow that period; a band's staged rows within
// 48 KiB of shared memory. Exact: the same bytes as the per-pixel sampler. Pure host arithmetic.
// planResizeLinearWith takes the variant (0, 1), destination rows per band, strips across, staging depth and
// (row, thread span) items per thread and band (the probe's variants); planResizeLinear is the choice launchResize
// makes. Both leave perBlock and blocks to
// launchResizeLinear: one item per block for depth 1, one wave of resident blocks for depth 2.
// launchResize tries it first: it issues fewer instructions per output byte than the band path it replaces for these
// shapes (no tap table, no per-tap addressing, rows blended first on whole staged words; Nsight Compute found the band
// path bound by instruction issue), and ran 2.2-2.4x as fast on an H200 (bench/probes/resize_linear_variants.cu;
// figures where planResizeLinear chooses its variant, resize_linear.cu).
bool planResizeLinear(const ResizeParams &p, ResizeLinearShape &shape);
bool planResizeLinearWith(const ResizeParams &p, int32_t variant, int32_t bandRows, int32_t strips, int32_t depth, int32_t itemsPerThread,
                          ResizeLinearShape &shape);
// The items per block for `items` (image, band) items over at most `blocks` blocks per strip (items, blocks >= 1;
// at most 65535 blocks, the grid's limit).
void setResizeLinearBlocks(ResizeLinearShape &shape, int64_t items, int64_t blocks);
cudaError_t launchResizeLinear(const ResizeParams &p, ResizeLinearShape shape, cudaStream_t stream);

// The geometry of cvResize's periodic NEAREST path (resize_nearest.cuh): one thread per group of `pixels`
// consecutive destination pixels of one row, `groups` groups a row, items = N * dstH * groups threads in all.
struct ResizeNearestShape {
    int32_t period;  // index into resize_linear.cuh's kLinearPeriods
    int32_t variant; // the kernel (resize_nearest.cuh, kNearestVariants): pixels per thread, threads, tiled or not
    int32_t pixels, threads, groups;
    int32_t items;
};

// Whether launchResize may take the periodic NEAREST path for p, and its geometry (exposed so CPU tests can check
// the dispatch): uint8 NEAREST and NEAREST_FLOOR (OpenCV semantics) with 1, 3 or 4 packed channels on both sides,
// a 4-byte aligned source (data, rows, images), a destination of any alignment, a vertical factor of at least 1 (no
// row enlarged: each source row it reads is read once) and a horizontal ratio of exactly 2:1 or 3:2 whose every
// destination column's source index (bandSourceIndex) follows that period. Exact: the same bytes as the per-pixel
// sampler. Pure host arithmetic. `variant` (0 .. kNearestVariantCount - 1) picks the kernel (the probe's
// variants; a tiled one gives variant 0 where rows are not 16-byte aligned or a row ends in a partial group); -1
// takes resize_nearest.cuh's kNearestVariantOf (per channel count).
// launchResize tries it before the band path (one marked line there; remove it to return these shapes to the band
// path): no staging, no index table, whole-word loads of only the source rows the destination reads, byte permutes
// at compile-time positions and 16-byte stores (bench/probes/resize_nearest_variants.cu times it against the band path).
bool planResizeNearest(const ResizeParams &p, ResizeNearestShape &shape, int32_t variant = -1);
cudaError_t launchResizeNearest(const ResizeParams &p, const ResizeNearestShape &shape, cudaStream_t stream);

// The blocks of kernel k (threads, smem bytes each) the current device keeps resident, from a small per-thread
// cache: the band and periodic LINEAR paths launch one wave of blocks that each walk many rows.
cudaError_t residentResizeBlocks(const void *k, int threads, int smem, int &resident);

// The geometry of cvResize's separable CUBIC path (resize_cubic.cuh): strips of stripW destination columns (one per
// block column of the grid) and bands of bandRows consecutive destination rows of the batch.
struct ResizeCubicShape {
    int32_t variant;   // the kernel: 0 = 2 destination pixels per thread, at most 320 threads per block, 4 items
                       // in flight; 1 = 4 pixels, 256 threads, 4 items; 2 = 4 pixels, 320 threads, 4 items;
                       // 3 = 4 pixels, 256 threads, 8 items; 4 to 11 the aligned variants (16-byte aligned source
                       // rows of whole 16-byte chunks; planResizeCubic gives other sources variant 2): 4 = 2 pixels,
                       // 320 threads, 4 items; 5 = the same, 6 items; 6 = 4 pixels, 160 threads; 7 = 4 pixels, 256
                       // threads; 8 = 1 pixel, 512 threads; 9 = 2 pixels, 256 threads; 10 = 3 pixels, 224 threads;
                       // 11 = 4 pixels, 160 threads, 6 items; 12 = 4 pixels, 160 threads, 5 blocks per SM; 13 = 4
                       // pixels, 160 threads, 8 items; 14 = 5 pixels, 128 threads; 15 = the same, 6 items;
                       // 16 and 17 = 14 and 15 staged by bulk copies (sm_90 on) (resize_cubic.cu)
    int32_t ahead;     // the variant's source rows whose copies are in flight
    int32_t stripW;
    int32_t strips;
    int32_t slotPitch; // bytes per staged source row (cubicSlotPitch of the widest strip)
    int32_t threads;   // per block
    int32_t smemBytes; // dynamic shared memory per block
    int64_t bandRows;  // destination rows per band; 0 (planResizeCubic's): launchResizeCubic sets it from the device's
                       // resident blocks (one band each); > 0: kept (at most kCubicMaxBandRows), blocks walk several
    int64_t bands;
};

// Whether the separable CUBIC path takes p, and its geometry but the bands (exposed so CPU tests check the
// dispatch and the probe bench/probes/resize_cubic_variants.cu times its variants): uint8 CUBIC with 1, 3 or 4
// channels, pixels packed on both sides, source row and image strides multiples of 4 bytes (any base address),
// factors of at most 4 on both axes (beyond, most staged rows and bytes feed no tap), source rows of at least 4
// pixels (resize_cubic.cuh's cubicWindow) and a strip whose ring fits
// 48 KiB of shared memory. `variant` picks the kernel (ResizeCubicShape::variant), maxStripW > 0 narrows the
// strips; launchResize takes kResizeCubicVariant and kResizeCubicMaxStripW. Exact: the same bytes as the per-pixel
// sampler. Pure host arithmetic.
// The choice, from bench/probes/resize_cubic_variants.cu on an H200 (GPU µs per call, 32x1080x1920x3 unless named;
// the row paths' figure first): -> 720x1280 317.1 -> 257.7 (the other variants and strip widths 263-605);
// 2x down 215.9 -> 195.6; 2x up from 540x960 393.5 -> 362.4; 16 x 4 channels -> 720x1280 237.4 -> 149.4.
// The aligned variants 4-11 (resize_cubic.cu: a few instructions per staged chunk instead of about a hundred per
// row, two dp2a per tap sum instead of three instructions, 3-4 resident blocks per SM without spills) are timed by
// the same probe beside variant 2 in strips of 640; they give the same bytes (the CPU tests and the probe check it).
// Variant 6 (4 pixels a thread, 160 threads, 4 blocks per SM), then against variant 2 (µs): -> 720x1280 253.4 ->
// 192.0 (the aligned variants 191.6-571.6, variant 11's six rows ahead 191.6); 2x down 194.3 -> 143.4; 2x up 363.0
// -> 256.9; 16 x 4 channels 147.7 -> 115.9; 1 channel 200.0 -> 133.0 (the row paths: 149.9). Sources it does not
// take (not 16-byte aligned, rows not whole 16-byte chunks) get variant 2.
// Then border folding (resize_cubic.cuh's cubicWindow: no plain loads per staged row) and the emit's weights loaded
// once took variant 6 to 138.8 and variant 7 (4 pixels a thread, built for 2 blocks of 256 threads: 116 registers, no
// spills, where variant 6 spilled) to 137.5 µs (1 channel 62.2, 2x down 96.1 against 101.7, 2x up 183.7 against
// 221.0, 16 x 4 channels 83.9 against 105.8; variants 11 and 13, 6 and 8 rows ahead, 139.0-139.3; every output byte
// identical). Variant 14 (5 pixels a thread, 128 threads: a fifth fewer warps per staged row, each with its barrier,
// wait and copy bookkeeping) then beat it on every shape of the probe (µs, variant 7 first): -> 720x1280 137.8 ->
// 118.8, 1 channel 62.2 -> 59.2, 16 x 4 channels 84.0 -> 79.3, 2x down 95.4 -> 91.7, 2x up 184.2 -> 159.0 (variant
// 15, 6 rows ahead, within 0.6 of it): launchResize took variant 14.
// Then an emit with predicated stores from one pointer took variant 14 to 114.9-115.1 µs, and variant 16 (the same
// with one bulk copy an item, resize_cubic.cu) beat it (logs/probe-resize_cubic_bulk.log, two runs, µs, variant 14
// first): -> 720x1280 114.9-115.1 -> 103.3-104.0 (the copy of the same bytes 70.8-71.1), 16 x 4 channels 80.8-81.0 ->
// 74.8-75.3, 2x down 89.5-89.7 -> 82.3-82.6; it lost 0.5-1.5 % on 1 channel (56.8-57.1 -> 57.8) and 2x up
// (148.0-149.6 -> 150.2-151.9). launchResize takes variant 16; where the kernels lack sm_90 code
// (resizeBulkCopyDevice) launchResizeCubic runs it as variant 14.
constexpr int32_t kResizeCubicVariant = 16;       // 5 pixels per thread, 128 threads a block for strips of 640, bulk copies
constexpr int32_t kResizeCubicNoBulkVariant = 14; // the same with cp.async copies by the threads (what 16 runs as before sm_90)
constexpr int32_t kResizeCubicMaxStripW = 640;    // strips of at most 640 destination columns
bool planResizeCubic(const ResizeParams &p, ResizeCubicShape &shape, int32_t variant = kResizeCubicVariant,
                     int32_t maxStripW = kResizeCubicMaxStripW);
// Whether launchResize prefers the separable CUBIC path over the row paths for p, planned as `shape`: 3 and 4
// channels; one channel when kResizeCubicOneChannel and the plan kept kResizeCubicVariant or kResizeCubicNoBulkVariant
// (they beat the row paths there, 57.8 and 59.2 against 150.0 µs at 32x1080x1920x1 -> 720x1280); a source they do not take keeps the row paths
// (variant 2 was not timed on one since border folding).
constexpr bool kResizeCubicOneChannel = true;
bool resizeCubicPreferred(const ResizeParams &p, const ResizeCubicShape &shape);
// The bands for `blocks` blocks per strip over `rows` destination rows (rows >= 1, blocks >= 1).
void setResizeCubicBands(ResizeCubicShape &shape, int64_t rows, int64_t blocks);
// A bulk variant (16, 17) runs as its cp.async twin (14, 15) where the kernels lack sm_90 code (resizeBulkCopyDevice).
cudaError_t launchResizeCubic(const ResizeParams &p, ResizeCubicShape shape, cudaStream_t stream);

// The geometry of cvResize's AREA row path (resize_area.cuh): strips of 32 * warps destination columns, one per
// thread (one strip per block column of the grid), and bands of bandRows consecutive destination rows of the batch
// (one per block row).
struct ResizeAreaShape {
    int32_t taps;      // index into resize::kAreaTaps: the compiled taps per column, >= every column's run
    int32_t warps;     // per block
    int32_t strips;
    int32_t slotPitch;  // bytes per staged source row (resize_area.cuh, areaSlotPitch of the widest strip)
    int32_t streamRows; // the most source rows a band stages (resize_area.cuh, areaMaxStream): its table's entries
    int32_t outPitch;   // bytes per buffered destination row (resize_area.cuh, areaOutPitch)
    int32_t lastRow;    // the last source row that destination row dstH - 1 reads
    int32_t smemBytes;  // the ring of slots, the band's table of source rows, four destination rows
    int64_t bandRows, bands;
    int32_t perLane;    // 0: the block kernel (resize_area.cuh); 1 or 2: the warp kernel (resize_area_warp.cuh) with
                        // that many destination columns a lane, warps of 32 * perLane columns, slotPitch a warp's
    int32_t ring;       // 1: the ring kernel (resize_area_ring.cuh; perLane 0), the block's geometry
};

// Whether launchResize can take the AREA row path for p, and its geometry (exposed so CPU tests can check the
// dispatch): uint8 AREA with no axis enlarged (the integer box and the fractional table), 1, 3 or 4 channels,
// pixels packed on both sides, any row strides and alignment, at most 16 source columns under a destination
// column and a block that fits 48 KiB of shared memory. Exact: the same
// bytes as the per-pixel sampler. `warps` > 0 forces the block width (the probe's variants); 0 lets the plan pick
// the one with the fewest estimated issue cycles (shared-memory bank conflicts included). Pure host arithmetic.
bool planResizeArea(const ResizeParams &p, ResizeAreaShape &shape, int32_t warps = 0);
// launchResize takes the AREA row path for every shape planResizeArea accepts (before the tiled path):
// bench/probes/resize_area_variants.cu on an H200 (GPU µs per call, 32 x 1080x1920, the tiled path's figure first):
// 3 channels -> 224x224 205.8 -> 108.4, -> 270x480 206.8 -> 157.0, -> 720x1280 671.1 -> 419.2; 1 channel ->
// 224x224 172.0 -> 68.7; 4 channels -> 224x224 203.0 -> 195.0.
cudaError_t launchResizeArea(const ResizeParams &p, const ResizeAreaShape &shape, cudaStream_t stream);
// The warp kernel's plan for a shape planResizeArea takes (sm_90 on: resizeBulkCopyDevice): `perLane` columns a lane
// (0: the plan's choice), warps of 32 * perLane columns, at most kAreaMaxWarps a block, bands of about one resident
// block each, within the default 48 KiB of shared memory (else false). Pure host arithmetic.
// Its figures (bench/probes/resize_area_warp.cu on an H200) and the rule for perLane: resize_area.cu, kAreaWarpVariants.
bool planResizeAreaWarp(const ResizeParams &p, ResizeAreaShape &shape, int32_t perLane = 0);
// The same from planResizeArea's accepted plan `block` of p (launchResize's: no second planResizeArea).
bool planResizeAreaWarp(const ResizeParams &p, const ResizeAreaShape &block, ResizeAreaShape &shape, int32_t perLane = 0);
// The ring kernel's plan from planResizeArea's accepted plan `block` of p (sm_90 on: resizeBulkCopyDevice): the
// block's strips, warps and columns, bands of about one resident block each, within the default 48 KiB of shared
// memory (else false). Pure host arithmetic. Its figures and variant: resize_area.cu, kAreaRingVariant.
bool planResizeAreaRing(const ResizeParams &p, const ResizeAreaShape &block, ResizeAreaShape &shape);
// Whether launchResize takes the ring kernel over the warp kernel for planResizeArea's plan `shape` (or the ring
// plan made from it: the same taps and warps): runs of more than kAreaWarpPairTaps taps (below, the warp kernel's
// two columns a lane win) in blocks of at least kAreaRingMinWarps warps (fewer leave the multiprocessors a few warps
// each). resize_area.cu has the figures.
constexpr int32_t kAreaRingMinWarps = 4;
bool resizeAreaRingPreferred(const ResizeAreaShape &shape);
// Whether the current device runs the bulk-copy kernels: the code it runs was built for sm_90 or later (a build
// without sm_90 code runs its older PTX there, in which they trap); cached per device.
bool resizeBulkCopyDevice();

// The fused preprocessing pass: dst[n, y, x, c'] = normalize(convert(crop(resize(src))))[c'] where
//   resized  = resize(src[n]) to (resizeH, resizeW) with `interp` (the sampler of cvResize, bit for bit),
//   value    = resized[y + cropY, x + cropX, c] with c = c' or C-1-c' (reverseChannels), rounded to uint8 first
//              when srcCast (the reference library's default), else the unrounded interpolation,
//   dst      = (value * scale + offset - mean[c']) / stddev[c'] in float (IEEE division, as torchvision's
//              normalize), stored as float or half.
// src is uint8 with 1..4 channels; dst is float32 or float16 in any [N, H, W, C] strides (NHWC or NCHW).
constexpr int kFusedMaxChannels = 4;

struct FusedParams {
    View4 src, dst;           // [N, H, W, C]: dst N and C as src's, H/W the crop's size
    int32_t resizeH, resizeW; // size of the resized image the crop is taken from
    int32_t cropX, cropY;     // crop's top-left corner in the resized image; crop lies inside it
    int32_t interp;           // cvk::resize::Interp (OpenCV's sampler), or -1 when torchMode is used
    int32_t torchMode;        // cvk::resize::TvMode (cvResizeTorchvision's sampler), or -1 when interp is used
    bool srcCast;
    bool reverseChannels;
    bool halfOut;             // float16 output, else float32
    float scale, offset;
    float mean[kFusedMaxChannels], stddev[kFusedMaxChannels];
};

// Enqueues the fused pass on `stream` (never blocks the host): the staged path where fusedStagedPreferred(p) and
// planFusedStaged takes p with kFusedStagedVariant, else the pair path where fusedPairsTake, else the general kernel
// (launchResizeFusedGeneral). All compute the same values bit for bit.
cudaError_t launchResizeFused(const FusedParams &p, cudaStream_t stream);
// Whether launchResizeFused tries the staged path before the pair path: fusedPairsTake's shapes with 1 to 3 channels
// and fewer than kFusedPairsFromScaleX source columns per resized column. Where the resize shrinks more across, the
// pair path is faster. bench/probes/fused_paths.cu on an H200 (logs/probe-fused_paths-final.log), µs staged 2 / pair
// path, uint8 LINEAR to float32 NCHW, 3 channels: columns 1920 -> 256 (7.5 a column: the ImageNet chain) 29.9 / 26.5,
// 2560 -> 256 (10) 19.9 / 18.0, 1920 -> 320 (6) 45.6 / 37.5, 1920 -> 384 (5) 51.2 / 51.1, 1280 -> 256 (5) 43.9 / 44.0,
// 640 -> 256 (2.5) 20.2 / 23.8; 4 channels, 1920 -> 256: 20.8 / 18.4 (the pair path's whole-pixel words).
// Pure host arithmetic (CPU tests check the dispatch).
constexpr int64_t kFusedPairsFromScaleX = 6;
bool fusedStagedPreferred(const FusedParams &p);
// Whether launchResizeFused takes the pair path (resize_fused_pairs.cuh) for p: OpenCV LINEAR (interp kLinear,
// torchMode < 0) with packed source pixels (1 to 4 channels, stride[kW] == C and stride[kC] == 1), any row strides
// and alignment. Pure host arithmetic (CPU tests check the dispatch).
bool fusedPairsTake(const FusedParams &p);
// The staged path (resize_fused_staged.cuh): blocks of bx x by threads, items of `rows` crop rows of one image, the
// two source rows of each crop row staged as the bytes [segLo, segLo + 16 segChunks) of the row, `pixels`
// consecutive crop pixels per thread.
struct FusedStagedShape {
    int32_t variant;          // index into resize_fused.cu's kFusedStagedVariants
    int32_t bx, by, rows, pixels;
    int32_t depth;            // stages a block holds: 1 (one item a block) or 2 (one wave of blocks over the items)
    int32_t segLo, segChunks; // bytes from a row's start, 16-byte chunks
    int32_t smemBytes;        // depth stages of 2 * rows segments
    int64_t bands, items;     // bands of `rows` crop rows an image; items = images x bands
};
// Whether the staged path takes p, and its geometry for `variant` (the probe's variants; -1: none, the pair path):
// what fusedPairsTake takes, with the source's data, row and image strides multiples of 16 bytes, a staged segment
// inside the row's bytes (a crop away from the right border: stagedSegment's words past the last tap lie in the row)
// and depth * 2 * rows segments within 48 KiB of shared memory (fewer rows when they do not fit). Exact: the values of the
// pair path bit for bit. Pure host arithmetic.
// kFusedStagedVariant is launchResizeFused's choice: variant 2 (blocks of 64 threads, one crop row each, 4 pixels a
// thread), the fastest staged variant of bench/probes/fused_paths.cu on an H200 (µs, 3-channel uint8 LINEAR sources,
// float32 NCHW out: 64x720x1280 -> 256 -> crop 224 43.9, 32x480x640 20.2, logs/probe-fused_paths-final.log; residency
// caps by padding its shared memory, 16 down to 6 blocks an SM, only slowed it: logs/probe-fused_paths-shapes.log). -1 returns every shape to the pair path.
constexpr int32_t kFusedStagedVariant = 2;
int32_t fusedStagedVariantCount();
bool planFusedStaged(const FusedParams &p, FusedStagedShape &shape, int32_t variant);
cudaError_t launchResizeFusedStaged(const FusedParams &p, const FusedStagedShape &shape, cudaStream_t stream);
// The pair path alone (main's path for fusedPairsTake's shapes before the staged path; the probe's baseline).
cudaError_t launchResizeFusedPairs(const FusedParams &p, cudaStream_t stream);
// The general kernel (cvResize's per-pixel sampler) for every p launchResizeFused takes with an OpenCV interp;
// exposed so the probe bench/probes/fused_paths.cu times it against the pair path.
cudaError_t launchResizeFusedGeneral(const FusedParams &p, cudaStream_t stream);

// Whether the separable path takes the antialiased torchvision resize p (a plain resize) or q (the fused pass): the
// antialiased modes with windows of at most 48 taps on both axes and a tile that fits 48 KiB of shared memory; for
// uint8 planes of 16-byte aligned rows and 12-tap windows, the staged variant (stagePitch > 0), which takes up to
// 100 KiB. It computes the values of the per-pixel sampler (sampleTorch), bit for bit. Pure host arithmetic (CPU
// tests).
bool planTvResizeTile(const ResizeParams &p, TvTileShape &shape);
bool planTvFusedTile(const FusedParams &q, TvTileShape &shape);
cudaError_t launchTvResizeTiled(const ResizeParams &p, const TvTileShape &shape, cudaStream_t stream);
cudaError_t launchTvFused(const FusedParams &q, cudaStream_t stream); // the tiled path when planTvFusedTile, else per pixel

// Loads every resize kernel on the current device (see preloadFlipKernels for why).
cudaError_t preloadResizeKernels();
// Loads every kernel of a table of kernels (arrays of kernel pointers nested to any depth) on the current device,
// the first error returned: what each path's preload function does with its dispatch table.
template <class K> cudaError_t preloadKernelTable(K *kernel) {
    cudaFuncAttributes attributes;
    return cudaFuncGetAttributes(&attributes, reinterpret_cast<const void *>(kernel));
}
template <class Table> cudaError_t preloadKernelTable(const Table &table) {
    for (const auto &entry : table) {
        const cudaError_t err = preloadKernelTable(entry);
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}
cudaError_t preloadResizeFusedKernels(); // part of preloadResizeKernels
cudaError_t preloadResizeTiledKernels(); // part of preloadResizeKernels
cudaError_t preloadTvResizeKernels();    // part of preloadResizeKernels
cudaError_t preloadResizeRowKernels();   // part of preloadResizeKernels
cudaError_t preloadResizeBandKernels();  // part of preloadResizeKernels
cudaError_t preloadResizeLinearKernels(); // part of preloadResizeKernels
cudaError_t preloadResizeNearestKernels(); // part of preloadResizeKernels
cudaError_t preloadResizeCubicKernels(); // part of preloadResizeKernels
cudaError_t preloadResizeAreaKernels();  // part of preloadResizeKernels

} // namespace cvk
