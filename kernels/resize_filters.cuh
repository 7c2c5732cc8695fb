// What every resize kernel shares (cvResize and the fused preprocessing pass): OpenCV's mapping of destination
// pixels onto source coordinates, its per-interpolation weights, its fixed-point rounding, and the per-pixel sampler
// built on them. __host__ __device__ so that CPU tests check the same arithmetic the GPU runs.
//
// Conventions are OpenCV's cv::resize (modules/imgproc/src/resize.cpp), axis by axis:
//   scale = 1 / (dst / src) in double, as OpenCV computes it (not src / dst: the two differ in the last bit).
//   NEAREST        INTER_NEAREST_EXACT: sx = floor((dx + 0.5) * src / dst), ties on pixel edges as OpenCV's sum.
//   NEAREST_FLOOR  INTER_NEAREST: sx = floor(dx * scale).
//   LINEAR, CUBIC  x = (dx + 0.5) * scale - 0.5, sx = floor(x), fraction x - sx (double); LINEAR clamps the taps and zeroes the
//                  fraction outside [0, src-1]; CUBIC (a = -0.75) replicates the border pixel for taps outside.
//   AREA           downscale by integers: the box mean; other downscales: the fractional-area table
//                  (computeResizeAreaTab); any upscaled axis: OpenCV's "area mode" of linear interpolation.
// uint8 LINEAR / CUBIC / area-mode use OpenCV's fixed point: weights rounded to INTER_RESIZE_COEF_BITS = 11 bits,
// horizontal sums in int, the vertical pass rounded at 22 bits. Every other type computes in float, rounded with
// saturation at the end (round half to even, as cvRound).
#pragma once

#include "resize.hpp"

#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace cvk::resize {

// How AREA resolves for one resize (both axes decide together, as in OpenCV).
enum AreaKind : int32_t { kAreaFast = 0, kAreaTable, kAreaLinear };

constexpr int kCoefBits = 11; // OpenCV INTER_RESIZE_COEF_BITS
constexpr int kCoefScale = 1 << kCoefBits;

// One axis of a resize: source and destination extents and OpenCV's scale factors.
struct Axis {
    int32_t src, dst;
    double scale; // 1 / inv, as OpenCV
    double inv;   // dst / src
    int32_t iscale; // AREA fast path: the integer factor (0 when not an integer)
};

#define CVK_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_UNROLL _Pragma("unroll")
#else
#define CVK_UNROLL
#endif

CVK_HD Axis makeAxis(int32_t src, int32_t dst) {
    Axis a;
    a.src = src;
    a.dst = dst;
    a.inv = static_cast<double>(dst) / src;
    a.scale = 1.0 / a.inv;
    const double r = a.scale + 0.5;
    const int32_t i = r >= 2147483647.0 ? 0 : static_cast<int32_t>(r);
    const double diff = a.scale - i;
    a.iscale = (diff < 2.220446049250313e-16 && diff > -2.220446049250313e-16) ? i : 0;
    return a;
}

CVK_HD int32_t clampIndex(int64_t i, int32_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : static_cast<int32_t>(i)); }

CVK_HD int32_t floorToInt(double v) {
    const int64_t i = static_cast<int64_t>(v);
    return static_cast<int32_t>(i - (static_cast<double>(i) > v));
}
CVK_HD int32_t floorToInt(float v) {
    const int32_t i = static_cast<int32_t>(v);
    return i - (static_cast<float>(i) > v);
}

// INTER_NEAREST_EXACT, as OpenCV computes it (resizeNN_bitexact_tab in imgproc/src/resize.cpp of OpenCV 5, which
// follows Pillow): f = scale / 2, then sx = min(floor(f), src - 1) and f += scale for each destination pixel, in
// double, with scale = src / dst. That is floor((d + 0.5) * src / dst) exactly, except where the exact centre falls
// on a pixel edge (a tie: (2d + 1) * src divisible by 2 * dst): there the sum's accumulated rounding decides the side
// (cv2 5.0: 1280 -> 300 column 7 takes pixel 31, column 37 pixel 160). Away from ties the accumulated error (about
// dst * src * 2^-53) stays below the 1 / (2 * dst) that separates a centre from an edge while dst^2 * src < 2^51
// (both below 100 000 pixels, say). So the kernels compute the exact floor and read the side of each tie from a bit
// table the host fills once per (src, dst) by running OpenCV's sum (nearestTiesOf).
//
// Ties exist only when 2 * dst / gcd(src, 2 * dst) is odd; they are then every q-th pixel from (q - 1) / 2 with that
// odd q. q = 1 means src / dst is an even integer, whose sums are exact: no tie moves. So q >= 3 wherever a tie can
// move, and kTieBits covers every axis up to 3 * kTieBits destination pixels; past that the remaining ties take the
// right-hand pixel (the exact floor), which is still a pixel whose edge holds the centre.
constexpr int kTieWords = 64;
constexpr int kTieBits = kTieWords * 32;

