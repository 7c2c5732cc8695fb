// Microbenchmark of cvResize's uint8 CUBIC on packed pixels: the warp-streamed kernel (resize_cubic_warp.cuh) in
// variants of pixels a lane (P), threads a block, items in flight (D) and blocks an SM, against launchResize as
// built (the block kernel of resize_cubic.cu) and a copy of the bytes read once and written once. GPU time per call
// (probe_timing.cuh), 4 buffer sets rotated past L2. mismatches: bytes differing from launchResize's output on
// random data (outputs poisoned differently first), on the timed shapes and on untimed odd ones; any mismatch:
// exit 1. Only sources the aligned variants take (16-byte aligned rows of whole chunks) are run.
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_cubic_warp.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

namespace {

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c) { return View4{static_cast<char *>(d), {n, h, w, c}, {h * w * c, w * c, c, 1}}; }
ResizeParams params(View4 s, View4 d) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = kCubic, p.torchMode = -1;
    return p;
}

using KernelFn = void (*)(ResizeParams, Mapping, CubicShape);

struct Variant {
    const char *name;
    int pixels, ahead, threads, minBlocks;
    KernelFn k1, k3, k4;
};

#define CW(P, D, T, MB) &cubicWarpKernel<1, P, D, T, MB>, &cubicWarpKernel<3, P, D, T, MB>, &cubicWarpKernel<4, P, D, T, MB>
const Variant kVariants[] = {
    {"warp P5 D4 128t mb4", 5, 4, 128, 4, CW(5, 4, 128, 4)}, {"warp P5 D6 128t mb4", 5, 6, 128, 4, CW(5, 6, 128, 4)},
    {"warp P5 D8 128t mb4", 5, 8, 128, 4, CW(5, 8, 128, 4)}, {"warp P4 D6 160t mb4", 4, 6, 160, 4, CW(4, 6, 160, 4)},
    {"warp P4 D6 128t mb5", 4, 6, 128, 5, CW(4, 6, 128, 5)}, {"warp P2 D6 320t mb3", 2, 6, 320, 3, CW(2, 6, 320, 3)},
    {"warp P3 D6 224t mb3", 3, 6, 224, 3, CW(3, 6, 224, 3)}, {"warp P5 D6 256t mb2", 5, 6, 256, 2, CW(5, 6, 256, 2)},
};
#undef CW

struct Plan {
    ResizeCubicShape s;
    int smem;
};

// planResizeCubic's strips for the variant's columns a block (threads / 32 warps of 32 P), the widest warp strip's
// slot, bands for one wave of minBlocks blocks an SM.
bool planWarp(const ResizeParams &p, const Variant &v, Plan &out) {
    ResizeCubicShape s{};
    if (!planResizeCubic(p, s, 4, v.threads * v.pixels)) return false;
    if (s.variant != 4) return false; // not an aligned source
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int32_t C = int32_t(p.src.shape[kC]), cols = 32 * v.pixels;
    s.threads = v.threads;
    int32_t pitch = 0;
    for (int32_t strip = 0; strip < s.strips; ++strip) {
        int32_t x0, w;
        cubicStripOf(s, m.x.dst, strip, x0, w);
        for (int32_t xw = x0; xw < x0 + w; xw += cols) pitch = std::max(pitch, cubicSlotPitch(cubicStrip(m, C, xw, std::min(cols, x0 + w - xw)), C));
    }
    s.slotPitch = pitch;
    const int64_t rows = p.dst.shape[kN] * m.y.dst;
    const int64_t perStrip = std::max<int64_t>(1, 132 * v.minBlocks / s.strips);
    setResizeCubicBands(s, rows, perStrip);
    out.s = s;
    out.smem = cubicWarpSmemBytes(v.threads / 32, v.ahead, pitch);
    return out.smem <= 227 * 1024 && (s.stripW + cols - 1) / cols <= v.threads / 32;
}

