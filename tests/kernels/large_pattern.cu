#include "large_pattern.hpp"

namespace cvtest {
namespace {

__global__ void fillKernel(uint8_t *buf, uint64_t bytes) {
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < bytes; i += uint64_t(gridDim.x) * blockDim.x)
        buf[i] = patternByte(i);
}

__global__ void checkKernel(const uint8_t *dst, int64_t n, int64_t h, int64_t w, int64_t c, int flipCode,
                            unsigned long long *mismatches) {
    const uint64_t bytes = uint64_t(n) * h * w * c;
    unsigned long long local = 0;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < bytes; i += uint64_t(gridDim.x) * blockDim.x)
        local += dst[i] != patternByte(flippedSourceIndex(i, n, h, w, c, flipCode));
    if (local != 0) atomicAdd(mismatches, local);
}

} // namespace

cudaError_t fillPattern(void *buf, uint64_t bytes) {
    fillKernel<<<4096, 256>>>(static_cast<uint8_t *>(buf), bytes);
    return cudaGetLastError();
}

cudaError_t countFlipMismatches(const void *dst, int64_t n, int64_t h, int64_t w, int64_t c, int flipCode,
                                uint64_t *mismatches) {
    unsigned long long *count = nullptr;
    cudaError_t err = cudaMalloc(&count, sizeof(*count));
    if (err != cudaSuccess) return err;
    unsigned long long host = 0;
    err = cudaMemset(count, 0, sizeof(*count));
    if (err == cudaSuccess) {
        checkKernel<<<4096, 256>>>(static_cast<const uint8_t *>(dst), n, h, w, c, flipCode, count);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpy(&host, count, sizeof(host), cudaMemcpyDeviceToHost);
    cudaFree(count);
    *mismatches = host;
    return err;
}

} // namespace cvtest
