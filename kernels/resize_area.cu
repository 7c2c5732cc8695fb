// cvResize's AREA row path (resize_area.cuh): when it applies (planResizeArea), its block width and bands, and its
// kernels per (compiled taps, channel count), dispatched through one table without holes.
#include "resize.hpp"
#include "common/sm90_code.hpp"
#include "resize_area.cuh"
#include "resize_area_ring.cuh"
#include "resize_area_warp.cuh"
#include "resize_launch.cuh"

#include <algorithm>
#include <array>
#include <climits>
#include <vector>

namespace cvk {
namespace {

using namespace resize;

using Kernel = void (*)(ResizeParams, Mapping, AreaShape);

constexpr int kAreaChannels[] = {1, 3, 4};

template <int K> constexpr std::array<Kernel, 3> channelRow() {
    return {&areaKernel<1, K, kAreaAhead>, &areaKernel<3, K, kAreaAhead>, &areaKernel<4, K, kAreaAhead>};
}
template <size_t... T> constexpr auto tapRows(std::index_sequence<T...>) {
    return std::array<std::array<Kernel, 3>, sizeof...(T)>{channelRow<kAreaTaps[T]>()...};
}
// kAreaKernels[taps row][channel row]: every entry filled.
const auto kAreaKernels = tapRows(std::make_index_sequence<kAreaTapVariants>{});

// The warp kernel (resize_area_warp.cuh) per columns a lane: rows in flight and blocks an SM it is built for.
// bench/probes/resize_area_warp.cu on an H200 (logs/probe-resize_area_warp.log; GPU µs per call, 32 x 1080x1920,
// the block kernel's figure first, every output byte the same):
//   1 column a lane, 6 rows in flight, 4 blocks an SM: 3 channels -> 224x224 98.2 -> 89.5 (8 rows: 91.6; 3 blocks
//   an SM: 95.4), 1 channel 65.4 -> 58.6, 4 channels 199.3 -> 103.0; 2 columns a lane there: 104.9-146.6.
//   2 columns a lane, 6 rows, 3 blocks an SM: -> 270x480 (integer box, 4 taps) 133.4 -> 98.7 (1 column: 125.1),
//   -> 720x1280 (3 taps) 370.7 -> 313.7 (1 column: 343.7). 3 columns a lane was no faster anywhere.
// So 2 columns a lane where a column has at most 4 taps (a row's per-warp work, its copy and table entry, is then
// a larger share), else 1.
struct AreaWarpVariant {
    int ahead, blocks;
};
constexpr AreaWarpVariant kAreaWarpVariants[] = {{6, 4}, {6, 3}};
constexpr int kAreaWarpPairTaps = 4;

template <int P, int K> constexpr std::array<Kernel, 3> warpChannelRow() {
    constexpr AreaWarpVariant v = kAreaWarpVariants[P - 1];
    return {&areaWarpKernel<1, K, v.ahead, v.blocks, P>, &areaWarpKernel<3, K, v.ahead, v.blocks, P>, &areaWarpKernel<4, K, v.ahead, v.blocks, P>};
}
template <int P, size_t... T> constexpr auto warpTapRows(std::index_sequence<T...>) {
    return std::array<std::array<Kernel, 3>, sizeof...(T)>{warpChannelRow<P, kAreaTaps[T]>()...};
}
// kAreaWarpKernels[columns a lane - 1][taps row][channel row]: every entry filled.
const std::array<std::array<std::array<Kernel, 3>, kAreaTapVariants>, 2> kAreaWarpKernels = {
    warpTapRows<1>(std::make_index_sequence<kAreaTapVariants>{}), warpTapRows<2>(std::make_index_sequence<kAreaTapVariants>{})};

// The ring kernel (resize_area_ring.cuh): rows in flight and blocks an SM it is built for. bench/probes/
// resize_area_warp.cu on an H200 (logs/probe-resize_area_ring.log; GPU µs per call, 32 x 1080x1920, the warp
// kernel's figure first, every output byte the same):
//   6 rows in flight, 4 blocks an SM: 3 channels -> 224x224 92.2 -> 76.2 (4 rows: 76.7, 8 rows: 78.1; 3 blocks an
//   SM: 82.8; two waves of bands: 78.4), 1 channel 52.4 -> 48.5.
//   Where it loses: 4 channels -> 224x224, whose block plan has 1 warp a block (its interleave would conflict at
//   7): 105.7 -> 288.8, the multiprocessors left a few warps each; -> 270x480 (the integer box by 4, 4 taps):
//   95.9 (2 columns a lane) -> 125.9; -> 720x1280 (3 taps) 331.7 -> 348.9.
// So (resizeAreaRingPreferred) the ring kernel where the warp kernel would take 1 column a lane and the block has
// at least kAreaRingMinWarps warps.
constexpr AreaWarpVariant kAreaRingVariant = {6, 4};

template <int K> constexpr std::array<Kernel, 3> ringChannelRow() {
    constexpr AreaWarpVariant v = kAreaRingVariant;
    return {&areaRingKernel<1, K, v.ahead, v.blocks>, &areaRingKernel<3, K, v.ahead, v.blocks>, &areaRingKernel<4, K, v.ahead, v.blocks>};
}
template <size_t... T> constexpr auto ringTapRows(std::index_sequence<T...>) {
    return std::array<std::array<Kernel, 3>, sizeof...(T)>{ringChannelRow<kAreaTaps[T]>()...};
}
// kAreaRingKernels[taps row][channel row]: every entry filled.
const auto kAreaRingKernels = ringTapRows(std::make_index_sequence<kAreaTapVariants>{});

int channelRowOf(int64_t c) {
    for (int i = 0; i < 3; ++i)
        if (kAreaChannels[i] == c) return i;
    return -1;
}

// An H200's multiprocessors and what one keeps of blocks: 64 Ki registers (the kernels are built for at most
// 65536 / (kAreaMaxThreads * kAreaBlocksPerSM) a thread), 2048 threads, 32 blocks, 228 KiB of shared memory of which
// each block reserves 1 KiB.
constexpr int kSMs = 132, kSMRegisters = 65536, kSMThreads = 2048, kSMBlocks = 32, kSMSmem = 228 * 1024, kBlockReserved = 1024;
constexpr int kThreadRegisters = kSMRegisters / (kAreaMaxThreads * kAreaBlocksPerSM);
// Instructions per thread and source row besides the taps: the copies, the cursor, the barrier, the vertical sums.
constexpr int64_t kRowOverhead = 50;
// Issue cycles per source row that each strip adds whatever its width: its share of its table (three areaCells of
// double divisions per destination row) and of the sectors that two strips both stage.
constexpr int64_t kStripRowCost = 8;

int residentPerSM(int threads, int smem) {
    return std::max(1, std::min({kSMRegisters / (kThreadRegisters * threads), kSMThreads / threads, kSMBlocks,
                                 kSMSmem / (smem + kBlockReserved)}));
}

// The estimated issue cycles of one source row across the whole destination width with `warps` warps a block: per
// warp its taps (2 per word: load, funnel shift; then tap by tap 3 per tap and channel: byte to float, subtract,
// multiply-add; or summing first a mask and a dp4a a channel per word, per channel 8 for the head, the tail and the
// inner sum's weight, 6 to find the tail's word), the per-row overhead, and its shared-memory wavefronts (one per
// word a lane reads, times the most distinct words that fall into one bank among the warp's lanes), plus
// kStripRowCost a strip.
int64_t rowCost(const std::vector<int32_t> &firsts, int32_t C, int32_t K, int32_t warps) {
    const int32_t dstW = static_cast<int32_t>(firsts.size()), stripW = 32 * warps, words = (K * C + 3) / 4;
    int64_t cost = 0;
    for (int32_t x0 = 0; x0 < dstW; x0 += stripW) {
        const int32_t b0 = firsts[size_t(x0)] * C;
        cost += kStripRowCost;
        for (int32_t v = 0; v < warps; ++v) {
            int32_t ways[32] = {}, last[32], most = 0;
            std::fill(std::begin(last), std::end(last), -1);
            for (int32_t l = 0; l < 32 && x0 + l * warps + v < dstW; ++l) {
                const int32_t word = (firsts[size_t(x0 + l * warps + v)] * C - b0) >> 2, bank = word & 31;
                if (word != last[bank]) last[bank] = word, most = std::max(most, ++ways[bank]);
            }
            const int64_t taps = K > kAreaPerTapTaps ? (1 + C) * words + 8 * C + 6 : 3 * K * C;
            if (most > 0) cost += taps + 2 * words + kRowOverhead + (words + 1) * most;
        }
    }
    return cost;
}

// The runs of one axis as the kernel needs them: every run within the axis, first and last non-decreasing; for
// rows also at most one source row shared by consecutive destination rows and none by rows two apart (two sums per
// thread), no source row between consecutive cells (every row of a band's stream has a weight), and destination
// row 0 starting at source row 0 (where the stream enters each image). The most taps of
// any run in `most`, the columns' first taps in `firsts`.
bool runsFit(const Mapping &m, const Axis &a, bool rows, int32_t &most, std::vector<int32_t> *firsts) {
    most = 0;
    AreaRun prev{}, prev2{};
    for (int32_t d = 0; d < a.dst; ++d) {
        const AreaRun r = areaRun(m, a, d);
        if (r.first < 0 || r.last < r.first || r.last >= a.src) return false;
        if (d > 0 && (r.first < prev.first || r.last < prev.last)) return false;
        if (rows && ((d == 0 && r.first != 0) || (d > 0 && (r.first < prev.last || r.first > prev.last + 1)) || (d > 1 && r.first <= prev2.last)))
            return false;
        most = std::max(most, r.last - r.first + 1);
        if (firsts) firsts->push_back(r.first);
        prev2 = prev;
        prev = r;
    }
    return true;
}

// The bands of the warp and ring kernels, whose blocks have no output buffers: one a resident block (blocksPerSM an
// SM over s.strips strips), each within kAreaMaxStreamRows source rows (false where that makes too many).
bool setResidentBands(const ResizeParams &p, const Mapping &m, int blocksPerSM, ResizeAreaShape &s) {
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    const int64_t bands = std::min<int64_t>(rows, std::max<int64_t>(1, int64_t(kSMs) * blocksPerSM / s.strips));
    s.bandRows = (rows + bands - 1) / bands;
    while (s.bandRows > 1 && areaMaxStream(m.y, s.bandRows) > kAreaMaxStreamRows) s.bandRows = (s.bandRows + 1) / 2;
    s.bands = (rows + s.bandRows - 1) / s.bandRows;
    if (s.bands > 65535 || areaMaxStream(m.y, s.bandRows) > kAreaMaxStreamRows) return false;
    s.streamRows = static_cast<int32_t>(areaMaxStream(m.y, s.bandRows));
    s.outPitch = 0;
    return true;
}

} // namespace

bool planResizeArea(const ResizeParams &p, ResizeAreaShape &s, int32_t warps) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || p.interp != kArea) return false;
    const int64_t C = p.src.shape[kC];
    if (channelRowOf(C) < 0 || p.dst.shape[kC] != C) return false;
    if (p.src.stride[kW] != C || p.dst.stride[kW] != C || (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1))) return false;
    if (p.src.shape[kW] * C > INT32_MAX / 2) return false; // byte offsets within a source row are int32
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (m.areaKind == kAreaLinear) return false;
    int32_t mostX = 0, mostY = 0;
    std::vector<int32_t> firsts;
    firsts.reserve(size_t(m.x.dst));
    if (!runsFit(m, m.x, false, mostX, &firsts) || !runsFit(m, m.y, true, mostY, nullptr)) return false;
    // The kernel's order of the row sum is the sampler's (resize_filters.cuh, areaSumFirst): a fractional table that
    // sums first takes a kernel of more than kAreaPerTapTaps taps even where its runs are shorter (an x scale just
    // above 5 whose fractions never add a seventh pixel, as 1920 -> 360). The integer box's sums are the same in both
    // orders. An x scale of at most 5 touches at most 6 pixels a cell, so the check after the choice never declines.
    const bool sumFirst = m.areaKind == kAreaTable && areaSumFirst<uint8_t>(m.x);
    const int32_t need = sumFirst ? std::max(mostX, kAreaPerTapTaps + 1) : mostX;
    s.taps = -1;
    for (int i = kAreaTapVariants - 1; i >= 0; --i)
        if (kAreaTaps[i] >= need) s.taps = i;
    if (s.taps < 0) return false;
    const int32_t K = kAreaTaps[s.taps], c = static_cast<int32_t>(C);
    if (m.areaKind == kAreaTable && (K > kAreaPerTapTaps) != sumFirst) return false;
    // Bands: at most kAreaMaxStreamRows source rows each (the table), and about one per block the device keeps
    // resident.
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    int64_t most = std::min<int64_t>(rows, kAreaMaxStreamRows);
    while (most > 0 && areaMaxStream(m.y, most) > kAreaMaxStreamRows) --most;
    if (most == 0) return false;
    const int32_t table = static_cast<int32_t>(areaMaxStream(m.y, most));
    int64_t best = -1;
    for (int32_t w = warps > 0 ? warps : 1; w <= (warps > 0 ? warps : kAreaMaxWarps); ++w) {
        const int32_t pitch = areaMaxPitch(m, c, K, 32 * w);
        if (areaSmemBytes(kAreaSlots<kAreaAhead>, pitch, table, areaOutPitch(w, c)) > kAreaSmemLimit) continue;
        const int64_t cost = rowCost(firsts, c, K, w);
        if (best < 0 || cost <= best) best = cost, s.warps = w, s.slotPitch = pitch; // ties: the wider block
    }
    if (best < 0) return false;
    s.strips = (m.x.dst + 32 * s.warps - 1) / (32 * s.warps);
    s.outPitch = areaOutPitch(s.warps, c);
    s.lastRow = areaRun(m, m.y, m.y.dst - 1).last;
    // The bands for a table of `tableRows` entries; again for the table of the bands found, whose smaller shared
    // memory may keep more blocks resident (more bands, each smaller: the table only shrinks).
    auto bandsFor = [&](int32_t tableRows) {
        const int64_t resident = int64_t(kSMs) * residentPerSM(32 * s.warps, areaSmemBytes(kAreaSlots<kAreaAhead>, s.slotPitch, tableRows, s.outPitch));
        return std::min<int64_t>(rows, std::max<int64_t>(std::max<int64_t>(1, resident / s.strips), (rows + most - 1) / most));
    };
    int64_t bands = bandsFor(table);
    bands = bandsFor(static_cast<int32_t>(areaMaxStream(m.y, (rows + bands - 1) / bands)));
    if (bands > 65535) return false;
    s.bandRows = (rows + bands - 1) / bands;
    s.bands = (rows + s.bandRows - 1) / s.bandRows;
    s.streamRows = static_cast<int32_t>(areaMaxStream(m.y, s.bandRows));
    s.smemBytes = areaSmemBytes(kAreaSlots<kAreaAhead>, s.slotPitch, s.streamRows, s.outPitch);
    s.perLane = 0;
    s.ring = 0;
    return true;
}

