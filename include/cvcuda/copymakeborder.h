/* cvcuda-c: the copymakeborder operator (pads images). Source of the convention: OpenCV's cv::copyMakeBorder and
 * cv::borderInterpolate, as the reference library's CopyMakeBorder.
 * OpenCV's legacy C header opencv2/imgproc/imgproc_c.h (not included by opencv2/imgproc.hpp) also declares a
 * cvCopyMakeBorder: one translation unit cannot include both. */
#ifndef CVCUDA_COPYMAKEBORDER_H
#define CVCUDA_COPYMAKEBORDER_H

#include <stdint.h>
#include "border.h"
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Parameters of cvCopyMakeBorder. Initialise with CV_COPY_MAKE_BORDER_PARAMS_INIT, then set fields. */
typedef struct cvCopyMakeBorderParams {
    uint32_t structSize; /**< sizeof(cvCopyMakeBorderParams) */
    int32_t top;         /**< rows of border above the image (>= 0); the rows below follow from dst's height */
    int32_t left;        /**< columns of border left of the image (>= 0); the columns right follow from dst's width */
    int32_t borderMode;  /**< a cvBorderMode (read as int32_t: any other value is rejected) */
    double borderValue[4]; /**< CONSTANT only: the value of channel c is borderValue[c], converted to the element
                              type as OpenCV's saturate_cast (round half to even, clamp; NaN -> 0 for integers) */
} cvCopyMakeBorderParams;

#define CV_COPY_MAKE_BORDER_PARAMS_INIT                                                                               \
    { (uint32_t)sizeof(cvCopyMakeBorderParams), 0, 0, CV_BORDER_MODE_CONSTANT, { 0.0, 0.0, 0.0, 0.0 } }

/** Enqueues on `stream`: dst = src surrounded by a border; returns without waiting for the GPU.
 *  dst[n][y][x][c] = src[n][y - top][x - left][c] inside the image; outside it, the border mode decides (see
 *  cvBorderMode; OpenCV's cv::copyMakeBorder gives the same result for every mode). bottom = dstH - srcH - top and
 *  right = dstW - srcW - left must be >= 0.
 *
 *  | layout     | src shape        | dst shape          | dtypes                                  |
 *  |------------|------------------|--------------------|-----------------------------------------|
 *  | HWC, NHWC  | [N,] H, W, C     | [N,] H', W', C     | every dtype (1, 2, 4 or 8 bytes); C 1-4 |
 *
 *  src and dst have the same layout, N, C and dtype. Any strides that are multiples of the item size (src may have
 *  negative and zero strides); the fastest path needs a C-contiguous dst and pixels whose channels are packed in src.
 *  src and dst must not overlap. An empty src is allowed only with CONSTANT (dst is filled); an empty dst is a no-op.
 *  Ordering: the stream waits (events) on other streams' pending writes to src and pending reads and writes of dst;
 *  an unknown-producer wrapper costs one cudaDeviceSynchronize at its first use (see cvFlip for graph capture).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handle or params; params->structSize too small; a rank, layout, dtype or
 *  shape outside the table or disagreeing between src and dst; top/left < 0; negative bottom/right; an unknown
 *  borderMode; an empty src with a mode other than CONSTANT; dst readonly or overlapping src; memory not on the
 *  stream's device), CV_ERROR_INVALID_STATE, CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvCopyMakeBorder(cvStream stream, cvTensor src, cvTensor dst, const cvCopyMakeBorderParams *params);

CV_EXTERN_C_END
#endif /* CVCUDA_COPYMAKEBORDER_H */
