// Block and device level: interleaved <-> planar image transposes.
// - Registers (to planar, 1..4 channels, 16-byte aligned planes and images): a thread moves G = 16 / itemSize pixels:
//   C 16-byte loads of their interleaved bytes (a warp's C loads cover one contiguous run, so L1 serves the partly
//   used lines of each load from the others), a byte shuffle in registers with compile-time indices, and C 16-byte
//   stores, one per plane (coalesced). No shared memory, no barrier: 16 * C bytes in flight per thread.
// - Shared memory (every other case): a block moves a tile of TP pixels x C channels of one image, so that both the
//   global reads and the global writes stay coalesced:
//   to planar:      16-byte loads of the tile's contiguous interleaved bytes -> shared memory [TP][C];
//                   then, channel by channel, 4-byte (8 for 8-byte elements) stores of each plane's segment.
//   to interleaved: 4-byte loads of each plane's segment -> shared memory [TP][C]; then 16-byte stores.
//   The plane side walks words: consecutive threads take consecutive words of one plane, whose shared-memory
//   elements are C apart: conflict-free for odd C. No division in the loops (channel-major loop nests).
// Both size their grids so that a small image still spreads over the multiprocessors.
#pragma once

#include "launch.cuh"
#include "vector_io.cuh"

#include <cstdint>

