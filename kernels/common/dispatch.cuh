// Device level: table-driven dtype dispatch. Every value of cvDataType appears in each table, either with its element
// type or as unsupported (the switches have no default, so the compiler flags a new dtype that a table forgets);
// values outside the enum are unsupported too. An unsupported dtype calls nothing and returns false: the operator's
// core validation has already turned it into CV_ERROR_NOT_SUPPORTED with a message, using the same table.
#pragma once

#include "vector_io.cuh"

#include <cvcuda/types.h>

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cvk {

template <class T> struct Tag { using type = T; };

// The arithmetic element types of the image operators: u8, s8, u16, s16, s32, f16, bf16, f32, f64.
template <class F> bool visitArithmetic(cvDataType dtype, F &&f) {
    switch (dtype) {
    case CV_DTYPE_UINT8: f(Tag<uint8_t>{}); return true;
    case CV_DTYPE_INT8: f(Tag<int8_t>{}); return true;
    case CV_DTYPE_UINT16: f(Tag<uint16_t>{}); return true;
    case CV_DTYPE_INT16: f(Tag<int16_t>{}); return true;
    case CV_DTYPE_INT32: f(Tag<int32_t>{}); return true;
    case CV_DTYPE_FLOAT16: f(Tag<__half>{}); return true;
    case CV_DTYPE_BFLOAT16: f(Tag<__nv_bfloat16>{}); return true;
    case CV_DTYPE_FLOAT32: f(Tag<float>{}); return true;
    case CV_DTYPE_FLOAT64: f(Tag<double>{}); return true;
    case CV_DTYPE_UNSPECIFIED:
    case CV_DTYPE_BOOL:
    case CV_DTYPE_UINT32:
    case CV_DTYPE_UINT64:
    case CV_DTYPE_INT64:
    case CV_DTYPE_COMPLEX64:
    case CV_DTYPE_COMPLEX128:
    case CV_DTYPE_FORCE_32BIT: return false;
    }
    return false;
}

// Operators that move bytes (crop, reformat, borders): the element's size picks an unsigned word of that size.
template <class F> bool visitBySize(int32_t itemSize, F &&f) {
    switch (itemSize) {
    case 1: f(Tag<uint8_t>{}); return true;
    case 2: f(Tag<uint16_t>{}); return true;
    case 4: f(Tag<uint32_t>{}); return true;
    case 8: f(Tag<uint64_t>{}); return true;
    default: return false;
    }
}

} // namespace cvk
