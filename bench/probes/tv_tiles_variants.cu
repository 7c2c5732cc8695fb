// Microbenchmark of the antialiased tiles' kernels (kernels/resize_tv.cu, included here so that its kernels can be
// launched with other template arguments) on the benchmark's tv row: 64x3x1080x1920 uint8 NCHW -> 256x455,
// antialiased bilinear (the 12-tap kernels on uint8 word rows). At 04294f6 the tiles kernel's hot loops had 45 % fewer
// instructions than at 3de68ca (logs/sass-tv-fixed.log) but it ran only 15 % faster (434.1 -> 370.0 µs on H100s,
// docs/perf.md), and Nsight Compute on an H200 found its issue slots 58.5 % busy and DRAM at 19 %
// (logs/ncu-tv-tiles-h200.log): its warps wait on the global loads of each source row. Rows: the tiles kernel
// (tvTiledKernel) with U rows a batch, the blocks per SM its registers are fitted to, tile height and images a block
// (logs/probe-tv_tiles_variants-h200.log has the first sweep), and the staged kernel (tvStagedKernel: each plane's
// source span copied into shared memory by cp.async while the previous plane is summed) with U rows a batch and images
// a block; then the library's launch (launchTvResizeTiled, staged where its plan stages). Each with its registers and
// local memory (spills) from cudaFuncGetAttributes; GPU time per call (CUDA events, 5 calls a batch, 2 buffer sets
// rotated) against a cudaMemcpyAsync of the bytes read once and written once; every output compared byte for byte
// with the first row's (the tiles kernel as the library launched it before the staged kernel; exit 1 on any mismatch).
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

// A variant: the tiles kernel (tvTiledKernel) with U rows a batch and MinBlocks, tile height, images a block (the
// kernel grid-strides over n: the grid's z is N / images), or the staged kernel (tvStagedKernel, U rows a batch).
struct Variant {
    const char *what;
    void (*tiled)(TvJob, View4, PlainOut<uint8_t>, TvTileShape, bool);
    void (*staged)(TvJob, View4, PlainOut<uint8_t>, TvTileShape);
    int32_t tileH;
    int32_t images;
};

template <int U, int MinBlocks> constexpr auto tiled() { return &tvTiledKernel<uint8_t, 12, PlainOut<uint8_t>, U, MinBlocks>; }
template <int U> constexpr auto staged() { return &tvStagedKernel<PlainOut<uint8_t>, U>; }

// The first row is the reference every other row's output is compared with: the tiles kernel as the library
// launched it before the staged kernel.
const Variant kVariants[] = {
    {"tiled U 4, 3 blocks/SM, tile 32 (reference)", tiled<4, 3>(), nullptr, 32, 1},
    {"tiled U 8, 3 blocks/SM, tile 32", tiled<8, 3>(), nullptr, 32, 1},
    {"tiled U 4, 3 blocks/SM, tile 32, 4 images", tiled<4, 3>(), nullptr, 32, 4},
    {"tiled U 4, 3 blocks/SM, tile 64", tiled<4, 3>(), nullptr, 64, 1},
    {"tiled U 8, 3 blocks/SM, tile 64", tiled<8, 3>(), nullptr, 64, 1},
    {"tiled U 8, 3 blocks/SM, tile 64, 2 images", tiled<8, 3>(), nullptr, 64, 2},
    {"tiled U 8, 3 blocks/SM, tile 64, 4 images", tiled<8, 3>(), nullptr, 64, 4},
    {"tiled U 8, 2 blocks/SM, tile 128", tiled<8, 2>(), nullptr, 128, 1},
    {"staged U 4, 1 image", nullptr, staged<4>(), 32, 1},
    {"staged U 4, 2 images", nullptr, staged<4>(), 32, 2},
    {"staged U 4, 4 images", nullptr, staged<4>(), 32, 4},
    {"staged U 4, 8 images", nullptr, staged<4>(), 32, 8},
    {"staged U 2, 1 image", nullptr, staged<2>(), 32, 1},
    {"staged U 2, 4 images", nullptr, staged<2>(), 32, 4},
    {"staged U 8, 1 image", nullptr, staged<8>(), 32, 1},
    {"staged U 8, 4 images", nullptr, staged<8>(), 32, 4},
};

