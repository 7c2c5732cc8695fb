// Thread level: element types and conversions (OpenCV's saturate_cast rule, on the GPU).
//
// The rule, for a value v computed in the work type (float, or double when either side is int32 or float64, so that
// every int32 is exact):
//   integer destination, Round::Nearest  -> round half to even (rint: 254.5 -> 254, 255.5 -> 256, -0.5 -> -0),
//                                           then clamp to the destination range (300 -> 255 for u8, -0.1 -> 0).
//   integer destination, Round::Truncate -> toward zero (2.7 -> 2, -2.7 -> -2), then clamp.
//   integer destination, *Wrap           -> rounded as above into int64, then reduced modulo 2^bits (two's
//                                           complement); for unsigned destinations a negative value becomes 0.
//   NaN to any integer destination       -> 0 (OpenCV gives 0 for unsigned destinations and INT_MIN, saturated,
//                                           for signed ones on x86: we give 0 everywhere). Tested explicitly: CUDA's
//                                           double -> int32 conversion turns NaN into INT_MIN.
//   +-inf to an integer destination      -> the range's max / min (Nearest, Truncate).
//   float16 / bfloat16 / float32 destination -> round to nearest even; out of range -> +-inf; NaN stays NaN
//                                           (IEEE conversion, as OpenCV's saturate_cast<float16_t>).
// Source of the rounding: OpenCV's cvRound (lrint under the default rounding mode) inside saturate_cast.
#pragma once

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cvk {

enum class Round : int32_t { Nearest = 1, Truncate = 2, NearestWrap = 3, TruncateWrap = 4 };

template <class T> struct Traits;
#define CVK_INT_TRAITS(T, LO, HI)                                                                                    \
    template <> struct Traits<T> {                                                                                   \
        static constexpr bool kFloat = false;                                                                        \
        static constexpr bool kWide = sizeof(T) >= 4; /* needs a double work type to stay exact */                  \
        static constexpr int64_t kMin = LO, kMax = HI;                                                               \
        template <class W> static __device__ __forceinline__ W toWork(T v) { return static_cast<W>(v); }            \
    };
CVK_INT_TRAITS(uint8_t, 0, 255)
CVK_INT_TRAITS(int8_t, -128, 127)
CVK_INT_TRAITS(uint16_t, 0, 65535)
CVK_INT_TRAITS(int16_t, -32768, 32767)
CVK_INT_TRAITS(int32_t, INT32_MIN, INT32_MAX)
#undef CVK_INT_TRAITS

template <> struct Traits<float> {
    static constexpr bool kFloat = true, kWide = false;
    template <class W> static __device__ __forceinline__ W toWork(float v) { return static_cast<W>(v); }
};
template <> struct Traits<double> {
    static constexpr bool kFloat = true, kWide = true;
    template <class W> static __device__ __forceinline__ W toWork(double v) { return static_cast<W>(v); }
};
template <> struct Traits<__half> {
    static constexpr bool kFloat = true, kWide = false;
    template <class W> static __device__ __forceinline__ W toWork(__half v) { return static_cast<W>(__half2float(v)); }
};
template <> struct Traits<__nv_bfloat16> {
    static constexpr bool kFloat = true, kWide = false;
    template <class W> static __device__ __forceinline__ W toWork(__nv_bfloat16 v) {
        return static_cast<W>(__bfloat162float(v));
    }
};

// The work type of a conversion In -> Out.
template <class In, class Out>
using WorkType = typename std::conditional<Traits<In>::kWide || Traits<Out>::kWide, double, float>::type;

namespace detail {
template <Round R> __device__ __forceinline__ int32_t toInt32(float v) {
    return R == Round::Nearest || R == Round::NearestWrap ? __float2int_rn(v) : __float2int_rz(v);
}
template <Round R> __device__ __forceinline__ int32_t toInt32(double v) {
    return R == Round::Nearest || R == Round::NearestWrap ? __double2int_rn(v) : __double2int_rz(v);
}
template <Round R> __device__ __forceinline__ long long toInt64(float v) {
    return R == Round::NearestWrap ? __float2ll_rn(v) : __float2ll_rz(v);
}
template <Round R> __device__ __forceinline__ long long toInt64(double v) {
    return R == Round::NearestWrap ? __double2ll_rn(v) : __double2ll_rz(v);
}
} // namespace detail

// saturateCast<Out, R>(v): the rule above. CUDA's float -> int conversions already saturate to the int32/int64 range;
// narrower types are clamped after; NaN is caught before the conversion (see the rule).
template <class Out, Round R, class W> __device__ __forceinline__ Out saturateCast(W v) {
    if constexpr (std::is_same<Out, float>::value || std::is_same<Out, double>::value) {
        return static_cast<Out>(v);
    } else if constexpr (std::is_same<Out, __half>::value) {
        if constexpr (std::is_same<W, double>::value) return __double2half(v);
        else return __float2half_rn(v);
    } else if constexpr (std::is_same<Out, __nv_bfloat16>::value) {
        if constexpr (std::is_same<W, double>::value) return __double2bfloat16(v);
        else return __float2bfloat16_rn(v);
    } else if constexpr (R == Round::Nearest || R == Round::Truncate) {
        if (v != v) return Out(0);
        const int32_t i = detail::toInt32<R>(v);
        if constexpr (sizeof(Out) == 4) return i;
        else return static_cast<Out>(i < Traits<Out>::kMin ? Traits<Out>::kMin : i > Traits<Out>::kMax ? Traits<Out>::kMax : i);
    } else {
        if (v != v) return Out(0);
        const long long i = detail::toInt64<R>(v);
        if (Traits<Out>::kMin == 0 && i < 0) return Out(0);
        return static_cast<Out>(static_cast<uint64_t>(i)); // modulo 2^bits
    }
}

} // namespace cvk
