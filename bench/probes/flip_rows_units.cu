// Microbenchmark of the whole-row flip kernel (flipColumnRows, kernels/flip.cu, included here so that its kernels can
// be launched with other shapes) on 256x224x224x3 uint8, the benchmark's small-image batch: flipCode 1 with 1 to 4 rows
// a warp unit and the grid as launchColumnRows sizes it or a persistent one (1 or 2 waves of resident blocks); and
// flipCode -1 with span-reversed whole-row units (FlipRows) the same ways, against launchFlip as built. GPU time per
// call (CUDA events, calls queued behind a spin kernel, 4 buffer sets rotated) against a cudaMemcpyAsync of the same
// bytes; every variant's output compared byte for byte with launchFlip's (exit 1 on any mismatch).
// Measured on an H200: logs/probe-flip_rows_units.log (flipCode -1 as built was then the long merged row per image,
// 23.39 µs, against 22.63 for span-reversed units of 4 rows, which launchFlip now takes) and
// logs/probe-flip_rows_units-residency.log (a copy of the kernel, since removed, with 5, 6 and 8 blocks an SM forced by
// __launch_bounds__: spills, 24.9, 29.9, 44.1 µs against 22.7; and with a group pair's back group reversed before its
// front is read: no fewer registers, the same time); logs/probe-flip_rows_piped.log (flipRowsPiped, in this probe at
// 5600605 and since removed: a ring of 2-3 stages a warp, the next units' loads in flight during this one's reversal
// and stores, 22.85 µs at best against 22.44 as built, copy 21.11); logs/probe-flip_rows_bulk.log (flipRowsBulk's
// experiment, in this probe at the commit that adds that log: stages of whole-row units staged by bulk copies, which
// launchFlip now takes from sm_90 on, so "launchFlip as built" is that kernel there).
// Build and run from the repository root:
//   nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 20013 -I kernels -I include -o /tmp/flip_rows_units \
//        bench/probes/flip_rows_units.cu kernels/copy.cu && /tmp/flip_rows_units
#include "flip.cu"
#include "probe_timing.cuh"

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace cvk {
namespace {

FlipParams nhwc(int64_t n, int64_t h, int64_t w, int64_t c, int flipCode, const char *src, char *dst) {
    FlipParams p{};
    p.src = src;
    p.dst = dst;
    const int64_t row = w * c;
    const int64_t shape[5] = {1, n, h, w, c}, strides[5] = {n * h * row, h * row, row, c, 1};
    for (int i = 0; i < 5; ++i) p.shape[i] = shape[i], p.srcStrides[i] = p.dstStrides[i] = strides[i];
    p.elemSize = 1;
    p.flipRows = flipCode <= 0;
    p.flipCols = flipCode != 0;
    return p;
}

// Blocks of 8 warps resident on the GPU at once (flipColumnRows: 24 KiB of stage a block, 8 blocks an SM).
unsigned residentBlocks() {
    int sms = 0, perSm = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, flipColumnRows<3, false>, kBlockThreads, 0));
    return unsigned(sms * perSm);
}

} // namespace
} // namespace cvk

using namespace cvk;

int main() {
    constexpr int64_t n = 256, h = 224, w = 224, c = 3, bytes = n * h * w * c;
    std::vector<char *> src(4), dst(4);
    char *want;
    for (int i = 0; i < 4; ++i) {
        CK(cudaMalloc(&src[i], bytes));
        CK(cudaMalloc(&dst[i], bytes));
        fillRandom<<<1024, 256>>>(reinterpret_cast<uint8_t *>(src[i]), size_t(bytes), 99 + i);
    }
    CK(cudaMalloc(&want, bytes));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    const unsigned resident = residentBlocks();
    std::vector<char> a(bytes), b(bytes);
    int64_t failures = 0;
    std::printf("resident blocks of 8 warps: %u\n%-30s %-34s %9s %8s %10s\n", resident, "case", "variant", "us/call", "x copy", "mismatches");
    for (int flipCode : {1, -1}) {
        char name[64];
        std::snprintf(name, sizeof name, "256x224x224x3 fc%d", flipCode);
        const float copyUs = timeIt([&](int i) { CK(cudaMemcpyAsync(dst[i % 4], src[i % 4], bytes, cudaMemcpyDeviceToDevice, st)); }, st, 40, 8000);
        std::printf("%-30s %-34s %9.2f %8.2f %10s\n", name, "cudaMemcpyAsync", copyUs, 1.0, "-");
        CK(launchFlip(nhwc(n, h, w, c, flipCode, src[0], want), st));
        CK(cudaMemcpyAsync(a.data(), want, bytes, cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        struct Variant {
            std::string name;
            std::function<void(const FlipParams &, cudaStream_t)> run;
        };
        std::vector<Variant> vs;
        vs.push_back({"launchFlip as built", [](const FlipParams &p, cudaStream_t s) { CK(launchFlip(p, s)); }});
        const bool rowsMirrored = flipCode <= 0;
        for (int rows : {1, 2, 3, 4})
            for (int grid : {0, 1, 2}) {
                char v[64];
                std::snprintf(v, sizeof v, "%s rows %d, grid %s", rowsMirrored ? "span-reversed" : "whole-row", rows,
                              grid == 0 ? "per unit" : grid == 1 ? "1 wave" : "2 waves");
                vs.push_back({v, [=](const FlipParams &p0, cudaStream_t s) {
                                  // fc1: the plan's view (images chained into one plane); fc-1: the images as they are.
                                  const FlipParams p = rowsMirrored ? p0 : planFlipKernel(p0).params;
                                  const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * ceilDiv(p.shape[kHeight], rows);
                                  const unsigned g = grid == 0 ? flipLaunchShape(units).grid : resident * grid;
                                  if (rowsMirrored) flipColumnRows<3, true><<<g, cvk::kBlockThreads, 0, s>>>(p, w * c, rows);
                                  else flipColumnRows<3, false><<<g, cvk::kBlockThreads, 0, s>>>(p, w * c, rows);
                                  CK(cudaGetLastError());
                              }});
            }
        for (const Variant &v : vs) {
            CK(cudaMemsetAsync(dst[0], 0xA5, bytes, st));
            v.run(nhwc(n, h, w, c, flipCode, src[0], dst[0]), st);
            CK(cudaMemcpyAsync(b.data(), dst[0], bytes, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
            int64_t bad = 0;
            for (int64_t i = 0; i < bytes; ++i) bad += a[i] != b[i];
            failures += bad;
            const float us = timeIt([&](int i) { v.run(nhwc(n, h, w, c, flipCode, src[i % 4], dst[i % 4]), st); }, st, 40, 8000);
            std::printf("%-30s %-34s %9.2f %8.2f %10lld\n", name, v.name.c_str(), us, us / copyUs, (long long)bad);
        }
    }
    std::printf("%s: %lld mismatched bytes in all\n", failures ? "FAIL" : "OK", (long long)failures);
    return failures ? 1 : 0;
}
