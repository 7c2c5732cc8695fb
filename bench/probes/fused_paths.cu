// Microbenchmark of the fused pass (cvResizeCropConvertReformat) on the ImageNet chain and its neighbours: uint8 NHWC
// -> resize LINEAR -> crop -> /255 (ImageNet mean/std or none) -> float NCHW (GPU time per call, CUDA events, median
// of 9 batches of 5 calls after a warm-up, 4 source buffer sets rotated so that L2 holds none of them). Rows: the
// general kernel (launchResizeFusedGeneral: the per-pixel sampler), the pair path (launchResizeFusedPairs: main's
// path for these shapes before the staged path, the baseline), launchResizeFused as built, and every variant of the
// staged path (planFusedStaged; "n/a" where it does not take the shape). copy_us: a D2D cudaMemcpyAsync moving the
// traffic of reading the needed source bytes once and writing the output once ((source bytes read + output bytes) / 2
// copied; the source bytes read: the 2 source rows of every crop row, whole, an upper bound of the sectors the taps
// touch). mismatches: output values whose bits differ from the pair path's (both poisoned differently first); any
// mismatch, in a timed case or in the untimed odd shapes after them, exits 1.
#include "fused_case.cuh"
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_fused_staged.cuh"
#include "resize_launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace cvk;
using fusedprobe::Case;
using fusedprobe::differsFromPairs;
using fusedprobe::paramsOf;

namespace {

constexpr int kSets = 4;



// ---- Floor rows (diagnostic, no output check): the staged path's loads and stores without its arithmetic, one crop
// row a block of 64 threads as staged variant 2, to tell the memory pattern's own time from the kernel's. Load:
// 0 cp.async.cg 16 bytes (the staged path's), 1 the same with the .L2::256B prefetch hint, 2 one cp.async.bulk (TMA)
// copy per row segment on an mbarrier, 3 one bulk copy of both rows' span (row 0's segment start to row 1's segment
// end; the rows are adjacent here), 4 cp.async of both rows whole. Store: 0 none, 1 the three planes' 16-byte
// streaming stores of 4 pixels a thread, 2 the same as plain stores.

// Bulk copies of `count` spans into shared memory, issued by thread 0, completion waited for by every thread on one
// mbarrier (initialised here, used once).
__device__ void bulkCopies(uint64_t *bar, int count, uint4 *const *to, const char *const *from, const unsigned *bytes) {
    const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(bar));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (int i = 0; i < count; ++i) total += bytes[i];
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(total) : "memory");
        for (int i = 0; i < count; ++i)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             static_cast<unsigned>(__cvta_generic_to_shared(to[i]))),
                         "l"(from[i]), "r"(bytes[i]), "r"(b)
                         : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(done) : "r"(b) : "memory");
}

