#include "resize.hpp"

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"
#include "op_common.hpp"

#include "../../kernels/resize.hpp"

#include <cmath>

namespace cv {
namespace {

constexpr int64_t kMaxSide = INT32_MAX; // coordinates are int32 in the kernels

// cvInterp -> the kernels' table index; -1 for values that are not a cvInterp.
int32_t kernelInterp(int32_t interp) {
    switch (interp) {
    case CV_INTERP_NEAREST: return cvk::resize::kNearest;
    case CV_INTERP_NEAREST_FLOOR: return cvk::resize::kNearestFloor;
    case CV_INTERP_LINEAR: return cvk::resize::kLinear;
    case CV_INTERP_CUBIC: return cvk::resize::kCubic;
    case CV_INTERP_AREA: return cvk::resize::kArea;
    default: return -1;
    }
}

int32_t requireInterp(int32_t interp) {
    const int32_t k = kernelInterp(interp);
    if (k < 0)
        invalid(currentFunction(), ": interp=", interp,
                " is not a cvInterp (NEAREST=1, NEAREST_FLOOR=2, LINEAR=3, CUBIC=4, AREA=5)");
    return k;
}

// The resize kernels' element types; -1 for the others.
int32_t kernelType(cvDataType t) {
    switch (t) {
    case CV_DTYPE_UINT8: return cvk::kResizeU8;
    case CV_DTYPE_UINT16: return cvk::kResizeU16;
    case CV_DTYPE_INT16: return cvk::kResizeS16;
    case CV_DTYPE_FLOAT16: return cvk::kResizeF16;
    case CV_DTYPE_FLOAT32: return cvk::kResizeF32;
    default: return -1;
    }
}

constexpr const char *kResizeLayouts = "HWC,NHWC,CHW,NCHW,HW,NHW";

void requireSameLayout(const TensorDesc &s, const TensorDesc &d) {
    if (!s.layout.empty() && !d.layout.empty() && s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ");
}

void checkSides(const ops::Image &im, const char *name, const TensorDesc &d) {
    if (im.h < 1 || im.w < 1 || im.h > kMaxSide || im.w > kMaxSide)
        invalid(currentFunction(), ": ", name, " shape ", ops::shapeString(d), " has H=", im.h, " W=", im.w,
                " (each must be in [1, 2^31 - 1])");
}

void checkWritable(const TensorDesc &s, const TensorDesc &d) {
    ops::requireWritable(d, "dst");
    ops::requireNoOverlap(s, d, false);
}

template <class Launch> void submit(const Ref<Stream> &stream, Tensor &src, Tensor &dst, Launch &&launch) {
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        checkCuda(launch(stream->handle()), "resize kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace

namespace {

// What cvResize and cvResizeTorchvision check alike: layouts, dtypes, N, C, sides, overlap.
bool planImages(const Tensor &src, const Tensor &dst, cvk::ResizeParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    requireSameLayout(s, d);
    const ops::Image si = ops::imageOf(s, "src", kResizeLayouts), di = ops::imageOf(d, "dst", kResizeLayouts);
    if (s.dtype != d.dtype)
        invalid(currentFunction(), ": src dtype ", ops::dtypeName(s.dtype), " and dst dtype ", ops::dtypeName(d.dtype),
                " differ (they must be equal)");
    p.type = kernelType(s.dtype);
    ops::requireDType(s, "src", p.type >= 0, "uint8, uint16, int16, float16, float32");
    if (si.n != di.n)
        invalid(currentFunction(), ": src N=", si.n, " and dst N=", di.n, " differ (shapes ", ops::shapeString(s), " and ",
                ops::shapeString(d), ")");
    if (si.c != di.c)
        invalid(currentFunction(), ": src C=", si.c, " and dst C=", di.c, " differ (shapes ", ops::shapeString(s), " and ",
                ops::shapeString(d), ")");
    p.src = si.view;
    p.dst = di.view;
    if (si.n == 0 || si.c == 0) return false;
    checkSides(si, "src", s);
    checkSides(di, "dst", d);
    checkWritable(s, d);
    return true;
}

} // namespace

bool planResize(const Tensor &src, const Tensor &dst, int32_t interp, cvk::ResizeParams &p) {
    p = {};
    p.interp = requireInterp(interp);
    p.torchMode = -1;
    return planImages(src, dst, p);
}

namespace {

// cvResizeTorchvision's interp and antialias -> the kernels' torch mode.
int32_t requireTorchMode(const char *argument, int32_t interp, int32_t antialias) {
    using namespace cvk::resize;
    switch (interp) {
    case CV_INTERP_NEAREST: return kTvNearest;
    case CV_INTERP_NEAREST_FLOOR: return kTvNearestFloor;
    case CV_INTERP_LINEAR: return antialias ? kTvLinearAA : kTvLinear;
    case CV_INTERP_CUBIC: return antialias ? kTvCubicAA : kTvCubic;
    default:
        invalid(currentFunction(), ": ", argument, "=", interp,
                " is not one of torchvision's modes (NEAREST=1, NEAREST_FLOOR=2, LINEAR=3, CUBIC=4)");
    }
}

} // namespace

bool planResizeTorchvision(const Tensor &src, const Tensor &dst, int32_t interp, int32_t antialias, cvk::ResizeParams &p) {
    p = {};
    p.interp = -1;
    p.torchMode = requireTorchMode("interp", interp, antialias);
    return planImages(src, dst, p);
}

namespace {

// What both fused passes check: the images (src layouts as given), dtypes, sizes, crop and constants.
bool planFused(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params, const char *srcLayouts,
               cvk::FusedParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    const ops::Image si = ops::imageOf(s, "src", srcLayouts), di = ops::imageOf(d, "dst", "NHWC,NCHW,HWC,CHW");
    ops::requireDType(s, "src", s.dtype == CV_DTYPE_UINT8, "uint8");
    ops::requireDType(d, "dst", d.dtype == CV_DTYPE_FLOAT32 || d.dtype == CV_DTYPE_FLOAT16, "float32, float16");
    if ((s.layout[0] == 'N') != (d.layout[0] == 'N'))
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout,
                "' must both have a batch dimension N or both lack it");
    if (si.n != di.n) invalid(currentFunction(), ": src N=", si.n, " and dst N=", di.n, " differ");
    if (si.c != di.c) invalid(currentFunction(), ": src C=", si.c, " and dst C=", di.c, " differ");
    if (si.c > cvk::kFusedMaxChannels || si.c < 1)
        invalid(currentFunction(), ": src C=", si.c, " is outside [1, ", cvk::kFusedMaxChannels, "]");
    p.src = si.view;
    p.dst = di.view;
    if (params.resizeWidth < 1 || params.resizeHeight < 1)
        invalid(currentFunction(), ": params->resizeWidth=", params.resizeWidth, ", resizeHeight=", params.resizeHeight,
                " (each must be >= 1)");
    if (si.n == 0) return false;
    checkSides(si, "src", s);
    checkSides(di, "dst", d);
    if (params.cropX < 0 || params.cropY < 0 || int64_t(params.cropX) + di.w > params.resizeWidth ||
        int64_t(params.cropY) + di.h > params.resizeHeight)
        invalid(currentFunction(), ": the crop at (x=", params.cropX, ", y=", params.cropY, ") of dst's size W=", di.w,
                " H=", di.h, " does not lie inside the resized image (", params.resizeWidth, " x ", params.resizeHeight, ")");
    p.resizeW = params.resizeWidth;
    p.resizeH = params.resizeHeight;
    p.cropX = params.cropX;
    p.cropY = params.cropY;
    p.srcCast = params.srcCast != 0;
    p.reverseChannels = params.reverseChannels != 0;
    p.halfOut = d.dtype == CV_DTYPE_FLOAT16;
    p.scale = params.scale;
    p.offset = params.offset;
    for (int c = 0; c < cvk::kFusedMaxChannels; ++c) {
        p.mean[c] = params.normalize ? params.mean[c] : 0.f;
        p.stddev[c] = params.normalize ? params.stddev[c] : 1.f;
        if (c < si.c && params.normalize && !(std::isfinite(p.stddev[c]) && p.stddev[c] != 0.f))
            invalid(currentFunction(), ": params->stddev[", c, "]=", p.stddev[c], " (must be finite and nonzero)");
    }
    checkWritable(s, d);
    return true;
}

} // namespace

bool planResizeCropConvertReformat(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params,
                                   cvk::FusedParams &p) {
    p = {};
    p.interp = requireInterp(params.interp);
    p.torchMode = -1;
    return planFused(src, dst, params, "NHWC,HWC", p);
}

bool planResizeTorchvisionCropConvertReformat(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params,
                                              int32_t antialias, cvk::FusedParams &p) {
    p = {};
    p.interp = -1;
    p.torchMode = requireTorchMode("params->interp", params.interp, antialias);
    return planFused(src, dst, params, "NHWC,NCHW,HWC,CHW", p);
}

void resize(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t interp) {
    cvk::ResizeParams p;
    if (!planResize(src, dst, interp, p)) return;
    submit(stream, src, dst, [&](cudaStream_t s) { return cvk::launchResize(p, s); });
}

void resizeTorchvision(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t interp, int32_t antialias) {
    cvk::ResizeParams p;
    if (!planResizeTorchvision(src, dst, interp, antialias, p)) return;
    submit(stream, src, dst, [&](cudaStream_t s) { return cvk::launchResize(p, s); });
}

void resizeCropConvertReformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst, const cvResizeCropConvertParams &params) {
    cvk::FusedParams p;
    if (!planResizeCropConvertReformat(src, dst, params, p)) return;
    submit(stream, src, dst, [&](cudaStream_t s) { return cvk::launchResizeFused(p, s); });
}

void resizeTorchvisionCropConvertReformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst,
                                          const cvResizeCropConvertParams &params, int32_t antialias) {
    cvk::FusedParams p;
    if (!planResizeTorchvisionCropConvertReformat(src, dst, params, antialias, p)) return;
    submit(stream, src, dst, [&](cudaStream_t s) { return cvk::launchTvFused(p, s); });
}

} // namespace cv
