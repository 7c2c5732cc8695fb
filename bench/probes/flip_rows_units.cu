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
// front is read: no fewer registers, the same time); logs/probe-flip_rows_piped.log (flipRowsPiped below, the next
// units' loads in flight during this one's reversal and stores: 22.85 µs at best against 22.44 as built, copy 21.11).
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

// flipColumnRows (FlipRows false) with a ring of B stages a warp: the copies of the warp's next B - 1 units are in
// flight while it reverses and stores this one (cp.async groups, one a unit), where flipColumnRows waits for each
// unit's loads with nothing else of its own in flight. Dynamic shared memory: 8 warps x B x spanVectors vectors.
__device__ __forceinline__ void commitShared() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void waitSharedGroups() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

template <int P, int B>
__global__ void __launch_bounds__(kBlockThreads, 4) flipRowsPiped(FlipParams p, int64_t rowBytes, int rowsPerUnit, int spanVectors) {
    using Shape = GroupShape<P>;
    constexpr int G = Shape::G, V = Shape::V;
    extern __shared__ uint4 pipedStage[];
    uint4 *ring = pipedStage + (threadIdx.x / kWarp) * B * spanVectors;
    const int64_t height = p.shape[kHeight];
    const int64_t blocksPerPlane = (height + rowsPerUnit - 1) / rowsPerUnit;
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * blocksPerPlane;
    const int rowVectors = static_cast<int>(rowBytes / 16), groups = static_cast<int>(rowBytes / G);
    const int halfGroups = (groups + 1) / 2;
    const WarpLoop loop;
    const int l = lane();
    struct Unit {
        const char *s;
        char *d;
        int count;
    };
    auto unitOf = [&](int64_t u) {
        int64_t block, o0;
        const int64_t plane = divmod(u, blocksPerPlane, block);
        const int64_t o1 = divmod(plane, p.shape[kOuter0], o0);
        const int64_t h0 = block * rowsPerUnit;
        Unit r;
        r.count = static_cast<int>(height - h0 < rowsPerUnit ? height - h0 : rowsPerUnit);
        r.s = p.src + o1 * p.srcStrides[kOuter1] + o0 * p.srcStrides[kOuter0] + h0 * rowBytes;
        r.d = p.dst + o1 * p.dstStrides[kOuter1] + o0 * p.dstStrides[kOuter0] + h0 * rowBytes;
        return r;
    };
    auto issue = [&](int64_t u, uint4 *span) {
        if (u < units) {
            const Unit t = unitOf(u);
            const int vectors = t.count * rowVectors;
            for (int i = l; i < vectors; i += kWarp) copyToShared(&span[i], t.s + 16 * int64_t(i));
        }
        commitShared();
    };
#pragma unroll
    for (int b = 0; b < B - 1; ++b) issue(loop.first + b * loop.step, ring + b * spanVectors);
    int k = 0;
    for (int64_t u = loop.first; u < units; u += loop.step) {
        issue(u + (B - 1) * loop.step, ring + ((k + B - 1) % B) * spanVectors);
        waitSharedGroups<B - 1>();
        __syncwarp();
        uint4 *span = ring + (k % B) * spanVectors;
        const Unit t = unitOf(u);
        for (int q = l; q < t.count * halfGroups; q += kWarp) {
            const int j = static_cast<int>(static_cast<unsigned>(q) / static_cast<unsigned>(halfGroups)), kk = q - j * halfGroups;
            uint4 *front = &span[j * rowVectors + kk * V], *back = &span[j * rowVectors + (groups - 1 - kk) * V];
            uint32_t x[G / 4], y[G / 4], r[G / 4];
#pragma unroll
            for (int v = 0; v < V; ++v) {
                const uint4 f = front[v], b = back[v];
                x[4 * v] = f.x, x[4 * v + 1] = f.y, x[4 * v + 2] = f.z, x[4 * v + 3] = f.w;
                y[4 * v] = b.x, y[4 * v + 1] = b.y, y[4 * v + 2] = b.z, y[4 * v + 3] = b.w;
            }
            reversePixels<P, G>(y, r);
#pragma unroll
            for (int v = 0; v < V; ++v) front[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
            reversePixels<P, G>(x, r);
#pragma unroll
            for (int v = 0; v < V; ++v) back[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
        }
        __syncwarp();
        const int vectors = t.count * rowVectors;
        for (int i = l; i < vectors; i += kWarp) storeBytes<16>(t.d + 16 * int64_t(i), span[i]);
        __syncwarp(); // the slot is refilled B - 1 units on
        ++k;
    }
    waitSharedGroups<0>();
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
        if (!rowsMirrored)
            for (int rows : {2, 3, 4})
                for (int B : {2, 3})
                    for (int grid : {0, 1}) {
                        const int spanVectors = rows * int(w * c / 16);
                        const int smem = cvk::kWarpsPerBlock * B * spanVectors * 16;
                        auto kernel = B == 2 ? flipRowsPiped<3, 2> : flipRowsPiped<3, 3>;
                        CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
                        int perSm = 0, sms = 0;
                        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, cvk::kBlockThreads, smem));
                        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
                        char v[64];
                        std::snprintf(v, sizeof v, "piped rows %d, %d stages, %s (%d/SM)", rows, B, grid == 0 ? "per unit" : "1 wave", perSm);
                        vs.push_back({v, [=](const FlipParams &p0, cudaStream_t s) {
                                          const FlipParams p = planFlipKernel(p0).params;
                                          const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * ceilDiv(p.shape[kHeight], rows);
                                          const unsigned g = grid == 0 ? flipLaunchShape(units).grid : unsigned(sms * perSm);
                                          kernel<<<g, cvk::kBlockThreads, smem, s>>>(p, w * c, rows, spanVectors);
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
