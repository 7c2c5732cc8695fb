// cvtcolor: colour conversions (OpenCV's cvtColor definitions).
// - RGB <-> BGR on packed rows at the same 16-byte offset on both sides: warp tiles of 16-byte blocks (Swap3Tile).
// - Other RGB-family codes (swap, alpha, gray): a thread converts P pixels. When both tensors are C-contiguous and
//   16-byte aligned they are one flat run of pixels and the thread moves its P * channels elements as whole 16-byte
//   vectors on both sides (P is the smallest pixel count that fills whole vectors on both sides); when only each row
//   is packed and aligned the same happens per row; otherwise one pixel per thread with the views' strides.
// - YUV 4:2:0 codes: a thread converts one 2x2 block (one chroma sample), any strides.
#include "cvtcolor.hpp"

#include "common/launch.cuh"
#include "common/saturate.cuh"
#include "common/vector_io.cuh"
#include "common/warp_tile.cuh"
#include "cvtcolor_swap.cuh"

#include <cuda_fp16.h>

#include <type_traits>

namespace cvk {
namespace {

// OpenCV 4.x's integer gray weights for uint8 and uint16 (RGB2Gray: 15-bit fixed point, the weights sum to 2^15; the
// older 14-bit weights 4899/9617/1868 disagree with cv2 4.x in about 0.2% (u8) and 58% (u16) of random pixels), and
// its float ones.
constexpr int kGrayShift = 15, kGrayB = 3735, kGrayG = 19235, kGrayR = 9798;

template <class T> struct Pixel;
template <> struct Pixel<uint8_t> {
    static constexpr bool kInt = true;
    static __device__ __forceinline__ uint8_t alpha() { return 255; }
};
template <> struct Pixel<uint16_t> {
    static constexpr bool kInt = true;
    static __device__ __forceinline__ uint16_t alpha() { return 65535; }
};
template <> struct Pixel<__half> {
    static constexpr bool kInt = false;
    static __device__ __forceinline__ __half alpha() { return __float2half(1.0f); }
};
template <> struct Pixel<float> {
    static constexpr bool kInt = false;
    static __device__ __forceinline__ float alpha() { return 1.0f; }
};

// A float16 tensor holds each step of torch's arithmetic in float16; other types keep float32 (torch's opmath, and
// the float32 result type of an integer tensor times a Python float).
template <class T> __device__ __forceinline__ float torchStep(float v) {
    if constexpr (std::is_same_v<T, __half>) return __half2float(__float2half_rn(v));
    else return v;
}

// torchvision.transforms.v2.functional.rgb_to_grayscale on a GPU tensor, step by step as PyTorch computes
// r.mul(0.2989).add_(g, alpha=0.587).add_(b, alpha=0.114).to(dtype): the product in float32, each add_ PyTorch's
// `self + alpha * other` (one fused multiply-add as nvcc contracts it), then a truncating conversion for integers
// (the weights sum to 0.9999: white is 254 for uint8, 65528 for uint16).
template <class T> __device__ __forceinline__ T grayTorchvision(T r, T g, T b) {
    float y = torchStep<T>(__fmul_rn(Traits<T>::template toWork<float>(r), 0.2989f));
    y = torchStep<T>(__fmaf_rn(0.587f, Traits<T>::template toWork<float>(g), y));
    y = __fmaf_rn(0.114f, Traits<T>::template toWork<float>(b), y);
    if constexpr (Pixel<T>::kInt) return static_cast<T>(y); // y in [0, max): truncation toward zero
    else return saturateCast<T, Round::Nearest>(y);
}

// One pixel: SC channels in, DC out. DC == 1: gray from channels (blue, 1, red), OpenCV's (tv false) or
// torchvision's; SC == 1: gray replicated; else the first three channels kept or swapped (R and B), alpha kept,
// dropped or added.
template <class T, int SC, int DC> __device__ __forceinline__ void convert(const T *in, T *out, bool swap, bool tv) {
    if constexpr (DC == 1) {
        const T b = swap ? in[2] : in[0], g = in[1], r = swap ? in[0] : in[2];
        if (tv) {
            out[0] = grayTorchvision<T>(r, g, b);
        } else if constexpr (Pixel<T>::kInt) {
            const uint32_t y = (uint32_t(b) * kGrayB + uint32_t(g) * kGrayG + uint32_t(r) * kGrayR +
                                (1u << (kGrayShift - 1))) >> kGrayShift;
            out[0] = static_cast<T>(y);
        } else {
            const float y = Traits<T>::template toWork<float>(b) * 0.114f + Traits<T>::template toWork<float>(g) * 0.587f +
                            Traits<T>::template toWork<float>(r) * 0.299f;
            out[0] = saturateCast<T, Round::Nearest>(y);
        }
    } else if constexpr (SC == 1) {
        out[0] = out[1] = out[2] = in[0];
        if constexpr (DC == 4) out[3] = Pixel<T>::alpha();
    } else {
        out[0] = swap ? in[2] : in[0];
        out[1] = in[1];
        out[2] = swap ? in[0] : in[2];
        if constexpr (DC == 4) out[3] = SC == 4 ? in[3] : Pixel<T>::alpha();
    }
}

constexpr int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
// Pixels per thread on the vector path: whole 16-byte vectors on both sides.
template <class T, int SC, int DC> constexpr int vectorPixels() {
    const int a = 16 / gcd(16, SC * int(sizeof(T))), b = 16 / gcd(16, DC * int(sizeof(T)));
    return a > b ? a : b;
}

// Rows of `w` pixels: row r is image r / h, row r % h. Vector: every row start is 16-byte aligned and pixels are
// packed, P pixels per thread; else one pixel per thread through the strides.
template <class T, int SC, int DC, int P, bool Vector>
__global__ void __launch_bounds__(kBlockThreads) rgbKernel(CvtColorParams p, int64_t rows, int64_t h, int64_t w) {
    const bool tv = p.op == ColorOp::ToGrayTorchvision;
    const bool swap = p.op == ColorOp::ToGray || tv ? p.blueIndex == 2 : p.map[0] == 2;
    const int64_t units = ceilDiv(w, P);
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        const int64_t n = r / h, y = r - n * h;
        const char *s = p.src.data + n * p.src.stride[kN] + y * p.src.stride[kH];
        char *d = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH];
        for (int64_t q = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < units;
             q += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            const int64_t x0 = q * P;
            if constexpr (Vector) {
                if (x0 + P <= w) {
                    T in[P * SC], out[P * DC];
                    VecIO<T, P * SC, true>::load(s + x0 * SC * int64_t(sizeof(T)), in);
#pragma unroll
                    for (int k = 0; k < P; ++k) convert<T, SC, DC>(in + k * SC, out + k * DC, swap, tv);
                    VecIO<T, P * DC, true>::store(d + x0 * DC * int64_t(sizeof(T)), out);
                    continue;
                }
            }
            const int64_t end = x0 + P < w ? x0 + P : w;
            for (int64_t x = x0; x < end; ++x) {
                T in[SC], out[DC];
#pragma unroll
                for (int c = 0; c < SC; ++c)
                    in[c] = *reinterpret_cast<const T *>(s + x * p.src.stride[kW] + c * p.src.stride[kC]);
                convert<T, SC, DC>(in, out, swap, tv);
#pragma unroll
                for (int c = 0; c < DC; ++c) *reinterpret_cast<T *>(d + x * p.dst.stride[kW] + c * p.dst.stride[kC]) = out[c];
            }
        }
    }
}

