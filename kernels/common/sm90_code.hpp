// Whether the code CUDA picked for a kernel on the current device was compiled from sm_90 PTX or later
// (cudaFuncAttributes::ptxVersion), so that its sm_90-only instructions are there: the bulk copies (bulk_copy.cuh),
// which trap in older code, and the wait of a programmatic dependent launch (overlap_launch.cuh), which older code
// lacks. Not the device's compute capability: a build without sm_90 code runs older PTX there, JIT-compiled. Asked
// once per device and kept in the caller's cache (one per kernel family: its instantiations are built for the same
// targets).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace cvk {

constexpr int kSm90CacheDevices = 64;
using Sm90CodeCache = std::atomic<int8_t>[kSm90CacheDevices]; // per device: 0 unknown, 1 no, 2 yes

inline bool sm90CodeOnDevice(const void *kernel, Sm90CodeCache &known) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kSm90CacheDevices) return false;
    int8_t k = known[device].load(std::memory_order_relaxed);
    if (k == 0) {
        cudaFuncAttributes a{};
        if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) {
            (void)cudaGetLastError(); // not left for the caller's launch to report as its own; asked again next time
            return false;
        }
        k = a.ptxVersion >= 90 ? 2 : 1;
        known[device].store(k, std::memory_order_relaxed);
    }
    return k == 2;
}

} // namespace cvk