struct NearestTies {
    int32_t q;                  // tie period, 0 when no tie of this axis takes the left-hand pixel
    uint32_t left[kTieWords];   // bit k: tie k (pixel (q - 1) / 2 + k * q) takes the left-hand pixel
};

CVK_HD int32_t nearestExact(const Axis &a, const NearestTies &t, int32_t d) {
    const int64_t num = (2 * static_cast<int64_t>(d) + 1) * a.src, den = 2 * static_cast<int64_t>(a.dst);
    // Correctly rounded double division of integers below 2^53 floors to the exact quotient (see above).
    int64_t s = static_cast<int64_t>(static_cast<double>(num) / static_cast<double>(den));
    if (t.q > 0 && s * den == num) {
        const int32_t k = d / t.q;
        if (k < kTieBits && ((t.left[k >> 5] >> (k & 31)) & 1u)) --s;
    }
    return s < a.src - 1 ? static_cast<int32_t>(s) : a.src - 1;
}

// The side of every tie of one axis, by OpenCV's accumulated sum. Host only; O(dst) the first time a thread sees an
// (src, dst) pair with ties, then from a small per-thread cache.
inline NearestTies nearestTiesOf(int32_t src, int32_t dst) {
    NearestTies t{};
    int64_t g = src, r = 2 * static_cast<int64_t>(dst);
    while (r != 0) { const int64_t m = g % r; g = r; r = m; }
    const int64_t q = 2 * static_cast<int64_t>(dst) / g;
    if (q % 2 == 0 || q == 1) return t; // no ties, or only ties of an exact sum
    struct Entry { int32_t src, dst; NearestTies ties; };
    constexpr int kEntries = 4;
    thread_local Entry cache[kEntries] = {};
    thread_local int next = 0;
    for (const Entry &e : cache)
        if (e.src == src && e.dst == dst) return e.ties;
    const double scale = static_cast<double>(src) / dst;
    double f = scale * 0.5;
    bool any = false;
    int64_t untilTie = (q - 1) / 2, k = 0;
    for (int64_t d = 0; d < dst && k < kTieBits; ++d, f += scale) {
        if (untilTie-- != 0) continue;
        untilTie = q - 1;
        const int64_t exact = ((2 * d + 1) * src) / (2 * static_cast<int64_t>(dst));
        if (static_cast<int64_t>(f) < exact) {
            t.left[k >> 5] |= 1u << (k & 31);
            any = true;
        }
        ++k;
    }
    t.q = any ? static_cast<int32_t>(q) : 0;
    cache[next] = {src, dst, t};
    next = (next + 1) % kEntries;
    return t;
}

// INTER_NEAREST: floor(d * scale), biased toward the origin.
CVK_HD int32_t nearestFloor(const Axis &a, int32_t d) {
    const int32_t s = floorToInt(d * a.scale);
    return s < a.src - 1 ? s : a.src - 1;
}

// Up to four taps: source indices first..first+n-1 (clamped into the axis when fetched) and their weights.
struct Taps {
    int32_t first;
    float w[4];
};

// LINEAR: the two taps around the centre-aligned coordinate; outside the axis both collapse onto the border pixel.
// The source coordinate's integer part and fraction, in double: a float coordinate near 2048 keeps only 1e-4 of
// the fraction, which moves 16-bit results by several units (OpenCV computes the fraction in double too).
CVK_HD float centredCoordinate(const Axis &a, int32_t d, int32_t &s) {
    const double x = (d + 0.5) * a.scale - 0.5;
    s = floorToInt(x);
    return static_cast<float>(x - s);
}

CVK_HD Taps linearTaps(const Axis &a, int32_t d) {
    int32_t s;
    float f = centredCoordinate(a, d, s);
    if (s < 0) f = 0.f, s = 0;
    if (s >= a.src - 1) f = 0.f, s = a.src - 1;
    return {s, {1.f - f, f, 0.f, 0.f}};
}