template <int Load, int Store> __global__ void __launch_bounds__(64) floorKernel(FusedParams p, resize::Mapping m, FusedStagedShape s) {
    extern __shared__ uint4 stage[];
    __shared__ alignas(8) uint64_t bar;
    const int64_t item = blockIdx.x, n = item / s.bands;
    const int32_t y = static_cast<int32_t>(item - n * s.bands);
    const char *image = p.src.data + n * p.src.stride[kN] + s.segLo;
    const resize::PairTaps ty = resize::pairTaps(m.y, y + p.cropY);
    const char *row[2] = {image + int64_t(ty.i0) * p.src.stride[kH], image + int64_t(ty.i1) * p.src.stride[kH]};
    uint4 *slot[2] = {stage, stage + s.segChunks};
    const unsigned segBytes = unsigned(s.segChunks) * 16u;
    if constexpr (Load == 2) {
        const unsigned bytes[2] = {segBytes, segBytes};
        bulkCopies(&bar, 2, slot, row, bytes);
    } else if constexpr (Load == 3) {
        const unsigned bytes[1] = {unsigned(row[1] - row[0]) + segBytes};
        bulkCopies(&bar, 1, slot, row, bytes);
    } else {
        const int64_t chunks = Load == 4 ? 2 * p.src.stride[kH] / 16 : s.segChunks;
        for (int64_t k = threadIdx.x; k < chunks; k += blockDim.x)
            for (int r = 0; r < (Load == 4 ? 1 : 2); ++r) {
                // Load 4: both rows whole from row 0's start, as one run of chunks.
                const char *from = Load == 4 ? row[0] - s.segLo + 16 * k : row[r] + 16 * k;
                const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(Load == 4 ? stage + k : slot[r] + k));
                if constexpr (Load == 1)
                    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(d), "l"(from) : "memory");
                else
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(from) : "memory");
            }
        asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
        __syncthreads();
    }
    const int32_t x0 = threadIdx.x * 4, w = static_cast<int32_t>(p.dst.shape[kW]);
    if (x0 >= w) return;
    const uint4 v = stage[threadIdx.x];
    if constexpr (Store != 0) {
        char *out = p.dst.data + n * p.dst.stride[kN] + int64_t(y) * p.dst.stride[kH] + int64_t(x0) * 4;
        for (int o = 0; o < 3; ++o) {
            float4 *to = reinterpret_cast<float4 *>(out + o * p.dst.stride[kC]);
            const float4 q = make_float4(float(v.x & 255), float(v.y & 255), float(v.z & 255), float(o));
            if constexpr (Store == 1) __stcs(to, q);
            else *to = q;
        }
    } else if ((v.x ^ v.y ^ v.z ^ v.w) == 0x9e3779b9u) {
        p.dst.data[threadIdx.x] = 1; // keeps the loads; practically never taken
    }
}

template <int Load, int Store> void launchFloor(const FusedParams &q, const FusedStagedShape &s, int32_t smem, cudaStream_t st) {
    floorKernel<Load, Store><<<static_cast<unsigned>(s.items), 64, smem, st>>>(q, resize::mappingOf(q.src, q.resizeH, q.resizeW, q.interp), s);
    CK(cudaGetLastError());
}

// Dynamic shared memory a block asks for so that at most `blocks` of them are resident on an H200 SM (228 KiB, 1 KiB
// reserved per block): residency caps by padding, the kernel unchanged.
int32_t capSmem(int32_t needed, int blocks) { return std::max(needed, ((228 * 1024) / blocks - 1024) & ~15); }

// One output pixel of 3 channels, float out, from its two rows' pairs (the pair path's arithmetic), evict-first (CS)
// or plain stores: the probe kernels below share it.
template <bool CS>
__device__ __forceinline__ void emitPixel3(const FusedParams &p, const resize::PixelPair &r0, const resize::PixelPair &r1,
                                           const resize::PairTaps &tx, const resize::PairTaps &ty, int64_t n, int32_t x, int32_t y) {
    float v[3];
    resize::pairValues<3>(r0, r1, tx, ty, p.srcCast, v);
    char *out = p.dst.data + n * p.dst.stride[kN] + int64_t(y) * p.dst.stride[kH] + int64_t(x) * p.dst.stride[kW];
#pragma unroll
    for (int o = 0; o < 3; ++o) {
        float *to = reinterpret_cast<float *>(out + o * p.dst.stride[kC]);
        const float q = resize::fusedValue(p, o, p.reverseChannels ? v[2 - o] : v[o]);
        if constexpr (CS) __stcs(to, q);
        else *to = q;
    }
}

