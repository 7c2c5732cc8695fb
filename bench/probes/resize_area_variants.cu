// Microbenchmark of cvResize's uint8 AREA on packed pixels, 32 images of 1080x1920 (GPU time per batch, CUDA events,
// median of 9 batches of 5 calls after a warm-up, 4 source and 4 destination buffers rotated so that the 60 MiB L2
// never holds the source): TILED = the shared-memory tiled path (resize_tiled.cu, what launchResize took for AREA
// before the AREA row path), LAUNCH = launchResize as built (the AREA row path wherever planResizeArea takes the shape), and the
// AREA row path (resize_area.cu) in variants: its plan (kAreaAhead source rows in flight, the planned block width),
// 6 rows in flight, bands of half the rows (two blocks a resident slot), and the other block width (7 warps, or 4
// where the plan took 7). copy: a D2D cudaMemcpyAsync moving the traffic of reading the source once and writing the
// output once ((src + dst) / 2 bytes copied). mismatches: bytes where the output differs from TILED's on random data
// (both poisoned differently first): every variant must be 0, else the probe exits 1.
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_area.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace cvk;
using namespace cvk::resize;

namespace {

View4 nhwc(void *d, int64_t n, int64_t h, int64_t w, int64_t c) {
    return View4{static_cast<char *>(d), {n, h, w, c}, {h * w * c, w * c, c, 1}};
}
ResizeParams params(View4 s, View4 d) {
    ResizeParams p{};
    p.src = s, p.dst = d, p.type = kResizeU8, p.interp = kArea, p.torchMode = -1;
    return p;
}

// The AREA row path's kernel with A rows in flight for the plan's channel count and taps.
template <int A, int CT> void launchAhead(const ResizeParams &p, const ResizeAreaShape &s, cudaStream_t st) {
    const Mapping m = mappingOf(p.src, p.dst.shape[kH], p.dst.shape[kW], p.interp);
    const int smem = areaSmemBytes(kAreaSlots<A>, s.slotPitch, s.streamRows, s.outPitch);
    auto go = [&](auto kernel) {
        if (smem > 48 * 1024) CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        kernel<<<dim3(unsigned(s.strips), unsigned(s.bands)), unsigned(32 * s.warps), smem, st>>>(p, m, s);
    };
    switch (kAreaTaps[s.taps]) {
    case 3: go(&areaKernel<CT, 3, A>); break;
    case 4: go(&areaKernel<CT, 4, A>); break;
    case 6: go(&areaKernel<CT, 6, A>); break;
    case 10: go(&areaKernel<CT, 10, A>); break;
    default: go(&areaKernel<CT, 16, A>); break;
    }
    CK(cudaGetLastError());
}
template <int A> void launchAhead(const ResizeParams &p, const ResizeAreaShape &s, cudaStream_t st) {
    const int64_t c = p.src.shape[kC];
    if (c == 1) launchAhead<A, 1>(p, s, st);
    else if (c == 3) launchAhead<A, 3>(p, s, st);
    else launchAhead<A, 4>(p, s, st);
}

// s with bands of `bandRows` rows (its table and shared memory follow).
ResizeAreaShape withBands(const ResizeParams &p, ResizeAreaShape s, int64_t bandRows) {
    const Axis y = makeAxis(int32_t(p.src.shape[kH]), int32_t(p.dst.shape[kH]));
    const int64_t rows = p.dst.shape[kN] * p.dst.shape[kH];
    s.bandRows = bandRows;
    s.bands = (rows + bandRows - 1) / bandRows;
    s.streamRows = int32_t(areaMaxStream(y, bandRows));
    s.smemBytes = areaSmemBytes(kAreaSlots<kAreaAhead>, s.slotPitch, s.streamRows, s.outPitch);
    return s;
}

} // namespace

