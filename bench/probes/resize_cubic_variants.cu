// Microbenchmark of cvResize's uint8 CUBIC on packed pixels: the path main takes today (the row paths of
// resize_rows.cu, planResizeRows + launchResizeRows; for shapes they do not take, the per-pixel sampler, as
// resize.cu's resizeKernel), launchResize as this build dispatches it, and the separable path (resize_cubic.cu) in
// its kernel variants (main's variant 2 in strips of 640 among them), strip widths and band heights; copy: a D2D cudaMemcpyAsync of (source + output bytes) / 2, reading the source
// once and writing the output once. GPU time per call (probe_timing.cuh), 4 source and output buffer sets rotated
// so that L2 (60 MiB) does not hold the source. Every variant's output is compared byte for byte with the current
// path's on random data (outputs poisoned differently first); `cpu`: bytes of image 0 (every 7th row) where the
// current path differs from samplePixel run on the host. Exits 1 on any mismatch. The timed cases are the
// benchmark's (32x1080x1920x3 -> 720x1280), 1 and 4 channels, 2x down and 2x up; the untimed ones odd sizes, padded
// rows and an unaligned source. CUBIC_PROBE_NCU=1 launches each variant once on the benchmark case, for Nsight Compute;
// CUBIC_PROBE_UNTIMED=1 runs the untimed shapes only (for compute-sanitizer).
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_filters.cuh"
#include "resize_launch.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

__global__ void __launch_bounds__(kBlockX *kBlockY) samplerKernel(ResizeParams p, Mapping m) {
    const int32_t C = static_cast<int32_t>(p.src.shape[kC]);
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t dx, int32_t dy) {
        char *out = p.dst.data + n * p.dst.stride[kN] + dy * p.dst.stride[kH] + dx * p.dst.stride[kW];
        samplePixel<uint8_t, kCubic>(m, planeOf(p.src, n), dx, dy, C, [&](int32_t c, uint8_t v, float) { out[c * p.dst.stride[kC]] = char(v); });
    });
}

// The path main takes for uint8 CUBIC (resize.cu before the separable path: the band path takes no CUBIC).
cudaError_t launchCurrent(const ResizeParams &p, cudaStream_t st) {
    ResizeRowShape rs;
    if (planResizeRows(p, rs)) return launchResizeRows(p, rs, st);
    ResizeTileShape ts;
    if (planResizeTile(p, ts)) return launchResizeTiled(p, ts, st);
    samplerKernel<<<gridFor(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN]), dim3(kBlockX, kBlockY), 0, st>>>(
        p, mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], kCubic));
    return cudaGetLastError();
}

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c, int64_t rowPad) {
    const int64_t row = w * c + rowPad;
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * row, row, c, 1}};
}

struct Case {
    const char *name;
    int64_t n, h, w, c, oh, ow;
    int64_t srcPad, dstPad, srcShift; // bytes after each row; bytes the source starts past a 256-byte aligned address
    bool timed;
};

struct Variant {
    const char *name;
    int kind; // 0 current, 1 launchResize, 2 separable
    int variant, maxStripW;
    int64_t bandRows; // 0: launchResizeCubic's (one band per resident block)
};