bool planResizeAreaWarp(const ResizeParams &p, ResizeAreaShape &s, int32_t perLane) {
    ResizeAreaShape block{};
    return planResizeArea(p, block) && planResizeAreaWarp(p, block, s, perLane);
}

bool planResizeAreaWarp(const ResizeParams &p, const ResizeAreaShape &block, ResizeAreaShape &s, int32_t perLane) {
    s = block;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int32_t C = static_cast<int32_t>(p.src.shape[kC]), K = kAreaTaps[s.taps], dstW = m.x.dst;
    if (perLane <= 0) perLane = K <= kAreaWarpPairTaps ? 2 : 1;
    if (perLane > 2) return false;
    const AreaWarpVariant v = kAreaWarpVariants[perLane - 1];
    const int32_t cols = 32 * perLane;
    s.perLane = perLane;
    s.warps = std::min(kAreaMaxWarps, (dstW + cols - 1) / cols);
    s.strips = (dstW + cols * s.warps - 1) / (cols * s.warps);
    s.slotPitch = areaMaxPitch(m, C, K, cols);
    if (!setResidentBands(p, m, v.blocks, s)) return false;
    s.smemBytes = areaWarpSmemBytes(s.warps, v.ahead, s.slotPitch, s.streamRows);
    return s.smemBytes <= kAreaSmemLimit;
}

