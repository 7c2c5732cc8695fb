#include "reformat.hpp"

#include "op_common.hpp"

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include "../../kernels/copy.hpp"

namespace cv::ops {
namespace {
constexpr const char *kLayouts = "HWC,NHWC,CHW,NCHW";

// Interleaved side packed: C, W, H contiguous in that order.
bool packedInterleaved(const cvk::View4 &v, int64_t e) {
    return v.stride[cvk::kC] == e && v.stride[cvk::kW] == v.shape[cvk::kC] * e &&
           (v.shape[cvk::kH] == 1 || v.stride[cvk::kH] == v.shape[cvk::kW] * v.stride[cvk::kW]);
}
// Planar side packed: each plane's W, H contiguous.
bool packedPlanar(const cvk::View4 &v, int64_t e) {
    return v.stride[cvk::kW] == e && (v.shape[cvk::kH] == 1 || v.stride[cvk::kH] == v.shape[cvk::kW] * e);
}
} // namespace

ReformatPlan planReformat(const Tensor &src, const Tensor &dst) {
    const TensorDesc &sd = src.desc(), &dd = dst.desc();
    const Image s = imageOf(sd, "src", kLayouts), d = imageOf(dd, "dst", kLayouts);
    if ((sd.layoutIndex('N') >= 0) != (dd.layoutIndex('N') >= 0))
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout,
                "' must both have N or both not (NHWC <-> NCHW, HWC <-> CHW)");
    if (sd.dtype != dd.dtype)
        invalid(currentFunction(), ": src dtype ", dtypeName(sd.dtype), " and dst dtype ", dtypeName(dd.dtype),
                " differ (they must be equal)");
    requireSameImageShape(s, sd, "src", d, dd, "dst");
    requireWritable(dd, "dst");
    requireNoOverlap(sd, dd, s.layout == d.layout);
    ReformatPlan plan;
    plan.itemSize = sd.itemSize;
    if (sd.numel == 0 || overlapOf(sd, dd) == Overlap::Same) return plan;
    const int64_t e = sd.itemSize;
    if (s.planar != d.planar && s.c > 1) {
        const cvk::View4 &inter = s.planar ? d.view : s.view, &planar = s.planar ? s.view : d.view;
        const int32_t tile = cvk::reformatTilePixels(s.c, sd.itemSize);
        if (tile > 0 && packedInterleaved(inter, e) && packedPlanar(planar, e)) {
            plan.path = ReformatPlan::Path::Transpose;
            cvk::ReformatTranspose &t = plan.transpose;
            t.src = s.view.data;
            t.dst = d.view.data;
            t.batch = s.n;
            t.pixels = s.h * s.w;
            t.channels = s.c;
            t.srcBatch = s.view.stride[cvk::kN];
            t.dstBatch = d.view.stride[cvk::kN];
            t.plane = planar.stride[cvk::kC];
            t.itemSize = sd.itemSize;
            t.toPlanar = d.planar;
            return plan;
        }
    }
    plan.path = ReformatPlan::Path::Copy;
    if (!cvk::collapseImages(s.view, d.view, false, cvk::DimOrder::ByDstStride, plan.copy))
        fail(CV_ERROR_INTERNAL, currentFunction(), ": an image view did not collapse to the kernel's rank");
    return plan;
}

void reformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst) {
    const ReformatPlan plan = planReformat(src, dst);
    if (plan.path == ReformatPlan::Path::Nothing) return;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        if (plan.path == ReformatPlan::Path::Transpose)
            checkCuda(cvk::launchReformatTranspose(plan.transpose, stream->handle()), "reformat kernel launch");
        else
            checkCuda(cvk::launchCopy(plan.copy, plan.itemSize, stream->handle()), "reformat kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace cv::ops