// RGB <-> BGR (3 channels in and out, 0 and 2 swapped) on packed rows whose src and dst starts lie at the same offset
// from a 16-byte boundary, as warp tiles of 16-byte blocks (common/warp_tile.cuh): a lane writes dst block i from
// src block i at the same offset (both sides coalesced, unlike P whole pixels per thread, whose 48-byte runs make
// every store instruction of a warp write partial sectors), with the words of blocks i - 1 and i + 1 that the
// block's edge pixels need taken from the neighbouring lanes (each src byte is read from memory once), permuted by
// Swap3Block (cvtcolor_swap.cuh). Blocks at a row's ends move only their bytes inside the row (span.cuh).
// Rows of rowBytes bytes; row r is image r / h, row r % h (one flat row of a contiguous pair: h = 1).
struct SwapRows {
    CvtColorParams p;
    int64_t h, rowBytes;
    __device__ __forceinline__ RowSpan span(int64_t r) const {
        int64_t y;
        const int64_t n = divmod(r, h, y);
        const char *s = p.src.data + n * p.src.stride[kN] + y * p.src.stride[kH];
        char *d = p.dst.data + n * p.dst.stride[kN] + y * p.dst.stride[kH];
        return rowSpan(reinterpret_cast<uintptr_t>(d), rowBytes, 0, rowBytes, reinterpret_cast<uintptr_t>(s));
    }
    // Never called: every byte of a row is converted.
    __device__ __forceinline__ uint4 border(const RowSpan &, int64_t) const { return make_uint4(0, 0, 0, 0); }
};

