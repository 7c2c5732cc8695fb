// cvtcolor's RGB <-> BGR on one 16-byte block, host and device (the CPU tests run it: tests/kernels/test_cvtcolor_swap.cpp).
// Element i of the block (channel k = (phase + i) % 3, phase the channel of its first element) comes from element
// i + 2 - 2k: within its own pixel, at most two elements before or after the block. The window holds the block's 4
// words with kE words of the blocks before and after it (two elements either side). Output words are made without
// per-element extraction: for 1- and 2-byte elements, two byte permutes pick each word's bytes from the three window
// words they lie in; 4-byte elements are whole words. The per-phase selectors are compile-time constants and a select
// picks one of the three, so lanes of different phase do not diverge.
#pragma once

#include "common/register_bytes.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

template <int Size> struct Swap3Block {
    static_assert(Size == 1 || Size == 2 || Size == 4, "element sizes of the RGB codes");
    static constexpr int kE = (2 * Size + 3) / 4; // window words either side (two elements)
    static constexpr int kWords = 4 + 2 * kE;

    // Source byte (in the window, 0 = its first byte) of output byte i for phase p.
    static __host__ __device__ constexpr int sourceByte(int p, int i) {
        const int k = (p + i / Size) % 3;
        return 4 * kE + i + (2 - 2 * k) * Size;
    }
    // For 1- and 2-byte elements: output word m is prmt(prmt(w[m], w[m + 1], first), w[m + 2], second); every source
    // byte lies in those three words (bytes 4m .. 4m + 11 of the window).
    static __host__ __device__ constexpr uint32_t selector(int p, int m, bool second) {
        uint32_t s = 0;
        for (int n = 0; n < 4; ++n) {
            const int rel = sourceByte(p, 4 * m + n) - 4 * m;
            const int nibble = rel < 8 ? (second ? n : rel) : (second ? 4 + rel - 8 : 0);
            s |= static_cast<uint32_t>(nibble) << (4 * n);
        }
        return s;
    }

    // Output word M; the selectors and word indices are constant expressions (template arguments, not loop indices,
    // so that no selector is computed at run time).
    template <int M> static __host__ __device__ __forceinline__ uint32_t word(const uint32_t (&w)[kWords], int phase) {
        if constexpr (Size == 4) {
            constexpr int a = sourceByte(0, 4 * M) / 4, b = sourceByte(1, 4 * M) / 4, c = sourceByte(2, 4 * M) / 4;
            return phase == 0 ? w[a] : phase == 1 ? w[b] : w[c];
        } else {
            constexpr uint32_t f0 = selector(0, M, false), f1 = selector(1, M, false), f2 = selector(2, M, false);
            constexpr uint32_t g0 = selector(0, M, true), g1 = selector(1, M, true), g2 = selector(2, M, true);
            const uint32_t first = phase == 0 ? f0 : phase == 1 ? f1 : f2, second = phase == 0 ? g0 : phase == 1 ? g1 : g2;
            return bytePerm(bytePerm(w[M], w[M + 1], first), w[M + 2], second);
        }
    }
    static __host__ __device__ __forceinline__ uint4 swap(const uint32_t (&w)[kWords], int phase) {
        return make_uint4(word<0>(w, phase), word<1>(w, phase), word<2>(w, phase), word<3>(w, phase));
    }
};

} // namespace cvk
