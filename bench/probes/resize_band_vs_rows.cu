// Microbenchmark of cvResize's uint8 packed paths on 32x1080x1920x3 (GPU time per batch, CUDA events, median of 9
// batches of 5 calls after a warm-up, two source buffers alternated): OLD = the path launchResize took before the
// band path (the row paths of resize_rows.cu, or for shapes they do not take the per-pixel sampler kernel, the
// same code as resize.cu's resizeKernel), NEW = the band path (resize_band.cu). copy_us: a D2D cudaMemcpyAsync
// moving the same traffic as reading the source once and writing the output once ((src + dst) / 2 bytes copied).
// identical: bytes where OLD and NEW outputs differ (both poisoned differently first); cpu: bytes of image 0 (every
// 7th row) where NEW differs from samplePixel run on the host.
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_filters.cuh"
#include "resize_launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

template <int I> __global__ void __launch_bounds__(kBlockX *kBlockY) samplerKernel(ResizeParams p, Mapping m) {
    const int32_t C = static_cast<int32_t>(p.src.shape[kC]);
    forEachPixel(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN], [&](int64_t n, int32_t dx, int32_t dy) {
        char *out = p.dst.data + n * p.dst.stride[kN] + dy * p.dst.stride[kH] + dx * p.dst.stride[kW];
        samplePixel<uint8_t, I>(m, planeOf(p.src, n), dx, dy, C, [&](int32_t c, uint8_t v, float) { out[c * p.dst.stride[kC]] = char(v); });
    });
}

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c) {
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * w * c, w * c, c, 1}};
}
ResizeParams params(View4 s, View4 d, int interp) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = interp, p.torchMode = -1;
    return p;
}

cudaError_t launchOld(const ResizeParams &p, cudaStream_t st) {
    ResizeRowShape rs;
    if (planResizeRows(p, rs)) return launchResizeRows(p, rs, st);
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const dim3 grid = gridFor(p.dst.shape[kW], p.dst.shape[kH], p.dst.shape[kN]), block(kBlockX, kBlockY);
    if (p.interp == kNearest) samplerKernel<kNearest><<<grid, block, 0, st>>>(p, m);
    else if (p.interp == kNearestFloor) samplerKernel<kNearestFloor><<<grid, block, 0, st>>>(p, m);
    else samplerKernel<kLinear><<<grid, block, 0, st>>>(p, m);
    return cudaGetLastError();
}

template <int I> int64_t cpuCheck(const ResizeParams &p, const std::vector<uint8_t> &src0, const std::vector<uint8_t> &out) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int C = int(p.src.shape[kC]);
    const Plane plane{reinterpret_cast<const char *>(src0.data()), p.src.stride[kH], C, 1};
    int64_t bad = 0;
    for (int32_t y = 0; y < m.y.dst; y += 7)
        for (int32_t x = 0; x < m.x.dst; ++x)
            samplePixel<uint8_t, I>(m, plane, x, y, C, [&](int32_t c, uint8_t v, float) { bad += out[size_t((int64_t(y) * m.x.dst + x) * C + c)] != v; });
    return bad;
}

int main() {
    const int64_t N = 32, H = 1080, W = 1920, C = 3;
    const size_t srcBytes = size_t(N * H * W * C), maxDst = size_t(N * 720 * 1280 * C);
    uint8_t *src[2], *dstOld, *dstNew, *copyA, *copyB;
    for (auto &s : src) CK(cudaMalloc(&s, srcBytes));
    CK(cudaMalloc(&dstOld, maxDst));
    CK(cudaMalloc(&dstNew, maxDst));
    CK(cudaMalloc(&copyA, srcBytes));
    CK(cudaMalloc(&copyB, srcBytes));
    fillRandom<<<1024, 256>>>(src[0], srcBytes, 1);
    fillRandom<<<1024, 256>>>(src[1], srcBytes, 77);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    std::vector<uint8_t> src0(size_t(H * W * C));
    CK(cudaMemcpy(src0.data(), src[0], src0.size(), cudaMemcpyDeviceToHost));

    struct Case {
        const char *name;
        int oh, ow, interp;
    };
    const Case cases[] = {{"nearest_720x1280", 720, 1280, kNearest},     {"nearest_floor_720x1280", 720, 1280, kNearestFloor},
                          {"linear_720x1280", 720, 1280, kLinear},       {"linear_224x224", 224, 224, kLinear},
                          {"nearest_224x224", 224, 224, kNearest}};
    std::printf("%-24s %9s %9s %9s %10s %6s %s\n", "case", "old_us", "new_us", "copy_us", "identical", "cpu", "band geometry");
    for (const Case &c : cases) {
        const size_t dstBytes = size_t(N * c.oh * c.ow * C);
        ResizeParams ps[2] = {params(nhwc(src[0], N, H, W, C), nhwc(dstNew, N, c.oh, c.ow, C), c.interp),
                              params(nhwc(src[1], N, H, W, C), nhwc(dstNew, N, c.oh, c.ow, C), c.interp)};
        ResizeBandShape bs{};
        const bool band = planResizeBand(ps[0], bs);
        if (!band) {
            std::printf("%-24s the band path does not take this shape\n", c.name);
            continue;
        }
        auto runNew = [&](int i) { CK(launchResizeBand(ps[i & 1], bs, st)); };
        auto runOld = [&](int i) {
            ResizeParams q = ps[i & 1];
            q.dst.data = reinterpret_cast<char *>(dstOld);
            CK(launchOld(q, st));
        };
        const size_t copyBytes = (srcBytes + dstBytes) / 2;
        auto runCopy = [&](int i) { CK(cudaMemcpyAsync(i & 1 ? copyB : copyA, src[i & 1], copyBytes, cudaMemcpyDeviceToDevice, st)); };
        const float tOld = timeIt(runOld, st), tNew = timeIt(runNew, st), tCopy = timeIt(runCopy, st);
        // identity on source 0, outputs poisoned differently first
        CK(cudaMemsetAsync(dstOld, 0x11, dstBytes, st));
        CK(cudaMemsetAsync(dstNew, 0x22, dstBytes, st));
        runOld(0);
        runNew(0);
        CK(cudaStreamSynchronize(st));
        std::vector<uint8_t> a(dstBytes), b(dstBytes);
        CK(cudaMemcpy(a.data(), dstOld, dstBytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), dstNew, dstBytes, cudaMemcpyDeviceToHost));
        int64_t diff = 0;
        for (size_t i = 0; i < dstBytes; ++i) diff += a[i] != b[i];
        const int64_t cpu = c.interp == kNearest ? cpuCheck<kNearest>(ps[0], src0, b)
                            : c.interp == kNearestFloor ? cpuCheck<kNearestFloor>(ps[0], src0, b)
                                                        : cpuCheck<kLinear>(ps[0], src0, b);
        std::printf("%-24s %9.1f %9.1f %9.1f %10lld %6lld strips %d of %d px, %d threads, %d B smem\n", c.name, tOld, tNew, tCopy, (long long)diff,
                    (long long)cpu, bs.strips, bs.stripW, bs.threads, bs.smemBytes);
    }
    CK(cudaStreamDestroy(st));
    return 0;
}
