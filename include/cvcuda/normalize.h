/* cvcuda-c: the normalize operator (the reference library's Normalize). OpenCV's legacy C header
 * opencv2/core/core_c.h declares a cvNormalize of another signature: do not include both in one translation unit
 * (OpenCV 4's C++ headers, opencv2/core.hpp and opencv2/imgproc.hpp, do not declare it). */
#ifndef CVCUDA_NORMALIZE_H
#define CVCUDA_NORMALIZE_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** cvNormalizeParams.flags bit: `scale` holds standard deviations; the factor used is 1 / sqrt(scale^2 + epsilon). */
#define CV_NORMALIZE_SCALE_IS_STDDEV 1u

/** Most channels a per-channel base or scale may have. */
#define CV_NORMALIZE_MAX_CHANNELS 256

/** Parameters of cvNormalize. base and scale are each given either as a tensor (device memory, float32, holding 1 or
 *  C values: every dimension of extent 1 except at most one of extent C, e.g. shape (1, 1, 1, C) "NHWC"; borrowed
 *  for the call, read on the stream) or by value (`baseValues`/`baseCount`: host floats, 1 or C of them, copied at
 *  the call). Exactly one of the two forms per constant. */
typedef struct cvNormalizeParams {
    uint32_t structSize; /**< sizeof(cvNormalizeParams): CV_NORMALIZE_PARAMS_INIT fills it */
    uint32_t flags;      /**< 0 or CV_NORMALIZE_SCALE_IS_STDDEV */
    cvTensor base;       /**< or NULL */
    cvTensor scale;      /**< or NULL */
    const float *baseValues;  /**< or NULL */
    const float *scaleValues; /**< or NULL */
    int32_t baseCount;   /**< values at baseValues: 1 or C */
    int32_t scaleCount;  /**< values at scaleValues: 1 or C */
    float globalScale;   /**< default 1 */
    float globalShift;   /**< default 0 */
    float epsilon;       /**< default 0; added to scale^2 with CV_NORMALIZE_SCALE_IS_STDDEV */
    uint32_t reserved;   /**< 0 */
} cvNormalizeParams;

#define CV_NORMALIZE_PARAMS_INIT {sizeof(cvNormalizeParams), 0u, 0, 0, 0, 0, 0, 0, 1.0f, 0.0f, 0.0f, 0u}

/** Enqueues dst = (src - base[c]) * scale'[c] * globalScale + globalShift on `stream` (c: the channel; scale' =
 *  scale, or 1 / sqrt(scale^2 + epsilon) with CV_NORMALIZE_SCALE_IS_STDDEV), computed in float32 and converted to
 *  dst's type with OpenCV's saturate_cast rule (round half to even, clamp; see cvConvertTo). The reference library's
 *  argument names and meaning: base is subtracted, scale multiplies. Returns without waiting for the GPU.
 *
 *  | src dtype                              | dst dtype                       | layouts (src and dst equal) |
 *  |----------------------------------------|---------------------------------|-----------------------------|
 *  | uint8, uint16, int16, float16, float32 | float32, float16 or src's dtype | NHWC, HWC (fastest), NCHW, CHW |
 *
 *  src and dst have the same shape; C <= CV_NORMALIZE_MAX_CHANNELS. Any strides that are multiples of the item size.
 *  dst == src (same dtype, memory and strides) normalizes in place; any other overlap of dst with src, base or scale
 *  is rejected. Empty tensors are a no-op. Ordering: as cvFlip; base and scale tensors are read on `stream` too.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles or params; structSize too small; both or neither form of a
 *  constant; a count or tensor that holds neither 1 nor C values; a constant tensor not float32; unknown flag bits;
 *  shapes or layouts differ; dst readonly; overlap; memory not on the stream's device), CV_ERROR_NOT_SUPPORTED
 *  (a dtype pair outside the table; C > CV_NORMALIZE_MAX_CHANNELS), CV_ERROR_INVALID_STATE, CV_ERROR_NO_DEVICE,
 *  CV_ERROR_CUDA. */
CV_API cvStatus cvNormalize(cvStream stream, cvTensor src, cvTensor dst, const cvNormalizeParams *params);

CV_EXTERN_C_END
#endif /* CVCUDA_NORMALIZE_H */
