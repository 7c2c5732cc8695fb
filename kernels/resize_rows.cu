// cvResize's row paths (resize_rows.cuh): when they apply (planResizeRows) and their kernels, the NEAREST gather
// per interpolation and the LINEAR/CUBIC rows per (interpolation, channel count), dispatched through tables
// without holes.
#include "resize.hpp"
#include "resize_launch.cuh"
#include "resize_rows.cuh"

#include <algorithm>
#include <array>

namespace cvk {
namespace {

using namespace resize;

// Grid (strips, row blocks): a block builds its strip's column table, then loops over (image, destination row),
// kGatherRows rows per iteration.
template <int I> __global__ void __launch_bounds__(kRowThreads, kRowBlocksPerSM<I>) gatherKernel(ResizeParams p, Mapping m, RowShape s) {
    extern __shared__ int4 smem[];
    int32_t *table = reinterpret_cast<int32_t *>(smem);
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    const int32_t pixelBytes = static_cast<int32_t>(p.src.stride[kW]);
    int32_t x0, w;
    stripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    gatherTable<I>(m, pixelBytes, x0, w, table, tid, nthreads);
    __syncthreads();
    const int64_t N = p.dst.shape[kN];
    for (RowWalk r = rowWalkOf(blockIdx.y, gridDim.y, m.y.dst); r.n < N;) {
        const uint8_t *rows[kGatherRows];
        uint8_t *outs[kGatherRows];
        int count = 0;
#pragma unroll
        for (int j = 0; j < kGatherRows; ++j) {
            if (r.n < N) {
                const int32_t sy = nearestIndex<I>(m.y, m.tiesY, r.dy);
                rows[j] = reinterpret_cast<const uint8_t *>(p.src.data + r.n * p.src.stride[kN] + sy * p.src.stride[kH]);
                outs[j] = reinterpret_cast<uint8_t *>(p.dst.data + r.n * p.dst.stride[kN] + r.dy * p.dst.stride[kH]) + int64_t(x0) * pixelBytes;
                ++count;
                advance(r);
            } else {
                rows[j] = rows[0], outs[j] = outs[0];
            }
        }
        gatherRows<kGatherRows>(table, w * pixelBytes, rows, outs, count, tid, nthreads);
    }
}

// Two barriers per iteration of kRowRows<I> rows: the staged ints are complete before the horizontal pass reads them
// (and the previous iteration's output bytes are stored before this one's replace them), and the output bytes are
// complete before they are stored (and the staged ints read before the next iteration's replace them). The next
// iteration's loads, of all its rows, are issued as soon as this one's words are summed, before the first.
template <int I, int CT>
__global__ void __launch_bounds__(kRowThreads, kRowBlocksPerSM<I>) rowsKernel(ResizeParams p, Mapping m, RowShape s) {
    extern __shared__ int4 smem[];
    const RowBuffers<I> b = carveRows<I>(smem, s, CT);
    const int tid = static_cast<int>(threadIdx.x);
    int32_t x0, w;
    stripOf(s, m.x.dst, static_cast<int32_t>(blockIdx.x), x0, w);
    const RowSpan span = rowSpan<I>(m, CT, x0, w);
    const int64_t N = p.dst.shape[kN];
    const int32_t rowBytes = m.x.src * CT;
    RowWalk r = rowWalkOf(blockIdx.y, gridDim.y, m.y.dst);
    if (r.n >= N) return;
    RowRows<I> rr[kRowRows<I>];
    RowWords<I> words[kRowRows<I>];
    uint8_t *outs[kRowRows<I>];
    // The next iteration's rows from walk r: their taps, loads and destinations; how many there are.
    auto issue = [&]() {
        int count = 0;
#pragma unroll
        for (int j = 0; j < kRowRows<I>; ++j) {
            if (r.n < N) {
                rr[j] = rowRows<I>(m, r.dy);
                rowLoad<I>(rr[j], planeOf(p.src, r.n), rowBytes, span, tid, words[j]);
                outs[j] = reinterpret_cast<uint8_t *>(p.dst.data + r.n * p.dst.stride[kN] + int64_t(r.dy) * p.dst.stride[kH]) + int64_t(x0) * CT;
                ++count;
                advance(r);
            }
        }
        return count;
    };
    int count = issue();
    rowTaps<I, CT>(m, x0, w, span, b, tid, kRowThreads); // read after the first barrier below
    while (count > 0) {
#pragma unroll
        for (int j = 0; j < kRowRows<I>; ++j)
            if (j < count) rowVertical<I>(rr[j], words[j], span, b.staged + j * b.stagedPitch, tid);
        uint8_t *done[kRowRows<I>];
#pragma unroll
        for (int j = 0; j < kRowRows<I>; ++j) done[j] = outs[j];
        const int doneCount = count;
        count = issue(); // registers only: in flight while the block meets at the barrier
        __syncthreads();
        rowHorizontal<I, CT>(w, s.paired, b, doneCount, tid, kRowThreads);
        __syncthreads();
#pragma unroll
        for (int j = 0; j < kRowRows<I>; ++j)
            if (j < doneCount) rowStore(b.out + j * b.outPitch, w * CT, done[j], tid, kRowThreads);
    }
}

using Kernel = void (*)(ResizeParams, Mapping, RowShape);

// The gather's interpolations, the rows' interpolations and channel counts, in the order of the tables.
constexpr int kGatherInterps[] = {kNearest, kNearestFloor};
constexpr int kRowInterps[] = {kLinear, kCubic};
constexpr int kRowChannels[] = {1, 3, 4};

const std::array<Kernel, 2> kGatherKernels = {&gatherKernel<kNearest>, &gatherKernel<kNearestFloor>};
template <int I> constexpr std::array<Kernel, 3> channelRow() {
    return {&rowsKernel<I, 1>, &rowsKernel<I, 3>, &rowsKernel<I, 4>};
}
// kRowKernels[interp row][channel row]: every entry filled.
const std::array<std::array<Kernel, 3>, 2> kRowKernels = {channelRow<kLinear>(), channelRow<kCubic>()};

// What an H200 keeps resident of the interpolation's kernel (the grid's row blocks share it among the strips).
int residentBlocks(int32_t interp) {
    return interp == kCubic ? kRowBlocks<kCubic> : interp == kLinear ? kRowBlocks<kLinear> : kRowBlocks<kNearest>;
}

template <size_t N> int rowOf(const int (&values)[N], int64_t v) {
    for (size_t i = 0; i < N; ++i)
        if (values[i] == v) return static_cast<int>(i);
    return -1;
}

constexpr int64_t kElementBytes[kResizeTypeCount] = {1, 2, 2, 2, 4}; // in ResizeType order

bool aligned4(int64_t v) { return (v & 3) == 0; }

// The most staged ints of any strip of `stripW` columns.
template <int I> int32_t mostStaged(const Mapping &m, int32_t C, int32_t stripW) {
    int32_t most = 0;
    for (int32_t x0 = 0; x0 < m.x.dst; x0 += stripW) most = std::max(most, rowSpan<I>(m, C, x0, std::min(stripW, m.x.dst - x0)).count);
    return most;
}

// Shared-memory wavefronts of the horizontal pass over the first columns (up to 128) of the first strip: for each
// warp and each scalar load (tap, channel), the most distinct words any bank holds; plus the output byte stores.
// A warp's columns increase with its lanes in both orders, so its words of one load are sorted: a word is new when
// it differs from the lane before's.
template <int I> int32_t horizontalWavefronts(const Mapping &m, int32_t C, int32_t w, int32_t paired) {
    constexpr int K = kRowTaps<I>;
    const int32_t n = std::min(w, 128), items = paired ? (n + 63) & ~63 : n;
    std::array<int32_t, 128> first{}; // tap 0's source index of each column
    for (int32_t x = 0; x < n; ++x) first[size_t(x)] = I == kLinear ? linearTaps(m.x, x).first : cubicTaps(m.x, x).first;
    auto worst = [](const int32_t *words, int32_t count) {
        std::array<int32_t, 32> perBank{};
        int32_t most = 0;
        for (int32_t j = 0; j < count; ++j)
            if (j == 0 || words[j] != words[j - 1]) most = std::max(most, ++perBank[size_t(words[j] & 31)]);
        return most;
    };
    int32_t total = 0;
    for (int32_t warp = 0; warp < items; warp += 32) {
        std::array<int32_t, 32> cols{}, words{};
        int32_t count = 0;
        for (int32_t i = warp; i < warp + 32 && i < items; ++i)
            if (rowColumn(i, paired) < n) cols[size_t(count++)] = rowColumn(i, paired);
        for (int k = 0; k < K; ++k)
            for (int32_t c = 0; c < C; ++c) {
                for (int32_t j = 0; j < count; ++j) words[size_t(j)] = clampIndex(int64_t(first[size_t(cols[size_t(j)])]) + k, m.x.src) * C + c;
                total += worst(words.data(), count);
            }
        for (int32_t c = 0; c < C; ++c) {
            for (int32_t j = 0; j < count; ++j) words[size_t(j)] = (cols[size_t(j)] * C + c) / 4;
            total += worst(words.data(), count);
        }
    }
    return total;
}

// Whether paired columns cost fewer wavefronts: some microseconds of host arithmetic the first time a thread plans
// an (interpolation, source width, destination width, channels, strip), then from a small per-thread cache.
template <int I> int32_t pairedColumns(const Mapping &m, int32_t C, int32_t stripW) {
    struct Entry {
        int32_t src, dst, C, stripW, paired;
    };
    constexpr int kEntries = 4;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    for (const Entry &e : cache)
        if (e.src == m.x.src && e.dst == m.x.dst && e.C == C && e.stripW == stripW) return e.paired;
    const int32_t paired = horizontalWavefronts<I>(m, C, stripW, 1) < horizontalWavefronts<I>(m, C, stripW, 0);
    cache[next] = {m.x.src, m.x.dst, C, stripW, paired};
    next = (next + 1) % kEntries;
    return paired;
}

template <int I> bool planRows(const Mapping &m, int32_t C, RowShape &s) {
    s.paired = 0;
    for (s.stripW = m.x.dst;;) {
        s.strips = (m.x.dst + s.stripW - 1) / s.stripW;
        s.staged = mostStaged<I>(m, C, s.stripW);
        s.smemBytes = rowSmemBytes<I>(s.stripW, s.staged, C);
        if (s.staged <= kRowStaged && s.smemBytes <= kRowSmemLimit) {
            // 4 channels load a tap's channels as one vector, which this count does not model: consecutive columns.
            if (C != 4) s.paired = pairedColumns<I>(m, C, s.stripW);
            return true;
        }
        if (s.stripW <= 32) return false;
        s.stripW = ((s.stripW + 1) / 2 + 3) & ~3; // several strips: each starts on a 4-byte boundary of the row
    }
}

} // namespace

bool planResizeRows(const ResizeParams &p, ResizeRowShape &s) {
    if (p.torchMode >= 0 || p.type < 0 || p.type >= kResizeTypeCount) return false;
    const int64_t C = p.src.shape[kC], elem = kElementBytes[p.type], pixel = C * elem;
    if (p.dst.shape[kC] != C || p.src.stride[kW] != pixel || p.dst.stride[kW] != pixel ||
        (C > 1 && (p.src.stride[kC] != elem || p.dst.stride[kC] != elem)))
        return false;
    if (p.src.shape[kW] * pixel > INT32_MAX) return false; // byte offsets within a source row are int32
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    if (rowOf(kGatherInterps, p.interp) >= 0) {
        if (pixel > kGatherBytes / 4) return false;
        const int32_t most = static_cast<int32_t>(kGatherBytes / pixel) & ~3;
        s.stripW = std::min(m.x.dst, most);
        s.strips = (m.x.dst + s.stripW - 1) / s.stripW;
        s.staged = 0;
        s.smemBytes = 4 * ((s.stripW * static_cast<int32_t>(pixel) + 3) & ~3);
        s.paired = 0;
        return true;
    }
    const int interp = rowOf(kRowInterps, p.interp);
    if (interp < 0 || p.type != kResizeU8 || rowOf(kRowChannels, C) < 0) return false;
    if (!aligned4(reinterpret_cast<intptr_t>(p.src.data)) || !aligned4(p.src.stride[kH]) ||
        (p.src.shape[kN] > 1 && !aligned4(p.src.stride[kN])))
        return false;
    if (m.x.scale > (p.interp == kLinear ? 2.0 : 4.0)) return false;
    return p.interp == kLinear ? planRows<kLinear>(m, static_cast<int32_t>(C), s) : planRows<kCubic>(m, static_cast<int32_t>(C), s);
}

cudaError_t launchResizeRows(const ResizeParams &p, const ResizeRowShape &s, cudaStream_t stream) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int gather = rowOf(kGatherInterps, p.interp);
    const Kernel k = gather >= 0 ? kGatherKernels[gather] : kRowKernels[rowOf(kRowInterps, p.interp)][rowOf(kRowChannels, p.src.shape[kC])];
    const int64_t rows = p.dst.shape[kN] * p.dst.shape[kH];
    const dim3 grid(static_cast<unsigned>(s.strips), static_cast<unsigned>(std::min<int64_t>(rows, std::max(1, residentBlocks(p.interp) / s.strips))));
    k<<<grid, kRowThreads, s.smemBytes, stream>>>(p, m, s);
    return cudaGetLastError();
}

cudaError_t preloadResizeRowKernels() {
    const cudaError_t err = preloadKernelTable(kGatherKernels);
    return err == cudaSuccess ? preloadKernelTable(kRowKernels) : err;
}

} // namespace cvk
