// cvResizeTorchvision's antialiased modes on the separable tiled path (resize_tv_tile.cuh), and the fused
// torchvision preprocessing pass (resize -> crop -> to_dtype -> normalize) on the same tiles or, where the tiles do not
// apply, per output pixel with sampleTorch. When the path applies (planTvResizeTile / planTvFusedTile), its kernels,
// one per (element type or output type, filter, compiled window size), dispatched through tables without holes.
#include "resize.hpp"
#include "resize_launch.cuh"
#include "resize_tv_tile.cuh"

#include "common/launch.cuh"
#include "common/overlap_launch.cuh"

#include <cuda_fp16.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cvk {
namespace {

using namespace resize;

// Where a plain resize's value goes: dst[n, y, x, c] rounded to T as sampleTorch's emit.
template <class T> struct PlainOut {
    View4 dst;
    __device__ __forceinline__ void operator()(int64_t n, int32_t c, int32_t x, int32_t y, float v) const {
        *reinterpret_cast<T *>(dst.data + n * dst.stride[kN] + y * dst.stride[kH] + x * dst.stride[kW] + c * dst.stride[kC]) =
            saturateFloat<T>(v);
    }
};

// Where the fused pass's value goes: torchvision rounds the resized uint8 (srcCast), then to_dtype and normalize.
template <bool Half> struct FusedOut {
    FusedParams p;
    __device__ __forceinline__ void operator()(int64_t n, int32_t c, int32_t x, int32_t y, float v) const {
        const int32_t C = static_cast<int32_t>(p.dst.shape[kC]);
        const int32_t o = p.reverseChannels ? C - 1 - c : c;
        const float value = p.srcCast ? static_cast<float>(saturateFloat<uint8_t>(v)) : v;
        storeOut<Half>(p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH] + x * p.dst.stride[kW] + o * p.dst.stride[kC],
                       fusedValue(p, o, value));
    }
};

// One block per (tile column, tile row, image), grid-stride over tile rows and images; every channel of the image
// in turn, so the column weights (registers) and row weights (shared memory) serve all of them. WordBatch and
// MinBlocks: the uint8 word rows' batch and the blocks per SM the registers are fitted to (the library's are
// kTvRowBatch and kTvMinBlocks; bench/probes/tv_tiles_variants.cu times others).
template <class T, int K, class Out, int WordBatch = kTvRowBatch<K>, int MinBlocks = kTvMinBlocks<K>>
__global__ void __launch_bounds__(kTvThreads, MinBlocks) tvTiledKernel(TvJob j, View4 src, Out out, TvTileShape s, bool words) {
    extern __shared__ float4 tvSmem[];
    // tvTileVertical's all-taps sums for an integer source (finite horizontal sums), in the K rows the plan added for
    // them (padRows: the launch checks it).
    constexpr bool kAllTaps = std::is_integral_v<T>;
    const TvBuffers b = tvCarve<K>(tvSmem, s.maxRows + s.padRows, s.tileH);
    const int tid = static_cast<int>(threadIdx.x);
    if constexpr (kAllTaps) tvZeroBuffer(b, s.maxRows + s.padRows, tid, kTvThreads); // ordered by the barrier before the first tile's setup
    const int32_t tilesY = (j.outH + s.tileH - 1) / s.tileH;
    const int32_t C = static_cast<int32_t>(src.shape[kC]);
    for (int32_t ty = blockIdx.y; ty < tilesY; ty += gridDim.y) {
        const TvTile t = tvTileOf(j, s.tileH, static_cast<int32_t>(blockIdx.x), ty);
        const TvColumnOf<T, K> col = tvColumnOf<T, K>(j, t, tid % kTvTileW);
        __syncthreads(); // the previous tile's vertical pass has read the row weights
        tvTileRowsSetup<K>(j, t, b, tid, kTvThreads);
        waitPriorGrid(); // launched overlapping the previous kernel (tvLaunch): the setup above reads no global memory
        for (int64_t n = blockIdx.z; n < src.shape[kN]; n += gridDim.z)
            for (int32_t c = 0; c < C; ++c) {
                __syncthreads(); // row weights written; the previous plane's vertical pass has read the buffer
                const Plane p{src.data + n * src.stride[kN] + c * src.stride[kC], src.stride[kH], src.stride[kW], 0};
                tvTileHorizontal<T, K, WordBatch>(j, t, col, p, words, b, tid, kTvThreads);
                __syncthreads();
                tvTileVertical<T, K>(t, b, tid, kTvThreads, [&](int32_t x, int32_t y, float v) { out(n, c, x, y, v); });
            }
    }
}