bool planResizeAreaRing(const ResizeParams &p, const ResizeAreaShape &block, ResizeAreaShape &s) {
    s = block;
    s.ring = 1;
    s.perLane = 0;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (!setResidentBands(p, m, kAreaRingVariant.blocks, s)) return false;
    s.smemBytes = areaRingSmemBytes(kAreaRingVariant.ahead, s.slotPitch, s.streamRows);
    return s.smemBytes <= kAreaSmemLimit;
}

// Whether the warp and ring kernels (and the other bulk-copy kernels of cvResize, built for the same targets) run here.
bool resizeBulkCopyDevice() {
    static Sm90CodeCache known;
    return sm90CodeOnDevice(reinterpret_cast<const void *>(kAreaWarpKernels[0][0][0]), known);
}

bool resizeAreaRingPreferred(const ResizeAreaShape &shape) { return kAreaTaps[shape.taps] > kAreaWarpPairTaps && shape.warps >= kAreaRingMinWarps; }

cudaError_t launchResizeArea(const ResizeParams &p, const ResizeAreaShape &s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const size_t channel = size_t(channelRowOf(p.src.shape[kC]));
    const Kernel k = s.ring ? kAreaRingKernels[size_t(s.taps)][channel]
                   : s.perLane > 0 ? kAreaWarpKernels[size_t(s.perLane - 1)][size_t(s.taps)][channel]
                                   : kAreaKernels[size_t(s.taps)][channel];
    k<<<dim3(static_cast<unsigned>(s.strips), static_cast<unsigned>(s.bands)), static_cast<unsigned>(32 * s.warps), s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeAreaKernels() {
    cudaError_t err = preloadKernelTable(kAreaKernels);
    if (err == cudaSuccess) err = preloadKernelTable(kAreaWarpKernels);
    return err == cudaSuccess ? preloadKernelTable(kAreaRingKernels) : err;
}

} // namespace cvk
