// cvResize's separable CUBIC path (resize_cubic.cuh): when it applies (planResizeCubic), how many bands (one per
// resident block, at most kCubicMaxBandRows rows each), and its kernels per (pixels per thread, channel count),
// dispatched through one table without holes.
#include "resize.hpp"
#include "common/bulk_copy.cuh"
#include "resize_cubic.cuh"

#include <algorithm>
#include <array>
#include <type_traits>

namespace cvk {
namespace {

using namespace resize;

// The kernel variants, in the order of ResizeCubicShape::variant: destination pixels per thread, threads per block
// at most and items in flight, each built for 2 resident blocks per SM (so for 128 registers at 256 threads, 96 at
// 320). 4 pixels keep 4 x 4 x C horizontal sums in registers, 2 pixels half as many. 4 items in flight are 23 KiB
// per SM for the benchmark's strips of 640 columns at 2 blocks per SM; 8 twice that, for a loaded DRAM latency
// above a microsecond.
//
// The aligned variants (4 on) stage whole 16-byte chunks at offsets fixed per strip (cubicIssueAligned: a few
// instructions per chunk where cubicIssue spends about a hundred on a row's addressing, partial chunks and shift
// word), sum the taps with two dp2a (pairDot) instead of two dp4a and a multiply-add, and are built for more
// resident threads (`blocks` per SM: 3 x 320 threads at 2 pixels keep 64 registers, no spills) so that the
// barrier of one block is hidden by the others. They take sources of 16-byte aligned rows of whole chunks
// (cubicAligned); planResizeCubic gives other shapes kCubicGeneralVariant.
//
// The bulk variants (16 on, sm_90 on: resizeBulkCopyDevice) stage an item with one bulk copy by thread 0 that
// completes on the slot's mbarrier (common/bulk_copy.cuh): no copy instructions in the other threads, which only wait
// on the barrier. Thread 0 issues it right after the item's __syncthreads and a proxy fence (every thread's reads of
// the slot it overwrites, two items back, before the copy's writes); issued before the barrier the fence waited for
// thread 0's stores of the emit just before, and the block with it (bench/probes/resize_cubic_variants.cu,
// docs/verification/logs/probe-resize_cubic_bulk.log: 103.3-104.0 against 106.5-106.8 us on the benchmark row).
struct CubicVariant {
    int pixels, threads, ahead, blocks;
    bool aligned, bulk;
};
constexpr CubicVariant kCubicVariants[] = {
    {2, 320, 4, 2, false, false}, {4, 256, 4, 2, false, false}, {4, 320, 4, 2, false, false}, {4, 256, 8, 2, false, false},
    {2, 320, 4, 3, true, false},  {2, 320, 6, 3, true, false},  {4, 160, 4, 4, true, false},  {4, 256, 4, 2, true, false},
    {1, 512, 4, 2, true, false},  {2, 256, 4, 4, true, false},  {3, 224, 4, 3, true, false},  {4, 160, 6, 4, true, false},
    {4, 160, 4, 5, true, false},  {4, 160, 8, 4, true, false},  {5, 128, 4, 4, true, false},  {5, 128, 6, 4, true, false},
    {5, 128, 4, 4, true, true},   {5, 128, 6, 4, true, true},
};
constexpr int kCubicVariantCount = 18;
// The variant that differs from v only in staging by cp.async instead of bulk copies (v itself if it has none).
constexpr int cubicNoBulkTwin(int v) {
    const CubicVariant a = kCubicVariants[v];
    for (int t = 0; t < kCubicVariantCount; ++t) {
        const CubicVariant b = kCubicVariants[t];
        if (!b.bulk && b.pixels == a.pixels && b.threads == a.threads && b.ahead == a.ahead && b.blocks == a.blocks && b.aligned == a.aligned)
            return t;
    }
    return v;
}
static_assert(cubicNoBulkTwin(kResizeCubicVariant) == kResizeCubicNoBulkVariant, "launchResize's variant runs as variant 14 before sm_90");
static_assert(cubicNoBulkTwin(17) == 15, "every bulk variant has a twin");
constexpr int kCubicGeneralVariant = 2;

// Grid (strips, band blocks): a block computes its columns' taps once, then per band builds the rows' table and
// walks the band's items, the copies of the next `ahead` items in flight (one cp.async group per item, or for the
// bulk variants one bulk copy by thread 0 completing on the slot's mbarrier, common/bulk_copy.cuh). One barrier per
// item: its copies by every thread are complete before any thread reads them, and every thread has read the slot
// the next copy overwrites (the ring's cubicSlots(ahead) slots make one enough); the first one also publishes the
// table.
template <int CT, int V>
__global__ void __launch_bounds__(kCubicVariants[V].threads, kCubicVariants[V].blocks) cubicKernel(ResizeParams p, Mapping m, CubicShape s) {
    constexpr bool kAligned = kCubicVariants[V].aligned, kBulk = kCubicVariants[V].bulk;
    static_assert(!kBulk || kAligned, "a bulk copy takes whole 16-byte chunks");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    if constexpr (kBulk) __trap(); // launched only on sm_90 and later (resizeBulkCopyDevice)
#endif
    extern __shared__ int4 smem[];
    auto *slots = reinterpret_cast<uint8_t *>(smem);
    constexpr int D = kCubicVariants[V].ahead, kSlots = cubicSlots(D);
    auto *table = reinterpret_cast<CubicRowEntry *>(slots + kSlots * s.slotPitch);
    auto *emitAt = reinterpret_cast<int32_t *>(table + kCubicMaxBandRows);
    auto *bars = reinterpret_cast<uint64_t *>(emitAt + kCubicMaxBandRows); // the bulk variants' slot barriers
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    int32_t x0, w;
    cubicStripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    const CubicStrip st = cubicStrip(m, CT, x0, w);
    const int copiers = cubicCopyThreads(st, nthreads);
    CubicThread<CT, kCubicVariants[V].pixels, kAligned> th;
    th.init(m, st, static_cast<int32_t>((reinterpret_cast<uintptr_t>(p.src.data) + uintptr_t(st.b0)) & (kAligned ? 15u : 3u)), tid);
    const int32_t chunk0 = cubicChunk0(st), bulkBytes = 16 * cubicChunks(st);
    uint32_t phases = 0; // bit k: the parity of slot k's next use (bulk variants)
    if constexpr (kBulk) {
        if (tid == 0) {
            for (int k = 0; k < kSlots; ++k) bulkBarrierInit(bars + k);
            bulkBarrierInitFence(); // published by the first band's barrier
        }
    }
    auto issue = [&](CubicWalk &walk, const CubicBand &b, int k) {
        uint8_t *slot = slots + k * s.slotPitch;
        if constexpr (kBulk) {
            if (tid != 0) return; // the other threads' walks are never read
            const uint8_t *row = cubicRowAt(p, m, walk);
            bulkProxyFence(); // every thread's reads of the slot (ordered by the last barrier) before the copy's writes
            bulkCopy(slot + kCubicLead, row + chunk0, uint32_t(bulkBytes), bars + k);
            advance(b, walk);
        } else if constexpr (kAligned) {
            cubicIssueAligned(p, m, st, b, walk, slot, tid, copiers);
        } else {
            cubicIssue(p, m, st, b, walk, slot, tid, copiers);
        }
    };
    auto words = [&](const uint8_t *slot) {
        if constexpr (kAligned) return reinterpret_cast<const uint32_t *>(slot);
        else return cubicWords(slot);
    };
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    for (int64_t band = blockIdx.y; band < s.bands; band += gridDim.y) {
        const int64_t d0 = band * s.bandRows, d1 = d0 + s.bandRows < rows ? d0 + s.bandRows : rows;
        const CubicBand b = cubicBand(m, d0, d1);
        __syncthreads(); // the previous band's slots and table are read
        cubicTable(m, b, table, emitAt, tid, nthreads);
        const int32_t items = cubicItems(b), bandRows = static_cast<int32_t>(d1 - d0);
        CubicWalk walk = cubicWalk(b);
#pragma unroll
        for (int j = 0; j < D; ++j) {
            if (j < items) issue(walk, b, j);
            if constexpr (!kBulk) bandCommit();
        }
        // next: the item after which row e is complete, read from the table once per row (after the first item's
        // barrier, which publishes the table), not once per item. out: row (n, dy)'s strip, kept from row to row.
        int32_t e = 0, dy = b.dy0, slot = 0, next = -1;
        int64_t n = b.n0;
        auto *out = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[kN] + int64_t(dy) * p.dst.stride[kH]) + int64_t(x0) * CT;
        auto step = [&](auto window, int32_t i) {
            constexpr int S = decltype(window)::value;
            if (i >= items) return false;
            if (!kBulk && i + D < items) issue(walk, b, slot + D < kSlots ? slot + D : slot + D - kSlots);
            if constexpr (!kBulk) {
                bandCommit();
                bandWait<D>(); // this thread's copies of item i
            }
            __syncthreads();
            if (kBulk && i + D < items) issue(walk, b, slot + D < kSlots ? slot + D : slot + D - kSlots);
            if constexpr (kBulk) {
                bulkWait(bars + slot, (phases >> slot) & 1u);
                phases ^= 1u << slot;
            }
            th.template horizontal<S>(words(slots + slot * s.slotPitch));
            if (next < 0) next = emitAt[0]; // a band has at least one row
            while (next == i) {
                th.template emit<S>(table[e], out + th.col0 * CT);
                ++e;
                next = e < bandRows ? emitAt[e] : items;
                if (++dy == m.y.dst) {
                    dy = 0, ++n;
                    out = reinterpret_cast<uint8_t *>(p.dst.data + n * p.dst.stride[kN]) + int64_t(x0) * CT;
                } else {
                    out += p.dst.stride[kH];
                }
            }
            if (++slot == kSlots) slot = 0;
            return true;
        };
        for (int32_t i = 0;; i += kCubicWindow) {
            if (!step(std::integral_constant<int, 0>{}, i)) break;
            if (!step(std::integral_constant<int, 1>{}, i + 1)) break;
            if (!step(std::integral_constant<int, 2>{}, i + 2)) break;
            if (!step(std::integral_constant<int, 3>{}, i + 3)) break;
        }
    }
}

using Kernel = void (*)(ResizeParams, Mapping, CubicShape);

constexpr int kCubicChannels[] = {1, 3, 4};

template <int V> constexpr std::array<Kernel, 3> channelRow() { return {&cubicKernel<1, V>, &cubicKernel<3, V>, &cubicKernel<4, V>}; }
// kCubicKernels[variant][channel row]: every entry filled.
const std::array<std::array<Kernel, 3>, kCubicVariantCount> kCubicKernels = {channelRow<0>(), channelRow<1>(), channelRow<2>(), channelRow<3>(),
                                                                              channelRow<4>(), channelRow<5>(), channelRow<6>(), channelRow<7>(),
                                                                              channelRow<8>(), channelRow<9>(), channelRow<10>(), channelRow<11>(),
                                                                              channelRow<12>(), channelRow<13>(), channelRow<14>(), channelRow<15>(),
                                                                              channelRow<16>(), channelRow<17>()};

template <size_t N> int rowOf(const int (&values)[N], int64_t v) {
    for (size_t i = 0; i < N; ++i)
        if (values[i] == v) return static_cast<int>(i);
    return -1;
}

bool aligned4(int64_t v) { return (v & 3) == 0; }
bool aligned16(int64_t v) { return (v & 15) == 0; }

// Whether the aligned variants take p's source: 16-byte aligned data, row and image strides, and rows of whole
// 16-byte chunks (so every chunk holding a byte of a row lies inside that row).
bool cubicAligned(const ResizeParams &p) {
    return aligned16(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.src.data))) && aligned16(p.src.stride[kH]) &&
           (p.src.shape[kN] == 1 || aligned16(p.src.stride[kN])) && aligned16(p.src.shape[kW] * p.src.shape[kC]);
}

} // namespace

