// Thread level, host and device: loads of source bytes through the read-only path (__ldg) on the device, plain loads
// on the host, where the CPU tests run the same code. Only for memory that nothing writes during the kernel (a
// source never overlaps its destination).
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

__host__ __device__ __forceinline__ uint8_t loadByte(const uint8_t *p) {
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

// The 4 bytes at p, a 4-byte aligned address, as one little-endian word.
__host__ __device__ __forceinline__ uint32_t loadWord(const uint8_t *p) {
#ifdef __CUDA_ARCH__
    return __ldg(reinterpret_cast<const unsigned int *>(p));
#else
    return *reinterpret_cast<const uint32_t *>(p);
#endif
}

} // namespace cvk
