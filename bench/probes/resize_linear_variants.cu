// Microbenchmark of cvResize's uint8 LINEAR downscales of 32x1080x1920 (1, 3 and 4 channels, NHWC) to 720x1280
// (1.5x each way, the benchmark's row for 3 channels) and, for 3 channels, to 540x960 (2x): GPU time per batch
// (probe_timing.cuh: CUDA events, median of 9 batches of 5 calls after a warm-up), 4 source and destination buffer
// sets rotated so that L2 (60 MiB) holds no call's source.
//   main        the path main took before the periodic path (band path where resizeBandPreferred and
//               planResizeBand, else the row paths): launchResizeBand / launchResizeRows, as launchResize called them
//   library     launchResize as built now (planResizeLinear's default when it takes the shape)
//   pxP rowsR stripsS bufB iptI   launchResizeLinear with planResizeLinearWith(variant of P pixels per thread, R
//               destination rows per band, S strips across, B staging buffers: 2 = the next band loads while one
//               computes, in one wave of resident blocks; 1 = one band per block; I (row, span) items per thread and
//               band: fewer threads, each staging cost spent on more pixels)
//   copy        a D2D cudaMemcpyAsync of (source + output bytes) / 2: reading once and writing once at copy speed
// mismatches: output bytes (source set 0, every output poisoned with a different byte first) where a variant differs
// from main's; for main itself, the bytes of image 0 (every 7th row) where it differs from samplePixel on the host.
// Exits 1 on any mismatch.
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_filters.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

namespace {

constexpr int kSets = 4;

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c) {
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * w * c, w * c, c, 1}};
}

ResizeParams params(View4 s, View4 d) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = kLinear, p.torchMode = -1;
    return p;
}

// launchResize of main before the periodic path, for the shapes this probe times (they all take the band or rows).
cudaError_t launchMain(const ResizeParams &p, cudaStream_t st) {
    ResizeBandShape band;
    if (resizeBandPreferred(p) && planResizeBand(p, band)) return launchResizeBand(p, band, st);
    ResizeRowShape rows;
    if (planResizeRows(p, rows)) return launchResizeRows(p, rows, st);
    std::printf("main takes neither the band nor the row path for this shape\n");
    std::exit(1);
}

int64_t samplerMismatches(const ResizeParams &p, const std::vector<uint8_t> &src0, const std::vector<uint8_t> &out) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], kLinear);
    const int C = int(p.src.shape[kC]);
    const Plane plane{reinterpret_cast<const char *>(src0.data()), p.src.stride[kH], C, 1};
    int64_t bad = 0;
    for (int32_t y = 0; y < m.y.dst; y += 7)
        for (int32_t x = 0; x < m.x.dst; ++x)
            samplePixel<uint8_t, kLinear>(m, plane, x, y, C,
                                          [&](int32_t c, uint8_t v, float) { bad += out[size_t((int64_t(y) * m.x.dst + x) * C + c)] != v; });
    return bad;
}

} // namespace