// tvStagedBlock's primitives on the GPU: the thread's and block's indices, __syncthreads, cp.async and the wait on the
// prior grid.
struct TvGpuBlock {
    __device__ __forceinline__ int tid() const { return static_cast<int>(threadIdx.x); }
    __device__ __forceinline__ unsigned x() const { return blockIdx.x; }
    __device__ __forceinline__ unsigned y() const { return blockIdx.y; }
    __device__ __forceinline__ unsigned z() const { return blockIdx.z; }
    __device__ __forceinline__ unsigned gy() const { return gridDim.y; }
    __device__ __forceinline__ unsigned gz() const { return gridDim.z; }
    __device__ __forceinline__ void sync() const { __syncthreads(); }
    __device__ __forceinline__ void copy16(uint8_t *to, const uint8_t *from, int32_t bytes) const { TvCopy16{}(to, from, bytes); }
    __device__ __forceinline__ void commit() const { bandCommit(); }
    template <int Pending> __device__ __forceinline__ void wait() const { bandWait<Pending>(); }
    __device__ __forceinline__ void waitPriorGrid() const { cvk::waitPriorGrid(); }
};

// The staged variant (resize_tv_tile.cuh, tvStagedBlock): uint8 word rows, 12-tap windows, 16-byte aligned rows, the
// block's planes through two stages in shared memory.
template <class Out, int WordBatch = kTvStagedRowBatch>
__global__ void __launch_bounds__(kTvThreads, kTvMinBlocks<12>) tvStagedKernel(TvJob j, View4 src, Out out, TvTileShape s) {
    extern __shared__ float4 tvSmem[];
    TvGpuBlock blk;
    tvStagedBlock<12, WordBatch>(j, src, s, tvSmem, blk, out);
}

// The fused pass per output pixel (the modes and sizes the tiles do not take): sampleTorch's value of every channel.
template <int M, bool Half> __global__ void __launch_bounds__(kBlockX *kBlockY) tvFusedPixelKernel(FusedParams p, Mapping m) {
    const FusedOut<Half> out{p};
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t dx, int32_t dy) {
        sampleTorch<uint8_t, M>(m.x, m.y, planeOf(p.src, n), dx + p.cropX, dy + p.cropY, static_cast<int32_t>(p.src.shape[kC]),
                                [&](int32_t c, uint8_t, float real) { out(n, c, dx, dy, real); });
    });
}

template <class Out> using TiledKernel = void (*)(TvJob, View4, Out, TvTileShape, bool);
template <class Out> using TapsRow = std::array<TiledKernel<Out>, kTvTapVariants>;

template <class T, int K, class Out> constexpr TiledKernel<Out> tiledKernel() { return &tvTiledKernel<T, K, Out>; }
template <class T, class Out, size_t... V> constexpr TapsRow<Out> tapsRow(std::index_sequence<V...>) {
    return {tiledKernel<T, kTvTaps[V], Out>()...};
}
template <class T, class Out> constexpr TapsRow<Out> tapsRowOf() {
    return tapsRow<T, Out>(std::make_index_sequence<kTvTapVariants>{});
}

// kPlain[type][taps], kFused[half][taps] (the filter is the job's: one kernel serves bilinear and bicubic).
template <class T> using PlainRow = TapsRow<PlainOut<T>>;
const std::tuple<PlainRow<uint8_t>, PlainRow<uint16_t>, PlainRow<int16_t>, PlainRow<__half>, PlainRow<float>> kPlain = {
    tapsRowOf<uint8_t, PlainOut<uint8_t>>(), tapsRowOf<uint16_t, PlainOut<uint16_t>>(), tapsRowOf<int16_t, PlainOut<int16_t>>(),
    tapsRowOf<__half, PlainOut<__half>>(), tapsRowOf<float, PlainOut<float>>()};
const TapsRow<FusedOut<false>> kFusedFloat = tapsRowOf<uint8_t, FusedOut<false>>();
const TapsRow<FusedOut<true>> kFusedHalf = tapsRowOf<uint8_t, FusedOut<true>>();

// The staged kernels: uint8 sources, 12-tap windows (one kernel per output).
template <class Out> using StagedKernel = void (*)(TvJob, View4, Out, TvTileShape);
const StagedKernel<PlainOut<uint8_t>> kStagedPlain = &tvStagedKernel<PlainOut<uint8_t>>;
const StagedKernel<FusedOut<false>> kStagedFloat = &tvStagedKernel<FusedOut<false>>;
const StagedKernel<FusedOut<true>> kStagedHalf = &tvStagedKernel<FusedOut<true>>;

