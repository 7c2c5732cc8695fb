// Microbenchmark of cvResize's uint8 AREA on packed pixels: the warp-streamed kernel (resize_area_warp.cuh) in
// variants of rows in flight (A), blocks an SM it is built for and columns a lane (P), against
// the block kernel of resize_area.cuh, launchResize as built and a copy of the bytes read once and written once.
// GPU time per batch of 32 x 1080x1920 (CUDA events, median of 9 batches of 5 calls, 4 buffer sets rotated past
// L2). mismatches: bytes differing from the block kernel's output on random data (outputs poisoned differently first),
// on the timed shapes and on untimed odd ones (unaligned rows and bases, narrow and one-pixel outputs); any mismatch
// or a shape the kernel's plan declines where launchResize's AREA row path takes it: exit 1. AREA_PROBE_UNTIMED=1
// runs the odd shapes only (for compute-sanitizer), AREA_PROBE_NCU=1 the benchmark shape only (for Nsight Compute).
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_area_ring.cuh"
#include "resize_area_warp.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

namespace {

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c, int64_t rowPitch = 0) {
    const int64_t rp = rowPitch > 0 ? rowPitch : w * c;
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * rp, rp, c, 1}};
}
ResizeParams params(View4 s, View4 d) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = kArea, p.torchMode = -1;
    return p;
}

struct Variant {
    const char *name;
    int kind; // 1: areaWarpKernel with the proxy fence before each bulk copy, 2: without the fence, 3: areaRingKernel
    int ahead, minBlocks, perLane;
    double waves;
};

struct Plan {
    ResizeAreaShape s;
    int smem;
};

// The block kernel's plan with the warp kernels' geometry: warps of 32 * perLane columns, up to 8 a block, bands
// for `waves` waves of minBlocks blocks an SM.
// The ring kernel (kind 3): the block kernel's strips, warps and columns.
bool planWarp(const ResizeParams &p, const Variant &v, Plan &out) {
    ResizeAreaShape s{};
    if (!planResizeArea(p, s)) return false;
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int32_t C = int32_t(p.src.shape[kC]), K = kAreaTaps[s.taps], dstW = m.x.dst, cols = 32 * v.perLane;
    if (v.kind != 3) {
        s.warps = std::min(8, (dstW + cols - 1) / cols);
        s.strips = (dstW + cols * s.warps - 1) / (cols * s.warps);
        s.slotPitch = areaMaxPitch(m, C, K, cols);
    }
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    int64_t bands = std::max<int64_t>(1, int64_t(132 * v.minBlocks * v.waves) / s.strips);
    bands = std::min(bands, rows);
    s.bandRows = (rows + bands - 1) / bands;
    while (areaMaxStream(m.y, s.bandRows) > 1024 && s.bandRows > 1) s.bandRows = (s.bandRows + 1) / 2;
    s.bands = (rows + s.bandRows - 1) / s.bandRows;
    if (s.bands > 65535) return false;
    s.streamRows = int32_t(areaMaxStream(m.y, s.bandRows));
    out.s = s;
    out.smem = v.kind == 3 ? areaRingSmemBytes(v.ahead, s.slotPitch, s.streamRows) : areaWarpSmemBytes(s.warps, v.ahead, s.slotPitch, s.streamRows);
    return out.smem <= 227 * 1024;
}

using KernelFn = void (*)(ResizeParams, Mapping, AreaShape);

template <int A, int MB, int P, bool F, int CT> KernelFn kernelCT(int taps) {
    return taps == 3 ? &areaWarpKernel<CT, 3, A, MB, P, F> : taps == 4 ? &areaWarpKernel<CT, 4, A, MB, P, F> : taps == 6 ? &areaWarpKernel<CT, 6, A, MB, P, F>
         : taps == 10 ? &areaWarpKernel<CT, 10, A, MB, P, F> : &areaWarpKernel<CT, 16, A, MB, P, F>;
}
template <int A, int MB, int CT> KernelFn ringCT(int taps) {
    return taps == 3 ? &areaRingKernel<CT, 3, A, MB> : taps == 4 ? &areaRingKernel<CT, 4, A, MB> : taps == 6 ? &areaRingKernel<CT, 6, A, MB>
         : taps == 10 ? &areaRingKernel<CT, 10, A, MB> : &areaRingKernel<CT, 16, A, MB>;
}
template <int Kind, int A, int MB, int P> KernelFn kernelOf(int64_t c, int taps) {
    if constexpr (Kind == 3)
        return c == 1 ? ringCT<A, MB, 1>(taps) : c == 3 ? ringCT<A, MB, 3>(taps) : ringCT<A, MB, 4>(taps);
    else
        return c == 1 ? kernelCT<A, MB, P, Kind == 1, 1>(taps) : c == 3 ? kernelCT<A, MB, P, Kind == 1, 3>(taps) : kernelCT<A, MB, P, Kind == 1, 4>(taps);
}

