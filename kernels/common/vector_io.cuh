// Thread level: moving bytes between global memory and registers. A thread moves K elements of type T as whole
// words of up to 16 bytes when the address is aligned (the caller's plan guarantees it: VecIO<.., true>) and element by
// element otherwise (VecIO<.., false>), so a kernel is written once and instantiated for both.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

template <int N> struct Bytes;
template <> struct Bytes<1> { using type = uint8_t; };
template <> struct Bytes<2> { using type = uint16_t; };
template <> struct Bytes<4> { using type = uint32_t; };
template <> struct Bytes<8> { using type = uint64_t; };
template <> struct Bytes<16> { using type = uint4; };

template <int N> __device__ __forceinline__ typename Bytes<N>::type loadBytes(const char *p) {
    return *reinterpret_cast<const typename Bytes<N>::type *>(p);
}
template <int N> __device__ __forceinline__ void storeBytes(char *p, typename Bytes<N>::type v) {
    *reinterpret_cast<typename Bytes<N>::type *>(p) = v;
}

// K elements of T, contiguous at p. Vector: K * sizeof(T) is 2, 4, 8 or a multiple of 16 bytes and p is aligned to
// min(K * sizeof(T), 16): the elements move as whole words of that size (16-byte vectors at most).
template <class T, int K, bool Vector> struct VecIO {
    static constexpr int kBytes = K * int(sizeof(T));
    static constexpr int kWord = !Vector ? int(sizeof(T)) : kBytes < 16 ? kBytes : 16;
    static_assert(!Vector || kBytes % kWord == 0, "vector IO moves whole words");
    using Word = typename Bytes<kWord>::type;
    static constexpr int kWords = Vector ? kBytes / kWord : 1;
    union Regs {
        T e[K];
        Word v[kWords];
    };
    static __device__ __forceinline__ void load(const char *p, T (&out)[K]) {
        if constexpr (Vector) {
            Regs r;
#pragma unroll
            for (int i = 0; i < kWords; ++i) r.v[i] = reinterpret_cast<const Word *>(p)[i];
#pragma unroll
            for (int i = 0; i < K; ++i) out[i] = r.e[i];
        } else {
#pragma unroll
            for (int i = 0; i < K; ++i) out[i] = reinterpret_cast<const T *>(p)[i];
        }
    }
    static __device__ __forceinline__ void store(char *p, const T (&in)[K]) {
        if constexpr (Vector) {
            Regs r;
#pragma unroll
            for (int i = 0; i < K; ++i) r.e[i] = in[i];
#pragma unroll
            for (int i = 0; i < kWords; ++i) reinterpret_cast<Word *>(p)[i] = r.v[i];
        } else {
#pragma unroll
            for (int i = 0; i < K; ++i) reinterpret_cast<T *>(p)[i] = in[i];
        }
    }
};

// Host side: whether an address (or stride) allows 16-byte vectors.
__host__ __device__ constexpr bool aligned16(int64_t bytes) { return (bytes & 15) == 0; }
// ... or `n` bytes (a power of two) words.
__host__ __device__ constexpr bool alignedTo(int64_t bytes, int64_t n) { return (bytes & (n - 1)) == 0; }

} // namespace cvk
