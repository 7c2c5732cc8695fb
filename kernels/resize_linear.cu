// cvResize's periodic LINEAR path (resize_linear.cuh): when it applies (planResizeLinear), and its kernels per
// (period, channel count, pixels per thread), dispatched through one table without holes.
#include "resize.hpp"
#include "resize_launch.cuh"
#include "resize_linear.cuh"

#include <algorithm>
#include <array>
#include <numeric>

namespace cvk {
namespace {

using namespace resize;

// Grid (strips, blocks): a block walks its perBlock (image, band) items in order. Each item: its source rows of the
// strip staged (one cp.async group), a barrier, the band computed, a barrier (the buffer is read before it is staged
// again). With two buffers the next item's group is issued before the current one's wait, so its loads are in flight
// while the block computes (cp.async.wait_group 1: all but the newest group complete).
template <int C, int Q, int P, int PX, int V>
__global__ void __launch_bounds__(kLinearMaxThreads[V], 2) linearKernel(ResizeParams p, Mapping m, LinearShape s) {
    extern __shared__ int4 smem[];
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    int32_t x0, w;
    linearStripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    const BandSpan span = linearSpan<C, Q, P>(x0, w);
    const int32_t first = int32_t(blockIdx.y) * int32_t(s.perBlock), end = int32_t(min(p.dst.shape[kN] * s.bands, int64_t(first) + s.perBlock));
    LinearItem cur = linearItemOf(first, s.bands), next = cur;
    auto issue = [&](int buf) {
        int32_t y0, rows, lo, hi;
        linearBandOf(s, m.y.dst, next.band, y0, rows);
        linearSourceRows(m.y, y0, rows, lo, hi);
        linearStage(planeOf(p.src, next.n), m, span, y0, rows, lo, hi, linearSlots(smem, s, buf), s.pitch, linearTable(smem, s, buf), tid, nthreads);
        linearStep(next, s.bands);
    };
    if (first < end) issue(0);
    bandCommit(); // the first item's group: with two buffers, the wait below leaves only the newest group pending
    for (int32_t it = first; it < end; ++it) {
        const int buf = s.depth == 2 ? (it - first) & 1 : 0;
        if (s.depth == 2 && it + 1 < end) issue(buf ^ 1);
        bandCommit();
        if (s.depth == 2)
            bandWait<1>();
        else
            bandWait<0>();
        __syncthreads();
        int32_t y0, rows;
        linearBandOf(s, m.y.dst, cur.band, y0, rows);
        auto *out0 = reinterpret_cast<uint8_t *>(p.dst.data + cur.n * p.dst.stride[kN] + int64_t(y0) * p.dst.stride[kH]) + int64_t(x0) * C;
        linearCompute<C, Q, P, PX>(linearSlots(smem, s, buf), linearTable(smem, s, buf), s.wx, out0, p.dst.stride[kH], w, rows, tid, nthreads);
        linearStep(cur, s.bands);
        __syncthreads();
        if (s.depth == 1 && it + 1 < end) issue(0);
    }
}

using Kernel = void (*)(ResizeParams, Mapping, LinearShape);

constexpr int kLinearChannels[] = {1, 3, 4};

template <int Per, int Row, int V> constexpr Kernel kernelOf() {
    return &linearKernel<kLinearChannels[Row], kLinearPeriods[Per].q, kLinearPeriods[Per].p, kLinearPixels[Row][V], V>;
}
template <int Per, int Row> constexpr std::array<Kernel, 2> variantRow() { return {kernelOf<Per, Row, 0>(), kernelOf<Per, Row, 1>()}; }
template <int Per> constexpr std::array<std::array<Kernel, 2>, 3> channelRows() {
    return {variantRow<Per, 0>(), variantRow<Per, 1>(), variantRow<Per, 2>()};
}
// kLinearKernels[period][channel row][variant]: every entry filled.
const std::array<std::array<std::array<Kernel, 2>, 3>, kLinearPeriodCount> kLinearKernels = {channelRows<0>(), channelRows<1>()};

bool aligned4(int64_t v) { return (v & 3) == 0; }

// Whether every destination column of axis a follows period `per` (taps first = (d / q) * p + linearPeriodFirst(d % q),
// the second tap inside the axis, each phase's weights the same in every period, no pair summing past 2049), and
// the phases' weights: O(dst) double arithmetic the first time a thread plans an axis, then from a small cache.
bool periodicColumns(const Axis &a, int per, int32_t (&wx)[kLinearMaxQ]) {
    struct Entry {
        int32_t src, dst, ok, wx[kLinearMaxQ];
    };
    constexpr int kEntries = 4;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    for (const Entry &e : cache)
        if (e.src == a.src && e.dst == a.dst) return std::copy(e.wx, e.wx + kLinearMaxQ, wx), e.ok != 0;
    const int32_t q = kLinearPeriods[per].q, p = kLinearPeriods[per].p;
    Entry e{a.src, a.dst, 1, {}};
    for (int32_t d = 0; d < a.dst && e.ok; ++d) {
        const Taps t = linearTaps(a, d);
        const int32_t r = d % q, w0 = fixedWeight(t.w[0]), w1 = fixedWeight(t.w[1]);
        const int32_t pair = w0 | (w1 << 16);
        if (d < q) e.wx[r] = pair;
        e.ok = t.first == (d / q) * p + linearPeriodFirst(q, p, r) && t.first + 1 < a.src && e.wx[r] == pair && w0 >= 0 && w1 >= 0 && w0 + w1 <= 2049;
    }
    cache[next] = e;
    next = (next + 1) % kEntries;
    std::copy(e.wx, e.wx + kLinearMaxQ, wx);
    return e.ok != 0;
}

// The most source rows a band of bandRows destination rows of axis a stages (linearSourceRows): O(dst / bandRows)
// double arithmetic the first time a thread plans an (axis, bandRows), then from a small cache.
int32_t stagedRowsOf(const Axis &a, int32_t bandRows) {
    struct Entry {
        int32_t src, dst, bandRows, most;
    };
    constexpr int kEntries = 4;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    for (const Entry &e : cache)
        if (e.src == a.src && e.dst == a.dst && e.bandRows == bandRows) return e.most;
    int32_t most = 0;
    for (int32_t y0 = 0; y0 < a.dst; y0 += bandRows) {
        int32_t lo, hi;
        linearSourceRows(a, y0, std::min(bandRows, a.dst - y0), lo, hi);
        most = std::max(most, hi - lo + 1);
    }
    cache[next] = {a.src, a.dst, bandRows, most};
    next = (next + 1) % kEntries;
    return most;
}

} // namespace

bool planResizeLinearWith(const ResizeParams &p, int32_t variant, int32_t bandRows, int32_t strips, int32_t depth, int32_t itemsPerThread,
                          ResizeLinearShape &s) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || p.interp != kLinear || variant < 0 || variant > 1 || bandRows < 1 || strips < 1 ||
        depth < 1 || depth > 2 || itemsPerThread < 1)
        return false;
    const int64_t C = p.src.shape[kC];
    const int row = linearChannelRow(int32_t(C));
    if (row < 0 || p.dst.shape[kC] != C || p.src.stride[kW] != C || p.dst.stride[kW] != C ||
        (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1)))
        return false;
    if (!aligned4(reinterpret_cast<intptr_t>(p.src.data)) || !aligned4(p.src.stride[kH]) || (p.src.shape[kN] > 1 && !aligned4(p.src.stride[kN])))
        return false;
    if (p.src.shape[kW] * C > INT32_MAX / 2 || p.src.shape[kH] > INT32_MAX / 2) return false;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], kLinear);
    if (m.y.scale < 1.0 || m.y.scale > 2.0) return false; // the staged rows are contiguous, none skipped
    const int32_t g = std::gcd(m.x.src, m.x.dst);
    s.period = -1;
    for (int i = 0; i < kLinearPeriodCount; ++i)
        if (kLinearPeriods[i].q == m.x.dst / g && kLinearPeriods[i].p == m.x.src / g) s.period = i;
    if (s.period < 0 || !periodicColumns(m.x, s.period, s.wx)) return false;
    const int32_t q = kLinearPeriods[s.period].q, per = kLinearPeriods[s.period].p;
    s.variant = variant;
    s.pixels = kLinearPixels[row][variant];
    const int32_t wanted = (m.x.dst + strips - 1) / strips;
    s.stripW = (wanted + s.pixels - 1) / s.pixels * s.pixels;
    s.strips = (m.x.dst + s.stripW - 1) / s.stripW;
    s.bandRows = bandRows;
    const int64_t bands = (m.y.dst + int64_t(bandRows) - 1) / bandRows;
    if (bands > 65535 || p.dst.shape[kN] * bands > INT32_MAX / 2) return false; // the kernel counts items in int32
    s.bands = int32_t(bands);
    s.stagedRows = stagedRowsOf(m.y, bandRows);
    // LinearGeometry's spans (the same formulas on the host)
    const int32_t periods = s.pixels / q, srcStride = periods * per * int32_t(C);
    const int32_t need = ((periods - 1) * per + linearPeriodFirst(q, per, q - 1) + 2) * int32_t(C), words = (need + 3) / 4;
    const int32_t spans = s.stripW / s.pixels;
    const BandSpan widest = bandSpan<kLinear>(m, int32_t(C), 0, std::min(s.stripW, m.x.dst));
    const int32_t reads = 12 + (spans - 1) * srcStride + 4 * words, staged = 15 + widest.b1 - widest.b0;
    s.pitch = (std::max(reads, staged) + 15) & ~15;
    s.threads = std::min(kLinearMaxThreads[variant], ((spans * bandRows + itemsPerThread - 1) / itemsPerThread + 31) / 32 * 32);
    s.depth = depth;
    const int64_t smem = int64_t(depth) * (int64_t(s.stagedRows) * s.pitch + int64_t(bandRows) * int64_t(sizeof(LinearRow)));
    if (smem > kLinearSmemLimit) return false;
    s.smemBytes = int32_t(smem);
    s.perBlock = 0;
    s.blocks = 0;
    return true;
}

