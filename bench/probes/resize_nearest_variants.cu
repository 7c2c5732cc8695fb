// Microbenchmark of cvResize's uint8 NEAREST (OpenCV INTER_NEAREST_EXACT) and NEAREST_FLOOR downscales of
// 32x1080x1920 NHWC: 3 channels -> 720x1280 (the benchmark's row, both interpolations) and -> 540x960 (2:1), 1 and 4
// channels -> 720x1280. GPU time per batch (probe_timing.cuh: CUDA events, median of 9 batches of 5 calls after a
// warm-up), 4 source and destination buffer sets rotated so that L2 (60 MiB) holds no call's source.
//   band        the path main took before the periodic NEAREST path (the band path where resizeBandPreferred and
//               planResizeBand, else the row paths): launchResizeBand / launchResizeRows, as launchResize called them;
//               every other row's output is compared with its output
//   library     launchResize as built now (planResizeNearest's default, kNearestVariantOf, when it takes the shape)
//   vK          launchResizeNearest with planResizeNearest(variant K) (resize_nearest.cuh, kNearestVariants: pixels
//               per thread, threads per block, per-thread or tiled, staged stores, streaming hints); v0 is main's
//   copy        a D2D cudaMemcpyAsync of (source + output bytes) / 2: reading once and writing once at copy speed
//               (the periodic path reads only the source rows the destination uses: 2 of 3 for 1.5x down)
// mismatches: output bytes (source set 0, every output poisoned with a different byte first) where a variant differs
// from the band path's; for the band path itself, the bytes of image 0 (every 7th row) where it differs from samplePixel on the host.
// Exits 1 on any mismatch.
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_filters.cuh"
#include "resize_nearest.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

namespace {

constexpr int kSets = 4;

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c) {
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * w * c, w * c, c, 1}};
}

ResizeParams params(View4 s, View4 d, int32_t interp) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = interp, p.torchMode = -1;
    return p;
}

// launchResize of main before the periodic NEAREST path, for the shapes this probe times.
cudaError_t launchMain(const ResizeParams &p, cudaStream_t st) {
    ResizeBandShape band;
    if (resizeBandPreferred(p) && planResizeBand(p, band)) return launchResizeBand(p, band, st);
    ResizeRowShape rows;
    if (planResizeRows(p, rows)) return launchResizeRows(p, rows, st);
    std::printf("main takes neither the band nor the row path for this shape\n");
    std::exit(1);
}

int64_t samplerMismatches(const ResizeParams &p, const std::vector<uint8_t> &src0, const std::vector<uint8_t> &out) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int C = int(p.src.shape[kC]);
    const Plane plane{reinterpret_cast<const char *>(src0.data()), p.src.stride[kH], C, 1};
    int64_t bad = 0;
    for (int32_t y = 0; y < m.y.dst; y += 7)
        for (int32_t x = 0; x < m.x.dst; ++x) {
            const auto emit = [&](int32_t c, uint8_t v, float) { bad += out[size_t((int64_t(y) * m.x.dst + x) * C + c)] != v; };
            if (p.interp == kNearest)
                samplePixel<uint8_t, kNearest>(m, plane, x, y, C, emit);
            else
                samplePixel<uint8_t, kNearestFloor>(m, plane, x, y, C, emit);
        }
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
        int32_t interp;
        int64_t c, oh, ow;
    };
    const Case cases[] = {{"NN 3ch->720x1280", kNearest, 3, 720, 1280},     {"FLOOR 3ch->720x1280", kNearestFloor, 3, 720, 1280},
                          {"NN 3ch->540x960", kNearest, 3, 540, 960},       {"NN 1ch->720x1280", kNearest, 1, 720, 1280},
                          {"NN 4ch->720x1280", kNearest, 4, 720, 1280}};
    int64_t totalBad = 0;
    std::printf("%-20s %-10s %9s %8s %11s  %s\n", "case", "variant", "us", "x_copy", "mismatches", "geometry");
    for (const Case &c : cases) {
        const size_t srcBytes = size_t(N * H * W * c.c), dstBytes = size_t(N * c.oh * c.ow * c.c);
        auto p = [&](int set, uint8_t *out) { return params(nhwc(src[set], N, H, W, c.c), nhwc(out, N, c.oh, c.ow, c.c), c.interp); };
        const size_t copyBytes = (srcBytes + dstBytes) / 2;
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst[i % kSets], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);

        // the band path's output of set 0 is the reference every variant is compared with
        std::vector<uint8_t> want(dstBytes), got(dstBytes), src0(size_t(H * W * c.c));
        CK(cudaMemsetAsync(ref, 0x11, dstBytes, st));
        CK(launchMain(p(0, ref), st));
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(want.data(), ref, dstBytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(src0.data(), src[0], src0.size(), cudaMemcpyDeviceToHost));
        const int64_t mainBad = samplerMismatches(p(0, ref), src0, want);
        totalBad += mainBad;
        const float tMain = timeIt([&](int i) { CK(launchMain(p(i % kSets, dst[i % kSets]), st)); }, st);
        std::printf("%-20s %-10s %9.1f %8.2f %11lld  (against samplePixel, image 0)\n", c.name, "band", tMain, tMain / tCopy, (long long)mainBad);

        auto check = [&](const std::function<cudaError_t(const ResizeParams &)> &launch) {
            CK(cudaMemsetAsync(dst[0], 0x22, dstBytes, st));
            CK(launch(p(0, dst[0])));
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), dst[0], dstBytes, cudaMemcpyDeviceToHost));
            int64_t bad = 0;
            for (size_t i = 0; i < dstBytes; ++i) bad += got[i] != want[i];
            return bad;
        };
        auto row = [&](const char *name, const std::function<cudaError_t(const ResizeParams &)> &launch, const char *geometry) {
            const int64_t bad = check(launch);
            totalBad += bad;
            const float t = timeIt([&](int i) { CK(launch(p(i % kSets, dst[i % kSets]))); }, st);
            std::printf("%-20s %-10s %9.1f %8.2f %11lld  %s\n", c.name, name, t, t / tCopy, (long long)bad, geometry);
        };
        ResizeNearestShape s{};
        row("library", [&](const ResizeParams &q) { return launchResize(q, st); },
            planResizeNearest(p(0, dst[0]), s) ? "launchResize: the periodic NEAREST path" : "launchResize: not the periodic NEAREST path");
        for (int32_t v = 0; v < kNearestVariantCount; ++v) {
            if (!planResizeNearest(p(0, dst[0]), s, v) || s.variant != v) {
                std::printf("%-20s v%-9d not taken by planResizeNearest\n", c.name, v);
                continue;
            }
            const NearestVariant &k = kNearestVariants[v];
            char name[16], geometry[128];
            std::snprintf(name, sizeof(name), "v%d", v);
            std::snprintf(geometry, sizeof(geometry), "%s%s%s, %d px a thread, %d a block, %d groups a row, %d threads", k.tiled ? "tiled" : "per thread",
                          k.stageOut ? " staged stores" : "", k.streaming ? " streaming" : "", s.pixels, s.threads, s.groups, s.items);
            row(name, [&](const ResizeParams &q) { return launchResizeNearest(q, s, st); }, geometry);
        }
        std::printf("%-20s %-10s %9.1f %8.2f %11s  %zu bytes\n", c.name, "copy", tCopy, 1.0, "-", copyBytes);
    }
    CK(cudaStreamDestroy(st));
    if (totalBad != 0) {
        std::printf("MISMATCHES: %lld bytes\n", (long long)totalBad);
        return 1;
    }
    std::printf("all outputs identical\n");
    return 0;
}
