// Microbenchmark of the antialiased tiles' kernel (tvTiledKernel, kernels/resize_tv.cu, included here so that its
// kernels can be launched with other template arguments) on the benchmark's tv row: 64x3x1080x1920 uint8 NCHW ->
// 256x455, antialiased bilinear (the 12-tap kernel on uint8 word rows). At 04294f6 its hot loops had 45 % fewer
// instructions than at 3de68ca (logs/sass-tv-fixed.log) but it ran only 15 % faster (434.1 -> 370.0 µs on H100s,
// docs/perf.md): no longer bound by issue alone. Each thread's rows come U at a time with every load issued before any
// sum, so the loads a warp has in flight, and the warps an SM holds (the registers the kernel is fitted to:
// __launch_bounds__'s blocks per SM), bound how much of DRAM's latency is hidden. Rows: the library's launch
// (launchTvResizeTiled), then (U rows a batch, blocks per SM, tile height) variants, each with its registers and local
// memory (spills) from cudaFuncGetAttributes; GPU time per call (CUDA events, 5 calls a batch, 2 buffer sets rotated)
// against a cudaMemcpyAsync of the bytes read once and written once; every variant's output compared byte for byte
// with the library's (exit 1 on any mismatch).
// Build and run from the repository root:
//   nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 20013 -I kernels -I include -o /tmp/tv_tiles_variants \
//        bench/probes/tv_tiles_variants.cu && /tmp/tv_tiles_variants
#include "probe_timing.cuh"
#include "resize_tv.cu"

#include <cstdio>
#include <cstring>
#include <vector>

namespace cvk {
namespace {

struct Variant {
    const char *what;
    void (*kernel)(TvJob, View4, PlainOut<uint8_t>, TvTileShape, bool);
    int32_t tileH;
};

template <int U, int MinBlocks> constexpr auto variant() { return &tvTiledKernel<uint8_t, 12, PlainOut<uint8_t>, U, MinBlocks>; }

const Variant kVariants[] = {
    {"U 4, 3 blocks/SM, tile 32 (the library's)", variant<4, 3>(), 32},
    {"U 2, 4 blocks/SM, tile 32", variant<2, 4>(), 32},
    {"U 6, 3 blocks/SM, tile 32", variant<6, 3>(), 32},
    {"U 8, 3 blocks/SM, tile 32", variant<8, 3>(), 32},
    {"U 8, 2 blocks/SM, tile 32", variant<8, 2>(), 32},
    {"U 12, 2 blocks/SM, tile 32", variant<12, 2>(), 32},
    {"U 4, 3 blocks/SM, tile 16", variant<4, 3>(), 16},
    {"U 4, 3 blocks/SM, tile 64", variant<4, 3>(), 64},
    {"U 8, 2 blocks/SM, tile 64", variant<8, 2>(), 64},
};

View4 planes(char *data, int64_t n, int64_t c, int64_t h, int64_t w) { return View4{data, {n, h, w, c}, {c * h * w, w, 1, h * w}}; }

} // namespace
} // namespace cvk

using namespace cvk;

int main() {
    constexpr int64_t N = 64, C = 3, H = 1080, W = 1920, OH = 256, OW = 455;
    constexpr size_t srcBytes = N * C * H * W, dstBytes = N * C * OH * OW;
    constexpr int kSets = 2;
    ResizeProbeBuffers<kSets> buf(srcBytes, dstBytes);
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    ResizeParams p{};
    p.type = kResizeU8;
    p.interp = -1;
    p.torchMode = resize::kTvLinearAA;
    const auto params = [&](int set, char *dst) {
        p.src = planes(reinterpret_cast<char *>(buf.src[set]), N, C, H, W);
        p.dst = planes(dst, N, C, OH, OW);
        return p;
    };
    TvTileShape lib{};
    if (!planTvResizeTile(params(0, reinterpret_cast<char *>(buf.ref)), lib) || lib.taps != 0) {
        std::printf("the benchmark's row did not plan the 12-tap tiles\n");
        return 1;
    }
    const TvJob j = jobOf(p.src, OH, OW, 0, 0, OH, OW, p.torchMode);
    CK(launchTvResizeTiled(params(0, reinterpret_cast<char *>(buf.ref)), lib, st));
    const float copyUs = timeIt([&](int i) { CK(cudaMemcpyAsync(buf.copyDst[i % 2], buf.src[i % kSets], (srcBytes + dstBytes) / 2, cudaMemcpyDeviceToDevice, st)); }, st);
    const float libUs = timeIt([&](int i) { CK(launchTvResizeTiled(params(i % kSets, reinterpret_cast<char *>(buf.dst[i % kSets])), lib, st)); }, st);
    std::printf("%s, 64x3x1080x1920 uint8 NCHW -> 256x455 antialiased bilinear, GPU us per call (median of 9 batches of 5)\n",
                [] { static cudaDeviceProp d; CK(cudaGetDeviceProperties(&d, 0)); return d.name; }());
    std::printf("%-48s %6s %6s %9s %9s %7s\n", "kernel", "regs", "local", "smem B", "us", "copy/x");
    std::printf("%-48s %6s %6s %9d %9.1f %7.2f\n", "launchTvResizeTiled (library)", "", "", lib.smemBytes, libUs, copyUs / libUs);
    int bad = 0;
    for (const Variant &v : kVariants) {
        TvTileShape s{};
        if (!planJob(j, true, s, v.tileH) || s.tileH != v.tileH) {
            std::printf("%-48s does not fit %d bytes of shared memory\n", v.what, kTileSmemLimit);
            continue;
        }
        cudaFuncAttributes a{};
        CK(cudaFuncGetAttributes(&a, v.kernel));
        const auto launch = [&](int set, uint8_t *dst) {
            const ResizeParams q = params(set, reinterpret_cast<char *>(dst));
            v.kernel<<<tvGrid(j, s, N), kTvThreads, s.smemBytes, st>>>(j, q.src, PlainOut<uint8_t>{q.dst}, s, wordRows(q.src, q.type));
            CK(cudaGetLastError());
        };
        CK(cudaMemsetAsync(buf.out, 0xA5, dstBytes, st));
        launch(0, buf.out);
        std::vector<uint8_t> want(dstBytes), got(dstBytes);
        CK(cudaMemcpyAsync(want.data(), buf.ref, dstBytes, cudaMemcpyDeviceToHost, st));
        CK(cudaMemcpyAsync(got.data(), buf.out, dstBytes, cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        const bool same = std::memcmp(want.data(), got.data(), dstBytes) == 0;
        bad += same ? 0 : 1;
        const float us = timeIt([&](int i) { launch(i % kSets, buf.dst[i % kSets]); }, st);
        std::printf("%-48s %6d %6zu %9d %9.1f %7.2f%s\n", v.what, a.numRegs, a.localSizeBytes, s.smemBytes, us, copyUs / us,
                    same ? "" : "  OUTPUT DIFFERS");
    }
    std::printf("copy of the bytes read once and written once: %.1f us\n", copyUs);
    return bad == 0 ? 0 : 1;
}
