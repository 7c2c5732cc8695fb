#include "busy.hpp"

namespace cvtest {
namespace {

__device__ uint64_t globalTimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}

__global__ void busyFill(uint64_t nanoseconds, uint8_t *buf, size_t bytes, uint8_t value) {
    if (nanoseconds > 0) {
        if (threadIdx.x == 0) {
            const uint64_t start = globalTimer();
            while (globalTimer() - start < nanoseconds) {
            }
        }
        __syncthreads();
    }
    // One block spins then fills, so the write strictly follows the wait.
    for (size_t i = threadIdx.x; i < bytes; i += blockDim.x) buf[i] = value;
}

} // namespace

cudaError_t launchBusyFill(cudaStream_t stream, uint64_t nanoseconds, void *buf, size_t bytes, uint8_t value) {
    busyFill<<<1, 1024, 0, stream>>>(nanoseconds, static_cast<uint8_t *>(buf), bytes, value);
    return cudaGetLastError();
}

cudaError_t launchSpin(cudaStream_t stream, uint64_t nanoseconds) {
    busyFill<<<1, 32, 0, stream>>>(nanoseconds, nullptr, 0, 0);
    return cudaGetLastError();
}

} // namespace cvtest
