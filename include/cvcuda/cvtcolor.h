/* cvcuda-c: the cvtcolor operator (colour conversions). Source of the conventions: OpenCV's cv::cvtColor (codes,
 * coefficients, fixed-point rounding, YUV 4:2:0 plane layouts), as the reference library's CvtColor.
 * OpenCV's legacy C header opencv2/imgproc/imgproc_c.h (not included by opencv2/imgproc.hpp) also declares a
 * cvCvtColor: one translation unit cannot include both. */
#ifndef CVCUDA_CVTCOLOR_H
#define CVCUDA_CVTCOLOR_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Colour conversion codes. The numbers are OpenCV's cv::ColorConversionCodes (and the reference library's), so a
 *  C++ caller may pass cv::COLOR_RGB2BGR directly; as an exception to the "0 = unspecified" rule of this ABI, 0 is
 *  therefore CV_COLOR_BGR2BGRA. Codes not listed here (HSV, Lab, Bayer, ...) are rejected with CV_ERROR_NOT_SUPPORTED.
 *  Names are OpenCV's with the CV_COLOR_ prefix, so they coexist with OpenCV's CV_BGR2BGRA-style macros. */
typedef enum cvColorConversion {
    CV_COLOR_BGR2BGRA = 0, /**< add alpha (the dtype's maximum: 255, 65535, 1.0) */
    CV_COLOR_RGB2RGBA = 0,
    CV_COLOR_BGRA2BGR = 1, /**< drop alpha */
    CV_COLOR_RGBA2RGB = 1,
    CV_COLOR_BGR2RGBA = 2, /**< swap R and B, add alpha */
    CV_COLOR_RGB2BGRA = 2,
    CV_COLOR_RGBA2BGR = 3, /**< swap R and B, drop alpha */
    CV_COLOR_BGRA2RGB = 3,
    CV_COLOR_BGR2RGB = 4,  /**< swap R and B */
    CV_COLOR_RGB2BGR = 4,
    CV_COLOR_BGRA2RGBA = 5,
    CV_COLOR_RGBA2BGRA = 5,
    CV_COLOR_BGR2GRAY = 6, /**< Y = 0.299 R + 0.587 G + 0.114 B; integers: (9798 R + 19235 G + 3735 B + 2^14) >> 15 */
    CV_COLOR_RGB2GRAY = 7,
    CV_COLOR_GRAY2BGR = 8, /**< replicate */
    CV_COLOR_GRAY2RGB = 8,
    CV_COLOR_GRAY2BGRA = 9,
    CV_COLOR_GRAY2RGBA = 9,
    CV_COLOR_BGRA2GRAY = 10,
    CV_COLOR_RGBA2GRAY = 11,
    CV_COLOR_YUV2RGB_NV12 = 90, /**< YUV 4:2:0 semi-planar (Y plane, then interleaved U V) to RGB */
    CV_COLOR_YUV2BGR_NV12 = 91,
    CV_COLOR_YUV2RGB_NV21 = 92, /**< ... interleaved V U */
    CV_COLOR_YUV2BGR_NV21 = 93,
    CV_COLOR_YUV420sp2RGB = 92,
    CV_COLOR_YUV420sp2BGR = 93,
    CV_COLOR_YUV2RGBA_NV12 = 94,
    CV_COLOR_YUV2BGRA_NV12 = 95,
    CV_COLOR_YUV2RGBA_NV21 = 96,
    CV_COLOR_YUV2BGRA_NV21 = 97,
    CV_COLOR_YUV420sp2RGBA = 96,
    CV_COLOR_YUV420sp2BGRA = 97,
    CV_COLOR_YUV2RGB_YV12 = 98, /**< YUV 4:2:0 planar: Y plane, V plane, U plane */
    CV_COLOR_YUV2BGR_YV12 = 99,
    CV_COLOR_YUV2RGB_IYUV = 100, /**< YUV 4:2:0 planar: Y plane, U plane, V plane */
    CV_COLOR_YUV2BGR_IYUV = 101,
    CV_COLOR_YUV2RGB_I420 = 100,
    CV_COLOR_YUV2BGR_I420 = 101,
    CV_COLOR_YUV420p2RGB = 98,
    CV_COLOR_YUV420p2BGR = 99,
    CV_COLOR_YUV2RGBA_YV12 = 102,
    CV_COLOR_YUV2BGRA_YV12 = 103,
    CV_COLOR_YUV2RGBA_IYUV = 104,
    CV_COLOR_YUV2BGRA_IYUV = 105,
    CV_COLOR_YUV2RGBA_I420 = 104,
    CV_COLOR_YUV2BGRA_I420 = 105,
    CV_COLOR_YUV420p2RGBA = 102,
    CV_COLOR_YUV420p2BGRA = 103,
    CV_COLOR_RGB2YUV_NV12 = 140, /**< RGB to NV12; the reference library's numbers (OpenCV has no such code) */
    CV_COLOR_BGR2YUV_NV12 = 141,
    CV_COLOR_RGB2YUV_NV21 = 142,
    CV_COLOR_BGR2YUV_NV21 = 143,
    CV_COLOR_RGB2YUV420sp = 142,
    CV_COLOR_BGR2YUV420sp = 143,
    CV_COLOR_RGBA2YUV_NV12 = 144,
    CV_COLOR_BGRA2YUV_NV12 = 145,
    CV_COLOR_RGBA2YUV_NV21 = 146,
    CV_COLOR_BGRA2YUV_NV21 = 147,
    CV_COLOR_RGBA2YUV420sp = 146,
    CV_COLOR_BGRA2YUV420sp = 147,
    /** Y as torchvision.transforms.v2.functional.rgb_to_grayscale computes it on a GPU tensor:
     *  float32 (r * 0.2989f), then + 0.587f * g and + 0.114f * b (each one fused multiply-add, as PyTorch's add_),
     *  each step rounded to float16 for float16; integers truncate toward zero (white: 254 for u8). The reference
     *  library's numbers. */
    CV_COLOR_RGB2GRAY_TV = 148,
    CV_COLOR_BGR2GRAY_TV = 149,
    CV_COLOR_RGBA2GRAY_TV = 150, /**< alpha ignored */
    CV_COLOR_BGRA2GRAY_TV = 151,
    CV_COLOR_FORCE_32BIT = 0x7fffffff
} cvColorConversion;