// AREA on an upscaled axis (OpenCV's area_mode of the linear table): the fraction of the destination pixel that
// falls into the next source pixel.
CVK_HD Taps areaLinearTaps(const Axis &a, int32_t d) {
    int32_t s = floorToInt(d * a.scale);
    float f = static_cast<float>((d + 1) - (s + 1) * a.inv);
    f = f <= 0.f ? 0.f : f - static_cast<float>(floorToInt(f));
    if (s < 0) f = 0.f, s = 0;
    if (s >= a.src - 1) f = 0.f, s = a.src - 1;
    return {s, {1.f - f, f, 0.f, 0.f}};
}

// CUBIC, a = -0.75 (OpenCV interpolateCubic): taps s-1..s+2, border replicated.
CVK_HD Taps cubicTaps(const Axis &a, int32_t d) {
    int32_t s;
    const float x = centredCoordinate(a, d, s);
    constexpr float A = -0.75f;
    Taps t;
    t.first = s - 1;
    t.w[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    t.w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    t.w[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    t.w[3] = 1.f - t.w[0] - t.w[1] - t.w[2];
    return t;
}

// A weight in OpenCV's fixed point: saturate_cast<short>(w * 2048), rounding half to even as cvRound.
CVK_HD int32_t fixedWeight(float w) {
    const float v = w * static_cast<float>(kCoefScale);
#ifdef __CUDA_ARCH__
    int32_t r = __float2int_rn(v);
#else
    int32_t r = static_cast<int32_t>(__builtin_rintf(v));
#endif
    return r < -32768 ? -32768 : (r > 32767 ? 32767 : r);
}

// The fractional-area cell of destination pixel d (computeResizeAreaTab): source pixels [lo, hi) get weight
// `inner`, plus the partial pixels lo-1 (weight `head`, when present) and hi (weight `tail`, when present).
struct AreaCell {
    int32_t lo, hi;
    float inner, head, tail; // head/tail are 0 when absent
};

CVK_HD AreaCell areaCell(const Axis &a, int32_t d) {
    const double f1 = d * a.scale, f2 = f1 + a.scale;
    const double cell = a.scale < a.src - f1 ? a.scale : a.src - f1;
    int32_t s1 = static_cast<int32_t>(f1);
    if (static_cast<double>(s1) < f1) ++s1; // ceil
    int32_t s2 = floorToInt(f2);
    if (s2 > a.src - 1) s2 = a.src - 1;
    if (s1 > s2) s1 = s2;
    AreaCell c;
    c.lo = s1;
    c.hi = s2;
    c.inner = static_cast<float>(1.0 / cell);
    c.head = s1 - f1 > 1e-3 ? static_cast<float>((s1 - f1) / cell) : 0.f;
    double t = f2 - s2;
    if (t > 1.0) t = 1.0;
    if (t > cell) t = cell;
    c.tail = f2 - s2 > 1e-3 ? static_cast<float>(t / cell) : 0.f;
    return c;
}

// ------------------------------------------------------------------------------------------ element conversions

template <class T> CVK_HD float toFloat(T v) { return static_cast<float>(v); }
template <> CVK_HD float toFloat<__half>(__half v) { return __half2float(v); }

CVK_HD float roundEven(float v) {
#ifdef __CUDA_ARCH__
    return rintf(v);
#else
    return __builtin_rintf(v);
#endif
}

// saturate_cast<T>(float) as OpenCV: round half to even, clamp to T's range (NaN becomes 0 for integers).
template <class T> CVK_HD T saturateFloat(float v);
template <> CVK_HD uint8_t saturateFloat<uint8_t>(float v) {
#ifdef __CUDA_ARCH__
    // cvt.rni.u32.f32: round half to even, clamped to [0, 2^32 - 1], NaN to 0 (PTX's float-to-integer cvt), then the
    // clamp to 255: the host's values below, in two instructions instead of a rounding, a conversion and branches.
    return static_cast<uint8_t>(min(__float2uint_rn(v), 255u));
#else
    const float r = roundEven(v);
    return r >= 255.f ? 255 : (r > 0.f ? static_cast<uint8_t>(r) : 0);
#endif
}
template <> CVK_HD uint16_t saturateFloat<uint16_t>(float v) {
    const float r = roundEven(v);
    return r >= 65535.f ? 65535 : (r > 0.f ? static_cast<uint16_t>(r) : 0);
}
template <> CVK_HD int16_t saturateFloat<int16_t>(float v) {
    const float r = roundEven(v);
    return r >= 32767.f ? 32767 : (r <= -32768.f ? -32768 : (r == r ? static_cast<int16_t>(r) : 0));
}
template <> CVK_HD float saturateFloat<float>(float v) { return v; }
template <> CVK_HD __half saturateFloat<__half>(float v) { return __float2half_rn(v); }

// A sampled value before its conversion to the destination type: fixed point (uint8 LINEAR/CUBIC/area-mode,
// 22 fractional bits) or float.
struct Fixed22 {
    int32_t acc;
};

// FixedPtCast<int, uchar, 22>: round half up at 22 bits, saturate.
CVK_HD uint8_t fixedToU8(int32_t acc) {
    const int32_t v = (acc + (1 << (2 * kCoefBits - 1))) >> (2 * kCoefBits);
    return v < 0 ? 0 : (v > 255 ? 255 : static_cast<uint8_t>(v));
}

// ------------------------------------------------------------------------------------------------- the sampler

// One image of the source: element (y, x, c) at base + y*rowStride + x*colStride + c*chStride (bytes).
struct Plane {
    const char *base;
    int64_t rowStride, colStride, chStride;
};

template <class T> CVK_HD T fetch(const Plane &p, int32_t y, int32_t x, int32_t c) {
    return *reinterpret_cast<const T *>(p.base + y * p.rowStride + x * p.colStride + c * p.chStride);
}

// A resize's parameters as the sampler needs them.
struct Mapping {
    Axis x, y;
    int32_t interp;   // Interp
    int32_t areaKind; // AreaKind (AREA only)
    NearestTies tiesX, tiesY; // NEAREST only (nearestTiesOf); zero elsewhere
};

// The order of an AREA row sum of the fractional table. OpenCV's is pixel by pixel: head * p(lo - 1), then
// inner * p(k) for k in [lo, hi), then tail * p(hi). uint8 with an x scale above kAreaSumFirstScale sums its inner
// pixels first instead (exactly: integers below 2^24) and weighs the sum once: head * p(lo - 1), then inner * sum,
// then tail * p(hi), which the row kernels compute with dp4a over the inner bytes (resize_area.cuh) instead of three
// float instructions a tap and channel. Up to that scale (runs of at most ceil(5) + 1 = 6 taps) the dp4a form costs
// more instructions than it saves (bench/probes/resize_area_warp.cu, x1.5 down), and other types, which no row
// kernel serves, keep OpenCV's order. The integer box's sums are exact either way.
constexpr double kAreaSumFirstScale = 5.0;
template <class T> CVK_HD bool areaSumFirst(const Axis &x) { return sizeof(T) == 1 && x.scale > kAreaSumFirstScale; }

// How AREA resolves for an (x, y) pair of axes: integer box, fractional table (both axes downscaled), or the
// linear area-mode (any axis upscaled).
CVK_HD int32_t areaKindOf(const Axis &x, const Axis &y) {
    if (x.scale >= 1.0 && y.scale >= 1.0) return (x.iscale > 0 && y.iscale > 0) ? kAreaFast : kAreaTable;
    return kAreaLinear;
}

// The mapping of a [N, H, W, C] source onto a dstH x dstW destination, as every resize launch passes it (host
// arithmetic, so CPU tests build the kernels' own mapping).
inline Mapping mappingOf(const View4 &src, int64_t dstH, int64_t dstW, int32_t interp) {
    Mapping m{};
    m.x = makeAxis(static_cast<int32_t>(src.shape[kW]), static_cast<int32_t>(dstW));
    m.y = makeAxis(static_cast<int32_t>(src.shape[kH]), static_cast<int32_t>(dstH));
    m.interp = interp;
    m.areaKind = areaKindOf(m.x, m.y);
    m.tiesX = interp == kNearest ? nearestTiesOf(m.x.src, m.x.dst) : NearestTies{};
    m.tiesY = interp == kNearest ? nearestTiesOf(m.y.src, m.y.dst) : NearestTies{};
    return m;
}

// Samples destination pixel (dx, dy) for channels [0, C) and hands each result to emit(c, value) where value is
// the result already converted to T (OpenCV's rounding). For the fused pass, emitReal(c, float) receives the
// unrounded value instead when `rounded` is false. Interp is a template parameter so each kernel compiles only its
// own filter.
template <class T, int I, class Emit>
CVK_HD void samplePixel(const Mapping &m, const Plane &p, int32_t dx, int32_t dy, int32_t C, Emit &&emit) {
    constexpr bool kFixed = sizeof(T) == 1;
    if constexpr (I == kNearest || I == kNearestFloor) {
        const int32_t sx = I == kNearest ? nearestExact(m.x, m.tiesX, dx) : nearestFloor(m.x, dx);
        const int32_t sy = I == kNearest ? nearestExact(m.y, m.tiesY, dy) : nearestFloor(m.y, dy);
        for (int32_t c = 0; c < C; ++c) {
            const T v = fetch<T>(p, sy, sx, c);
            emit(c, v, toFloat(v));
        }
    } else if constexpr (I == kLinear || I == kCubic) {
        constexpr int K = I == kLinear ? 2 : 4;
        const Taps tx = I == kLinear ? linearTaps(m.x, dx) : cubicTaps(m.x, dx);
        const Taps ty = I == kLinear ? linearTaps(m.y, dy) : cubicTaps(m.y, dy);
        int32_t xs[K], ys[K];
CVK_UNROLL
        for (int k = 0; k < K; ++k) {
            xs[k] = clampIndex(int64_t(tx.first) + k, m.x.src);
            ys[k] = clampIndex(int64_t(ty.first) + k, m.y.src);
        }
        for (int32_t c = 0; c < C; ++c) {
            if constexpr (kFixed) {
                int32_t acc = 0;
CVK_UNROLL
                for (int r = 0; r < K; ++r) {
                    int32_t h = 0;
CVK_UNROLL
                    for (int k = 0; k < K; ++k) h += fixedWeight(tx.w[k]) * static_cast<int32_t>(fetch<T>(p, ys[r], xs[k], c));
                    acc += fixedWeight(ty.w[r]) * h;
                }
                emit(c, fixedToU8(acc), static_cast<float>(acc) * (1.f / float(1 << (2 * kCoefBits))));
            } else {
                float acc = 0.f;
CVK_UNROLL
                for (int r = 0; r < K; ++r) {
                    float h = 0.f;
CVK_UNROLL
                    for (int k = 0; k < K; ++k) h += tx.w[k] * toFloat(fetch<T>(p, ys[r], xs[k], c));
                    acc += ty.w[r] * h;
                }
                emit(c, saturateFloat<T>(acc), acc);
            }
        }
    } else {
        static_assert(I == kArea, "unknown interpolation");
        if (m.areaKind == kAreaLinear) {
            const Taps tx = areaLinearTaps(m.x, dx), ty = areaLinearTaps(m.y, dy);
            const int32_t x0 = tx.first, x1 = clampIndex(int64_t(tx.first) + 1, m.x.src);
            const int32_t y0 = ty.first, y1 = clampIndex(int64_t(ty.first) + 1, m.y.src);
            for (int32_t c = 0; c < C; ++c) {
                if constexpr (kFixed) {
                    const int32_t ax0 = fixedWeight(tx.w[0]), ax1 = fixedWeight(tx.w[1]);
                    const int32_t h0 = ax0 * fetch<T>(p, y0, x0, c) + ax1 * fetch<T>(p, y0, x1, c);
                    const int32_t h1 = ax0 * fetch<T>(p, y1, x0, c) + ax1 * fetch<T>(p, y1, x1, c);
                    const int32_t acc = fixedWeight(ty.w[0]) * h0 + fixedWeight(ty.w[1]) * h1;
                    emit(c, fixedToU8(acc), static_cast<float>(acc) * (1.f / float(1 << (2 * kCoefBits))));
                } else {
                    const float h0 = tx.w[0] * toFloat(fetch<T>(p, y0, x0, c)) + tx.w[1] * toFloat(fetch<T>(p, y0, x1, c));
                    const float h1 = tx.w[0] * toFloat(fetch<T>(p, y1, x0, c)) + tx.w[1] * toFloat(fetch<T>(p, y1, x1, c));
                    const float acc = ty.w[0] * h0 + ty.w[1] * h1;
                    emit(c, saturateFloat<T>(acc), acc);
                }
            }
        } else if (m.areaKind == kAreaFast) {
            const int32_t kx = m.x.iscale, ky = m.y.iscale;
            const int32_t x0 = dx * kx, y0 = dy * ky;
            const float norm = 1.f / static_cast<float>(kx * ky);
            for (int32_t c = 0; c < C; ++c) {
                float sum = 0.f;
                for (int32_t r = 0; r < ky; ++r) {
                    float row = 0.f; // exact for integer types: a row of at most 2^24 / max(T) pixels
                    for (int32_t k = 0; k < kx; ++k) row += toFloat(fetch<T>(p, y0 + r, x0 + k, c));
                    sum += row;
                }
                const float v = sum * norm;
                emit(c, saturateFloat<T>(v), v);
            }
        } else {
            const AreaCell cx = areaCell(m.x, dx), cy = areaCell(m.y, dy);
            const bool sumFirst = areaSumFirst<T>(m.x); // the order of the row sum (areaSumFirst)
            for (int32_t c = 0; c < C; ++c) {
                auto rowSum = [&](int32_t y) {
                    float s = 0.f, inner = 0.f;
                    if (cx.head != 0.f) s += cx.head * toFloat(fetch<T>(p, y, cx.lo - 1, c));
                    if (sumFirst) {
                        for (int32_t x = cx.lo; x < cx.hi; ++x) inner += toFloat(fetch<T>(p, y, x, c));
                        s += cx.inner * inner;
                    } else {
                        for (int32_t x = cx.lo; x < cx.hi; ++x) s += cx.inner * toFloat(fetch<T>(p, y, x, c));
                    }
                    if (cx.tail != 0.f) s += cx.tail * toFloat(fetch<T>(p, y, cx.hi, c));
                    return s;
                };
                float acc = 0.f;
                if (cy.head != 0.f) acc += cy.head * rowSum(cy.lo - 1);
                for (int32_t y = cy.lo; y < cy.hi; ++y) acc += cy.inner * rowSum(y);
                if (cy.tail != 0.f) acc += cy.tail * rowSum(cy.hi);
                emit(c, saturateFloat<T>(acc), acc);
            }
        }
    }
}

// ------------------------------------------------------------------------- torchvision / PyTorch interpolation
// torch.nn.functional.interpolate(align_corners=False), which torchvision.transforms.v2.functional.resize calls on
// GPU tensors (uint8 is converted to float32, interpolated, rounded half to even and saturated). Scales are float32
// in / out as PyTorch's area_pixel_compute_scale. Antialiased modes (upsample_*2d_aa): separable filters whose
// support grows with the downscale factor, weights normalised per output pixel; bicubic AA uses Keys' a = -0.5 even
// when enlarging, plain bicubic a = -0.75.

CVK_HD float tvScale(int32_t src, int32_t dst) { return static_cast<float>(src) / static_cast<float>(dst); }

CVK_HD float cubicConv1(float x, float A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
CVK_HD float cubicConv2(float x, float A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }

// The AA window of output index i: source indices [lo, lo + size), the filter's argument scale and lo - centre.
// float32 steps as PyTorch's CUDA _compute_weights_span / _compute_weights (accscalar_t is float there): a window
// edge decided differently adds or drops a tap, which moves float results by 1e-3.
struct TvWindow {
    int32_t lo, size;
    float loMinusCenter, invScale;
};

CVK_HD TvWindow tvWindow(int32_t src, float scale, int32_t i, float halfTaps) {
    const float support = scale >= 1.f ? halfTaps * scale : halfTaps;
    const float center = scale * (i + 0.5f);
    TvWindow w;
    const int32_t lo = static_cast<int32_t>(center - support + 0.5f);
    w.lo = lo > 0 ? lo : 0;
    const int32_t hi = static_cast<int32_t>(center + support + 0.5f);
    w.size = (hi < src ? hi : src) - w.lo;
    w.loMinusCenter = static_cast<float>(w.lo) - center;
    w.invScale = scale >= 1.f ? static_cast<float>(1.0 / scale) : 1.f;
    return w;
}

template <bool Cubic> CVK_HD float tvAAFilter(float x) {
    x = x < 0.f ? -x : x;
    if constexpr (Cubic) { // PyTorch's BicubicFilterFunctor, its operation order included
        constexpr float a = -0.5f;
        if (x < 1.f) return ((a + 2) * x - (a + 3)) * x * x + 1;
        if (x < 2.f) return (((x - 5) * x + 8) * x - 4) * a;
        return 0.f;
    } else {
        return x < 1.f ? 1.f - x : 0.f;
    }
}

template <bool Cubic> CVK_HD float tvAARawWeight(const TvWindow &w, int32_t j) {
    return tvAAFilter<Cubic>((j + w.loMinusCenter + 0.5f) * w.invScale);
}

template <bool Cubic> CVK_HD float tvAATotal(const TvWindow &w) {
    float total = 0.f;
    for (int32_t j = 0; j < w.size; ++j) total += tvAARawWeight<Cubic>(w, j);
    return total;
}

// The normalised weight (PyTorch divides each weight by the total; a zero total leaves the weights as they are).
template <bool Cubic> CVK_HD float tvAAWeight(const TvWindow &w, int32_t j, float total) {
    const float raw = tvAARawWeight<Cubic>(w, j);
    return total != 0.f ? raw / total : raw;
}

// uint8 sources' antialiased horizontal sums in fixed point, for horizontal windows of up to kTvFixedMaxTaps taps (the
// tiles' widest; wider windows, per pixel only, keep float sums): each normalised weight w split into two signed
// 16-bit integers, w * 2^14 = hi + lo * 2^-14 + e with |e| <= 2^-15 (tvFixedSplit; the filters' normalised weights lie
// within (-0.2, 1.2), the CPU tests sweep them, so hi fits), the products of each part with the bytes summed as
// integers (exact, in any order: the tiles sum them two taps an instruction with dp2a, pairDot), the two sums joined by
// one fused multiply-add (tvFixedJoin) and the vertical sum of those floats in float as PyTorch's, scaled by 2^-14 at
// the end (exact). A weight is then off by at most 2^-29, a sum of n taps by n * 255 * 2^-29 (5e-6 at 10 taps) plus
// one float rounding: the size of float32's own rounding in PyTorch's sums, which torchvision's uint8 results take
// (it converts uint8 to float32 before interpolating). It takes the tiles' horizontal phase from three instructions a
// tap (byte to float, its bias, the multiply-add) to one. With hi alone (2^-14) a sum moves by up to n * 255 * 2^-15
// (0.07 at 9 taps), which moved 0.13-0.61 % of the uint8 outputs by 1 in a simulation over photographs.
constexpr int32_t kTvFixedMaxTaps = 48;
constexpr float kTvFixedOne = 16384.f, kTvFixedUnit = 1.f / 16384.f;

// x rounded half away from zero, |x| < 2^22 (x + 0.5f rounds only within 2^-25 of a half, e.g. 0.49999997f gives 1:
// tvFixedSplit's lo then takes the rest, -8192, and the split stays within 2^-29).
CVK_HD int32_t tvRoundAway(float x) { return static_cast<int32_t>(x < 0.f ? x - 0.5f : x + 0.5f); }

// w as hi + lo * 2^-14 in units of 2^-14: hi = w * 2^14 rounded, lo = the rest times 2^14, rounded (both products by a
// power of two and the difference are exact in float).
CVK_HD void tvFixedSplit(float w, int32_t &hi, int32_t &lo) {
    const float x = w * kTvFixedOne;
    hi = tvRoundAway(x);
    lo = tvRoundAway((x - static_cast<float>(hi)) * kTvFixedOne);
}

// A horizontal sum from its two integer parts, in units of 2^-14: hi + lo * 2^-14 by one fmaf, on the host and the
// device alike (written out, so that neither contracts or splits it differently). |hi| < 2^24, so float(hi) is exact;
// |lo| < 2^31 for windows of up to kTvFixedMaxTaps taps, and float(lo) rounds where |lo| >= 2^24 (wide windows), by
// at most 2^-24 of lo * 2^-14: a second rounding that small, the same on both.
CVK_HD float tvFixedJoin(int32_t hi, int32_t lo) { return fmaf(static_cast<float>(lo), kTvFixedUnit, static_cast<float>(hi)); }

// Samples destination pixel (dx, dy) the way PyTorch does and emits (c, value converted to T, float value).
template <class T, int M, class Emit>
CVK_HD void sampleTorch(const Axis &ax, const Axis &ay, const Plane &p, int32_t dx, int32_t dy, int32_t C, Emit &&emit) {
    const float sx = tvScale(ax.src, ax.dst), sy = tvScale(ay.src, ay.dst);
    if constexpr (M == kTvNearest || M == kTvNearestFloor) {
        const float ox = M == kTvNearest ? 0.5f : 0.f;
        const int32_t x = clampIndex(floorToInt((dx + ox) * sx), ax.src), y = clampIndex(floorToInt((dy + ox) * sy), ay.src);
        for (int32_t c = 0; c < C; ++c) {
            const T v = fetch<T>(p, y, x, c);
            emit(c, v, toFloat(v));
        }
    } else if constexpr (M == kTvLinear || M == kTvCubic) {
        constexpr bool kCubic = M == kTvCubic;
        float rx = sx * (dx + 0.5f) - 0.5f, ry = sy * (dy + 0.5f) - 0.5f;
        if (!kCubic) rx = rx < 0.f ? 0.f : rx, ry = ry < 0.f ? 0.f : ry;
        const int32_t x0 = floorToInt(rx), y0 = floorToInt(ry);
        const float tx = rx - x0, ty = ry - y0;
        constexpr int K = kCubic ? 4 : 2;
        float wx[K], wy[K];
        int32_t xs[K], ys[K];
        if constexpr (kCubic) {
            const float A = -0.75f;
            // get_cubic_upsample_coefficients: the far tap's argument is (1 - t) + 1, not 2 - t.
            wx[0] = cubicConv2(tx + 1.f, A), wx[1] = cubicConv1(tx, A), wx[2] = cubicConv1(1.f - tx, A), wx[3] = cubicConv2((1.f - tx) + 1.f, A);
            wy[0] = cubicConv2(ty + 1.f, A), wy[1] = cubicConv1(ty, A), wy[2] = cubicConv1(1.f - ty, A), wy[3] = cubicConv2((1.f - ty) + 1.f, A);
        } else {
            wx[0] = 1.f - tx, wx[1] = tx, wy[0] = 1.f - ty, wy[1] = ty;
        }
CVK_UNROLL
        for (int k = 0; k < K; ++k) {
            xs[k] = clampIndex(int64_t(x0) + k - (kCubic ? 1 : 0), ax.src);
            ys[k] = clampIndex(int64_t(y0) + k - (kCubic ? 1 : 0), ay.src);
        }
        for (int32_t c = 0; c < C; ++c) {
            float acc = 0.f;
CVK_UNROLL
            for (int r = 0; r < K; ++r) {
                float h = 0.f;
CVK_UNROLL
                for (int k = 0; k < K; ++k) h += wx[k] * toFloat(fetch<T>(p, ys[r], xs[k], c));
                acc += wy[r] * h;
            }
            emit(c, saturateFloat<T>(acc), acc);
        }
    } else {
        constexpr bool kCubic = M == kTvCubicAA;
        const float halfTaps = kCubic ? 2.f : 1.f;
        const TvWindow wx = tvWindow(ax.src, sx, dx, halfTaps), wy = tvWindow(ay.src, sy, dy, halfTaps);
        const float tx = tvAATotal<kCubic>(wx), ty = tvAATotal<kCubic>(wy);
        const bool fixed = std::is_same_v<T, uint8_t> && wx.size <= kTvFixedMaxTaps; // tvFixedSplit's horizontal sums
        for (int32_t c = 0; c < C; ++c) {
            float acc = 0.f;
            for (int32_t j = 0; j < wy.size; ++j) {
                float h = 0.f;
                if (fixed) {
                    int32_t hi = 0, lo = 0;
                    for (int32_t i = 0; i < wx.size; ++i) {
                        int32_t whi, wlo;
                        tvFixedSplit(tvAAWeight<kCubic>(wx, i, tx), whi, wlo);
                        const int32_t v = static_cast<int32_t>(toFloat(fetch<T>(p, wy.lo + j, wx.lo + i, c)));
                        hi += whi * v;
                        lo += wlo * v;
                    }
                    h = tvFixedJoin(hi, lo);
                } else {
                    for (int32_t i = 0; i < wx.size; ++i) h += tvAAWeight<kCubic>(wx, i, tx) * toFloat(fetch<T>(p, wy.lo + j, wx.lo + i, c));
                }
                acc += tvAAWeight<kCubic>(wy, j, ty) * h;
            }
            if (fixed) acc *= kTvFixedUnit;
            emit(c, saturateFloat<T>(acc), acc);
        }
    }
}

#undef CVK_HD
#undef CVK_UNROLL

} // namespace cvk::resize