template <class T> struct Swap3Tile {
    template <int kMaxU, class Rows>
    static __device__ __forceinline__ void run(const Rows &, const RowSpan &s, int64_t tile, int units, int lane) {
        using S = Swap3Block<int(sizeof(T))>;
        constexpr int kElems = 16 / int(sizeof(T)); // per block
        const int64_t first = tile * kWarpLanes * units;
        uint4 v[kMaxU];
#pragma unroll
        for (int j = 0; j < kMaxU; ++j)
            if (j < units) v[j] = loadSrcBlock(s, first + j * kWarpLanes + lane);
        const uint4 before = lane == 0 ? loadSrcBlock(s, first - 1) : make_uint4(0, 0, 0, 0);
        const uint4 after = lane == kWarpLanes - 1 ? loadSrcBlock(s, first + kWarpLanes * units) : make_uint4(0, 0, 0, 0);
        // The channel of the tile's first element (rows start on a pixel; the offset is > -16 bytes): one 64-bit
        // remainder per tile, each block's phase then follows in 32 bits.
        const int64_t e0 = blockOffset(s, first) / int64_t(sizeof(T));
        const int tilePhase = static_cast<int>((e0 % 3 + 3) % 3);
#pragma unroll
        for (int j = 0; j < kMaxU; ++j) {
            if (j >= units) break;
            const int64_t i = first + j * kWarpLanes + lane;
            uint32_t prev[S::kE], next[S::kE], w[S::kWords];
            prevWords<S::kE>(v, j, before, lane, prev);
            nextWords<S::kE>(v, j, units, after, lane, next);
#pragma unroll
            for (int e = 0; e < S::kE; ++e) w[e] = prev[e], w[S::kE + 4 + e] = next[e];
            w[S::kE] = v[j].x, w[S::kE + 1] = v[j].y, w[S::kE + 2] = v[j].z, w[S::kE + 3] = v[j].w;
            const int phase = (tilePhase + kElems * (j * kWarpLanes + lane)) % 3;
            const uint4 o = S::swap(w, phase);
            storeDstBlock(s, i, o);
        }
    }
};

bool packedPixels(const View4 &v, int64_t itemSize) {
    return (v.shape[kC] == 1 || v.stride[kC] == itemSize) && (v.shape[kW] <= 1 || v.stride[kW] == v.shape[kC] * itemSize);
}

bool contiguous(const View4 &v, int64_t itemSize) {
    const int64_t row = v.shape[kW] * v.shape[kC] * itemSize;
    return packedPixels(v, itemSize) && (v.shape[kH] <= 1 || v.stride[kH] == row) &&
           (v.shape[kN] <= 1 || v.stride[kN] == v.shape[kH] * row);
}

