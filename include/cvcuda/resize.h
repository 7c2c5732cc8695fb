/* cvcuda-c: resize (OpenCV's cv::resize semantics) and the fused preprocessing pass
 * resize -> crop -> convert -> normalize -> reformat (the reference library's ResizeCropConvertReformat, plus
 * per-channel mean and standard deviation). */
#ifndef CVCUDA_RESIZE_H
#define CVCUDA_RESIZE_H

#include <stdint.h>
#include "export.h"
#include "interp.h"
#include "status.h"
#include "stream.h"
#include "tensor.h"

CV_EXTERN_C_BEGIN

/** Enqueues dst = resize(src) on `stream`, each image of the batch to dst's height and width; returns without
 *  waiting for the GPU.
 *
 *  Semantics are OpenCV's cv::resize (cv2.resize(src, (W, H), interpolation=...)): pixel centres aligned
 *  (src coordinate = (d + 0.5) * src/dst - 0.5, its fraction kept in double), border pixels replicated, any ratio
 *  up or down, the two axes independent. `interp` is a cvInterp: NEAREST = INTER_NEAREST_EXACT (the pixel
 *  covering the destination centre, floor((d + 0.5) * src/dst); where a centre falls exactly on a pixel edge, the side
 *  that OpenCV 5's running double sum picks, as cv2 5.0 does; cvResizeTorchvision's nearest-exact is torchvision's float rule), NEAREST_FLOOR = INTER_NEAREST, LINEAR, CUBIC (a = -0.75) and AREA as in
 *  interp.h. uint8 LINEAR, CUBIC and upscaling AREA use OpenCV's fixed-point weights (11 bits, rounded at 22 bits);
 *  OpenCV's SIMD code rounds the vertical pass differently: results agree within 1. Other types compute in float32
 *  and round half to even with saturation (OpenCV's saturate_cast); float16 computes in float32 (OpenCV has no
 *  float16 resize). AREA takes any channel count (OpenCV's fractional-area path refuses more than 4).
 *
 *  | layout            | dtypes                                  | channels |
 *  |-------------------|-----------------------------------------|----------|
 *  | HWC, NHWC         | uint8, uint16, int16, float16, float32  | any >= 1 |
 *  | CHW, NCHW, HW, NHW| same                                    | any >= 1 |
 *
 *  src and dst: the same layout, dtype, batch size N and channel count C; any strides that are multiples of the item
 *  size (src strides may be negative or zero); H and W of both at least 1 and below 2^31. dst must not overlap
 *  src. N == 0 or C == 0 is a no-op.
 *  Ordering: as cvFlip (events on other streams' pending writes of src and accesses of dst; an unknown-producer
 *  wrapper costs one cudaDeviceSynchronize at its first use; captured without hazard tracking inside a CUDA graph).
 *  Errors: CV_ERROR_INVALID_ARGUMENT (NULL handles; interp not a cvInterp; layouts, dtypes, N or C differ; a layout
 *  other than those above; H or W is 0 or too large; dst readonly or self-overlapping; src and dst overlap; memory
 *  not on the stream's device), CV_ERROR_NOT_SUPPORTED (a dtype outside the table), CV_ERROR_INVALID_STATE,
 *  CV_ERROR_NO_DEVICE, CV_ERROR_CUDA. */
CV_API cvStatus cvResize(cvStream stream, cvTensor src, cvTensor dst, int32_t interp);

/** Enqueues dst = torchvision.transforms.v2.functional.resize(src) semantics on `stream`: PyTorch's
 *  torch.nn.functional.interpolate(align_corners=False) as torchvision calls it on GPU tensors (the reference
 *  library's tvresize). interp: CV_INTERP_LINEAR ("bilinear"), CV_INTERP_CUBIC ("bicubic": a = -0.75, or Keys'
 *  a = -0.5 with antialias, also when enlarging, as PyTorch), CV_INTERP_NEAREST ("nearest-exact"),
 *  CV_INTERP_NEAREST_FLOOR ("nearest"). antialias nonzero: PyTorch's antialiased kernels (support scaled by the
 *  downscale factor, weights normalised per output pixel; no effect for nearest). Scales are float32 src / dst as
 *  PyTorch's. All types compute in float32, except the horizontal sums of uint8 with antialias (below); integer
 *  results round half to even and saturate, as torchvision's round_() and clamp (uint8 on the GPU is interpolated
 *  in float32 by torchvision too; its CPU uint8 kernels round each pass at 22 bits instead and may differ by 1).
 *  uint8 with antialias: each horizontal window of up to 48 taps is summed as exact integers, its bytes times the
 *  weights in two 16-bit parts (units 2^-14 and 2^-28), and the two sums are joined by one fused multiply-add; wider
 *  windows keep float32 sums. A weight is off by at most 2^-29, so results stay within float32 rounding of
 *  PyTorch's, and an output differs from torchvision's only where its value lies that close to a half.
 *  Layouts, dtypes, ordering and errors as cvResize; CV_INTERP_AREA is rejected (CV_ERROR_INVALID_ARGUMENT). */
