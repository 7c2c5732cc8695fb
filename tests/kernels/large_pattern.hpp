// Device-side fill and check for tensors too large to copy to the host and compare there: the src is a hash of
// the byte index, and the check recomputes every expected dst byte from that hash. Independent of the library.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace cvtest {

// Byte i of the pattern (splitmix64 of i): neighbouring bytes differ, so a misplaced byte shows.
__host__ __device__ inline uint8_t patternByte(uint64_t i) {
    uint64_t z = i + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint8_t>(z ^ (z >> 31));
}

// Index of the src byte that a flip by flipCode moves to dst byte i of a packed NHWC uint8 tensor.
__host__ __device__ inline uint64_t flippedSourceIndex(uint64_t i, int64_t n, int64_t h, int64_t w, int64_t c, int flipCode) {
    const uint64_t ci = i % c, xi = i / c % w, yi = i / c / w % h, ni = i / c / w / h;
    const uint64_t ys = flipCode <= 0 ? h - 1 - yi : yi, xs = flipCode != 0 ? w - 1 - xi : xi;
    (void)n;
    return ((ni * h + ys) * w + xs) * c + ci;
}

// Sets buf[i] = patternByte(i) for i < bytes; on the legacy default stream.
cudaError_t fillPattern(void *buf, uint64_t bytes);

// Counts the bytes of dst (packed NHWC uint8, n x h x w x c) that differ from the pattern flipped by flipCode.
// Synchronises the device.
cudaError_t countFlipMismatches(const void *dst, int64_t n, int64_t h, int64_t w, int64_t c, int flipCode,
                                uint64_t *mismatches);

} // namespace cvtest