// ---- The reference's shape (CV-CUDA 0.19's resizeCrop_bilinear, seen in Nsight Compute: one thread per output
// pixel, 16 x 16 blocks, a grid of (tiles x, tiles y, images)) with the pair path's arithmetic and one fetchPair per
// row (resize_fused_pairs.cuh), so the values are the pair path's bit for bit: BX x BY threads, RPT row tiles a block,
// evict-first (CS) or plain stores. 3 channels, float out. These rows chose the pair kernel's loop-free 32 x 4 form.
template <int BX, int BY, int RPT, bool CS> __global__ void __launch_bounds__(BX *BY) refStyleKernel(FusedParams p, resize::Mapping m) {
    const int32_t w = static_cast<int32_t>(p.dst.shape[kW]), h = static_cast<int32_t>(p.dst.shape[kH]);
    const int32_t x = blockIdx.x * BX + threadIdx.x;
    if (x >= w) return;
    const int64_t n = blockIdx.z, rowBytes = int64_t(m.x.src) * 3;
    const resize::PairTaps tx = resize::pairTaps(m.x, x + p.cropX);
    const char *image = p.src.data + n * p.src.stride[kN];
#pragma unroll
    for (int r = 0; r < RPT; ++r) {
        const int32_t y = (static_cast<int32_t>(blockIdx.y) * RPT + r) * BY + threadIdx.y;
        if (y >= h) break;
        const resize::PairTaps ty = resize::pairTaps(m.y, y + p.cropY);
        const resize::PixelPair r0 = resize::fetchPair<3>(reinterpret_cast<const uint8_t *>(image + ty.i0 * p.src.stride[kH]), rowBytes, tx.i0, tx.i1);
        const resize::PixelPair r1 = resize::fetchPair<3>(reinterpret_cast<const uint8_t *>(image + ty.i1 * p.src.stride[kH]), rowBytes, tx.i0, tx.i1);
        emitPixel3<CS>(p, r0, r1, tx, ty, n, x, y);
    }
}

template <int BX, int BY, int RPT, bool CS> void launchRefStyle(const FusedParams &q, cudaStream_t st) {
    const dim3 grid(unsigned((q.dst.shape[kW] + BX - 1) / BX), unsigned((q.dst.shape[kH] + BY * RPT - 1) / (BY * RPT)), unsigned(q.dst.shape[kN]));
    refStyleKernel<BX, BY, RPT, CS><<<grid, dim3(BX, BY), 0, st>>>(q, resize::mappingOf(q.src, q.resizeH, q.resizeW, q.interp));
    CK(cudaGetLastError());
}