using PixelKernel = void (*)(FusedParams, Mapping);
template <int M, bool Half> constexpr PixelKernel pixelKernel() { return &tvFusedPixelKernel<M, Half>; }
template <bool Half, size_t... M> constexpr std::array<PixelKernel, kTvModeCount> pixelRow(std::index_sequence<M...>) {
    return {pixelKernel<int(M), Half>()...};
}
// kPixel[half][torch mode]: every entry filled.
const std::array<std::array<PixelKernel, kTvModeCount>, 2> kPixel = {pixelRow<false>(std::make_index_sequence<kTvModeCount>{}),
                                                                     pixelRow<true>(std::make_index_sequence<kTvModeCount>{})};

bool isAntialiased(int32_t torchMode) { return torchMode == kTvLinearAA || torchMode == kTvCubicAA; }

// The compiled window size for the job (the largest window of the indices it computes), the tile height that fits
// (firstTileH rows, 32 for the library, halved until the buffers fit), and that tile's most source rows; for an
// integer source (`allTaps`) the horizontal buffer holds K rows more (tvTileVertical's all-taps sums).
bool planJob(const TvJob &j, bool allTaps, TvTileShape &s, int32_t firstTileH = 32, int32_t smemLimit = kTileSmemLimit) {
    int32_t most = 0;
    for (int32_t i = 0; i < j.outW; ++i) most = std::max(most, tvJobWindowX(j, i).size);
    for (int32_t i = 0; i < j.outH; ++i) most = std::max(most, tvJobWindowY(j, i).size);
    s.taps = -1;
    for (int v = kTvTapVariants - 1; v >= 0; --v)
        if (most <= kTvTaps[v]) s.taps = v;
    if (s.taps < 0) return false;
    for (s.tileH = firstTileH; s.tileH >= 1; s.tileH /= 2) {
        s.maxRows = 0;
        for (int32_t y0 = 0; y0 < j.outH; y0 += s.tileH) {
            int32_t lo, count;
            tvTileRows(j, y0, std::min(s.tileH, j.outH - y0), lo, count);
            s.maxRows = std::max(s.maxRows, count);
        }
        s.padRows = allTaps ? kTvTaps[s.taps] : 0;
        s.smemBytes = tvSmemBytes(s.maxRows + s.padRows, s.tileH, kTvTaps[s.taps]);
        if (s.smemBytes <= smemLimit) return true;
    }
    return false;
}

bool aligned4(int64_t v) { return (v & 3) == 0; }

// uint8 planes whose pixels are one byte apart and whose rows start on 4 bytes: the word loads of tvTileWordRows.
bool wordRows(const View4 &src, int32_t type) {
    return type == kResizeU8 && src.stride[kW] == 1 && aligned4(reinterpret_cast<intptr_t>(src.data)) && aligned4(src.stride[kH]) &&
           (src.shape[kN] == 1 || aligned4(src.stride[kN])) && (src.shape[kC] == 1 || aligned4(src.stride[kC]));
}

bool aligned16(int64_t v) { return (v & 15) == 0; }

// uint8 planes the staged kernel copies with 16-byte cp.async: word rows whose base, rows, planes and images are
// 16-byte aligned.
bool stagedSource(const View4 &src, int32_t type) {
    return wordRows(src, type) && aligned16(reinterpret_cast<intptr_t>(src.data)) && aligned16(src.stride[kH]) &&
           (src.shape[kN] == 1 || aligned16(src.stride[kN])) && (src.shape[kC] == 1 || aligned16(src.stride[kC]));
}

// Shared memory a staged plan may take: 100 KiB, within the opt-in limit of every GPU from sm_80 on but sm_75's
// (64 KiB; launchTiles checks the device's). The benchmark's 1080x1920 -> 256x455 plane takes 21 KiB of buffers and
// two stages of 139 rows x 160 bytes, 64 KiB in all: three blocks an SM of an H100 or H200.
constexpr int32_t kTvStagedSmemLimit = 100 * 1024;

// The staged variant for job j when it applies (tvStagedKernel: 12-tap windows, stagedSource, every tile's span at
// most kTvThreads chunks, both stages within kTvStagedSmemLimit): s gains the stages' pitch and place (after the
// tiles kernel's buffers, which its smemBytes held), else stays as it is (stagePitch 0).
void planTvStage(const TvJob &j, const View4 &src, int32_t type, TvTileShape &s) {
    s.stagePitch = 0;
    s.stageOffset = 0;
    if (s.taps != 0 || !stagedSource(src, type)) return;
    int32_t pitch = 0;
    for (int32_t tx = 0; tx * kTvTileW < j.outW; ++tx) pitch = std::max(pitch, tvStageSpan<kTvTaps[0]>(j, tvTileOf(j, s.tileH, tx, 0)).bytes);
    const int32_t offset = (s.smemBytes + 15) & ~15;
    const int64_t bytes = offset + 2 * int64_t(s.maxRows) * pitch;
    if (pitch / 16 > kTvThreads || bytes > kTvStagedSmemLimit) return;
    s.stagePitch = pitch;
    s.stageOffset = offset;
    s.smemBytes = static_cast<int32_t>(bytes);
}

