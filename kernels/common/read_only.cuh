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

// loadWord without allocating the line in L1 (ld.global.nc.L1::no_allocate, sm_70 on): for sparse gathers whose
// words are each read once, where allocating lines in L1 cost more than their few hits saved (the fused pass's pair
// kernel, resize_fused_pairs.cuh: 25.0 against 26.3 µs with __ldg on the ImageNet chain on an H200,
// logs/probe-fused_paths-pairvariants.log, "pv 32x4 L1:no_alloc" against "pairs(main)").
__host__ __device__ __forceinline__ uint32_t loadWordNoAllocate(const uint8_t *p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    uint32_t v;
    asm("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return loadWord(p);
#endif
}

} // namespace cvk