// ---- Pair-kernel variants (3 channels, float out): fusedPairsKernel's arithmetic and fetch, with its shape and its
// loads varied. BX x BY threads; each thread samples PX columns (x, x + BX, ...) of RY crop rows (y, y + BY, ...), all
// their rows' words loaded before any is shifted into place; Hint picks the load instruction: 0 __ldg (main's), 1
// ld.global.nc with the L2::128B prefetch hint, 2 with L2::256B, 3 ld.global.nc.L1::no_allocate, 4 ld.global.cg (L2
// only); CS: evict-first stores (main: plain).
template <int Hint> __device__ __forceinline__ uint32_t hintWord(const uint8_t *p) {
    uint32_t v = 0;
    if constexpr (Hint == 0) return __ldg(reinterpret_cast<const unsigned *>(p));
    else if constexpr (Hint == 1) asm("ld.global.nc.L2::128B.u32 %0, [%1];" : "=r"(v) : "l"(p));
    else if constexpr (Hint == 2) asm("ld.global.nc.L2::256B.u32 %0, [%1];" : "=r"(v) : "l"(p));
    else if constexpr (Hint == 3) asm("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(p));
    else asm("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
template <int Hint> __device__ __forceinline__ resize::PairLoad hintLoad(const uint8_t *row, const resize::PairWords &w) {
    const uint8_t *q = row + w.first;
    return {hintWord<Hint>(q), w.words > 1 ? hintWord<Hint>(q + 4) : 0u, w.words > 2 ? hintWord<Hint>(q + 8) : 0u};
}

template <int BX, int BY, int PX, int RY, int Hint, bool CS, int MB>
__global__ void __launch_bounds__(BX *BY, MB) pairVarKernel(FusedParams p, resize::Mapping m) {
    constexpr int K = PX * RY;
    const int32_t w = static_cast<int32_t>(p.dst.shape[kW]), h = static_cast<int32_t>(p.dst.shape[kH]);
    const int32_t x0 = static_cast<int32_t>(blockIdx.x) * BX * PX + static_cast<int32_t>(threadIdx.x);
    const int32_t y0 = static_cast<int32_t>(blockIdx.y) * BY * RY + static_cast<int32_t>(threadIdx.y);
    const int64_t n = blockIdx.z, rowBytes = int64_t(m.x.src) * 3;
    const char *image = p.src.data + n * p.src.stride[kN];
    resize::PairTaps tx[PX], ty[RY];
    const uint8_t *row0[RY], *row1[RY];
#pragma unroll
    for (int i = 0; i < PX; ++i) tx[i] = resize::pairTaps(m.x, min(x0 + i * BX, w - 1) + p.cropX);
#pragma unroll
    for (int r = 0; r < RY; ++r) {
        ty[r] = resize::pairTaps(m.y, min(y0 + r * BY, h - 1) + p.cropY);
        row0[r] = reinterpret_cast<const uint8_t *>(image + ty[r].i0 * p.src.stride[kH]);
        row1[r] = reinterpret_cast<const uint8_t *>(image + ty[r].i1 * p.src.stride[kH]);
    }
    resize::PairWords w0[K], w1[K];
    bool fast = true;
#pragma unroll
    for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int i = 0; i < PX; ++i) {
            w0[r * PX + i] = resize::pairWordsOf<3>(row0[r], rowBytes, tx[i].i0, tx[i].i1);
            w1[r * PX + i] = resize::pairWordsOf<3>(row1[r], rowBytes, tx[i].i0, tx[i].i1);
            fast = fast && w0[r * PX + i].words > 0 && w1[r * PX + i].words > 0;
        }
    resize::PixelPair a[K], b[K];
    if (fast) {
        resize::PairLoad l0[K], l1[K];
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int i = 0; i < PX; ++i) {
                l0[r * PX + i] = hintLoad<Hint>(row0[r], w0[r * PX + i]);
                l1[r * PX + i] = hintLoad<Hint>(row1[r], w1[r * PX + i]);
            }
#pragma unroll
        for (int k = 0; k < K; ++k) a[k] = resize::shiftPair(l0[k], w0[k]), b[k] = resize::shiftPair(l1[k], w1[k]);
    } else {
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int i = 0; i < PX; ++i)
                resize::fetchPairs<3>(row0[r], row1[r], rowBytes, tx[i].i0, tx[i].i1, a[r * PX + i], b[r * PX + i]);
    }
#pragma unroll
    for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int i = 0; i < PX; ++i) {
            const int32_t x = x0 + i * BX, y = y0 + r * BY;
            if (x >= w || y >= h) continue;
            emitPixel3<CS>(p, a[r * PX + i], b[r * PX + i], tx[i], ty[r], n, x, y);
        }
}

template <int BX, int BY, int PX, int RY, int Hint, bool CS, int MB = 1> void launchPairVar(const FusedParams &q, cudaStream_t st) {
    const dim3 grid(unsigned((q.dst.shape[kW] + BX * PX - 1) / (BX * PX)), unsigned((q.dst.shape[kH] + BY * RY - 1) / (BY * RY)), unsigned(q.dst.shape[kN]));
    pairVarKernel<BX, BY, PX, RY, Hint, CS, MB><<<grid, dim3(BX, BY), 0, st>>>(q, resize::mappingOf(q.src, q.resizeH, q.resizeW, q.interp));
    CK(cudaGetLastError());
}

struct Variant {
    std::string name;
    std::function<void(const FusedParams &, cudaStream_t)> run; // empty: does not take the case
};

