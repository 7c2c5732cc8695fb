// What the probes share: a CUDA-error check that ends the program, a random fill, and the timing loop (GPU time per
// call from CUDA events: 3 warm-up calls, then the median of 9 batches of `calls` calls queued back to back).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                                    \
    do {                                                                                                         \
        cudaError_t e_ = (x);                                                                                    \
        if (e_ != cudaSuccess) {                                                                                 \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);                 \
            std::exit(1);                                                                                        \
        }                                                                                                        \
    } while (0)

// Bytes [0, n / 8 * 8) of p from a splitmix64 sequence of `seed`.
__global__ void fillRandom(uint8_t *p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n / 8; i += size_t(gridDim.x) * blockDim.x) {
        uint64_t z = (i + seed) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        reinterpret_cast<uint64_t *>(p)[i] = z ^ (z >> 31);
    }
}

// Spins for `ns` nanoseconds of the GPU's global timer: calls queued behind it run back to back, so that a batch
// measures GPU time per call, not the host's launch rate.
__global__ void spinFor(uint64_t ns) {
    uint64_t t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < ns);
}

// µs per call of f(i) (i counts the calls, so f can rotate buffers) on stream st: 3 warm-up calls, median of 9
// batches of `calls`. spinNsPerCall > 0: each batch queued behind a spin of that many ns a call (plus 0.2 ms), for
// calls short enough that the host's launch rate would set the figure. i runs on across the warm-up and the batches,
// so a rotation of k buffer sets reuses a set only k calls later: restarting it at 0 in every batch had the first
// call of a batch read the set the previous batch's last call had just read, from L2 (one call in five, with 5 calls
// and 4 sets), which made the fused probe's figures up to 3 µs lower than the benchmark's.
template <class F> float timeIt(F &&f, cudaStream_t st, int calls = 5, uint64_t spinNsPerCall = 0) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    int n = 0;
    for (int i = 0; i < 3; ++i) f(n++);
    CK(cudaStreamSynchronize(st));
    std::vector<float> us;
    for (int batch = 0; batch < 9; ++batch) {
        if (spinNsPerCall > 0) spinFor<<<1, 1, 0, st>>>(uint64_t(calls) * spinNsPerCall + 200000);
        CK(cudaEventRecord(a, st));
        for (int i = 0; i < calls; ++i) f(n++);
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        us.push_back(ms * 1000.f / calls);
    }
    std::sort(us.begin(), us.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return us[4];
}

// The buffers of a resize probe: kSets random sources and destinations rotated past L2, a reference output and a
// checked output, and two copy destinations of (source + output) / 2 bytes for the copy limit.
template <int kSets> struct ResizeProbeBuffers {
    uint8_t *src[kSets], *dst[kSets], *ref, *out, *copyDst[2];
    ResizeProbeBuffers(size_t maxSrc, size_t maxDst) {
        for (int i = 0; i < kSets; ++i) {
            CK(cudaMalloc(&src[i], maxSrc));
            CK(cudaMalloc(&dst[i], maxDst));
            fillRandom<<<1024, 256>>>(src[i], maxSrc, 1 + 1000 * uint64_t(i));
        }
        CK(cudaMalloc(&ref, maxDst));
        CK(cudaMalloc(&out, maxDst));
        for (auto &c : copyDst) CK(cudaMalloc(&c, (maxSrc + maxDst) / 2 + 16));
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
};
