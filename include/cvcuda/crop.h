/* cvcuda-c: the crop operators (the reference library's CustomCrop and CenterCrop). */
#ifndef CVCUDA_CROP_H
#define CVCUDA_CROP_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Enqueues dst = the rectangle of every image of src whose top-left pixel is (x, y) (column, row, in pixels) and
 *  whose size is width x height pixels: dst[n][r][c][ch] = src[n][y + r][x + c][ch]. Returns without waiting for
 *  the GPU.
 *
 *  | layouts (src and dst equal)   | dtypes                     | channels |
 *  |-------------------------------|----------------------------|----------|
 *  | HWC, NHWC, CHW, NCHW          | any (bytes are moved)      | any      |
 *
 *  dst must have src's N and C and H = height, W = width. The rectangle must lie inside the image:
 *  x >= 0, y >= 0, x + width <= W, y + height <= H, width > 0, height > 0 (an out-of-range rectangle is rejected,
 *  never clipped). Any strides that are multiples of the item size (negative and zero on src); 16-byte vectors where
 *  the rows of both sides allow them. Copying the whole image onto itself (dst == src) does nothing; any other
 *  overlap is rejected. Empty tensors are a no-op.
 *  Ordering: as cvFlip (the stream waits on other streams' pending writes of src and accesses of dst; an
 *  unknown-producer wrapper costs one cudaDeviceSynchronize at its first use).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; a layout not in the table or layouts that differ; dtypes that
 *  differ; the rectangle outside src; dst's shape not the crop's; dst readonly or self-overlapping; src and dst
 *  overlapping; memory not on the stream's device), CV_ERROR_INVALID_STATE (a defensive device sync would be needed
 *  while the stream is captured), CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvCustomCrop(cvStream stream, cvTensor src, cvTensor dst, int32_t x, int32_t y, int32_t width,
                             int32_t height);

/** cvCustomCrop of the centred cropWidth x cropHeight rectangle: x = (W - cropWidth) / 2 and y = (H - cropHeight) / 2,
 *  rounded down (the reference library's CenterCrop; torchvision's center_crop rounds (W - cropWidth) / 2 to the
 *  nearest instead, which differs by one pixel when W - cropWidth is odd). Needs 0 < cropWidth <= W and
 *  0 < cropHeight <= H. Layouts, dtypes, ordering and errors as cvCustomCrop. */
CV_API cvStatus cvCenterCrop(cvStream stream, cvTensor src, cvTensor dst, int32_t cropWidth, int32_t cropHeight);

CV_EXTERN_C_END
#endif /* CVCUDA_CROP_H */