// The variant per channel count and vertical factor, from bench/probes/resize_linear_variants.cu on an H200 (GPU µs
// per call of 32 x 1080x1920, outputs byte-identical; the band path's figure first, then this choice, then the
// first plan tried before the probe): 3 channels -> 720x1280 188.6 -> 82.9 (97.2): 8 pixels a thread, bands of 4
// rows, one buffer, 2 items a thread; -> 540x960 110.4 -> 65.5 (76.5): 8 pixels, bands of 1 row, one buffer;
// 1 channel -> 720x1280 99.4 -> 41.6 (68.4) and 4 channels 237.2 -> 111.4 (126.5): the wider variant, bands of 2
// rows, two buffers. Each falls back to bands of 2 rows with two buffers, then one, where its staging does not fit.
bool planResizeLinear(const ResizeParams &p, ResizeLinearShape &s) {
    const int64_t C = p.src.shape[kC];
    const bool twoToOne = p.dst.shape[kH] * 2 == p.src.shape[kH];
    const bool chosen = C == 3 ? (twoToOne ? planResizeLinearWith(p, 0, 1, 1, 1, 1, s) : planResizeLinearWith(p, 0, 4, 1, 1, 2, s))
                               : planResizeLinearWith(p, 1, 2, 1, 2, 1, s);
    return chosen || planResizeLinearWith(p, 0, 2, 1, 2, 1, s) || planResizeLinearWith(p, 0, 2, 1, 1, 1, s);
}

void setResizeLinearBlocks(ResizeLinearShape &s, int64_t items, int64_t blocks) {
    s.perBlock = (items + std::min<int64_t>(std::min(items, blocks), 65535) - 1) / std::min<int64_t>(std::min(items, blocks), 65535);
    s.blocks = (items + s.perBlock - 1) / s.perBlock;
}

cudaError_t launchResizeLinear(const ResizeParams &p, ResizeLinearShape s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], kLinear);
    const Kernel k = kLinearKernels[s.period][linearChannelRow(int32_t(p.src.shape[kC]))][s.variant];
    const int64_t items = p.dst.shape[kN] * s.bands;
    int64_t blocks = items;
    if (s.depth == 2) {
        int resident = 0;
        const cudaError_t err = residentResizeBlocks(reinterpret_cast<const void *>(k), s.threads, s.smemBytes, resident);
        if (err != cudaSuccess) return err;
        blocks = std::max(1, resident / s.strips);
    }
    setResizeLinearBlocks(s, items, blocks);
    k<<<dim3(static_cast<unsigned>(s.strips), static_cast<unsigned>(s.blocks)), static_cast<unsigned>(s.threads), s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeLinearKernels() { return preloadKernelTable(kLinearKernels); }

} // namespace cvk
