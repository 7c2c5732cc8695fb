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
// and stores, 22.85 µs at best against 22.44 as built, copy 21.11).
// Build and run from the repository root:
//   nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 20013 -I kernels -I include -o /tmp/flip_rows_units \
//        bench/probes/flip_rows_units.cu kernels/copy.cu && /tmp/flip_rows_units
#include "flip.cu"
#include "common/bulk_copy.cuh"
#include "probe_timing.cuh"

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
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

// Experiment: whole-row units staged by bulk copies (common/bulk_copy.cuh). A block owns S stages of shared memory,
// each one unit of up to rowsPerUnit rows (one contiguous span): thread 0 loads a unit with one bulk copy completing
// on the stage's mbarrier, every thread waits on it, the block reverses the span's group pairs in place (as
// flipColumnRows does), fences (its writes before the async proxy's reads), meets at a barrier, and thread 0 stores
// the span with one bulk store, then refills the stage with the block's unit S units on once that store has read it
// (Deferred: refills the stage of the previous unit instead, whose store has had a unit's time to read it).
template <int P, bool FlipRows, int S, bool Deferred>
__global__ void __launch_bounds__(256) flipRowsBulk(FlipParams p, int64_t rowBytes, int rowsPerUnit) {
    using Shape = GroupShape<P>;
    constexpr int G = Shape::G, V = Shape::V;
    extern __shared__ uint4 bulkStage[];
    const int stageVectors = static_cast<int>(rowsPerUnit * rowBytes / 16);
    uint64_t *full = reinterpret_cast<uint64_t *>(bulkStage + S * stageVectors);
    const int64_t height = p.shape[kHeight];
    const int64_t blocksPerPlane = (height + rowsPerUnit - 1) / rowsPerUnit;
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * blocksPerPlane;
    const int rowVectors = static_cast<int>(rowBytes / 16), groups = static_cast<int>(rowBytes / G);
    const int halfGroups = (groups + 1) / 2;
    const int tid = static_cast<int>(threadIdx.x), nthreads = static_cast<int>(blockDim.x);
    struct Unit {
        const char *s;
        char *d;
        int count;
    };
    auto unitAt = [&](int64_t u) {
        int64_t block, o0;
        const int64_t plane = divmod(u, blocksPerPlane, block);
        const int64_t o1 = divmod(plane, p.shape[kOuter0], o0);
        const int64_t h0 = block * rowsPerUnit;
        Unit r;
        r.count = static_cast<int>(height - h0 < rowsPerUnit ? height - h0 : rowsPerUnit);
        const int64_t s0 = FlipRows ? height - h0 - r.count : h0;
        r.s = p.src + o1 * p.srcStrides[kOuter1] + o0 * p.srcStrides[kOuter0] + s0 * rowBytes;
        r.d = p.dst + o1 * p.dstStrides[kOuter1] + o0 * p.dstStrides[kOuter0] + h0 * rowBytes;
        return r;
    };
    const int64_t step = gridDim.x;
    if (tid == 0) {
        for (int k = 0; k < S; ++k) bulkBarrierInit(full + k);
        bulkBarrierInitFence();
        for (int k = 0; k < S; ++k) {
            const int64_t u = blockIdx.x + k * step;
            if (u < units) {
                const Unit r = unitAt(u);
                bulkCopy(reinterpret_cast<uint8_t *>(bulkStage + k * stageVectors), reinterpret_cast<const uint8_t *>(r.s),
                         uint32_t(r.count * rowBytes), full + k);
            }
        }
    }
    __syncthreads();
    int k = 0, prev = -1;
    int64_t prevU = -1;
    uint32_t phase = 0;
    for (int64_t u = blockIdx.x; u < units; u += step) {
        const Unit r = unitAt(u);
        uint4 *span = bulkStage + k * stageVectors;
        bulkWait(full + k, phase);
        const int total = FlipRows ? r.count * groups : groups, half = FlipRows ? (total + 1) / 2 : halfGroups;
        for (int q = tid; q < (FlipRows ? half : r.count * halfGroups); q += nthreads) {
            const int j = FlipRows ? 0 : q / halfGroups, kk = q - j * half;
            uint4 *front = &span[j * rowVectors + kk * V], *back = &span[j * rowVectors + (total - 1 - kk) * V];
            uint32_t x[G / 4], y[G / 4], o[G / 4];
#pragma unroll
            for (int v = 0; v < V; ++v) {
                const uint4 f = front[v], b = back[v];
                x[4 * v] = f.x, x[4 * v + 1] = f.y, x[4 * v + 2] = f.z, x[4 * v + 3] = f.w;
                y[4 * v] = b.x, y[4 * v + 1] = b.y, y[4 * v + 2] = b.z, y[4 * v + 3] = b.w;
            }
            reversePixels<P, G>(y, o);
#pragma unroll
            for (int v = 0; v < V; ++v) front[v] = make_uint4(o[4 * v], o[4 * v + 1], o[4 * v + 2], o[4 * v + 3]);
            reversePixels<P, G>(x, o);
#pragma unroll
            for (int v = 0; v < V; ++v) back[v] = make_uint4(o[4 * v], o[4 * v + 1], o[4 * v + 2], o[4 * v + 3]);
        }
        bulkProxyFence();
        __syncthreads();
        if (tid == 0) {
            bulkStore(r.d, span, uint32_t(r.count * rowBytes));
            bulkStoreCommit();
            const int refill = Deferred ? prev : k;
            const int64_t next = (Deferred ? prevU : u) + S * step;
            if (refill >= 0 && (Deferred ? prevU >= 0 : true) && next < units) {
                if (Deferred) bulkStoreWaitRead<1>();
                else bulkStoreWaitRead<0>();
                const Unit n = unitAt(next);
                bulkCopy(reinterpret_cast<uint8_t *>(bulkStage + refill * stageVectors), reinterpret_cast<const uint8_t *>(n.s),
                         uint32_t(n.count * rowBytes), full + refill);
            }
        }
        prev = k, prevU = u;
        if (++k == S) k = 0, phase ^= 1u;
    }
    if (Deferred && tid == 0 && prevU >= 0) { // the last unit's stage was never refilled: its successor, if any
        const int64_t next = prevU + S * step;
        if (next < units) {
            bulkStoreWaitRead<0>();
            const Unit n = unitAt(next);
            bulkCopy(reinterpret_cast<uint8_t *>(bulkStage + prev * stageVectors), reinterpret_cast<const uint8_t *>(n.s), uint32_t(n.count * rowBytes),
                     full + prev);
        }
    }
    if (tid == 0) bulkStoreWait<0>(); // the stores read shared memory until they complete
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
        struct BulkShape {
            int stages, rows, threads;
            bool deferred;
        };
        for (const BulkShape b : {BulkShape{6, 6, 128, true}, BulkShape{6, 6, 128, false}, BulkShape{8, 4, 128, true}, BulkShape{6, 8, 128, true},
                                  BulkShape{4, 8, 128, true}, BulkShape{8, 6, 128, true}, BulkShape{6, 6, 64, true}, BulkShape{6, 4, 128, true},
                                  BulkShape{6, 6, 128, true}}) {
            char v[64];
            std::snprintf(v, sizeof v, "bulk S%d rows %d T%d%s", b.stages, b.rows, b.threads, b.deferred ? " deferred" : "");
            vs.push_back({v, [=](const FlipParams &p0, cudaStream_t s) {
                              const FlipParams p = rowsMirrored ? p0 : planFlipKernel(p0).params;
                              const int smem = int(b.stages * b.rows * w * c) + 8 * b.stages;
                              auto launch = [&](auto kernel) {
                                  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
                                  int perSm = 0, sms = 0;
                                  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, b.threads, smem));
                                  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
                                  kernel<<<unsigned(perSm * sms), b.threads, smem, s>>>(p, w * c, b.rows);
                                  CK(cudaGetLastError());
                              };
                              auto pick = [&](auto deferredTag) {
                                  constexpr bool D = decltype(deferredTag)::value;
                                  switch (b.stages) {
                                  case 2: return rowsMirrored ? launch(flipRowsBulk<3, true, 2, D>) : launch(flipRowsBulk<3, false, 2, D>);
                                  case 3: return rowsMirrored ? launch(flipRowsBulk<3, true, 3, D>) : launch(flipRowsBulk<3, false, 3, D>);
                                  case 4: return rowsMirrored ? launch(flipRowsBulk<3, true, 4, D>) : launch(flipRowsBulk<3, false, 4, D>);
                                  case 6: return rowsMirrored ? launch(flipRowsBulk<3, true, 6, D>) : launch(flipRowsBulk<3, false, 6, D>);
                                  default: return rowsMirrored ? launch(flipRowsBulk<3, true, 8, D>) : launch(flipRowsBulk<3, false, 8, D>);
                                  }
                              };
                              if (b.deferred) pick(std::true_type{});
                              else pick(std::false_type{});
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
