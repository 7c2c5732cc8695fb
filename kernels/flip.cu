#include "flip.hpp"

#include <cstdint>

namespace cvk {
namespace {

template <int N> struct Bytes;
template <> struct Bytes<1> { using type = uint8_t; };
template <> struct Bytes<2> { using type = uint16_t; };
template <> struct Bytes<4> { using type = uint32_t; };
template <> struct Bytes<8> { using type = uint64_t; };

struct Index5 {
    int64_t i[5];
};

__device__ inline Index5 unravel(int64_t linear, const int64_t *shape) {
    Index5 idx;
    for (int d = 4; d >= 0; --d) {
        idx.i[d] = linear % shape[d];
        linear /= shape[d];
    }
    return idx;
}

__device__ inline int64_t offset(const Index5 &idx, const int64_t *strides) {
    int64_t off = 0;
    for (int d = 0; d < 5; ++d) off += idx.i[d] * strides[d];
    return off;
}

// Generic path: one thread per element, any strides. In place, only the first element of each mirrored pair swaps.
template <class T> __global__ void flipGeneric(FlipParams p, int64_t total) {
    const int64_t h = p.shape[kHeight], w = p.shape[kWidth];
    for (int64_t linear = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; linear < total;
         linear += int64_t(gridDim.x) * blockDim.x) {
        Index5 d = unravel(linear, p.shape);
        Index5 s = d;
        if (p.flipRows) s.i[kHeight] = h - 1 - d.i[kHeight];
        if (p.flipCols) s.i[kWidth] = w - 1 - d.i[kWidth];
        if (p.inPlace) {
            const int64_t a = d.i[kHeight] * w + d.i[kWidth], b = s.i[kHeight] * w + s.i[kWidth];
            if (a >= b) continue;
            T *pa = reinterpret_cast<T *>(p.dst + offset(d, p.dstStrides));
            T *pb = reinterpret_cast<T *>(p.dst + offset(s, p.dstStrides));
            const T va = *pa;
            *pa = *pb;
            *pb = va;
        } else {
            *reinterpret_cast<T *>(p.dst + offset(d, p.dstStrides)) =
                *reinterpret_cast<const T *>(p.src + offset(s, p.srcStrides));
        }
    }
}

template <class T> cudaError_t launchGeneric(const FlipParams &p, cudaStream_t stream) {
    int64_t total = 1;
    for (int64_t s : p.shape) total *= s;
    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    const unsigned grid = static_cast<unsigned>(blocks < 65536 * 8 ? blocks : 65536 * 8);
    flipGeneric<T><<<grid, threads, 0, stream>>>(p, total);
    return cudaGetLastError();
}

} // namespace

cudaError_t launchFlip(const FlipParams &p, cudaStream_t stream) {
    switch (p.elemSize) {
    case 1: return launchGeneric<Bytes<1>::type>(p, stream);
    case 2: return launchGeneric<Bytes<2>::type>(p, stream);
    case 4: return launchGeneric<Bytes<4>::type>(p, stream);
    case 8: return launchGeneric<Bytes<8>::type>(p, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace cvk