int main() {
    const Case cases[] = {
        {"bench 32x1080x1920x3->720x1280", 32, 1080, 1920, 3, 720, 1280, 0, 0, 0, true},
        {"32x1080x1920x1->720x1280", 32, 1080, 1920, 1, 720, 1280, 0, 0, 0, true},
        {"16x1080x1920x4->720x1280", 16, 1080, 1920, 4, 720, 1280, 0, 0, 0, true},
        {"2x down 32x1080x1920x3->540x960", 32, 1080, 1920, 3, 540, 960, 0, 0, 0, true},
        {"2x up 32x540x960x3->1080x1920", 32, 540, 960, 3, 1080, 1920, 0, 0, 0, true},
        {"odd 3x333x517x3->211x290 pad 1/3", 3, 333, 517, 3, 211, 290, 1, 3, 0, false},
        {"odd 2x101x77x4->160x201 up, src +4", 2, 101, 77, 4, 160, 201, 0, 1, 4, false},
        {"odd 2x64x130x1->32x65 2x, pad 2/1", 2, 64, 130, 1, 32, 65, 2, 1, 8, false},
        {"odd 2x97x41x3->250x31 3.9x up/1.3x, src +1", 2, 97, 41, 3, 250, 31, 1, 0, 1, false},
        {"4x down 2x400x800x3->100x200", 2, 400, 800, 3, 100, 200, 0, 0, 0, false},
        {"1x1 -> 7x5 3ch pad 1", 2, 1, 1, 3, 7, 5, 1, 0, 0, false},
        {"aligned rows 3x67x80x3->45x53", 3, 67, 80, 3, 45, 53, 0, 0, 0, false},
        {"aligned rows 2x33x16x4->70x37 up, dst pad 1", 2, 33, 16, 4, 70, 37, 0, 1, 0, false},
        {"aligned rows 2x50x48x1->13x40, src pad 16", 2, 50, 48, 1, 13, 40, 16, 0, 0, false},
    };
    // Variants 4 on are the aligned ones (cubicIssueAligned, pairDot; "xB": built for B blocks per SM), 16 on staged by
    // bulk copies (sm_90 on); a shape they do not take runs variant 2 (the geometry column says which ran).
    const Variant variants[] = {
        {"current (rows path)", 0, 0, 0, 0},
        {"launchResize (this build)", 1, 0, 0, 0},
        {"main: V2 P4 T320 strips<=640", 2, 2, 640, 0},
        {"V0 P2 T320", 2, 0, 0, 0},
        {"V3 P4 T256 ahead 8", 2, 3, 0, 0},
        {"A4 P2 T320 x3 strips<=640", 2, 4, 640, 0},
        {"A4 P2 T320 x3 strips<=427", 2, 4, 427, 0},
        {"A4 P2 T320 x3 640 bands 16", 2, 4, 640, 16},
        {"A4 P2 T320 x3 640 bands 32", 2, 4, 640, 32},
        {"A4 P2 T320 x3 640 bands 64", 2, 4, 640, 64},
        {"A5 P2 T320 x3 ahead 6 <=640", 2, 5, 640, 0},
        {"A6 P4 T160 x4 strips<=640", 2, 6, 640, 0},
        {"A7 P4 T256 x2 strips<=640", 2, 7, 640, 0},
        {"A7 P4 T256 x2 strips<=1024", 2, 7, 1024, 0},
        {"A8 P1 T512 x2 strips<=512", 2, 8, 512, 0},
        {"A8 P1 T512 x2 512 bands 32", 2, 8, 512, 32},
        {"A9 P2 T256 x4 strips<=512", 2, 9, 512, 0},
        {"A9 P2 T256 x4 strips<=320", 2, 9, 320, 0},
        {"A6 P4 T160 x4 640 bands 32", 2, 6, 640, 32},
        {"A6 P4 T160 x4 strips<=427", 2, 6, 427, 0},
        {"A10 P3 T224 x3 strips<=640", 2, 10, 640, 0},
        {"A10 P3 T224 x3 640 bands 32", 2, 10, 640, 32},
        {"A11 P4 T160 x4 ahead 6 <=640", 2, 11, 640, 0},
        {"A12 P4 T160 x5 strips<=640", 2, 12, 640, 0},
        {"A13 P4 T160 x4 ahead 8 <=640", 2, 13, 640, 0},
        {"A13 P4 T160 x4 ahead 8 bands 32", 2, 13, 640, 32},
        {"A14 P5 T128 x4 strips<=640", 2, 14, 640, 0},
        {"A15 P5 T128 x4 ahead 6 <=640", 2, 15, 640, 0},
        {"B16 P5 T128 x4 bulk <=640", 2, 16, 640, 0},
        {"B17 P5 T128 x4 bulk ahead 6", 2, 17, 640, 0},
    };
    constexpr int kSets = 4;
    size_t maxSrc = 0, maxDst = 0;
    for (const Case &c : cases) {
        maxSrc = std::max(maxSrc, size_t(c.n * c.h * (c.w * c.c + c.srcPad) + c.srcShift));
        maxDst = std::max(maxDst, size_t(c.n * c.oh * (c.ow * c.c + c.dstPad)));
    }
    uint8_t *src[kSets], *dst[kSets], *dstRef, *copyDst;
    for (int i = 0; i < kSets; ++i) {
        CK(cudaMalloc(&src[i], maxSrc + 256));
        CK(cudaMalloc(&dst[i], maxDst));
        fillRandom<<<1024, 256>>>(src[i], maxSrc + 256, 1 + 77 * uint64_t(i));
    }
    CK(cudaMalloc(&dstRef, maxDst));
    CK(cudaMalloc(&copyDst, maxSrc));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int64_t failures = 0;
    // CUBIC_PROBE_NCU=1: the benchmark case only, each variant launched once untimed (for Nsight Compute)
    const bool ncu = std::getenv("CUBIC_PROBE_NCU") != nullptr;
    // CUBIC_PROBE_UNTIMED=1: the untimed shapes only (odd sizes, padded rows, unaligned sources), e.g. under compute-sanitizer
    const bool untimedOnly = std::getenv("CUBIC_PROBE_UNTIMED") != nullptr;
    std::printf("%-42s %-30s %9s %8s %10s %s\n", "case", "variant", "us", "x copy", "mismatch", "geometry");
    for (const Case &c : cases) {
        if (ncu && &c != &cases[0]) break;
        if (untimedOnly && c.timed) continue;
        const size_t srcBytes = size_t(c.n * c.h * (c.w * c.c + c.srcPad)), dstBytes = size_t(c.n * c.oh * (c.ow * c.c + c.dstPad));
        ResizeParams ps[kSets];
        for (int i = 0; i < kSets; ++i) {
            ps[i] = ResizeParams{};
            ps[i].src = nhwc(src[i] + c.srcShift, c.n, c.h, c.w, c.c, c.srcPad);
            ps[i].dst = nhwc(dst[i], c.n, c.oh, c.ow, c.c, c.dstPad);
            ps[i].type = kResizeU8, ps[i].interp = kCubic, ps[i].torchMode = -1;
        }
        // the current path's bytes on set 0, and the sampler's on the host for image 0
        ResizeParams ref = ps[0];
        ref.dst.data = reinterpret_cast<char *>(dstRef);
        CK(cudaMemsetAsync(dstRef, 0x11, dstBytes, st));
        CK(launchCurrent(ref, st));
        CK(cudaStreamSynchronize(st));
        std::vector<uint8_t> want(dstBytes), got(dstBytes), src0(size_t(c.h * (c.w * c.c + c.srcPad)));
        CK(cudaMemcpy(want.data(), dstRef, dstBytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(src0.data(), src[0] + c.srcShift, src0.size(), cudaMemcpyDeviceToHost));
        int64_t cpu = 0;
        {
            const Mapping m = mappingOf(ref.src, c.oh, c.ow, kCubic);
            const Plane plane{reinterpret_cast<const char *>(src0.data()), ref.src.stride[kH], c.c, 1};
            for (int32_t y = 0; y < c.oh; y += 7)
                for (int32_t x = 0; x < c.ow; ++x)
                    samplePixel<uint8_t, kCubic>(m, plane, x, y, int32_t(c.c), [&](int32_t ch, uint8_t v, float) {
                        cpu += want[size_t(y * ref.dst.stride[kH] + x * c.c + ch)] != v;
                    });
        }
        failures += cpu;
        float tCopy = 0.f;
        if (c.timed && !ncu) {
            const size_t copyBytes = (srcBytes + dstBytes) / 2;
            tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst, src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
            std::printf("%-42s %-30s %9.1f %8.2f %10s cpu check of the current path: %lld bytes differ\n", c.name, "copy (src+dst)/2", tCopy, 1.0,
                        "-", (long long)cpu);
        } else {
            std::printf("%-42s cpu check of the current path: %lld bytes differ\n", c.name, (long long)cpu);
        }
        for (const Variant &v : variants) {
            ResizeCubicShape shape{};
            if (v.kind == 2 && !planResizeCubic(ps[0], shape, v.variant, v.maxStripW)) {
                std::printf("%-42s %-30s the separable path does not take this shape\n", c.name, v.name);
                continue;
            }
            shape.bandRows = v.bandRows;
            auto run = [&](int i) {
                const ResizeParams &q = ps[i % kSets];
                if (v.kind == 0) CK(launchCurrent(q, st));
                else if (v.kind == 1) CK(launchResize(q, st));
                else CK(launchResizeCubic(q, shape, st));
            };
            CK(cudaMemsetAsync(dst[0], 0x22, dstBytes, st));
            run(0);
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), dst[0], dstBytes, cudaMemcpyDeviceToHost));
            int64_t bad = 0;
            for (int64_t n = 0; n < c.n; ++n) // pixels only: the rows' padding bytes keep each run's poison
                for (int64_t y = 0; y < c.oh; ++y) {
                    const size_t row = size_t(n * ps[0].dst.stride[kN] + y * ps[0].dst.stride[kH]);
                    if (std::memcmp(&got[row], &want[row], size_t(c.ow * c.c)) == 0) continue; // most rows: no byte loop
                    for (int64_t b = 0; b < c.ow * c.c; ++b) bad += got[row + size_t(b)] != want[row + size_t(b)];
                }
            failures += bad;
            char geometry[160] = "";
            if (v.kind == 2)
                std::snprintf(geometry, sizeof geometry, "variant %d, strips %d of %d px, %d threads, %d B smem, slot %d B, %d ahead",
                              shape.variant, shape.strips, shape.stripW, shape.threads, shape.smemBytes, shape.slotPitch, shape.ahead);
            if (c.timed && !ncu) {
                const float t = timeIt(run, st);
                std::printf("%-42s %-30s %9.1f %8.2f %10lld %s\n", c.name, v.name, t, t / tCopy, (long long)bad, geometry);
            } else {
                std::printf("%-42s %-30s %9s %8s %10lld %s\n", c.name, v.name, "-", "-", (long long)bad, geometry);
            }
        }
    }
    CK(cudaStreamDestroy(st));
    std::printf("%s: %lld mismatching bytes in all\n", failures ? "FAIL" : "OK", (long long)failures);
    return failures ? 1 : 0;
}