// kind 1: the warp kernel with the proxy fence before each bulk copy, 2: without, 3: the ring kernel (perLane 1,
// unused: the block's columns)
#define AREA_VARIANTS(X)                                                                                          \
    X(1, 6, 4, 1, 1.0, "warp A=6 mb4 P1")                                                                         \
    X(1, 6, 3, 2, 1.0, "warp A=6 mb3 P2")                                                                         \
    X(3, 6, 4, 1, 1.0, "ring A=6 mb4")                                                                            \
    X(3, 4, 4, 1, 1.0, "ring A=4 mb4")                                                                            \
    X(3, 8, 4, 1, 1.0, "ring A=8 mb4")                                                                            \
    X(3, 6, 3, 1, 1.0, "ring A=6 mb3")                                                                            \
    X(3, 6, 4, 1, 2.0, "ring A=6 mb4 2 waves")

const Variant kVariants[] = {
#define X(kd, a, mb, pl, waves, name) {name, kd, a, mb, pl, waves},
    AREA_VARIANTS(X)
#undef X
};

KernelFn kernelFor(const Variant &v, int64_t c, int taps) {
#define X(kd, a, mb, pl, wv, nm)                                                                                  \
    if (v.kind == kd && v.ahead == a && v.minBlocks == mb && v.perLane == pl) return kernelOf<kd, a, mb, pl>(c, taps);
    AREA_VARIANTS(X)
#undef X
    return nullptr;
}

void launchWarp(const ResizeParams &p, const Variant &v, const Plan &pl, cudaStream_t st) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const KernelFn k = kernelFor(v, p.src.shape[kC], kAreaTaps[pl.s.taps]);
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    k<<<dim3(unsigned(pl.s.strips), unsigned(pl.s.bands)), unsigned(32 * pl.s.warps), pl.smem, st>>>(p, m, pl.s);
    CK(cudaGetLastError());
}

// The block kernel of resize_area.cuh where planResizeArea takes p (the reference bytes), else launchResize.
cudaError_t launchBlock(const ResizeParams &p, cudaStream_t st) {
    ResizeAreaShape s{};
    return planResizeArea(p, s) ? launchResizeArea(p, s, st) : launchResize(p, st);
}

int64_t compare(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    int64_t bad = 0;
    for (size_t i = 0; i < a.size(); ++i) bad += a[i] != b[i];
    return bad;
}

} // namespace

