#include "resize.hpp"

#include "../cuda_check.hpp"
#include "../dtype.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include "../../kernels/resize.hpp"

#include <cmath>
#include <cstring>

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

bool oneOf(const std::string &layout, std::initializer_list<const char *> accepted) {
    for (const char *a : accepted)
        if (layout == a) return true;
    return false;
}

std::string acceptedList(std::initializer_list<const char *> accepted) {
    std::string s;
    for (const char *a : accepted) s += concat(s.empty() ? "" : ", ", a);
    return s;
}

// The [N, H, W, C] view of an image tensor whose layout is one of `accepted`; absent N or C have extent 1.
cvk::ImageBatch imageBatch(const TensorDesc &d, const std::string &layout, const char *name,
                           std::initializer_list<const char *> accepted) {
    if (!oneOf(layout, accepted))
        invalid(currentFunction(), ": ", name, " layout '", layout, "' is not supported (", acceptedList(accepted), ")");
    cvk::ImageBatch b{};
    b.data = reinterpret_cast<char *>(d.data);
    int64_t *extent[4] = {&b.n, &b.h, &b.w, &b.c};
    int64_t *stride[4] = {&b.strideN, &b.strideH, &b.strideW, &b.strideC};
    const char labels[4] = {'N', 'H', 'W', 'C'};
    for (int k = 0; k < 4; ++k) {
        const auto i = layout.find(labels[k]);
        *extent[k] = i == std::string::npos ? 1 : d.shape[i];
        *stride[k] = i == std::string::npos ? 0 : d.strides[i];
    }
    return b;
}

