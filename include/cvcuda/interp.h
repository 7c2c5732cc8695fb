/* cvcuda-c: interpolation methods of the geometric operators (resize). Values are fixed forever; 0 is unspecified
 * (an error where a value is required). The names carry the type's word so that they coexist with OpenCV's
 * CV_INTER_* and cv::INTER_* constants. */
#ifndef CVCUDA_INTERP_H
#define CVCUDA_INTERP_H

#include "export.h"

CV_EXTERN_C_BEGIN

typedef enum cvInterp {
    CV_INTERP_UNSPECIFIED = 0,
    /** The source pixel that covers the destination pixel's centre: OpenCV INTER_NEAREST_EXACT, PIL NEAREST,
     *  torchvision "nearest-exact". */
    CV_INTERP_NEAREST = 1,
    /** floor(d * src / dst), biased toward the origin: OpenCV INTER_NEAREST, torch's legacy "nearest". */
    CV_INTERP_NEAREST_FLOOR = 2,
    /** Bilinear, pixel centres aligned (OpenCV INTER_LINEAR, align_corners=False). */
    CV_INTERP_LINEAR = 3,
    /** Bicubic with a = -0.75 (OpenCV INTER_CUBIC), border replicated. */
    CV_INTERP_CUBIC = 4,
    /** Pixel-area resampling (OpenCV INTER_AREA): the exact box mean for integer downscale factors, OpenCV's
     *  fractional-area weights for other downscales, OpenCV's area-mode bilinear when an axis is upscaled. */
    CV_INTERP_AREA = 5,
    CV_INTERP_FORCE_32BIT = 0x7fffffff
} cvInterp;

CV_EXTERN_C_END
#endif /* CVCUDA_INTERP_H */
