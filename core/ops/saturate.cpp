#include "saturate.hpp"

#include "../error.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cv {
namespace {

template <class T> void store(T v, unsigned char *out) { std::memcpy(out, &v, sizeof v); }

template <class T> T saturateInt(double v) {
    if (std::isnan(v)) return 0;
    const double r = std::nearbyint(v); // the default rounding mode: half to even, as cvRound
    if (r <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    // 2^63 and 2^64 are exact doubles; anything at or above the type's max (as a double) clamps.
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
}

} // namespace

void saturateToBytes(double value, cvDataType dtype, unsigned char *out) {
    switch (dtype) {
    case CV_DTYPE_BOOL: return store<uint8_t>(value != 0.0, out);
    case CV_DTYPE_UINT8: return store(saturateInt<uint8_t>(value), out);
    case CV_DTYPE_INT8: return store(saturateInt<int8_t>(value), out);
    case CV_DTYPE_UINT16: return store(saturateInt<uint16_t>(value), out);
    case CV_DTYPE_INT16: return store(saturateInt<int16_t>(value), out);
    case CV_DTYPE_UINT32: return store(saturateInt<uint32_t>(value), out);
    case CV_DTYPE_INT32: return store(saturateInt<int32_t>(value), out);
    case CV_DTYPE_UINT64: return store(saturateInt<uint64_t>(value), out);
    case CV_DTYPE_INT64: return store(saturateInt<int64_t>(value), out);
    case CV_DTYPE_FLOAT16: return store(__double2half(value), out);
    case CV_DTYPE_BFLOAT16: return store(__double2bfloat16(value), out);
    case CV_DTYPE_FLOAT32: return store(static_cast<float>(value), out);
    case CV_DTYPE_FLOAT64: return store(value, out);
    default: fail(CV_ERROR_INTERNAL, currentFunction(), ": no conversion to dtype ", static_cast<int>(dtype));
    }
}

} // namespace cv