bool rowsAligned(const View4 &v) {
    return aligned16(reinterpret_cast<int64_t>(v.data)) && (v.shape[kH] <= 1 || aligned16(v.stride[kH])) &&
           (v.shape[kN] <= 1 || aligned16(v.stride[kN]));
}

// Whether src and dst rows start at the same offset from a 16-byte boundary (every row of every image).
bool rowsCongruent(const View4 &s, const View4 &d) {
    return aligned16(reinterpret_cast<int64_t>(s.data) - reinterpret_cast<int64_t>(d.data)) &&
           (s.shape[kH] <= 1 || aligned16(s.stride[kH] - d.stride[kH])) && (s.shape[kN] <= 1 || aligned16(s.stride[kN] - d.stride[kN]));
}

// The swap over `rows` rows of rowBytes bytes, h per image.
template <class T>
cudaError_t launchSwap3(const CvtColorParams &p, int64_t rows, int64_t h, int64_t rowBytes, bool rowStartsAligned, cudaStream_t stream) {
    return launchSpanRows<Swap3Tile<T>>(SwapRows{p, h, rowBytes}, rows, spanBlocksPerRow(rowBytes, rowStartsAligned), stream);
}

template <class T, int SC, int DC> cudaError_t launchRgb(const CvtColorParams &p, cudaStream_t stream) {
    constexpr int P = vectorPixels<T, SC, DC>();
    const int64_t size = sizeof(T);
    const bool packed = packedPixels(p.src, size) && packedPixels(p.dst, size);
    const bool flat = packed && contiguous(p.src, size) && contiguous(p.dst, size) &&
                      aligned16(reinterpret_cast<int64_t>(p.src.data)) && aligned16(reinterpret_cast<int64_t>(p.dst.data));
    if (SC == 3 && DC == 3 && p.op == ColorOp::Permute && p.map[0] == 2 && p.map[2] == 0) {
        if (flat) return launchSwap3<T>(p, 1, 1, p.n * p.h * p.w * 3 * size, true, stream);
        if (packed && rowsCongruent(p.src, p.dst))
            return launchSwap3<T>(p, p.n * p.h, p.h, p.w * 3 * size, rowsAligned(p.dst), stream);
    }
    if (flat) {
        // One flat row of every pixel.
        const int64_t total = p.n * p.h * p.w;
        const RowLaunch l = rowLaunch(ceilDiv(total, P), 1);
        rgbKernel<T, SC, DC, P, true><<<l.grid, l.block, 0, stream>>>(p, 1, 1, total);
    } else if (packed && rowsAligned(p.src) && rowsAligned(p.dst)) {
        const RowLaunch l = rowLaunch(ceilDiv(p.w, P), p.n * p.h);
        rgbKernel<T, SC, DC, P, true><<<l.grid, l.block, 0, stream>>>(p, p.n * p.h, p.h, p.w);
    } else {
        const RowLaunch l = rowLaunch(p.w, p.n * p.h);
        rgbKernel<T, SC, DC, 1, false><<<l.grid, l.block, 0, stream>>>(p, p.n * p.h, p.h, p.w);
    }
    return cudaGetLastError();
}

__device__ __forceinline__ uint8_t clamp8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

__device__ __forceinline__ uint8_t *at(const View4 &v, int64_t n, int64_t y, int64_t x, int64_t c = 0) {
    return reinterpret_cast<uint8_t *>(v.data + n * v.stride[kN] + y * v.stride[kH] + x * v.stride[kW] + c * v.stride[kC]);
}

// Where chroma sample (k, j) of plane `plane` (0: the first after Y) lies in a 4:2:0 tensor of image height h.
__device__ __forceinline__ void chromaAt(const CvtColorParams &p, int plane, int64_t k, int64_t j, int64_t &row,
                                         int64_t &col) {
    if (p.chroma == ChromaLayout::SemiPlanar) {
        row = p.h + k;
        col = 2 * j + plane;
    } else {
        const int64_t q = plane * (p.h / 2) + k;
        row = p.h + q / 2;
        col = (q % 2) * (p.w / 2) + j;
    }
}

