// Whether a kernel that uses bulk copies (bulk_copy.cuh) can run on the current device: the code CUDA picked for it
// was compiled from sm_90 PTX or later (cudaFuncAttributes::ptxVersion). Not the device's compute capability: a build
// without sm_90 code runs older PTX there, JIT-compiled, in which the bulk-copy kernels trap. Asked once per device
// and kept in the caller's cache (one per kernel family: its instantiations are built for the same targets).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace cvk {

constexpr int kBulkCacheDevices = 64;
using BulkDeviceCache = std::atomic<int8_t>[kBulkCacheDevices]; // per device: 0 unknown, 1 no, 2 yes

inline bool bulkCodeOnDevice(const void *kernel, BulkDeviceCache &known) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kBulkCacheDevices) return false;
    int8_t k = known[device].load(std::memory_order_relaxed);
    if (k == 0) {
        cudaFuncAttributes a{};
        k = cudaFuncGetAttributes(&a, kernel) == cudaSuccess && a.ptxVersion >= 90 ? 2 : 1;
        known[device].store(k, std::memory_order_relaxed);
    }
    return k == 2;
}

} // namespace cvk