bool planResizeCubic(const ResizeParams &p, ResizeCubicShape &s, int32_t variant, int32_t maxStripW) {
    if (p.torchMode >= 0 || p.type != kResizeU8 || p.interp != kCubic || variant < 0 || variant >= kCubicVariantCount) return false;
    const int64_t C = p.src.shape[kC];
    if (rowOf(kCubicChannels, C) < 0 || p.dst.shape[kC] != C || p.src.stride[kW] != C || p.dst.stride[kW] != C ||
        (C > 1 && (p.src.stride[kC] != 1 || p.dst.stride[kC] != 1)))
        return false;
    if (!aligned4(p.src.stride[kH]) || (p.src.shape[kN] > 1 && !aligned4(p.src.stride[kN]))) return false;
    if (p.src.shape[kW] * C > INT32_MAX / 2 || p.dst.shape[kW] > INT32_MAX / 2) return false; // int32 offsets in a row
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (m.x.scale > 4.0 || m.y.scale > 4.0) return false;
    if (m.x.src < 4) return false; // cubicWindow's 4 pixels inside the row
    if (kCubicVariants[variant].aligned && !cubicAligned(p)) variant = kCubicGeneralVariant;
    s.variant = variant;
    s.ahead = kCubicVariants[variant].ahead;
    const int32_t pixels = kCubicVariants[variant].pixels, widest = kCubicVariants[variant].threads * pixels;
    const int32_t most = maxStripW > 0 ? std::min(maxStripW, widest) : widest;
    s.strips = (m.x.dst + most - 1) / most;
    for (;;) {
        s.stripW = (m.x.dst + s.strips - 1) / s.strips;
        int32_t pitch = 0;
        for (int32_t x0 = 0; x0 < m.x.dst; x0 += s.stripW)
            pitch = std::max(pitch, cubicSlotPitch(cubicStrip(m, int32_t(C), x0, std::min(s.stripW, m.x.dst - x0)), int32_t(C)));
        s.slotPitch = pitch;
        s.smemBytes = cubicSmemBytes(pitch, s.ahead);
        if (s.smemBytes <= kCubicSmemLimit) break;
        if (s.stripW <= 32) return false;
        ++s.strips;
    }
    s.threads = (s.stripW + 32 * pixels - 1) / (32 * pixels) * 32;
    s.bandRows = 0;
    s.bands = 0;
    return true;
}

