/* cvcuda-c: how operators read pixels outside an image (border modes). Definitions: OpenCV's cv::BorderTypes, as in
 * cv::copyMakeBorder and cv::borderInterpolate. The numbers are this library's (0 = unspecified, as every enum of the
 * ABI), not OpenCV's: CV_BORDER_MODE_CONSTANT is 1 where cv::BORDER_CONSTANT is 0. */
#ifndef CVCUDA_BORDER_H
#define CVCUDA_BORDER_H

#include "export.h"

CV_EXTERN_C_BEGIN

/** A border mode. For an image row of n pixels "abcdefgh" (n = 8) padded by 3 on each side:
 *  CONSTANT    iii|abcdefgh|iii  (i: the operator's border value)
 *  REPLICATE   aaa|abcdefgh|hhh
 *  REFLECT     cba|abcdefgh|hgf  (the edge pixel repeated)
 *  WRAP        fgh|abcdefgh|abc
 *  REFLECT101  dcb|abcdefgh|gfe  (the edge pixel not repeated; for n = 1 every outside pixel is a)
 *  Reflections fold back and forth as often as needed when the padding exceeds the image, as OpenCV does. */
typedef enum cvBorderMode {
    CV_BORDER_MODE_UNSPECIFIED = 0, /**< rejected where a mode is required */
    CV_BORDER_MODE_CONSTANT = 1,
    CV_BORDER_MODE_REPLICATE = 2,
    CV_BORDER_MODE_REFLECT = 3,
    CV_BORDER_MODE_WRAP = 4,
    CV_BORDER_MODE_REFLECT101 = 5,
    CV_BORDER_MODE_FORCE_32BIT = 0x7fffffff
} cvBorderMode;

CV_EXTERN_C_END
#endif /* CVCUDA_BORDER_H */