dim3 tvGrid(const TvJob &j, const TvTileShape &s, int64_t n) {
    return dim3(static_cast<unsigned>((j.outW + kTvTileW - 1) / kTvTileW),
                static_cast<unsigned>(std::min<int64_t>((j.outH + s.tileH - 1) / s.tileH, 65535)),
                static_cast<unsigned>(std::min<int64_t>(n, 65535)));
}

// A tiles kernel's launch, overlapping the kernel before it in the stream where the kernel's code has the wait
// (overlap_launch.cuh; one cache per kernel type, each serving every kernel of that type: they are built for the same
// targets).
template <class Kernel, class... Args> cudaError_t tvLaunch(Kernel k, dim3 grid, int32_t smemBytes, cudaStream_t stream, const Args &...args) {
    static Sm90CodeCache known;
    return launchOverlapped(sm90CodeOnDevice(reinterpret_cast<const void *>(k), known), k, grid, dim3(kTvThreads), smemBytes, stream, args...);
}

// The most dynamic shared memory a block may opt into on the current device (cudaDevAttrMaxSharedMemoryPerBlockOptin),
// asked once per device; 0 when unknown.
int32_t optInSmem() {
    static PerDevice<int32_t> known;
    return perDeviceValue(known, [](int device) {
        int value = 0;
        return cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess ? int32_t(value) : int32_t(0);
    });
}

// The staged kernel where the plan stages, the source is still one it can copy (a plan holds for the views it was
// made from; this keeps a misaligned one off cp.async) and the device lets a block take the plan's shared memory;
// else the tiles kernel (with its buffers only: they end where the stages would start). The staged kernel is allowed
// the device's whole opt-in limit, the same value at every launch from any thread (a permission, not an allocation),
// and at every launch, since a device reset forgets it; where the device refuses it, the tiles kernel runs (same output).
template <class Out>
cudaError_t launchTiles(TiledKernel<Out> tiled, StagedKernel<Out> staged, const TvJob &j, const View4 &src, const Out &out, const TvTileShape &s,
                        int64_t n, bool words, cudaStream_t stream) {
    const dim3 grid = tvGrid(j, s, n);
    if (s.stagePitch != 0 && stagedSource(src, kResizeU8)) {
        if (const int32_t limit = optInSmem(); s.smemBytes <= limit) {
            if (cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, limit) == cudaSuccess) {
                dim3 stagedGrid = grid; // kTvStagedImages images a block where the grid keeps enough blocks
                stagedGrid.z = static_cast<unsigned>(tvStagedGridZ(int64_t(grid.x) * grid.y, n));
                return tvLaunch(staged, stagedGrid, s.smemBytes, stream, j, src, out, s);
            }
            (void)cudaGetLastError(); // refused: the tiles kernel (the staged one has no static shared memory, which would
                                      // count against the limit, so this is not expected)
        }
    }
    return tvLaunch(tiled, grid, s.stagePitch != 0 ? s.stageOffset : s.smemBytes, stream, j, src, out, s, words);
}

// Whether a plan holds the rows tvTiledKernel<T> reads: an integer source's all-taps vertical sums read K rows past the
// tile's most (planJob's padRows).
template <class T> bool planFits(const TvTileShape &s) { return !std::is_integral_v<T> || s.padRows >= kTvTaps[s.taps]; }

// Type row I of kPlain (the ResizeType order), element type T.
template <size_t I, class T> cudaError_t launchPlain(const ResizeParams &p, const TvJob &j, const TvTileShape &s, cudaStream_t stream) {
    if (!planFits<T>(s)) return cudaErrorInvalidValue;
    if constexpr (std::is_same_v<T, uint8_t>)
        return launchTiles(std::get<I>(kPlain)[s.taps], kStagedPlain, j, p.src, PlainOut<T>{p.dst}, s, p.dst.shape[kN], wordRows(p.src, p.type), stream);
    else if (s.stagePitch != 0)
        return cudaErrorInvalidValue; // only uint8 sources stage
    else
        return tvLaunch(std::get<I>(kPlain)[s.taps], tvGrid(j, s, p.dst.shape[kN]), s.smemBytes, stream, j, p.src, PlainOut<T>{p.dst}, s,
                        wordRows(p.src, p.type));
}