std::vector<Variant> variantsOf(const FusedParams &p) {
    std::vector<Variant> v;
    v.push_back({"general", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedGeneral(q, s)); }});
    v.push_back({"pairs(main)", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedPairs(q, s)); }});
    v.push_back({"launchResizeFused", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFused(q, s)); }});
    if (p.src.shape[kC] == 3 && !p.halfOut && p.interp == resize::kLinear && p.src.stride[kW] == 3) {
        // The rows that chose the pair kernel's loads (logs/probe-fused_paths-pairvariants.log, timed before
        // timeIt's rotation ran on across batches; the 2-row variants with 16 blocks an SM forced spilled and took
        // 29.7-30.8 µs there, so they are gone).
        v.push_back({"pv 32x4 __ldg", &launchPairVar<32, 4, 1, 1, 0, false>});
        v.push_back({"pv 32x4 __ldg cs", &launchPairVar<32, 4, 1, 1, 0, true>});
        v.push_back({"pv 32x4 L2:128", &launchPairVar<32, 4, 1, 1, 1, false>});
        v.push_back({"pv 32x4 L2:256", &launchPairVar<32, 4, 1, 1, 2, false>});
        v.push_back({"pv 32x4 L1:no_alloc", &launchPairVar<32, 4, 1, 1, 3, false>});
        v.push_back({"pv 32x4 L1:no_alloc cs", &launchPairVar<32, 4, 1, 1, 3, true>});
        v.push_back({"pv 32x4 cg", &launchPairVar<32, 4, 1, 1, 4, false>});
        v.push_back({"pv 32x2 L1:no_alloc", &launchPairVar<32, 2, 1, 1, 3, false>});
        v.push_back({"pv 16x16 L1:no_alloc", &launchPairVar<16, 16, 1, 1, 3, false>});
        v.push_back({"pv 32x2 ry2 L1:no_alloc", &launchPairVar<32, 2, 1, 2, 3, false>});
        v.push_back({"pv 32x4 px2 L1:no_alloc", &launchPairVar<32, 4, 2, 1, 3, false>});
        v.push_back({"ref-style 16x16 plain", &launchRefStyle<16, 16, 1, false>});
        v.push_back({"ref-style 16x16 cs", &launchRefStyle<16, 16, 1, true>});
        v.push_back({"ref-style 16x16 r2", &launchRefStyle<16, 16, 2, false>});
        v.push_back({"ref-style 32x8 plain", &launchRefStyle<32, 8, 1, false>});
        v.push_back({"ref-style 32x4 plain", &launchRefStyle<32, 4, 1, false>});
        v.push_back({"ref-style 16x8 plain", &launchRefStyle<16, 8, 1, false>});
        v.push_back({"ref-style 64x4 plain", &launchRefStyle<64, 4, 1, false>});
        v.push_back({"ref-style 32x2 plain", &launchRefStyle<32, 2, 1, false>});
        v.push_back({"ref-style 64x2 plain", &launchRefStyle<64, 2, 1, false>});
        v.push_back({"ref-style 128x1 plain", &launchRefStyle<128, 1, 1, false>});
    }
    for (int32_t i = 0; i < fusedStagedVariantCount(); ++i) {
        FusedStagedShape shape{};
        char name[64];
        if (!planFusedStaged(p, shape, i)) {
            std::snprintf(name, sizeof name, "staged%d", i);
            v.push_back({name, {}});
            continue;
        }
        std::snprintf(name, sizeof name, "staged%d(%dx%d,r%d,p%d)", i, shape.bx, shape.by, shape.rows, shape.pixels);
        v.push_back({name, [shape](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedStaged(q, shape, s)); }});
        // Residency caps (smem padding) on the depth-1 variants 1 and 2.
        if (shape.depth == 1 && (i == 1 || i == 2))
            for (int cap : {16, 12, 10, 8, 6}) {
                if (i == 1 && cap > 8) continue;
                FusedStagedShape capped = shape;
                capped.smemBytes = capSmem(shape.smemBytes, cap);
                std::snprintf(name, sizeof name, "staged%d cap%d", i, cap);
                v.push_back({name, [capped](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedStaged(q, capped, s)); }});
            }
    }
    return v;
}

} // namespace