template <int DC> __global__ void __launch_bounds__(kBlockThreads) yuvDecodeKernel(CvtColorParams p, int64_t rows) {
    const YuvCoefficients c = p.yuv;
    const View4 &s = p.src;
    const int64_t hh = p.h / 2, hw = p.w / 2;
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        const int64_t n = r / hh, k = r - n * hh;
        for (int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < hw;
             j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            int64_t ur, uc, vr, vc;
            chromaAt(p, p.uFirst ? 0 : 1, k, j, ur, uc);
            chromaAt(p, p.uFirst ? 1 : 0, k, j, vr, vc);
            const int u = int(*at(s, n, ur, uc)) - 128, v = int(*at(s, n, vr, vc)) - 128;
            const int half = 1 << 19;
            const int ruv = half + c.cvr * v, guv = half + c.cvg * v + c.cug * u, buv = half + c.cub * u;
#pragma unroll
            for (int dy = 0; dy < 2; ++dy)
#pragma unroll
                for (int dx = 0; dx < 2; ++dx) {
                    const int64_t y = 2 * k + dy, x = 2 * j + dx;
                    const int yy = int(*at(s, n, y, x)) - c.yOffset;
                    const int luma = (yy > 0 ? yy : 0) * c.cy;
                    const uint8_t R = clamp8((luma + ruv) >> 20), G = clamp8((luma + guv) >> 20),
                                  B = clamp8((luma + buv) >> 20);
                    *at(p.dst, n, y, x, 0) = p.blueIndex == 0 ? B : R;
                    *at(p.dst, n, y, x, 1) = G;
                    *at(p.dst, n, y, x, 2) = p.blueIndex == 0 ? R : B;
                    if constexpr (DC == 4) *at(p.dst, n, y, x, 3) = 255;
                }
        }
    }
}

template <int SC> __global__ void __launch_bounds__(kBlockThreads) yuvEncodeKernel(CvtColorParams p, int64_t rows) {
    const YuvCoefficients c = p.yuv;
    const int64_t hh = p.h / 2, hw = p.w / 2;
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        const int64_t n = r / hh, k = r - n * hh;
        for (int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < hw;
             j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            int sr = 0, sg = 0, sb = 0;
#pragma unroll
            for (int dy = 0; dy < 2; ++dy)
#pragma unroll
                for (int dx = 0; dx < 2; ++dx) {
                    const int64_t y = 2 * k + dy, x = 2 * j + dx;
                    const int b = *at(p.src, n, y, x, p.blueIndex), g = *at(p.src, n, y, x, 1),
                              rr = *at(p.src, n, y, x, 2 - p.blueIndex);
                    sr += rr, sg += g, sb += b;
                    *at(p.dst, n, y, x) =
                        clamp8((c.cry * rr + c.cgy * g + c.cby * b + (1 << 19) + (c.yOffset << 20)) >> 20);
                }
            // The mean of the block, rounded once: sums carry 2 more fractional bits.
            const int u = clamp8((c.cru * sr + c.cgu * sg + c.cbu * sb + (128 << 22) + (1 << 21)) >> 22);
            const int v = clamp8((c.crv * sr + c.cgv * sg + c.cbv * sb + (128 << 22) + (1 << 21)) >> 22);
            int64_t ur, uc, vr, vc;
            chromaAt(p, p.uFirst ? 0 : 1, k, j, ur, uc);
            chromaAt(p, p.uFirst ? 1 : 0, k, j, vr, vc);
            *at(p.dst, n, ur, uc) = static_cast<uint8_t>(u);
            *at(p.dst, n, vr, vc) = static_cast<uint8_t>(v);
        }
    }
}

