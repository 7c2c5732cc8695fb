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

// acc plus the sum over k of byte k of `bytes` (unsigned) times signed 16-bit weight k, the weights in pairs: taps 0 and
// 1 in w01 (low and high halves), 2 and 3 in w23: PTX dp2a.lo and dp2a.hi (.s32.u32), two instructions for four
// products, exact integers.
__host__ __device__ __forceinline__ int32_t pairDot(uint32_t bytes, uint32_t w01, uint32_t w23, int32_t acc) {
#ifdef __CUDA_ARCH__
    int32_t d;
    asm("{\n\t.reg .s32 t;\n\tdp2a.lo.s32.u32 t, %1, %3, %4;\n\tdp2a.hi.s32.u32 %0, %2, %3, t;\n\t}"
        : "=r"(d)
        : "r"(w01), "r"(w23), "r"(bytes), "r"(acc));
    return d;
#else
    for (int k = 0; k < 4; ++k) {
        const uint32_t pair = k < 2 ? w01 : w23;
        acc += int32_t((bytes >> (8 * k)) & 0xffu) * int32_t(int16_t(uint16_t(pair >> (16 * (k & 1)))));
    }
    return acc;
#endif
}

} // namespace cvk