int main() {
    const int64_t N = 32, H = 1080, W = 1920;
    const size_t maxSrc = size_t(N * H * W * 4), maxDst = size_t(N * 720 * 1280 * 4);
    uint8_t *src[kSets], *dst[kSets], *ref, *copyDst[kSets];
    for (int i = 0; i < kSets; ++i) {
        CK(cudaMalloc(&src[i], maxSrc));
        CK(cudaMalloc(&dst[i], maxDst));
        CK(cudaMalloc(&copyDst[i], maxSrc));
        fillRandom<<<1024, 256>>>(src[i], maxSrc, 1 + 977 * uint64_t(i));
    }
    CK(cudaMalloc(&ref, maxDst));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    struct Case {
        const char *name;
        int64_t c, oh, ow;
    };
    const Case cases[] = {{"3ch->720x1280", 3, 720, 1280}, {"3ch->540x960", 3, 540, 960}, {"1ch->720x1280", 1, 720, 1280}, {"4ch->720x1280", 4, 720, 1280}};
    struct Variant {
        int32_t variant, bandRows, strips, depth, itemsPerThread;
    };
    const Variant variants[] = {{0, 2, 1, 2, 1}, {0, 2, 1, 1, 1}, {0, 1, 1, 2, 1}, {0, 1, 1, 1, 1}, {0, 4, 2, 2, 1},
                                {0, 4, 2, 2, 2}, {0, 4, 1, 1, 2}, {0, 2, 1, 2, 2}, {1, 2, 1, 2, 1}, {1, 1, 1, 2, 1}};
    int64_t totalBad = 0;
    std::printf("%-15s %-30s %9s %8s %11s  %s\n", "case", "variant", "us", "x_copy", "mismatches", "geometry");
    for (const Case &c : cases) {
        const size_t srcBytes = size_t(N * H * W * c.c), dstBytes = size_t(N * c.oh * c.ow * c.c);
        auto p = [&](int set, uint8_t *out) { return params(nhwc(src[set], N, H, W, c.c), nhwc(out, N, c.oh, c.ow, c.c)); };
        const size_t copyBytes = (srcBytes + dstBytes) / 2;
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst[i % kSets], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);

        // main's output of set 0 is the reference every variant is compared with
        std::vector<uint8_t> want(dstBytes), got(dstBytes), src0(size_t(H * W * c.c));
        CK(cudaMemsetAsync(ref, 0x11, dstBytes, st));
        CK(launchMain(p(0, ref), st));
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(want.data(), ref, dstBytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(src0.data(), src[0], src0.size(), cudaMemcpyDeviceToHost));
        const int64_t mainBad = samplerMismatches(p(0, ref), src0, want);
        totalBad += mainBad;
        const float tMain = timeIt([&](int i) { CK(launchMain(p(i % kSets, dst[i % kSets]), st)); }, st);
        std::printf("%-15s %-30s %9.1f %8.2f %11lld  (against samplePixel, image 0)\n", c.name, "main", tMain, tMain / tCopy, (long long)mainBad);

        auto check = [&](const std::function<cudaError_t(const ResizeParams &)> &launch) {
            CK(cudaMemsetAsync(dst[0], 0x22, dstBytes, st));
            CK(launch(p(0, dst[0])));
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), dst[0], dstBytes, cudaMemcpyDeviceToHost));
            int64_t bad = 0;
            for (size_t i = 0; i < dstBytes; ++i) bad += got[i] != want[i];
            return bad;
        };
        {
            const auto launch = [&](const ResizeParams &q) { return launchResize(q, st); };
            const int64_t bad = check(launch);
            totalBad += bad;
            const float t = timeIt([&](int i) { CK(launch(p(i % kSets, dst[i % kSets]))); }, st);
            ResizeLinearShape s{};
            const bool periodic = planResizeLinear(p(0, dst[0]), s);
            std::printf("%-15s %-30s %9.1f %8.2f %11lld  %s\n", c.name, "library", t, t / tCopy, (long long)bad,
                        periodic ? "launchResize: the periodic path" : "launchResize: not the periodic path");
        }
        for (const Variant &v : variants) {
            ResizeLinearShape s{};
            char name[64];
            if (!planResizeLinearWith(p(0, dst[0]), v.variant, v.bandRows, v.strips, v.depth, v.itemsPerThread, s)) {
                std::snprintf(name, sizeof(name), "v%d rows%d strips%d buf%d ipt%d", v.variant, v.bandRows, v.strips, v.depth, v.itemsPerThread);
                std::printf("%-15s %-30s not taken by planResizeLinearWith\n", c.name, name);
                continue;
            }
            std::snprintf(name, sizeof(name), "px%d rows%d strips%d buf%d ipt%d", s.pixels, v.bandRows, s.strips, v.depth, v.itemsPerThread);
            const auto launch = [&](const ResizeParams &q) { return launchResizeLinear(q, s, st); };
            const int64_t bad = check(launch);
            totalBad += bad;
            const float t = timeIt([&](int i) { CK(launch(p(i % kSets, dst[i % kSets]))); }, st);
            std::printf("%-15s %-30s %9.1f %8.2f %11lld  %d threads, %d B smem, %d staged rows of %d B, %d bands\n", c.name, name, t, t / tCopy,
                        (long long)bad, s.threads, s.smemBytes, s.stagedRows, s.pitch, s.bands);
        }
        std::printf("%-15s %-30s %9.1f %8.2f %11s  %zu bytes\n", c.name, "copy", tCopy, 1.0, "-", copyBytes);
    }
    CK(cudaStreamDestroy(st));
    if (totalBad != 0) {
        std::printf("MISMATCHES: %lld bytes\n", (long long)totalBad);
        return 1;
    }
    std::printf("all outputs identical\n");
    return 0;
}