template <class T, int SC, int DC> cudaError_t preloadRgb() {
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, rgbKernel<T, SC, DC, vectorPixels<T, SC, DC>(), true>);
    if (e == cudaSuccess && SC == 3 && DC == 3) e = cudaFuncGetAttributes(&attr, spanRowsKernel<kSpanUnits, SwapRows, Swap3Tile<T>>);
    return e != cudaSuccess ? e : cudaFuncGetAttributes(&attr, rgbKernel<T, SC, DC, 1, false>);
}

// Every channel pair of the RGB-family codes: the kernels of one element type.
template <class T> cudaError_t preloadRgbFor() {
    const cudaError_t errors[] = {preloadRgb<T, 3, 4>(), preloadRgb<T, 4, 3>(), preloadRgb<T, 3, 3>(), preloadRgb<T, 4, 4>(),
                                  preloadRgb<T, 3, 1>(), preloadRgb<T, 4, 1>(), preloadRgb<T, 1, 3>(), preloadRgb<T, 1, 4>()};
    for (cudaError_t e : errors)
        if (e != cudaSuccess) return e;
    return cudaSuccess;
}

template <class T> cudaError_t launchRgbFor(const CvtColorParams &p, cudaStream_t stream) {
    switch (p.srcChannels * 10 + p.dstChannels) {
    case 34: return launchRgb<T, 3, 4>(p, stream);
    case 43: return launchRgb<T, 4, 3>(p, stream);
    case 33: return launchRgb<T, 3, 3>(p, stream);
    case 44: return launchRgb<T, 4, 4>(p, stream);
    case 31: return launchRgb<T, 3, 1>(p, stream);
    case 41: return launchRgb<T, 4, 1>(p, stream);
    case 13: return launchRgb<T, 1, 3>(p, stream);
    case 14: return launchRgb<T, 1, 4>(p, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

cudaError_t launchCvtColor(const CvtColorParams &p, cudaStream_t stream) {
    if (p.n == 0 || p.h == 0 || p.w == 0) return cudaSuccess;
    switch (p.op) {
    case ColorOp::Permute:
    case ColorOp::ToGray:
    case ColorOp::ToGrayTorchvision:
        switch (p.elem) {
        case ColorElem::U8: return launchRgbFor<uint8_t>(p, stream);
        case ColorElem::U16: return launchRgbFor<uint16_t>(p, stream);
        case ColorElem::F16: return launchRgbFor<__half>(p, stream);
        case ColorElem::F32: return launchRgbFor<float>(p, stream);
        }
        return cudaErrorInvalidValue;
    case ColorOp::YuvDecode: {
        const RowLaunch l = rowLaunch(p.w / 2, p.n * (p.h / 2));
        if (p.dstChannels == 4) yuvDecodeKernel<4><<<l.grid, l.block, 0, stream>>>(p, p.n * (p.h / 2));
        else yuvDecodeKernel<3><<<l.grid, l.block, 0, stream>>>(p, p.n * (p.h / 2));
        return cudaGetLastError();
    }
    case ColorOp::YuvEncode: {
        const RowLaunch l = rowLaunch(p.w / 2, p.n * (p.h / 2));
        if (p.srcChannels == 4) yuvEncodeKernel<4><<<l.grid, l.block, 0, stream>>>(p, p.n * (p.h / 2));
        else yuvEncodeKernel<3><<<l.grid, l.block, 0, stream>>>(p, p.n * (p.h / 2));
        return cudaGetLastError();
    }
    }
    return cudaErrorInvalidValue;
}

cudaError_t preloadCvtColorKernels() {
    cudaFuncAttributes attr;
    cudaError_t e = preloadRgbFor<uint8_t>();
    if (e == cudaSuccess) e = preloadRgbFor<uint16_t>();
    if (e == cudaSuccess) e = preloadRgbFor<__half>();
    if (e == cudaSuccess) e = preloadRgbFor<float>();
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, yuvDecodeKernel<3>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, yuvDecodeKernel<4>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, yuvEncodeKernel<3>);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, yuvEncodeKernel<4>);
    return e;
}

} // namespace cvk
