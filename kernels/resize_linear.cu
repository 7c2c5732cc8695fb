// cvResize's periodic LINEAR path (resize_linear.cuh): when it applies (planResizeLinear), and its kernels per
// (period, channel count, pixels per thread), dispatched through one table without holes.
#include "resize.hpp"
#include "resize_launch.cuh"
#include "resize_linear.cuh"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace cvk {
namespace {

using namespace resize;

// Grid (strips, bands, images): a block stages its band's source rows of its strip (one cp.async group), meets at a
// barrier, computes the band; then the same for the next image it owns (a barrier first: the slots are read).
template <int C, int Q, int P, int PX> __global__ void __launch_bounds__(kLinearMaxThreads) linearKernel(ResizeParams p, Mapping m, LinearShape s) {
    extern __shared__ int4 smem[];
    auto *slots = reinterpret_cast<uint8_t *>(smem);
    auto *table = reinterpret_cast<LinearRow *>(slots + s.stagedRows * s.pitch);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    int32_t x0, w, y0, rows, lo, hi;
    linearStripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    linearBandOf(s, m.y.dst, static_cast<int32_t>(blockIdx.y), y0, rows);
    linearSourceRows(m.y, y0, rows, lo, hi);
    const BandSpan span = bandSpan<kLinear>(m, C, x0, w);
    for (int64_t n = blockIdx.z; n < p.dst.shape[kN]; n += gridDim.z) {
        if (n != int64_t(blockIdx.z)) __syncthreads();
        linearStage(planeOf(p.src, n), m, span, y0, rows, lo, hi, slots, s.pitch, table, tid, nthreads);
        bandCommit();
        bandWait<0>();
        __syncthreads();
        auto *out0 = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[kN] + int64_t(y0) * p.dst.stride[kH]) + int64_t(x0) * C;
        linearCompute<C, Q, P, PX>(slots, table, s.wx, out0, p.dst.stride[kH], w, rows, tid, nthreads);
    }
}

using Kernel = void (*)(ResizeParams, Mapping, LinearShape);

constexpr int kLinearChannels[] = {1, 3, 4};

template <int Per, int Row, int V> constexpr Kernel kernelOf() {
    return &linearKernel<kLinearChannels[Row], kLinearPeriods[Per].q, kLinearPeriods[Per].p, kLinearPixels[Row][V]>;
}
template <int Per, int Row> constexpr std::array<Kernel, 2> variantRow() { return {kernelOf<Per, Row, 0>(), kernelOf<Per, Row, 1>()}; }
template <int Per> constexpr std::array<std::array<Kernel, 2>, 3> channelRows() {
    return {variantRow<Per, 0>(), variantRow<Per, 1>(), variantRow<Per, 2>()};
}
// kLinearKernels[period][channel row][variant]: every entry filled.
const std::array<std::array<std::array<Kernel, 2>, 3>, kLinearPeriodCount> kLinearKernels = {channelRows<0>(), channelRows<1>()};

bool aligned4(int64_t v) { return (v & 3) == 0; }

// Tap 0 of phase r (LinearGeometry::first).
int32_t periodFirst(int32_t q, int32_t p, int32_t r) { return ((2 * r + 1) * p - q) / (2 * q); }

// Whether every destination column of axis a follows period `per` (taps first = (d / q) * p + periodFirst(d % q),
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
        e.ok = t.first == (d / q) * p + periodFirst(q, p, r) && t.first + 1 < a.src && e.wx[r] == pair && w0 >= 0 && w1 >= 0 && w0 + w1 <= 2049;
    }
    cache[next] = e;
    next = (next + 1) % kEntries;
    std::copy(e.wx, e.wx + kLinearMaxQ, wx);
    return e.ok != 0;
}

} // namespace

bool planResizeLinearWith(const ResizeParams &p, int32_t variant, int32_t bandRows, int32_t strips, ResizeLinearShape &s) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || p.interp != kLinear || variant < 0 || variant > 1 || bandRows < 1 || strips < 1) return false;
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
    if (bands > 65535) return false;
    s.bands = int32_t(bands);
    // hi - lo <= floor(x(y0 + R - 1)) + 1 - floor(x(y0)) <= floor((R - 1) * scale) + 2
    s.stagedRows = int32_t(std::min<int64_t>(m.y.src, int64_t(std::floor((bandRows - 1) * m.y.scale)) + 3));
    // LinearGeometry's spans (the same formulas on the host)
    const int32_t periods = s.pixels / q, srcStride = periods * per * int32_t(C);
    const int32_t need = ((periods - 1) * per + periodFirst(q, per, q - 1) + 2) * int32_t(C), words = (need + 3) / 4;
    const int32_t spans = s.stripW / s.pixels;
    const BandSpan widest = bandSpan<kLinear>(m, int32_t(C), 0, std::min(s.stripW, m.x.dst));
    const int32_t reads = 12 + (spans - 1) * srcStride + 4 * words, staged = 15 + widest.b1 - widest.b0;
    s.pitch = (std::max(reads, staged) + 15) & ~15;
    s.threads = std::min(kLinearMaxThreads, (spans * bandRows + 31) / 32 * 32);
    const int64_t smem = int64_t(s.stagedRows) * s.pitch + int64_t(bandRows) * int64_t(sizeof(LinearRow));
    if (smem > kLinearSmemLimit) return false;
    s.smemBytes = int32_t(smem);
    return true;
}

bool planResizeLinear(const ResizeParams &p, ResizeLinearShape &s) { return planResizeLinearWith(p, 0, 2, 1, s); }

cudaError_t launchResizeLinear(const ResizeParams &p, const ResizeLinearShape &s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], kLinear);
    const Kernel k = kLinearKernels[s.period][linearChannelRow(int32_t(p.src.shape[kC]))][s.variant];
    const dim3 grid(static_cast<unsigned>(s.strips), static_cast<unsigned>(s.bands), static_cast<unsigned>(std::min<int64_t>(p.dst.shape[kN], 65535)));
    k<<<grid, static_cast<unsigned>(s.threads), s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeLinearKernels() {
    for (const auto &period : kLinearKernels)
        for (const auto &row : period)
            for (Kernel k : row) {
                cudaFuncAttributes attributes;
                const cudaError_t err = cudaFuncGetAttributes(&attributes, k);
                if (err != cudaSuccess) return err;
            }
    return cudaSuccess;
}

} // namespace cvk