template <class Row> cudaError_t preloadRow(const Row &row) {
    for (auto k : row) {
        cudaFuncAttributes attributes;
        const cudaError_t err = cudaFuncGetAttributes(&attributes, k);
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}

} // namespace

bool planTvResizeTile(const ResizeParams &p, TvTileShape &s) {
    if (!isAntialiased(p.torchMode) || p.type < 0 || p.type >= kResizeTypeCount) return false;
    const bool integer = p.type == kResizeU8 || p.type == kResizeU16 || p.type == kResizeS16;
    const TvJob j = tvJobOf(p.src, p.dst.shape[kH], p.dst.shape[kW], 0, 0, p.dst.shape[kH], p.dst.shape[kW], p.torchMode);
    if (!planJob(j, integer, s)) return false;
    planTvStage(j, p.src, p.type, s);
    return true;
}

bool planTvFusedTile(const FusedParams &q, TvTileShape &s) {
    if (!isAntialiased(q.torchMode)) return false;
    const TvJob j = tvJobOf(q);
    if (!planJob(j, true, s)) return false; // uint8
    planTvStage(j, q.src, kResizeU8, s);
    return true;
}

cudaError_t launchTvResizeTiled(const ResizeParams &p, const TvTileShape &s, cudaStream_t stream) {
    const TvJob j = tvJobOf(p.src, p.dst.shape[kH], p.dst.shape[kW], 0, 0, p.dst.shape[kH], p.dst.shape[kW], p.torchMode);
    switch (p.type) {
    case kResizeU8: return launchPlain<0, uint8_t>(p, j, s, stream);
    case kResizeU16: return launchPlain<1, uint16_t>(p, j, s, stream);
    case kResizeS16: return launchPlain<2, int16_t>(p, j, s, stream);
    case kResizeF16: return launchPlain<3, __half>(p, j, s, stream);
    case kResizeF32: return launchPlain<4, float>(p, j, s, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t launchTvFused(const FusedParams &q, cudaStream_t stream) {
    if (q.torchMode < 0 || q.torchMode >= kTvModeCount || q.src.shape[kC] < 1 || q.src.shape[kC] > kFusedMaxChannels)
        return cudaErrorInvalidValue;
    if (q.dst.shape[kN] == 0 || q.dst.shape[kH] == 0 || q.dst.shape[kW] == 0) return cudaSuccess;
    TvTileShape s;
    if (planTvFusedTile(q, s)) {
        const TvJob j = tvJobOf(q);
        if (!planFits<uint8_t>(s)) return cudaErrorInvalidValue;
        const bool words = wordRows(q.src, kResizeU8);
        const int64_t n = q.dst.shape[kN];
        return q.halfOut ? launchTiles(kFusedHalf[s.taps], kStagedHalf, j, q.src, FusedOut<true>{q}, s, n, words, stream)
                         : launchTiles(kFusedFloat[s.taps], kStagedFloat, j, q.src, FusedOut<false>{q}, s, n, words, stream);
    }
    Mapping m{};
    m.x = makeAxis(static_cast<int32_t>(q.src.shape[kW]), q.resizeW);
    m.y = makeAxis(static_cast<int32_t>(q.src.shape[kH]), q.resizeH);
    kPixel[q.halfOut][q.torchMode]<<<gridFor(q.dst.shape[kW], q.dst.shape[kH], q.dst.shape[kN]), dim3(kBlockX, kBlockY), 0, stream>>>(q, m);
    return cudaGetLastError();
}

cudaError_t preloadTvResizeKernels() {
    cudaError_t err = preloadRow(std::get<0>(kPlain));
    if (err == cudaSuccess) err = preloadRow(std::get<1>(kPlain));
    if (err == cudaSuccess) err = preloadRow(std::get<2>(kPlain));
    if (err == cudaSuccess) err = preloadRow(std::get<3>(kPlain));
    if (err == cudaSuccess) err = preloadRow(std::get<4>(kPlain));
    if (err == cudaSuccess) err = preloadRow(kFusedFloat);
    if (err == cudaSuccess) err = preloadRow(kFusedHalf);
    if (err == cudaSuccess) err = preloadRow(std::array<const void *, 3>{reinterpret_cast<const void *>(kStagedPlain), reinterpret_cast<const void *>(kStagedFloat),
                                                                         reinterpret_cast<const void *>(kStagedHalf)});
    for (const auto &row : kPixel)
        if (err == cudaSuccess) err = preloadRow(row);
    return err;
}

} // namespace cvk
