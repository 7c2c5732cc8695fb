// Thread level, host and device: the funnel shift, for code that the CPU tests also run.
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

} // namespace cvk
