/* cvcuda-c: the reformat operator (the reference library's Reformat): interleaved <-> planar layouts. */
#ifndef CVCUDA_REFORMAT_H
#define CVCUDA_REFORMAT_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Enqueues dst = src with dst's layout on `stream`: dst(n, h, w, c) = src(n, h, w, c) where each side indexes its
 *  own layout. Returns without waiting for the GPU.
 *
 *  | src layout -> dst layout                    | dtypes                |
 *  |---------------------------------------------|-----------------------|
 *  | NHWC <-> NCHW, HWC <-> CHW, or equal layouts | any (bytes are moved) |
 *
 *  src and dst have the same dtype and the same N, H, W, C. Packed images (each pixel's, or each plane's, elements
 *  contiguous) go through a shared-memory tiled transpose that keeps reads and writes coalesced; other strides
 *  (any multiple of the item size, negative and zero on src) are copied element by element. dst == src with equal
 *  layouts does nothing; any other overlap is rejected. Empty tensors are a no-op. Ordering: as cvFlip.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; a layout not in the table, or one with N and one without;
 *  dtypes or N/H/W/C differ; dst readonly or self-overlapping; overlap; memory not on the stream's device),
 *  CV_ERROR_INVALID_STATE, CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvReformat(cvStream stream, cvTensor src, cvTensor dst);

CV_EXTERN_C_END
#endif /* CVCUDA_REFORMAT_H */