void launchWarp(const ResizeParams &p, const Variant &v, const Plan &pl, cudaStream_t st) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int64_t c = p.src.shape[kC];
    const KernelFn k = c == 1 ? v.k1 : c == 3 ? v.k3 : v.k4;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    const int64_t perStrip = std::max<int64_t>(1, 132 * v.minBlocks / pl.s.strips);
    const int64_t gridY = std::min<int64_t>(std::min<int64_t>(pl.s.bands, perStrip), 65535);
    k<<<dim3(unsigned(pl.s.strips), unsigned(gridY)), unsigned(v.threads), pl.smem, st>>>(p, m, pl.s);
    CK(cudaGetLastError());
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
    struct Case {
        const char *name;
        int64_t n, h, w, c, oh, ow;
        bool timed;
    };
    const Case cases[] = {{"32x1080x1920x3 -> 720x1280 (bench)", 32, 1080, 1920, 3, 720, 1280, true},
                          {"32x1080x1920x1 -> 720x1280", 32, 1080, 1920, 1, 720, 1280, true},
                          {"32x1080x1920x4 -> 720x1280", 32, 1080, 1920, 4, 720, 1280, true},
                          {"32x1080x1920x3 -> 540x960 (2x down)", 32, 1080, 1920, 3, 540, 960, true},
                          {"16x540x960x3 -> 1080x1920 (2x up)", 16, 540, 960, 3, 1080, 1920, true},
                          {"3x1080x1920x3 -> 301x777", 3, 1080, 1920, 3, 301, 777, false},
                          {"2x64x64x3 -> 90x100", 2, 64, 64, 3, 90, 100, false},
                          {"5x240x320x4 -> 61x83", 5, 240, 320, 4, 61, 83, false},
                          {"2x160x336x1 -> 640x1000", 2, 160, 336, 1, 640, 1000, false}};
    size_t maxSrc = 0, maxDst = 0;
    for (const Case &c : cases) {
        maxSrc = std::max(maxSrc, size_t(c.n * c.h * c.w * c.c));
        maxDst = std::max(maxDst, size_t(c.n * c.oh * c.ow * c.c));
    }
    uint8_t *src[kSets], *dst[kSets], *ref, *out, *copyDst[2];
    for (int i = 0; i < kSets; ++i) {
        CK(cudaMalloc(&src[i], maxSrc));
        CK(cudaMalloc(&dst[i], maxDst));
        fillRandom<<<1024, 256>>>(src[i], maxSrc, 1 + 1000 * uint64_t(i));
    }
    CK(cudaMalloc(&ref, maxDst));
    CK(cudaMalloc(&out, maxDst));
    for (auto &c : copyDst) CK(cudaMalloc(&c, (maxSrc + maxDst) / 2 + 16));
    CK(cudaDeviceSynchronize());
    std::printf("%-38s %-22s %9s %8s %10s  %s\n", "case", "variant", "us", "x_copy", "mismatches", "geometry");
    for (const Case &c : cases) {
        const size_t srcBytes = size_t(c.n * c.h * c.w * c.c), dstBytes = size_t(c.n * c.oh * c.ow * c.c);
        auto paramsOf = [&](int i, uint8_t *to) { return params(nhwc(src[i % kSets], c.n, c.h, c.w, c.c), nhwc(to, c.n, c.oh, c.ow, c.c)); };
        CK(cudaMemsetAsync(ref, 0x11, dstBytes, st));
        CK(launchResize(paramsOf(0, ref), st));
        CK(cudaStreamSynchronize(st));
        std::vector<uint8_t> want(dstBytes), got(dstBytes);
        CK(cudaMemcpy(want.data(), ref, dstBytes, cudaMemcpyDeviceToHost));
        float tCopy = 0;
        if (c.timed) {
            const size_t copyBytes = (srcBytes + dstBytes) / 2;
            tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst[i & 1], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
            const float tMain = timeIt([&](int i) { CK(launchResize(paramsOf(i, dst[i % kSets]), st)); }, st);
            std::printf("%-38s %-22s %9.1f %8.2f %10s\n", c.name, "launchResize (main)", tMain, tMain / tCopy, "-");
        }
        for (const Variant &v : kVariants) {
            Plan pl{};
            if (!planWarp(paramsOf(0, out), v, pl)) {
                std::printf("%-38s %-22s declined\n", c.name, v.name);
                continue;
            }
            float t = 0;
            if (c.timed) t = timeIt([&](int i) { launchWarp(paramsOf(i, dst[i % kSets]), v, pl, st); }, st);
            CK(cudaMemsetAsync(out, 0x22, dstBytes, st));
            launchWarp(paramsOf(0, out), v, pl, st);
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), out, dstBytes, cudaMemcpyDeviceToHost));
            const int64_t bad = compare(want, got);
            failed |= bad != 0;
            std::printf("%-38s %-22s %9.1f %8.2f %10lld  %d strips of %d, %lld bands of %lld rows, %d B smem\n", c.name, v.name, t,
                        c.timed ? t / tCopy : 0.0, (long long)bad, pl.s.strips, pl.s.stripW, (long long)pl.s.bands, (long long)pl.s.bandRows,
                        pl.smem);
        }
        if (c.timed) std::printf("%-38s %-22s %9.1f %8.2f %10s\n", c.name, "copy (src+dst)/2", tCopy, 1.0, "-");
    }
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("MISMATCH: a variant's bytes differ from launchResize's\n");
    return failed ? 1 : 0;
}