/** The YUV matrix and range of the YUV codes (ITU-R recommendations; "_ER": extended (full) range). */
typedef enum cvColorSpec {
    CV_COLOR_SPEC_UNSPECIFIED = 0, /**< the code's default: BT.601 limited range, OpenCV's */
    CV_COLOR_SPEC_BT601 = 1,       /**< Kr = 0.299, Kb = 0.114; Y in [16, 235], U V in [16, 240] */
    CV_COLOR_SPEC_BT601_ER = 2,    /**< BT.601 full range: Y, U, V in [0, 255] (JPEG) */
    CV_COLOR_SPEC_BT709 = 3,       /**< Kr = 0.2126, Kb = 0.0722, limited range */
    CV_COLOR_SPEC_BT709_ER = 4,
    CV_COLOR_SPEC_BT2020 = 5,      /**< Kr = 0.2627, Kb = 0.0593, limited range (8-bit) */
    CV_COLOR_SPEC_BT2020_ER = 6,
    CV_COLOR_SPEC_FORCE_32BIT = 0x7fffffff
} cvColorSpec;

/** Enqueues dst = cvtColor(src, code) on `stream`; returns without waiting for the GPU.
 *
 *  | codes                        | src                  | dst                  | dtypes               |
 *  |------------------------------|----------------------|----------------------|----------------------|
 *  | 0-5 (swap R/B, add/drop alpha) | [N,]H,W,3 or 4     | [N,]H,W,3 or 4       | u8, u16, f16, f32    |
 *  | 6, 7, 10, 11 (to GRAY)       | [N,]H,W,3 or 4       | [N,]H,W,1            | u8, u16, f16, f32    |
 *  | 148-151 (to GRAY, torchvision)| [N,]H,W,3 or 4      | [N,]H,W,1            | u8, u16, f16, f32    |
 *  | 8, 9 (GRAY to colour)        | [N,]H,W,1            | [N,]H,W,3 or 4       | u8, u16, f16, f32    |
 *  | 90-105 (YUV 4:2:0 to colour) | [N,]H*3/2,W,1        | [N,]H,W,3 or 4       | u8                   |
 *  | 140-147 (colour to NV12/21)  | [N,]H,W,3 or 4       | [N,]H*3/2,W,1        | u8                   |
 *
 *  Layouts HWC or NHWC (src and dst the same); the src and dst dtypes are equal. YUV images have even H and W; the
 *  4:2:0 planes are laid out as OpenCV's cv::cvtColor reads them: rows 0..H-1 hold Y; NV12/NV21 rows H..H*3/2-1 hold
 *  the U V (V U) pairs of chroma row k in row H + k; I420/YV12 hold the first chroma plane, then the second, each of
 *  H/2 rows of W/2 bytes, two chroma rows per tensor row (chroma row q of the two planes, q = plane*H/2 + k, is at
 *  row H + q/2, columns (q%2)*W/2 ...).
 *  Arithmetic: u8/u16 as OpenCV's fixed point; f16/f32 in float. YUV to RGB for BT.601 limited range is OpenCV's
 *  20-bit fixed point (R = (1220542 * max(Y-16, 0) + 1673527 * (V-128) + 2^19) >> 20, ...), other specs the same
 *  form with their matrix. RGB to NV12: Y per pixel as OpenCV's RGB2YUV_I420; U and V from the mean of each 2x2
 *  block, rounded once (OpenCV's I420 encoder takes the top-left pixel instead; the reference library averages).
 *  `colorSpec` (a cvColorSpec read as int32_t) applies to the YUV codes; other codes ignore it.
 *  src and dst must not overlap. Ordering and graph capture: as cvFlip.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; an unknown code or colorSpec; rank, layout, dtype, channel count
 *  or shape outside the table or not matching the code; odd YUV sizes; dst readonly or overlapping src; memory not on
 *  the stream's device), CV_ERROR_NOT_SUPPORTED (an OpenCV code this library does not implement),
 *  CV_ERROR_INVALID_STATE, CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvCvtColor(cvStream stream, cvTensor src, cvTensor dst, int32_t code, int32_t colorSpec);

CV_EXTERN_C_END
#endif /* CVCUDA_CVTCOLOR_H */
