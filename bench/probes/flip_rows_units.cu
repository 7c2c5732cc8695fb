// Microbenchmark of the whole-row flip kernel (flipColumnRows, kernels/flip.cu, included here so that its kernels can
// be launched with other shapes) on 256x224x224x3 uint8, the benchmark's small-image batch: flipCode 1 with 1 to 4 rows
// a warp unit and the grid as launchColumnRows sizes it or a persistent one (1 or 2 waves of resident blocks); and
// flipCode -1 as the library runs it (rows merged into one long row per image, the group kernel) against a whole-row
// kernel that reverses each unit's span of rows whole (the rows mirrored within their image, each row mirrored). GPU
// time per call (CUDA events, calls queued behind a spin kernel, 4 buffer sets rotated) against a cudaMemcpyAsync of
// the same bytes; every variant's output compared byte for byte with launchFlip's (exit 1 on any mismatch). The
// span-reversed units with 4 rows (22.63 µs against 23.39, logs/probe-flip_rows_units.log) are flipColumnRows' FlipRows
// now, which launchFlip takes for such flips; spanRows here is the kernel as it was measured. Also flipCode 1 with 5, 6
// and 8 blocks an SM forced (__launch_bounds__; spills: 24.9, 29.9, 44.1 µs against 22.7) and with a group pair's
// back group reversed before its front is read (no fewer registers, the same time):
// logs/probe-flip_rows_units-residency.log.
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

// flipColumnRows with the unit's rows taken mirrored within their plane (FlipRows): the unit's source span is rows
// [h - h0 - count, h - h0), which reversed whole (group k with group count * groups - 1 - k) is rows h0.. of the
// flipped image, each mirrored.
template <int P, bool FlipRows, int MB = 4, bool BackFirst = false>
__global__ void __launch_bounds__(kBlockThreads, MB) spanRows(FlipParams p, int64_t rowBytes, int rowsPerUnit) {
    using Shape = GroupShape<P>;
    constexpr int G = Shape::G, V = Shape::V, spanVectors = stageVectors(V);
    __shared__ uint4 stage[kWarpsPerBlock][spanVectors];
    uint4(&span)[spanVectors] = stage[threadIdx.x / kWarp];
    const int64_t height = p.shape[kHeight];
    const int64_t blocksPerPlane = (height + rowsPerUnit - 1) / rowsPerUnit;
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * blocksPerPlane;
    const int rowVectors = static_cast<int>(rowBytes / 16), groups = static_cast<int>(rowBytes / G);
    const WarpLoop loop;
    const int l = lane();
    for (int64_t u = loop.first; u < units; u += loop.step) {
        int64_t block, o0;
        const int64_t plane = divmod(u, blocksPerPlane, block);
        const int64_t o1 = divmod(plane, p.shape[kOuter0], o0);
        const int64_t h0 = block * rowsPerUnit;
        const int count = static_cast<int>(height - h0 < rowsPerUnit ? height - h0 : rowsPerUnit);
        const int64_t s0 = FlipRows ? height - h0 - count : h0;
        const char *s = p.src + o1 * p.srcStrides[kOuter1] + o0 * p.srcStrides[kOuter0] + s0 * rowBytes;
        char *d = p.dst + o1 * p.dstStrides[kOuter1] + o0 * p.dstStrides[kOuter0] + h0 * rowBytes;
        const int vectors = count * rowVectors;
#pragma unroll 4
        for (int i = l; i < spanVectors; i += kWarp)
            if (i < vectors) copyToShared(&span[i], s + 16 * int64_t(i));
        waitShared();
        __syncwarp();
        const int total = FlipRows ? count * groups : groups, half = (total + 1) / 2;
        for (int q = l; q < (FlipRows ? half : count * half); q += kWarp) {
            const int j = FlipRows ? 0 : q / half, k = q - j * half;
            uint4 *front = &span[j * rowVectors + k * V], *back = &span[j * rowVectors + (total - 1 - k) * V];
            uint32_t x[G / 4], y[G / 4], r[G / 4];
            if constexpr (BackFirst) {
                // back reversed before front is read: 24 words live at most instead of 36.
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint4 b = back[v];
                    y[4 * v] = b.x, y[4 * v + 1] = b.y, y[4 * v + 2] = b.z, y[4 * v + 3] = b.w;
                }
                reversePixels<P, G>(y, r);
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint4 f = front[v];
                    x[4 * v] = f.x, x[4 * v + 1] = f.y, x[4 * v + 2] = f.z, x[4 * v + 3] = f.w;
                }
            } else {
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint4 f = front[v], b = back[v];
                    x[4 * v] = f.x, x[4 * v + 1] = f.y, x[4 * v + 2] = f.z, x[4 * v + 3] = f.w;
                    y[4 * v] = b.x, y[4 * v + 1] = b.y, y[4 * v + 2] = b.z, y[4 * v + 3] = b.w;
                }
                reversePixels<P, G>(y, r);
            }
#pragma unroll
            for (int v = 0; v < V; ++v) front[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
            reversePixels<P, G>(x, r);
#pragma unroll
            for (int v = 0; v < V; ++v) back[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
        }
        __syncwarp();
#pragma unroll 4
        for (int i = l; i < spanVectors; i += kWarp)
            if (i < vectors) storeBytes<16>(d + 16 * int64_t(i), span[i]);
        __syncwarp();
    }
}

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
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, spanRows<3, false>, kBlockThreads, 0));
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
                                  if (rowsMirrored) spanRows<3, true><<<g, cvk::kBlockThreads, 0, s>>>(p, w * c, rows);
                                  else spanRows<3, false><<<g, cvk::kBlockThreads, 0, s>>>(p, w * c, rows);
                                  CK(cudaGetLastError());
                              }});
            }
        // Residency: 4 blocks an SM as built (64 registers); 5, 6 and 8 forced (with spills), back-first order.
        if (!rowsMirrored) {
            const auto add = [&](const char *label, void (*k)(FlipParams, int64_t, int)) {
                vs.push_back({label, [=](const FlipParams &p0, cudaStream_t s) {
                                  const FlipParams p = planFlipKernel(p0).params;
                                  const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * ceilDiv(p.shape[kHeight], 4);
                                  k<<<flipLaunchShape(units).grid, cvk::kBlockThreads, 0, s>>>(p, w * c, 4);
                                  CK(cudaGetLastError());
                              }});
            };
            add("whole-row rows 4, 5 blocks/SM", &spanRows<3, false, 5>);
            add("whole-row rows 4, 6 blocks/SM", &spanRows<3, false, 6>);
            add("whole-row rows 4, 8 blocks/SM", &spanRows<3, false, 8>);
            add("whole-row rows 4, back first", &spanRows<3, false, 4, true>);
            add("whole-row rows 4, back first 5/SM", &spanRows<3, false, 5, true>);
            add("whole-row rows 4, back first 6/SM", &spanRows<3, false, 6, true>);
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