bool resizeCubicPreferred(const ResizeParams &p, const ResizeCubicShape &shape) {
    return p.src.shape[kC] != 1 ||
           (kResizeCubicOneChannel && (shape.variant == kResizeCubicVariant || shape.variant == kResizeCubicNoBulkVariant));
}

void setResizeCubicBands(ResizeCubicShape &s, int64_t rows, int64_t blocks) {
    s.bandRows = std::min<int64_t>(kCubicMaxBandRows, (rows + blocks - 1) / blocks);
    s.bands = (rows + s.bandRows - 1) / s.bandRows;
}

cudaError_t launchResizeCubic(const ResizeParams &p, ResizeCubicShape s, cudaStream_t stream) {
    // A bulk variant's kernel traps without sm_90 code: there it runs as its cp.async twin (the same geometry and
    // shared memory), the one place that choice is made.
    if (kCubicVariants[s.variant].bulk && !resizeBulkCopyDevice()) s.variant = cubicNoBulkTwin(s.variant);
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const Kernel k = kCubicKernels[s.variant][rowOf(kCubicChannels, p.src.shape[kC])];
    int resident = 0;
    const cudaError_t err = residentResizeBlocks(reinterpret_cast<const void *>(k), s.threads, s.smemBytes, resident);
    if (err != cudaSuccess) return err;
    const int64_t perStrip = std::max(1, resident / s.strips), rows = p.dst.shape[kN] * p.dst.shape[kH];
    if (s.bandRows > 0) { // the caller's band height (the probe's): blocks walk several bands each
        s.bandRows = std::min<int64_t>(s.bandRows, kCubicMaxBandRows);
        s.bands = (rows + s.bandRows - 1) / s.bandRows;
    } else {
        setResizeCubicBands(s, rows, perStrip);
    }
    const int64_t gridY = std::min<int64_t>(std::min<int64_t>(s.bands, perStrip), 65535);
    k<<<dim3(static_cast<unsigned>(s.strips), static_cast<unsigned>(gridY)), static_cast<unsigned>(s.threads), s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeCubicKernels() { return preloadKernelTable(kCubicKernels); }

} // namespace cvk