namespace cvk {

// An image batch as [batch][pixels][channels]: the interleaved side has pixel stride channels * itemSize (packed),
// the planar side has pixel stride itemSize and plane stride `plane` (bytes, >= pixels * itemSize).
struct TransposeView {
    const char *src;
    char *dst;
    int64_t batch, pixels, channels;
    int64_t srcBatch, dstBatch; // bytes between images
    int64_t plane;              // bytes between planes on the planar side
    int32_t tilePixels;         // TP: a multiple of 64
    bool toPlanar;
    bool wide; // 16-byte interleaved side and word-aligned plane side (addresses and strides), else element by element
};

template <class T> struct PlaneWord {
    static constexpr int kBytes = sizeof(T) < 4 ? 4 : sizeof(T);
    static constexpr int kElems = kBytes / sizeof(T);
    using Word = typename Bytes<kBytes>::type;
};

template <class T, bool ToPlanar> __global__ void __launch_bounds__(kBlockThreads) transposeKernel(TransposeView v) {
    extern __shared__ uint4 tileStorage[];
    T *tile = reinterpret_cast<T *>(tileStorage);
    constexpr int kE = sizeof(T);
    using PW = PlaneWord<T>;
    const int tid = threadIdx.x;
    const int64_t C = v.channels;
    for (int64_t b = blockIdx.y; b < v.batch; b += gridDim.y) {
        const char *srcImage = v.src + b * v.srcBatch;
        char *dstImage = v.dst + b * v.dstBatch;
        for (int64_t p0 = static_cast<int64_t>(blockIdx.x) * v.tilePixels; p0 < v.pixels;
             p0 += static_cast<int64_t>(gridDim.x) * v.tilePixels) {
            const int64_t tp = v.pixels - p0 < v.tilePixels ? v.pixels - p0 : v.tilePixels;
            const bool full = tp == v.tilePixels && v.wide;
            const int64_t tileBytes = tp * C * kE;
            // Interleaved side: the tile is one contiguous run of bytes.
            const int64_t interOff = p0 * C * kE;
            if (ToPlanar) {
                if (full) {
                    for (int64_t i = tid; i < tileBytes / 16; i += blockDim.x)
                        tileStorage[i] = reinterpret_cast<const uint4 *>(srcImage + interOff)[i];
                } else {
                    for (int64_t i = tid; i < tp * C; i += blockDim.x)
                        tile[i] = reinterpret_cast<const T *>(srcImage + interOff)[i];
                }
                __syncthreads();
                for (int64_t c = 0; c < C; ++c) {
                    char *plane = dstImage + c * v.plane + p0 * kE;
                    if (full) {
                        for (int64_t w = tid; w < tp / PW::kElems; w += blockDim.x) {
                            union { typename PW::Word word; T e[PW::kElems]; } u;
#pragma unroll
                            for (int k = 0; k < PW::kElems; ++k) u.e[k] = tile[(w * PW::kElems + k) * C + c];
                            reinterpret_cast<typename PW::Word *>(plane)[w] = u.word;
                        }
                    } else {
                        for (int64_t j = tid; j < tp; j += blockDim.x) reinterpret_cast<T *>(plane)[j] = tile[j * C + c];
                    }
                }
            } else {
                for (int64_t c = 0; c < C; ++c) {
                    const char *plane = srcImage + c * v.plane + p0 * kE;
                    if (full) {
                        for (int64_t w = tid; w < tp / PW::kElems; w += blockDim.x) {
                            union { typename PW::Word word; T e[PW::kElems]; } u;
                            u.word = reinterpret_cast<const typename PW::Word *>(plane)[w];
#pragma unroll
                            for (int k = 0; k < PW::kElems; ++k) tile[(w * PW::kElems + k) * C + c] = u.e[k];
                        }
                    } else {
                        for (int64_t j = tid; j < tp; j += blockDim.x) tile[j * C + c] = reinterpret_cast<const T *>(plane)[j];
                    }
                }
                __syncthreads();
                if (full) {
                    for (int64_t i = tid; i < tileBytes / 16; i += blockDim.x)
                        reinterpret_cast<uint4 *>(dstImage + interOff)[i] = tileStorage[i];
                } else {
                    for (int64_t i = tid; i < tp * C; i += blockDim.x)
                        reinterpret_cast<T *>(dstImage + interOff)[i] = tile[i];
                }
            }
            __syncthreads(); // the tile is reused by the next iteration
        }
    }
}

// The register transpose to planar: thread g of image b moves pixels [g * G, g * G + G) (G = 16 / sizeof(T)); the
// image's partial last group goes element by element.
template <class T, int C> __global__ void __launch_bounds__(kBlockThreads, kMinBlocks) planarizeKernel(TransposeView v) {
    constexpr int G = 16 / sizeof(T);
    const int64_t groups = ceilDiv(v.pixels, G);
    for (int64_t b = blockIdx.y; b < v.batch; b += gridDim.y) {
        const char *srcImage = v.src + b * v.srcBatch;
        char *dstImage = v.dst + b * v.dstBatch;
        for (int64_t g = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
             g += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            const int64_t p0 = g * G;
            const char *s = srcImage + p0 * C * int64_t(sizeof(T));
            char *d = dstImage + p0 * int64_t(sizeof(T));
            if (p0 + G <= v.pixels) {
                union {
                    uint4 v[C];
                    T e[G * C];
                } in;
#pragma unroll
                for (int i = 0; i < C; ++i) in.v[i] = reinterpret_cast<const uint4 *>(s)[i];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    union {
                        uint4 v;
                        T e[G];
                    } out;
#pragma unroll
                    for (int k = 0; k < G; ++k) out.e[k] = in.e[k * C + c];
                    *reinterpret_cast<uint4 *>(d + c * v.plane) = out.v;
                }
            } else {
                for (int64_t k = 0; k < v.pixels - p0; ++k)
#pragma unroll
                    for (int c = 0; c < C; ++c)
                        reinterpret_cast<T *>(d + c * v.plane)[k] = reinterpret_cast<const T *>(s)[k * C + c];
            }
        }
    }
}

// Whether the register transpose applies: to planar, 2..4 channels, images and planes 16-byte aligned.
inline bool planarizeApplies(const TransposeView &v) {
    return v.toPlanar && v.channels >= 2 && v.channels <= 4 && aligned16(reinterpret_cast<int64_t>(v.src)) &&
           aligned16(reinterpret_cast<int64_t>(v.dst)) && (v.batch == 1 || (aligned16(v.srcBatch) && aligned16(v.dstBatch))) &&
           aligned16(v.plane);
}