constexpr int kBigSmem = 100 * 1024; // the tile-128 variants opt in past the default 48 KiB

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
    const TvJob j = tvJobOf(p.src, OH, OW, 0, 0, OH, OW, p.torchMode);
    const float copyUs = timeIt([&](int i) { CK(cudaMemcpyAsync(buf.copyDst[i % 2], buf.src[i % kSets], (srcBytes + dstBytes) / 2, cudaMemcpyDeviceToDevice, st)); }, st);
    std::printf("%s, 64x3x1080x1920 uint8 NCHW -> 256x455 antialiased bilinear, GPU us per call (median of 9 batches of 5)\n",
                [] { static cudaDeviceProp d; CK(cudaGetDeviceProperties(&d, 0)); return d.name; }());
    std::printf("%-48s %6s %6s %9s %9s %7s\n", "kernel", "regs", "local", "smem B", "us", "copy/x");
    int bad = 0;
    std::vector<uint8_t> want(dstBytes), got(dstBytes);
    const auto check = [&](const char *what) {
        CK(cudaMemcpyAsync(got.data(), buf.out, dstBytes, cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        const bool same = std::memcmp(want.data(), got.data(), dstBytes) == 0;
        if (!same) std::printf("%s: OUTPUT DIFFERS from the reference row's\n", what);
        bad += same ? 0 : 1;
    };
    for (const Variant &v : kVariants) {
        TvTileShape s{};
        if (!planJob(j, true, s, v.tileH, kBigSmem) || s.tileH != v.tileH) {
            std::printf("%-48s does not fit %d bytes of shared memory\n", v.what, kBigSmem);
            continue;
        }
        if (v.staged) { // the library's plan with its stages (planTvStage), whether or not the library stages by default
            s = lib;
            if (s.stagePitch == 0) planTvStage(j, params(0, reinterpret_cast<char *>(buf.out)).src, kResizeU8, s);
            if (s.stagePitch == 0) {
                std::printf("%-48s skipped: planTvStage does not stage this row\n", v.what);
                continue;
            }
        }
        const void *k = v.tiled ? reinterpret_cast<const void *>(v.tiled) : reinterpret_cast<const void *>(v.staged);
        if (s.smemBytes > kTileSmemLimit) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, s.smemBytes));
        dim3 grid = tvGrid(j, s, N);
        grid.z = static_cast<unsigned>((N + v.images - 1) / v.images);
        cudaFuncAttributes a{};
        CK(cudaFuncGetAttributes(&a, k));
        const auto launch = [&](int set, uint8_t *dst) {
            const ResizeParams q = params(set, reinterpret_cast<char *>(dst));
            if (v.tiled)
                v.tiled<<<grid, kTvThreads, s.smemBytes, st>>>(j, q.src, PlainOut<uint8_t>{q.dst}, s, wordRows(q.src, q.type));
            else
                v.staged<<<grid, kTvThreads, s.smemBytes, st>>>(j, q.src, PlainOut<uint8_t>{q.dst}, s);
            CK(cudaGetLastError());
        };
        CK(cudaMemsetAsync(buf.out, 0xA5, dstBytes, st));
        launch(0, buf.out);
        if (&v == &kVariants[0]) {
            CK(cudaMemcpyAsync(want.data(), buf.out, dstBytes, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
        }
        check(v.what);
        const float us = timeIt([&](int i) { launch(i % kSets, buf.dst[i % kSets]); }, st);
        std::printf("%-48s %6d %6zu %9d %9.1f %7.2f\n", v.what, a.numRegs, a.localSizeBytes, s.smemBytes, us, copyUs / us);
    }
    CK(cudaMemsetAsync(buf.out, 0xA5, dstBytes, st));
    CK(launchTvResizeTiled(params(0, reinterpret_cast<char *>(buf.out)), lib, st));
    check("launchTvResizeTiled");
    const float libUs = timeIt([&](int i) { CK(launchTvResizeTiled(params(i % kSets, reinterpret_cast<char *>(buf.dst[i % kSets])), lib, st)); }, st);
    std::printf("%-48s %6s %6s %9d %9.1f %7.2f  (%s)\n", "launchTvResizeTiled (library)", "", "", lib.smemBytes, libUs, copyUs / libUs,
                lib.stagePitch ? "staged" : "tiled");
    std::printf("copy of the bytes read once and written once: %.1f us\n", copyUs);
    return bad == 0 ? 0 : 1;
}
