#include "normalize.hpp"

#include "op_common.hpp"

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include <algorithm>
#include <cmath>

namespace cv::ops {
namespace {
constexpr const char *kLayouts = "NHWC,HWC,NCHW,CHW";

// One constant (base or scale) from its tensor or its values.
void readConstant(const char *name, const Tensor *tensor, const float *values, int32_t count, int64_t channels,
                  const TensorDesc &dst, cvk::NormalizeConstants &k) {
    k = {};
    if ((tensor != nullptr) == (values != nullptr))
        invalid(currentFunction(), ": give ", name, " either as a tensor or as values (", tensor ? "both" : "neither",
                " given)");
    if (tensor == nullptr) {
        if (count != 1 && count != channels)
            invalid(currentFunction(), ": ", name, "Count=", count, " must be 1 or the channel count C=", channels);
        for (int32_t i = 0; i < count; ++i) k.values[i] = values[i];
        k.count = count;
        return;
    }
    const TensorDesc &t = tensor->desc();
    if (t.dtype != CV_DTYPE_FLOAT32)
        invalid(currentFunction(), ": ", name, " dtype ", dtypeName(t.dtype), " must be float32");
    int big = -1;
    for (int i = 0; i < t.ndim; ++i)
        if (t.shape[i] != 1) {
            if (big >= 0 || (t.shape[i] != channels))
                invalid(currentFunction(), ": ", name, " shape ", shapeString(t), " must hold 1 or C=", channels,
                        " values (every extent 1 except at most one of C)");
            big = i;
        }
    if (overlapOf(t, dst) != Overlap::None) invalid(currentFunction(), ": ", name, " overlaps dst");
    k.device = reinterpret_cast<const char *>(t.data);
    k.stride = big >= 0 ? t.strides[big] : 0;
    k.count = big >= 0 ? static_cast<int32_t>(channels) : 1;
}
} // namespace

bool planNormalize(const Tensor &src, const Tensor &dst, const Tensor *base, const Tensor *scale,
                   const cvNormalizeParams &prm, cvk::NormalizeParams &p) {
    const TensorDesc &sd = src.desc(), &dd = dst.desc();
    const Image s = imageOf(sd, "src", kLayouts), d = imageOf(dd, "dst", kLayouts);
    if (s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ (they must be equal)");
    requireSameImageShape(s, sd, "src", d, dd, "dst");
    if (!cvk::normalizeSupported(sd.dtype, dd.dtype))
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": src dtype ", dtypeName(sd.dtype), " to dst dtype ",
             dtypeName(dd.dtype), " is not supported (src: uint8, uint16, int16, float16, float32; dst: float32, "
             "float16 or src's dtype)");
    if (prm.flags & ~CV_NORMALIZE_SCALE_IS_STDDEV)
        invalid(currentFunction(), ": params->flags=", prm.flags, " has unknown bits (only CV_NORMALIZE_SCALE_IS_STDDEV=1)");
    if (s.c > CV_NORMALIZE_MAX_CHANNELS)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": src has C=", s.c, " channels (at most ",
             CV_NORMALIZE_MAX_CHANNELS, ")");
    p = {};
    readConstant("base", base, prm.baseValues, prm.baseCount, s.c, dd, p.base);
    readConstant("scale", scale, prm.scaleValues, prm.scaleCount, s.c, dd, p.scale);
    requireWritable(dd, "dst");
    requireNoOverlap(sd, dd, sd.dtype == dd.dtype);
    if (sd.numel == 0) return false;
    if (!cvk::collapseImages(s.view, d.view, true, s.planar ? cvk::DimOrder::ByDstStride : cvk::DimOrder::Keep, p.view))
        fail(CV_ERROR_INTERNAL, currentFunction(), ": an image view did not collapse to the kernel's rank");
    p.src = sd.dtype;
    p.dst = dd.dtype;
    p.channels = static_cast<int32_t>(s.c);
    p.scaleIsStddev = (prm.flags & CV_NORMALIZE_SCALE_IS_STDDEV) != 0;
    p.globalScale = prm.globalScale;
    p.globalShift = prm.globalShift;
    p.epsilon = prm.epsilon;
    return true;
}

void normalize(const Ref<Stream> &stream, Tensor &src, Tensor &dst, Tensor *base, Tensor *scale,
               const cvNormalizeParams &params) {
    cvk::NormalizeParams p;
    if (!planNormalize(src, dst, base, scale, params, p)) return;
    // A missing tensor is replaced by src: a second read of src changes nothing in the hazard state.
    hazards::submit(stream,
                    {{&src, false, "src"},
                     {base ? base : &src, false, base ? "params->base" : "src"},
                     {scale ? scale : &src, false, scale ? "params->scale" : "src"},
                     {&dst, true, "dst"}},
                    [&] {
        checkCuda(cvk::launchNormalize(p, stream->handle()), "normalize kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace cv::ops