int main() {
    constexpr int kSets = 4;
    bool failed = false;
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    // ---- untimed odd shapes: every variant against launchResize, bytes
    struct Odd {
        const char *name;
        int64_t n, h, w, c, oh, ow, rowPitch, baseOffset;
    };
    const Odd odd[] = {{"3x1079x1917x3 -> 223x211, pitch 5753, +1", 3, 1079, 1917, 3, 223, 211, 5753, 1},
                       {"2x1080x1920x3 -> 270x480 (x4 box)", 2, 1080, 1920, 3, 270, 480, 0, 0},
                       {"2x1080x1920x1 -> 224x224", 2, 1080, 1920, 1, 224, 224, 0, 0},
                       {"2x1080x1920x4 -> 224x224, +4", 2, 1080, 1920, 4, 224, 224, 0, 4},
                       {"3x64x70x3 -> 7x5", 3, 64, 70, 3, 7, 5, 0, 0},
                       {"2x1080x1920x3 -> 1x1", 2, 1080, 1920, 3, 1, 1, 0, 0},
                       {"5x333x517x3 -> 41x97, +3", 5, 333, 517, 3, 41, 97, 0, 3},
                       {"1x1080x1920x3 -> 720x1280 (x1.5)", 1, 1080, 1920, 3, 720, 1280, 0, 0}};
    // AREA_PROBE_NCU=1: the timed benchmark shape only (for Nsight Compute)
    const bool ncuOnly = std::getenv("AREA_PROBE_NCU") != nullptr;
    for (const Odd &c : odd) {
        if (ncuOnly) break;
        const int64_t rp = c.rowPitch > 0 ? c.rowPitch : c.w * c.c;
        const size_t srcBytes = size_t(c.n * c.h * rp) + 64, dstBytes = size_t(c.n * c.oh * c.ow * c.c);
        uint8_t *src, *a, *b;
        CK(cudaMalloc(&src, srcBytes));
        CK(cudaMalloc(&a, dstBytes));
        CK(cudaMalloc(&b, dstBytes));
        fillRandom<<<256, 256>>>(src, srcBytes, 77);
        const View4 sv = nhwc(src + c.baseOffset, c.n, c.h, c.w, c.c, c.rowPitch);
        const ResizeParams pa = params(sv, nhwc(a, c.n, c.oh, c.ow, c.c)), pb = params(sv, nhwc(b, c.n, c.oh, c.ow, c.c));
        CK(cudaMemsetAsync(a, 0x11, dstBytes, st));
        CK(launchBlock(pa, st));
        std::vector<uint8_t> want(dstBytes), got(dstBytes);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(want.data(), a, dstBytes, cudaMemcpyDeviceToHost));
        ResizeAreaShape any{};
        const bool rowPath = planResizeArea(pa, any);
        for (const Variant &v : kVariants) {
            Plan pl{};
            if (!planWarp(pb, v, pl)) {
                std::printf("%-44s %-22s declined (the block kernel %s it)\n", c.name, v.name, rowPath ? "takes" : "declines too:");
                failed |= rowPath;
                continue;
            }
            CK(cudaMemsetAsync(b, 0x22, dstBytes, st));
            launchWarp(pb, v, pl, st);
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), b, dstBytes, cudaMemcpyDeviceToHost));
            const int64_t bad = compare(want, got);
            failed |= bad != 0;
            std::printf("%-44s %-22s mismatches %lld\n", c.name, v.name, (long long)bad);
        }
        CK(cudaFree(src));
        CK(cudaFree(a));
        CK(cudaFree(b));
    }

    // AREA_PROBE_UNTIMED=1: the odd shapes only (for compute-sanitizer)
    if (std::getenv("AREA_PROBE_UNTIMED") != nullptr) {
        CK(cudaStreamDestroy(st));
        if (failed) std::printf("MISMATCH on an untimed shape\n");
        return failed ? 1 : 0;
    }

    // ---- timed
    const int64_t N = 32, H = 1080, W = 1920;
    struct Case {
        const char *name;
        int64_t c, oh, ow;
    };
    const Case cases[] = {{"c3_224x224 (bench)", 3, 224, 224}, {"c3_270x480 (x4 box)", 3, 270, 480}, {"c1_224x224", 1, 224, 224},
                          {"c4_224x224", 4, 224, 224},          {"c3_720x1280 (x1.5)", 3, 720, 1280}};
    size_t maxSrc = size_t(N * H * W * 4), maxDst = size_t(N * 720 * 1280 * 3);
    ResizeProbeBuffers<kSets> buffers(maxSrc, maxDst);
    uint8_t *const *src = buffers.src, *const *dst = buffers.dst, *ref = buffers.ref, *out = buffers.out, *const *copyDst = buffers.copyDst;
    std::printf("%-20s %-24s %9s %8s %10s  %s\n", "case", "variant", "us", "x_copy", "mismatches", "geometry");
    for (const Case &c : cases) {
        if (ncuOnly && &c != cases) break;
        const size_t srcBytes = size_t(N * H * W * c.c), dstBytes = size_t(N * c.oh * c.ow * c.c);
        auto paramsOf = [&](int i, uint8_t *to) { return params(nhwc(src[i % kSets], N, H, W, c.c), nhwc(to, N, c.oh, c.ow, c.c)); };
        const size_t copyBytes = (srcBytes + dstBytes) / 2;
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst[i & 1], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
        CK(cudaMemsetAsync(ref, 0x11, dstBytes, st));
        CK(launchBlock(paramsOf(0, ref), st));
        CK(cudaStreamSynchronize(st));
        std::vector<uint8_t> want(dstBytes), got(dstBytes);
        CK(cudaMemcpy(want.data(), ref, dstBytes, cudaMemcpyDeviceToHost));
        const float tBlock = timeIt([&](int i) { CK(launchBlock(paramsOf(i, dst[i % kSets]), st)); }, st);
        std::printf("%-20s %-24s %9.1f %8.2f %10s\n", c.name, "block kernel", tBlock, tBlock / tCopy, "-");
        const float tMain = timeIt([&](int i) { CK(launchResize(paramsOf(i, dst[i % kSets]), st)); }, st);
        CK(cudaMemsetAsync(out, 0x22, dstBytes, st));
        CK(launchResize(paramsOf(0, out), st));
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(got.data(), out, dstBytes, cudaMemcpyDeviceToHost));
        const int64_t badMain = compare(want, got);
        failed |= badMain != 0;
        std::printf("%-20s %-24s %9.1f %8.2f %10lld\n", c.name, "launchResize (as built)", tMain, tMain / tCopy, (long long)badMain);
        for (const Variant &v : kVariants) {
            Plan pl{};
            if (!planWarp(paramsOf(0, out), v, pl)) {
                std::printf("%-20s %-24s declined\n", c.name, v.name);
                continue;
            }
            const float t = timeIt([&](int i) { launchWarp(paramsOf(i, dst[i % kSets]), v, pl, st); }, st);
            CK(cudaMemsetAsync(out, 0x22, dstBytes, st));
            launchWarp(paramsOf(0, out), v, pl, st);
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), out, dstBytes, cudaMemcpyDeviceToHost));
            const int64_t bad = compare(want, got);
            failed |= bad != 0;
            std::printf("%-20s %-24s %9.1f %8.2f %10lld  K=%d, %d warps x %d strips, %lld bands of %lld rows, %d B smem\n", c.name, v.name, t,
                        t / tCopy, (long long)bad, kAreaTaps[pl.s.taps], pl.s.warps, pl.s.strips, (long long)pl.s.bands,
                        (long long)pl.s.bandRows, pl.smem);
        }
        std::printf("%-20s %-24s %9.1f %8.2f %10s  %.1f MB\n", c.name, "copy (src+dst)/2", tCopy, 1.0, "-", copyBytes / 1e6);
    }
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("MISMATCH: a variant's bytes differ from launchResize's (or the plan declined a shape the row path takes)\n");
    return failed ? 1 : 0;
}