int main() {
    const size_t setBytes = size_t(32) * 1080 * 1920 * 4 + 64 * 1024; // the largest source, plus row padding
    uint8_t *src[kSets];
    for (int i = 0; i < kSets; ++i) {
        CK(cudaMalloc(&src[i], setBytes));
        fillRandom<<<1024, 256>>>(src[i], setBytes, 1 + 76 * uint64_t(i));
    }
    CK(cudaGetLastError());
    const size_t maxDst = size_t(64) * 3 * 336 * 336 * 4; // the largest output (64 x 3 x 336 x 336 float)
    char *dstRef, *dstVar;
    CK(cudaMalloc(&dstRef, maxDst));
    CK(cudaMalloc(&dstVar, maxDst));
    const size_t maxCopy = setBytes;
    char *copyTo[2];
    for (auto &c : copyTo) CK(cudaMalloc(&c, maxCopy));
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    const Case timed[] = {
        {"imagenet_f32_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, false, true, true},
        {"imagenet_f32_nchw_plain", 32, 1080, 1920, 3, 256, 224, 16, true, false, false, true},
        {"imagenet_f32_nchw_unrounded", 32, 1080, 1920, 3, 256, 224, 16, false, false, true, true},
        {"imagenet_f16_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, true, true, true},
        {"64x720x1280x3_f32_nchw_norm", 64, 720, 1280, 3, 256, 224, 16, true, false, true, true},
        {"32x480x640x3_f32_nchw_norm", 32, 480, 640, 3, 256, 224, 16, true, false, true, true},
        {"16x1080x1920x4_f32_nchw_norm", 16, 1080, 1920, 4, 256, 224, 16, true, false, true, true},
        {"32x1080x1920x3_384_crop336", 32, 1080, 1920, 3, 384, 336, 24, true, false, true, true}, // 5 columns a resized column
        {"32x1080x1920x3_320_crop288", 32, 1080, 1920, 3, 320, 288, 16, true, false, true, true}, // 6
        {"16x1440x2560x3_256_crop224", 16, 1440, 2560, 3, 256, 224, 16, true, false, true, true}, // 10
        {"32x1080x1920x3_448_crop384", 32, 1080, 1920, 3, 448, 384, 32, true, false, true, true}, // 4.3
        {"32x1080x1920x3_512_crop448", 32, 1080, 1920, 3, 512, 448, 32, true, false, true, true}, // 3.75
        {"64x720x1280x3_384_crop336", 64, 720, 1280, 3, 384, 336, 24, true, false, true, true},   // 3.3
    };
    // Untimed shapes for the checks: crops not a multiple of the rows or pixels per block, NHWC output (scalar
    // stores), 1 and 2 channels, padded rows, a crop reaching the right border (no staged variant takes it).
    Case odd[] = {
        {"odd_crop_221x223_at_17x15", 3, 1080, 1920, 3, 256, 0, 15, true, false, true, true, 223, 221, 17},
        {"odd_nhwc_out", 3, 1080, 1920, 3, 256, 224, 16, true, false, true, false},
        {"odd_1ch_101x160_pad16", 5, 101, 160, 1, 70, 0, 5, false, false, true, true, 41, 50, 3, 16},
        {"odd_2ch_97x200_f16", 4, 97, 200, 2, 64, 0, 2, true, true, true, true, 37, 61, 9, 0},
        {"odd_4ch_enlarge_40x56", 2, 40, 56, 4, 100, 0, 1, true, false, false, true, 90, 97, 4, 0},
        {"odd_3ch_right_border", 2, 300, 480, 3, 128, 0, 0, true, false, true, true, 128, 128, 0, 0},
    };

    bool failed = false;
    std::printf("%-30s %-24s %9s %8s %10s\n", "case", "variant", "us", "x_copy", "mismatches");
    for (const Case &c : timed) {
        const int64_t elem = c.halfOut ? 2 : 4;
        const size_t dstBytes = size_t(c.n * c.c * c.crop * c.crop * elem);
        FusedParams ps[kSets];
        for (int i = 0; i < kSets; ++i) ps[i] = paramsOf(c, src[i], dstVar);
        // The source rows the crop's taps read: two per crop row, whole (an upper bound where rows are shared).
        const size_t readBytes = size_t(c.n * 2 * c.crop * c.w * c.c), copyBytes = std::min(maxCopy, (readBytes + dstBytes) / 2);
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyTo[i & 1], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
        std::printf("%-30s %-24s %9.1f %8.2f %10s\n", c.name, "copy", tCopy, 1.0, "-");
        for (const Variant &v : variantsOf(ps[0])) {
            if (std::getenv("FUSED_PROBE_NCU")) {
                if (v.name.rfind("staged2(", 0) == 0 || v.name == "pairs(main)" || v.name == "ref-style 16x16 plain") v.run(ps[0], st);
                continue;
            }
            if (!v.run) {
                std::printf("%-30s %-24s %9s %8s %10s\n", c.name, v.name.c_str(), "n/a", "-", "-");
                continue;
            }
            const float t = timeIt([&](int i) { v.run(ps[i % kSets], st); }, st);
            const int64_t bad = differsFromPairs(v.run, ps[0], dstRef, dstVar, st);
            failed |= bad != 0;
            std::printf("%-30s %-24s %9.1f %8.2f %10lld\n", c.name, v.name.c_str(), t, t / tCopy, (long long)bad);
        }
        FusedStagedShape s2{};
        if (c.c == 3 && !c.halfOut && c.nchw && planFusedStaged(ps[0], s2, 2) && s2.rows == 1) {
            struct Floor {
                const char *name;
                void (*run)(const FusedParams &, const FusedStagedShape &, int32_t, cudaStream_t);
                int cap;
            };
            const Floor floors[] = {
                {"floor cp.async", &launchFloor<0, 1>, 0},          {"floor cp.async L2:256", &launchFloor<1, 1>, 0},
                {"floor bulk", &launchFloor<2, 1>, 0},              {"floor cp.async cap10", &launchFloor<0, 1>, 10},
                {"floor bulk cap10", &launchFloor<2, 1>, 10},       {"floor bulk cap6", &launchFloor<2, 1>, 6},
                {"floor cp.async no store", &launchFloor<0, 0>, 0}, {"floor L2:256 no store", &launchFloor<1, 0>, 0},
                {"floor bulk no store", &launchFloor<2, 0>, 0},
                {"floor bulk 2-row span", &launchFloor<3, 1>, 0},   {"floor cp.async whole rows", &launchFloor<4, 1>, 0},
                {"floor 2-row span no store", &launchFloor<3, 0>, 0}, {"floor whole rows no store", &launchFloor<4, 0>, 0},
                {"floor cp.async plain st", &launchFloor<0, 2>, 0},    {"floor bulk plain st", &launchFloor<2, 2>, 0},
                {"floor 2-row span plain st", &launchFloor<3, 2>, 0},
            };
            for (const Floor &f : floors) {
                const int32_t whole = static_cast<int32_t>(2 * ps[0].src.stride[kH]);
                const int32_t need = (f.run == &launchFloor<3, 1> || f.run == &launchFloor<4, 1> || f.run == &launchFloor<3, 0> ||
                                      f.run == &launchFloor<4, 0> || f.run == &launchFloor<3, 2>)
                                         ? whole
                                         : s2.smemBytes;
                const int32_t smem = f.cap ? capSmem(need, f.cap) : need;
                if (std::getenv("FUSED_PROBE_NCU")) { // one launch each, for Nsight Compute
                    f.run(ps[0], s2, smem, st);
                    continue;
                }
                const float t = timeIt([&](int i) { f.run(ps[i % kSets], s2, smem, st); }, st);
                std::printf("%-30s %-24s %9.1f %8.2f %10s\n", c.name, f.name, t, t / tCopy, "-");
            }
        }
        if (std::getenv("FUSED_PROBE_NCU")) {
            CK(cudaStreamSynchronize(st));
            return 0;
        }
    }
    for (const Case &c : odd) {
        const FusedParams p = paramsOf(c, src[0], dstVar);
        for (const Variant &v : variantsOf(p)) {
            if (!v.run) {
                std::printf("%-30s %-24s %9s %8s %10s\n", c.name, v.name.c_str(), "n/a", "-", "-");
                continue;
            }
            const int64_t bad = differsFromPairs(v.run, p, dstRef, dstVar, st);
            failed |= bad != 0;
            std::printf("%-30s %-24s %9s %8s %10lld\n", c.name, v.name.c_str(), "-", "-", (long long)bad);
        }
    }
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("FAILED: some variant's output differs from the pair path's\n");
    return failed ? 1 : 0;
}