// Blocks a launch should have at least (two per multiprocessor of an H200) before its blocks take full size.
constexpr int64_t kSpreadBlocks = 264;

// Largest tile (pixels, a multiple of 64) whose bytes stay within kTileBytes; 0 when not even 64 pixels fit in the
// shared memory a block may use without opting in (48 KiB).
constexpr int64_t kTileBytes = 8192;
inline int32_t transposeTilePixels(int64_t channels, int64_t itemSize) {
    const int64_t pixelBytes = channels * itemSize;
    int64_t tp = kTileBytes / pixelBytes / 64 * 64;
    if (tp < 64) tp = 64;
    if (tp > 4096) tp = 4096;
    return tp * pixelBytes <= 48 * 1024 ? static_cast<int32_t>(tp) : 0;
}

// Whether the wide (vector) accesses apply: 16-byte aligned interleaved side, word-aligned plane side.
inline bool transposeWide(const TransposeView &v, int64_t itemSize) {
    const int64_t word = itemSize < 4 ? 4 : itemSize;
    const char *inter = v.toPlanar ? v.src : v.dst;
    const char *planar = v.toPlanar ? v.dst : v.src;
    const int64_t interBatch = v.toPlanar ? v.srcBatch : v.dstBatch, planarBatch = v.toPlanar ? v.dstBatch : v.srcBatch;
    return aligned16(reinterpret_cast<int64_t>(inter)) && (v.batch == 1 || aligned16(interBatch)) &&
           reinterpret_cast<int64_t>(planar) % word == 0 && (v.batch == 1 || planarBatch % word == 0) &&
           (v.channels == 1 || v.plane % word == 0);
}

template <class T> cudaError_t launchTranspose(TransposeView v, cudaStream_t stream) {
    if (v.batch == 0 || v.pixels == 0 || v.channels == 0) return cudaSuccess;
    const unsigned gy = static_cast<unsigned>(v.batch < kMaxGridY ? v.batch : kMaxGridY);
    if (planarizeApplies(v)) {
        const int64_t groups = ceilDiv(v.pixels, 16 / sizeof(T));
        int bx = kBlockThreads;
        while (bx > 64 && ceilDiv(groups, bx) * v.batch < kSpreadBlocks) bx /= 2;
        const int64_t gx = ceilDiv(groups, bx);
        const dim3 grid(static_cast<unsigned>(gx < kMaxGridX ? gx : kMaxGridX), gy);
        switch (v.channels) {
        case 2: planarizeKernel<T, 2><<<grid, bx, 0, stream>>>(v); break;
        case 3: planarizeKernel<T, 3><<<grid, bx, 0, stream>>>(v); break;
        case 4: planarizeKernel<T, 4><<<grid, bx, 0, stream>>>(v); break;
        }
        return cudaGetLastError();
    }
    v.wide = transposeWide(v, sizeof(T));
    // Smaller tiles (still multiples of 64 pixels) until the launch has blocks for every multiprocessor.
    while (v.tilePixels > 64 && ceilDiv(v.pixels, v.tilePixels) * v.batch < kSpreadBlocks) v.tilePixels = v.tilePixels / 128 * 64;
    const int64_t blocks = ceilDiv(v.pixels, v.tilePixels);
    const dim3 grid(static_cast<unsigned>(blocks < kMaxGridX ? blocks : kMaxGridX), gy);
    const size_t smem = static_cast<size_t>(v.tilePixels) * v.channels * sizeof(T);
    if (v.toPlanar) transposeKernel<T, true><<<grid, kBlockThreads, smem, stream>>>(v);
    else transposeKernel<T, false><<<grid, kBlockThreads, smem, stream>>>(v);
    return cudaGetLastError();
}

} // namespace cvk
