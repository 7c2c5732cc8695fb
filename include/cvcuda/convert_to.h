/* cvcuda-c: the convertto operator (OpenCV's Mat::convertTo, the reference library's ConvertTo). */
#ifndef CVCUDA_CONVERT_TO_H
#define CVCUDA_CONVERT_TO_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** How a value becomes an integer (the reference library's cvcuda.Round). 0 is unspecified, and an error. */
typedef enum cvRoundMode {
    CV_ROUND_MODE_UNSPECIFIED = 0,
    CV_ROUND_MODE_NEAREST = 1,       /**< nearest, ties to even (OpenCV's cvRound), then saturate */
    CV_ROUND_MODE_TRUNCATE = 2,      /**< toward zero, then saturate */
    CV_ROUND_MODE_NEAREST_WRAP = 3,  /**< nearest (ties to even), then modulo 2^bits; negative -> 0 if unsigned */
    CV_ROUND_MODE_TRUNCATE_WRAP = 4, /**< toward zero, then modulo 2^bits; negative -> 0 if unsigned */
    CV_ROUND_MODE_FORCE_32BIT = 0x7fffffff
} cvRoundMode;

/** Enqueues dst = saturate(round(src * scale + offset)) elementwise on `stream`; returns without waiting for the GPU.
 *
 *  | src and dst dtypes (any pair)                                      | layouts                     |
 *  |--------------------------------------------------------------------|-----------------------------|
 *  | uint8, int8, uint16, int16, int32, float16, bfloat16, float32, float64 | any (or none); equal when both have one |
 *
 *  src and dst have the same shape. The arithmetic is done in float32, or in float64 when either side is int32 or
 *  float64 (every int32 is then exact), with one fused multiply-add. Integer dst (OpenCV's saturate_cast):
 *  CV_ROUND_MODE_NEAREST rounds half to even (uint8 from float32: 254.5 -> 254, 255.5 -> 255 after saturation,
 *  -0.1 -> 0, 300 -> 255), TRUNCATE rounds toward zero, both then clamp to the dst range; the WRAP modes reduce
 *  modulo 2^bits instead (negative -> 0 for unsigned dst); NaN becomes 0 (OpenCV: 0 for unsigned dst, INT_MIN
 *  saturated for signed ones); +-inf becomes the range's max/min. Floating dst: round to nearest even, overflow to
 *  +-inf, NaN stays NaN; `round` must still be valid but has no effect.
 *  Any strides that are multiples of the item size (negative and zero on src); 16-byte vectors where both sides'
 *  rows allow them. dst == src (same memory and strides, same item size) converts in place; any other overlap is
 *  rejected. Empty tensors are a no-op. Ordering: as cvFlip.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; shapes or layouts differ; `round` not a cvRoundMode; dst readonly
 *  or self-overlapping; overlap; memory not on the stream's device), CV_ERROR_NOT_SUPPORTED (a dtype outside the
 *  table; strides that do not reduce to four dimensions), CV_ERROR_INVALID_STATE, CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvConvertTo(cvStream stream, cvTensor src, cvTensor dst, double scale, double offset, int32_t round);

CV_EXTERN_C_END
#endif /* CVCUDA_CONVERT_TO_H */
