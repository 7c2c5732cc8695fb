// Per-device facts the launches ask once and keep: perDeviceValue, a query's answer cached per device, and
// sm90CodeOnDevice, whether the code CUDA picked for a kernel on the current device was compiled from sm_90 PTX or later
// (cudaFuncAttributes::ptxVersion), so that its sm_90-only instructions are there: the bulk copies (bulk_copy.cuh),
// which trap in older code, and the wait of a programmatic dependent launch (overlap_launch.cuh), which older code
// lacks. Not the device's compute capability: a build without sm_90 code runs older PTX there, JIT-compiled.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace cvk {

constexpr int kSm90CacheDevices = 64;
template <class T> using PerDevice = std::atomic<T>[kSm90CacheDevices]; // per device: 0 while not known

// The current device's entry of `cache`, from query(device) the first time (its answer must not be 0). 0 where the
// device is unknown or the query fails: then the failure's error is cleared, not left for the caller's launch to report
// as its own, and the query is made again next time.
template <class T, class Query> T perDeviceValue(PerDevice<T> &cache, Query query) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kSm90CacheDevices) {
        (void)cudaGetLastError();
        return T(0);
    }
    T v = cache[device].load(std::memory_order_relaxed);
    if (v == T(0)) {
        v = query(device);
        if (v == T(0)) {
            (void)cudaGetLastError();
            return v;
        }
        cache[device].store(v, std::memory_order_relaxed);
    }
    return v;
}

// One cache per kernel family (its instantiations are built for the same targets).
using Sm90CodeCache = PerDevice<int8_t>; // 1 no, 2 yes

inline bool sm90CodeOnDevice(const void *kernel, Sm90CodeCache &known) {
    return perDeviceValue(known, [kernel](int) -> int8_t {
               cudaFuncAttributes a{};
               if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) return 0;
               return a.ptxVersion >= 90 ? 2 : 1;
           }) == 2;
}

} // namespace cvk