int main() {
    constexpr int kSets = 4;
    const int64_t N = 32, H = 1080, W = 1920;
    struct Case {
        const char *name;
        int64_t c, oh, ow;
    };
    const Case cases[] = {{"c3_224x224 (bench)", 3, 224, 224}, {"c3_270x480 (x4 box)", 3, 270, 480}, {"c3_720x1280 (x1.5)", 3, 720, 1280},
                          {"c1_224x224", 1, 224, 224},          {"c4_224x224", 4, 224, 224}};
    size_t maxSrc = 0, maxDst = 0;
    for (const Case &c : cases) {
        maxSrc = std::max(maxSrc, size_t(N * H * W * c.c));
        maxDst = std::max(maxDst, size_t(N * c.oh * c.ow * c.c));
    }
    ResizeProbeBuffers<kSets> buffers(maxSrc, maxDst);
    uint8_t *const *src = buffers.src, *const *dst = buffers.dst, *ref = buffers.ref, *out = buffers.out, *const *copyDst = buffers.copyDst;
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    bool failed = false;
    std::printf("%-20s %-26s %9s %8s %10s  %s\n", "case", "variant", "us", "x_copy", "mismatches", "geometry");
    for (const Case &c : cases) {
        const size_t srcBytes = size_t(N * H * W * c.c), dstBytes = size_t(N * c.oh * c.ow * c.c);
        auto paramsOf = [&](int i, uint8_t *to) { return params(nhwc(src[i % kSets], N, H, W, c.c), nhwc(to, N, c.oh, c.ow, c.c)); };
        const ResizeParams p0 = paramsOf(0, out);
        ResizeTileShape tile{};
        ResizeAreaShape area{};
        if (!planResizeTile(p0, tile) || !planResizeArea(p0, area)) {
            std::printf("%-20s the tiled path (%d) or the AREA row path (%d) does not take this shape\n", c.name, int(planResizeTile(p0, tile)),
                        int(planResizeArea(p0, area)));
            failed = true;
            continue;
        }
        ResizeAreaShape otherWidth{};
        if (!planResizeArea(p0, otherWidth, area.warps == 7 ? 4 : 7)) otherWidth = area;
        const ResizeAreaShape halfBands = withBands(p0, area, (area.bandRows + 1) / 2);

        struct Variant {
            const char *name;
            ResizeAreaShape shape;
            int how; // 0 tiled, 1 launchResize, 2 launchResizeArea(shape), 3 kernel with 6 rows in flight
        };
        const Variant variants[] = {{"tiled (main today)", area, 0},          {"launchResize (this branch)", area, 1},
                                    {"area plan (A=3)", area, 2},             {"area A=6", area, 3},
                                    {"area bands/2", halfBands, 2},           {"area other width", otherWidth, 2}};
        auto run = [&](const Variant &v, const ResizeParams &p) {
            if (v.how == 0) CK(launchResizeTiled(p, tile, st));
            else if (v.how == 1) CK(launchResize(p, st));
            else if (v.how == 2) CK(launchResizeArea(p, v.shape, st));
            else launchAhead<6>(p, v.shape, st);
        };
        const size_t copyBytes = (srcBytes + dstBytes) / 2;
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyDst[i & 1], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
        // the reference output: the tiled path on source 0
        CK(cudaMemsetAsync(ref, 0x11, dstBytes, st));
        CK(launchResizeTiled(paramsOf(0, ref), tile, st));
        CK(cudaStreamSynchronize(st));
        std::vector<uint8_t> want(dstBytes), got(dstBytes);
        CK(cudaMemcpy(want.data(), ref, dstBytes, cudaMemcpyDeviceToHost));
        for (const Variant &v : variants) {
            const float t = timeIt([&](int i) { run(v, paramsOf(i, dst[i % kSets])); }, st);
            CK(cudaMemsetAsync(out, 0x22, dstBytes, st));
            run(v, paramsOf(0, out));
            CK(cudaStreamSynchronize(st));
            CK(cudaMemcpy(got.data(), out, dstBytes, cudaMemcpyDeviceToHost));
            int64_t bad = 0;
            for (size_t i = 0; i < dstBytes; ++i) bad += want[i] != got[i];
            failed |= bad != 0;
            char geometry[160] = "";
            if (v.how >= 2)
                std::snprintf(geometry, sizeof geometry, "K=%d, %d warps x %d strips, %lld bands of %lld rows, %d B smem", kAreaTaps[v.shape.taps],
                              v.shape.warps, v.shape.strips, (long long)v.shape.bands, (long long)v.shape.bandRows,
                              v.how == 3 ? areaSmemBytes(kAreaSlots<6>, v.shape.slotPitch, v.shape.streamRows, v.shape.outPitch) : v.shape.smemBytes);
            else if (v.how == 0)
                std::snprintf(geometry, sizeof geometry, "tiles %dx%d, %d B smem", tile.tileW, tile.tileH, tile.smemBytes);
            std::printf("%-20s %-26s %9.1f %8.2f %10lld  %s\n", c.name, v.name, t, t / tCopy, (long long)bad, geometry);
        }
        std::printf("%-20s %-26s %9.1f %8.2f %10s  %.1f MB\n", c.name, "copy (src+dst)/2", tCopy, 1.0, "-", copyBytes / 1e6);
    }
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("MISMATCH: a variant's bytes differ from the tiled path's (or a path declined a case)\n");
    return failed ? 1 : 0;
}
