// Thread level, host and device: moving bytes between registers (funnel shift, byte permute), for code that the
// CPU tests also run.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

// The 4 bytes starting at byte `shift / 8` of the little-endian pair (lo, hi) (shift < 32).
__host__ __device__ __forceinline__ uint32_t funnelRight(uint32_t lo, uint32_t hi, uint32_t shift) {
#ifdef __CUDA_ARCH__
    return __funnelshift_r(lo, hi, shift);
#else
    return static_cast<uint32_t>(((uint64_t(hi) << 32) | lo) >> (shift & 31));
#endif
}

// Byte n of the result is byte ((s >> 4n) & 7) of the little-endian pair (x, y): PTX prmt in its default mode.
__host__ __device__ __forceinline__ uint32_t bytePerm(uint32_t x, uint32_t y, uint32_t s) {
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, s);
#else
    const uint64_t pair = (uint64_t(y) << 32) | x;
    uint32_t r = 0;
    for (int n = 0; n < 4; ++n) r |= static_cast<uint32_t>((pair >> (8 * ((s >> (4 * n)) & 7))) & 0xffu) << (8 * n);
    return r;
#endif
}

// acc plus the sum over k of byte k of `bytes` times byte k of `weights`, all unsigned: PTX dp4a.u32.u32, one
// instruction for four bytes.
__host__ __device__ __forceinline__ uint32_t byteDot(uint32_t bytes, uint32_t weights, uint32_t acc) {
#ifdef __CUDA_ARCH__
    return __dp4a(bytes, weights, acc);
#else
    for (int k = 0; k < 4; ++k) acc += ((bytes >> (8 * k)) & 0xffu) * ((weights >> (8 * k)) & 0xffu);
    return acc;
#endif
}

} // namespace cvk