std::string layoutOf(const TensorDesc &s, const TensorDesc &d) {
    if (!s.layout.empty() && !d.layout.empty() && s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ");
    const std::string &layout = s.layout.empty() ? d.layout : s.layout;
    if (layout.empty())
        invalid(currentFunction(), ": src has no layout; give one (e.g. \"NHWC\") when wrapping it");
    return layout;
}

void checkSides(const cvk::ImageBatch &b, const char *name, const TensorDesc &d) {
    if (b.h < 1 || b.w < 1 || b.h > kMaxSide || b.w > kMaxSide)
        invalid(currentFunction(), ": ", name, " shape ", shapeString(d), " has H=", b.h, " W=", b.w,
                " (each must be in [1, 2^31 - 1])");
}

void checkWritable(const TensorDesc &s, const TensorDesc &d) {
    if (d.readonly) invalid(currentFunction(), ": dst is readonly (the CAI producer marked data readonly)");
    if (selfOverlapping(d)) invalid(currentFunction(), ": dst has elements that overlap each other (e.g. a zero stride)");
    if (s.numel > 0 && d.numel > 0 && s.addressLo() < d.addressHi() && d.addressLo() < s.addressHi())
        invalid(currentFunction(), ": src and dst memory overlap (resize cannot work in place)");
}

template <class Launch> void submit(const Ref<Stream> &stream, Tensor &src, Tensor &dst, Launch &&launch) {
    hazards::submit(stream, {{&src, false}, {&dst, true}}, [&] {
        checkCuda(launch(stream->handle()), "resize kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace

namespace {

// What cvResize and cvResizeTorchvision check alike: layouts, dtypes, N, C, sides, overlap.
bool planImages(const Tensor &src, const Tensor &dst, cvk::ResizeParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    const std::string layout = layoutOf(s, d);
    if (s.dtype != d.dtype)
        invalid(currentFunction(), ": src dtype ", dtypeInfo(s.dtype)->name, " and dst dtype ", dtypeInfo(d.dtype)->name,
                " differ (they must be equal)");
    p.type = kernelType(s.dtype);
    if (p.type < 0)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": src dtype ", dtypeInfo(s.dtype)->name,
             " is not supported (uint8, uint16, int16, float16, float32)");
    const std::initializer_list<const char *> layouts = {"HWC", "NHWC", "CHW", "NCHW", "HW", "NHW"};
    p.src = imageBatch(s, layout, "src", layouts);
    p.dst = imageBatch(d, layout, "dst", layouts);
    if (p.src.n != p.dst.n)
        invalid(currentFunction(), ": src N=", p.src.n, " and dst N=", p.dst.n, " differ (shapes ", shapeString(s), " and ",
                shapeString(d), ")");
    if (p.src.c != p.dst.c)
        invalid(currentFunction(), ": src C=", p.src.c, " and dst C=", p.dst.c, " differ (shapes ", shapeString(s), " and ",
                shapeString(d), ")");
    if (p.src.n == 0 || p.src.c == 0) return false;
    checkSides(p.src, "src", s);
    checkSides(p.dst, "dst", d);
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

bool planResizeTorchvision(const Tensor &src, const Tensor &dst, int32_t interp, int32_t antialias, cvk::ResizeParams &p) {
    p = {};
    p.interp = -1;
    using namespace cvk::resize;
    switch (interp) {
    case CV_INTERP_NEAREST: p.torchMode = kTvNearest; break;
    case CV_INTERP_NEAREST_FLOOR: p.torchMode = kTvNearestFloor; break;
    case CV_INTERP_LINEAR: p.torchMode = antialias ? kTvLinearAA : kTvLinear; break;
    case CV_INTERP_CUBIC: p.torchMode = antialias ? kTvCubicAA : kTvCubic; break;
    default:
        invalid(currentFunction(), ": interp=", interp,
                " is not one of torchvision's modes (NEAREST=1, NEAREST_FLOOR=2, LINEAR=3, CUBIC=4)");
    }
    return planImages(src, dst, p);
}

bool planResizeCropConvertReformat(const Tensor &src, const Tensor &dst, const cvResizeCropConvertParams &params,
                                   cvk::FusedParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    p = {};
    p.interp = requireInterp(params.interp);
    if (s.layout.empty()) invalid(currentFunction(), ": src has no layout; give one (\"NHWC\" or \"HWC\") when wrapping it");
    if (d.layout.empty()) invalid(currentFunction(), ": dst has no layout; give one (\"NCHW\", \"NHWC\", ...) when wrapping it");
    if (s.dtype != CV_DTYPE_UINT8)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": src dtype ", dtypeInfo(s.dtype)->name, " is not supported (uint8)");
    if (d.dtype != CV_DTYPE_FLOAT32 && d.dtype != CV_DTYPE_FLOAT16)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": dst dtype ", dtypeInfo(d.dtype)->name,
             " is not supported (float32, float16)");
    p.src = imageBatch(s, s.layout, "src", {"NHWC", "HWC"});
    p.dst = imageBatch(d, d.layout, "dst", {"NHWC", "NCHW", "HWC", "CHW"});
    if ((s.layout[0] == 'N') != (d.layout[0] == 'N'))
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout,
                "' must both have a batch dimension N or both lack it");
    if (p.src.n != p.dst.n) invalid(currentFunction(), ": src N=", p.src.n, " and dst N=", p.dst.n, " differ");
    if (p.src.c != p.dst.c) invalid(currentFunction(), ": src C=", p.src.c, " and dst C=", p.dst.c, " differ");
    if (p.src.c > cvk::kFusedMaxChannels || p.src.c < 1)
        invalid(currentFunction(), ": src C=", p.src.c, " is outside [1, ", cvk::kFusedMaxChannels, "]");
    if (params.resizeWidth < 1 || params.resizeHeight < 1)
        invalid(currentFunction(), ": params->resizeWidth=", params.resizeWidth, ", resizeHeight=", params.resizeHeight,
                " (each must be >= 1)");
    if (p.src.n == 0) return false;
    checkSides(p.src, "src", s);
    checkSides(p.dst, "dst", d);
    if (params.cropX < 0 || params.cropY < 0 || int64_t(params.cropX) + p.dst.w > params.resizeWidth ||
        int64_t(params.cropY) + p.dst.h > params.resizeHeight)
        invalid(currentFunction(), ": the crop at (x=", params.cropX, ", y=", params.cropY, ") of dst's size W=", p.dst.w,
                " H=", p.dst.h, " does not lie inside the resized image (", params.resizeWidth, " x ", params.resizeHeight, ")");
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
        if (c < p.src.c && params.normalize && !(std::isfinite(p.stddev[c]) && p.stddev[c] != 0.f))
            invalid(currentFunction(), ": params->stddev[", c, "]=", p.stddev[c], " (must be finite and nonzero)");
    }
    checkWritable(s, d);
    return true;
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

} // namespace cv
