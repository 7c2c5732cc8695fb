/* cvcuda-c: the flip operator. Source of the convention: OpenCV's cv::flip flipCode, as the reference library. */
#ifndef CVCUDA_FLIP_H
#define CVCUDA_FLIP_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Enqueues dst = flip(src) on `stream`; returns without waiting for the GPU.
 *  flipCode == 0 flips rows (around the x-axis: dst[y][x] = src[H-1-y][x]); > 0 flips columns (around the y-axis:
 *  dst[y][x] = src[y][W-1-x]); < 0 both.
 *  Layouts: any layout with H and W labels where W follows H directly and every other label is before H or after W
 *  (HW, HWC, NHWC, CHW, NCHW, NHW). Any element type (bytes are moved), any channel count, any strides that are
 *  multiples of the item size (negative and zero strides on src). src and dst must have the same shape and dtype.
 *  dst == src (the same memory, same strides) flips in place; any other overlap between them is rejected.
 *  Empty tensors are a no-op. Ordering: the stream waits on other streams' pending writes to src and pending reads
 *  and writes of dst (events); an unknown-producer wrapper costs one cudaDeviceSynchronize at its first use. While
 *  `stream` is being captured into a CUDA graph the operation is captured without hazard tracking (the graph runs
 *  when launched; ordering its launch is the caller's, as for any graph).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; shapes, dtypes or layouts differ; a layout without H/W;
 *  dst readonly; dst elements overlap each other; partial overlap; memory is not device memory or is on another
 *  device than the stream), CV_ERROR_NOT_SUPPORTED (a layout the operator cannot map),
 *  CV_ERROR_INVALID_STATE (a defensive device sync would be needed while the stream is being captured),
 *  CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvFlip(cvStream stream, cvTensor src, cvTensor dst, int32_t flipCode);

CV_EXTERN_C_END
#endif /* CVCUDA_FLIP_H */