CV_API cvStatus cvResizeTorchvision(cvStream stream, cvTensor src, cvTensor dst, int32_t interp, int32_t antialias);

/** Largest channel count of the fused pass. */
#define CV_RESIZE_CROP_CONVERT_MAX_CHANNELS 4

/** Parameters of cvResizeCropConvertReformat. Initialise with CV_RESIZE_CROP_CONVERT_PARAMS_INIT. */
typedef struct cvResizeCropConvertParams {
    uint32_t structSize;
    int32_t resizeWidth, resizeHeight; /**< size of the resized image (before the crop), pixels, >= 1 */
    int32_t interp;                    /**< cvInterp; the same sampler as cvResize */
    int32_t cropX, cropY;              /**< crop's top-left corner in the resized image; its size is dst's W x H */
    int32_t reverseChannels;           /**< nonzero: output channel c takes input channel C-1-c (RGB <-> BGR) */
    int32_t srcCast;                   /**< nonzero: interpolation results rounded to uint8 first (reference default) */
    float scale, offset;               /**< value * scale + offset */
    int32_t normalize;                 /**< nonzero: then (x - mean[c]) / stddev[c], c the output channel */
    float mean[CV_RESIZE_CROP_CONVERT_MAX_CHANNELS];
    float stddev[CV_RESIZE_CROP_CONVERT_MAX_CHANNELS];
} cvResizeCropConvertParams;

#define CV_RESIZE_CROP_CONVERT_PARAMS_INIT                                                                          \
    { sizeof(cvResizeCropConvertParams), 0, 0, CV_INTERP_LINEAR, 0, 0, 0, 1, 1.0f, 0.0f, 0, {0, 0, 0, 0}, {1, 1, 1, 1} }

/** Enqueues the fused preprocessing pass on `stream`: for each image n and output pixel (y, x) of dst,
 *    v = resize(src[n], resizeHeight x resizeWidth, interp)[y + cropY, x + cropX, c]   (cvResize's value; rounded
 *        to uint8 when srcCast, else the unrounded interpolation),
 *    dst[n, y, x, c'] = ((v * scale + offset) - mean[c']) / stddev[c']   (float32 arithmetic; without normalize
 *        mean = 0 and stddev = 1), with c = c' or C-1-c' (reverseChannels),
 *  in one kernel that reads only the source pixels the crop needs and never stores the resized image. Equal to
 *  cvResize followed by a crop, a conversion to float and the normalization, within float32 rounding (the product
 *  and sum may be fused into one multiply-add).
 *  src: uint8, layout NHWC or HWC, C in [1, 4]. dst: float32 or float16, layout NHWC, NCHW, HWC or CHW (same N and
 *  C as src; a batch layout when src has one), any strides. The crop must lie inside the resized image.
 *  Ordering and the errors common to operators: as cvResize. Errors also: CV_ERROR_INVALID_ARGUMENT for a NULL or
 *  too small params (structSize), sizes < 1, a crop outside the resized image, stddev 0 with normalize, C > 4;
 *  CV_ERROR_NOT_SUPPORTED for src not uint8 or dst not float32/float16. */
CV_API cvStatus cvResizeCropConvertReformat(cvStream stream, cvTensor src, cvTensor dst, const cvResizeCropConvertParams *params);

/** Enqueues the fused pass of cvResizeCropConvertReformat with cvResizeTorchvision's resize on `stream`: the chain
 *  torchvision.transforms.v2 runs as Resize -> CenterCrop (or any crop inside the resized image) -> ToDtype(float,
 *  scale=True) -> Normalize, in one kernel:
 *    v = cvResizeTorchvision(src[n], resizeHeight x resizeWidth, params->interp, antialias)[y + cropY, x + cropX, c]
 *        (rounded half to even and saturated to uint8 when srcCast, as torchvision rounds its uint8 result; else the
 *        unrounded float interpolation),
 *    dst[n, y, x, c'] = ((v * scale + offset) - mean[c']) / stddev[c']   (float32; with offset 0 exactly
 *        torchvision's to_dtype product, its normalize subtraction and IEEE division, each rounded once),
 *  only for the crop's pixels; the resized image is never stored. params->interp takes cvResizeTorchvision's
 *  modes (CV_INTERP_LINEAR, CV_INTERP_CUBIC, CV_INTERP_NEAREST, CV_INTERP_NEAREST_FLOOR); antialias nonzero as
 *  there. Values equal cvResizeTorchvision followed by the crop and the same float arithmetic.
 *  src: uint8, layout NHWC, HWC, NCHW or CHW (torch's channels_last and contiguous tensors), C in [1, 4], any
 *  strides. dst, the crop, the other params fields, ordering and errors: as cvResizeCropConvertReformat, except that
 *  an interp outside the four modes above is CV_ERROR_INVALID_ARGUMENT. */
CV_API cvStatus cvResizeTorchvisionCropConvertReformat(cvStream stream, cvTensor src, cvTensor dst,
                                                       const cvResizeCropConvertParams *params, int32_t antialias);

CV_EXTERN_C_END
#endif /* CVCUDA_RESIZE_H */
