// cvResize's band path (resize_band.cuh): when it applies (planResizeBand), how many bands (one per resident block),
// and its kernels per (interpolation, channel count), dispatched through one table without holes.
#include "resize.hpp"
#include "resize_band.cuh"

#include <algorithm>
#include <array>

namespace cvk {
namespace {

using namespace resize;

// Grid (strips, bands): a block builds its strip's table, then walks its band's destination rows, the loads of the
// next kBandAhead<I> rows in flight (one cp.async group per row) while it computes one. One barrier per row: the
// row's copies by every thread are complete before any thread reads them (the ring's slots make the barrier
// enough, resize_band.cuh); the first one also publishes the table.
template <int I, int CT> __global__ void __launch_bounds__(kBandMaxThreads) bandKernel(ResizeParams p, Mapping m, BandShape s) {
    extern __shared__ int4 smem[];
    auto *slots = reinterpret_cast<uint8_t *>(smem);
    auto *table = reinterpret_cast<BandEntry<I> *>(slots + kBandSlots<I> * s.slotPitch);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    int32_t x0, w;
    bandStripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    const BandSpan span = bandSpan<I>(m, CT, x0, w);
    int64_t first, end;
    bandRowsOf(s, p.dst.shape[kN] * m.y.dst, blockIdx.y, first, end);
    constexpr int D = kBandAhead<I>;
    BandRing ring = bandRing(first, m.y.dst);
    BandRow<I> rows[D + 1];
#pragma unroll
    for (int j = 0; j < D; ++j) {
        if (first + j < end) rows[j] = bandIssue<I>(p, m, span, x0, ring, slots, s.slotPitch, tid, nthreads);
        bandCommit();
    }
    bandTable<I>(m, CT, x0, w, span, table, tid, nthreads); // while the first rows load
    for (int64_t cur = first; cur < end; ++cur) {
        if (cur + D < end) rows[D] = bandIssue<I>(p, m, span, x0, ring, slots, s.slotPitch, tid, nthreads);
        bandCommit();
        bandWait<D>(); // this thread's copies of row cur
        __syncthreads();
        bandCompute<I, CT>(table, slots, s.slotPitch, rows[0], w, tid, nthreads);
#pragma unroll
        for (int j = 0; j < D; ++j) rows[j] = rows[j + 1];
    }
}

using Kernel = void (*)(ResizeParams, Mapping, BandShape);

constexpr int kBandInterps[] = {kNearest, kNearestFloor, kLinear};

template <int I> constexpr std::array<Kernel, 4> channelRow() {
    return {&bandKernel<I, 1>, &bandKernel<I, 2>, &bandKernel<I, 3>, &bandKernel<I, 4>};
}
// kBandKernels[interp row][channels - 1]: every entry filled.
const std::array<std::array<Kernel, 4>, 3> kBandKernels = {channelRow<kNearest>(), channelRow<kNearestFloor>(), channelRow<kLinear>()};

int interpRow(int32_t interp) {
    for (int i = 0; i < 3; ++i)
        if (kBandInterps[i] == interp) return i;
    return -1;
}

template <int I> bool planBand(const Mapping &m, int32_t C, ResizeBandShape &s) {
    for (s.stripW = m.x.dst;;) {
        s.strips = (m.x.dst + s.stripW - 1) / s.stripW;
        int32_t most = 0;
        for (int32_t x0 = 0; x0 < m.x.dst; x0 += s.stripW) {
            const BandSpan span = bandSpan<I>(m, C, x0, std::min(s.stripW, m.x.dst - x0));
            most = std::max(most, span.b1 - span.b0);
        }
        s.slotPitch = bandSlotPitch(most);
        s.smemBytes = bandSmemBytes<I>(s.stripW, s.slotPitch);
        if (s.smemBytes <= kBandSmemTarget || (s.stripW <= 64 && s.smemBytes <= kBandSmemLimit)) break;
        if (s.stripW <= 64) return false;
        s.stripW = ((s.stripW + 1) / 2 + kBandPixels - 1) / kBandPixels * kBandPixels; // strips start on whole items
    }
    const int32_t items = (s.stripW + kBandPixels - 1) / kBandPixels, perThread = (items + kBandItems - 1) / kBandItems;
    s.threads = std::min(kBandMaxThreads, (perThread + 31) / 32 * 32);
    s.bandRows = 0;
    s.bands = 0;
    return true;
}

} // namespace

bool planResizeBand(const ResizeParams &p, ResizeBandShape &s) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || interpRow(p.interp) < 0) return false;
    const int64_t C = p.src.shape[kC];
    if (C < 1 || C > 4 || p.dst.shape[kC] != C || p.src.stride[kW] != C || p.dst.stride[kW] != C ||
        (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1)))
        return false;
    if (p.src.shape[kW] * C > INT32_MAX / 2) return false; // byte offsets within a source row are int32
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (m.x.scale * double(C) > 32.0) return false;
    switch (p.interp) {
    case kNearest: return planBand<kNearest>(m, int32_t(C), s);
    case kNearestFloor: return planBand<kNearestFloor>(m, int32_t(C), s);
    default: return planBand<kLinear>(m, int32_t(C), s);
    }
}

bool resizeBandPreferred(const ResizeParams &p) {
    // The axes' scales only (not mappingOf, whose NEAREST tie tables this needs none of).
    const Axis x = makeAxis(static_cast<int32_t>(p.src.shape[kW]), static_cast<int32_t>(p.dst.shape[kW]));
    const Axis y = makeAxis(static_cast<int32_t>(p.src.shape[kH]), static_cast<int32_t>(p.dst.shape[kH]));
    return x.scale > 1.0 && x.scale <= 2.0 && y.scale >= 1.0;
}

void setResizeBands(ResizeBandShape &s, int64_t rows, int64_t blocks) {
    const int64_t bands = std::min<int64_t>(std::min<int64_t>(rows, blocks), 65535);
    s.bandRows = (rows + bands - 1) / bands;
    s.bands = (rows + s.bandRows - 1) / s.bandRows;
}

cudaError_t residentResizeBlocks(const void *k, int threads, int smem, int &resident) {
    struct Entry {
        const void *k;
        int device, threads, smem, perSM, sms;
    };
    constexpr int kEntries = 8;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess) return err;
    for (const Entry &e : cache)
        if (e.k == k && e.device == device && e.threads == threads && e.smem == smem) return resident = e.perSM * e.sms, cudaSuccess;
    int blocks = 0, sms = 0;
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, smem);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess) return err;
    cache[next] = {k, device, threads, smem, std::max(1, blocks), std::max(1, sms)};
    next = (next + 1) % kEntries;
    resident = std::max(1, blocks) * std::max(1, sms);
    return cudaSuccess;
}

cudaError_t launchResizeBand(const ResizeParams &p, ResizeBandShape s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const Kernel k = kBandKernels[interpRow(p.interp)][p.src.shape[kC] - 1];
    int resident = 0;
    const cudaError_t err = residentResizeBlocks(reinterpret_cast<const void *>(k), s.threads, s.smemBytes, resident);
    if (err != cudaSuccess) return err;
    setResizeBands(s, p.dst.shape[kN] * p.dst.shape[kH], std::max(1, resident / s.strips));
    k<<<dim3(static_cast<unsigned>(s.strips), static_cast<unsigned>(s.bands)), static_cast<unsigned>(s.threads), s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeBandKernels() { return preloadKernelTable(kBandKernels); }

} // namespace cvk
