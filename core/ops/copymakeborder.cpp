#include "copymakeborder.hpp"

#include "op_common.hpp"
#include "saturate.hpp"

#include "../cuda_check.hpp"
#include "../dtype.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include "../../kernels/copymakeborder.hpp"


namespace cv {
namespace {

bool borderKind(int32_t mode, cvk::BorderKind &out) {
    switch (mode) {
    case CV_BORDER_MODE_CONSTANT: out = cvk::BorderKind::Constant; return true;
    case CV_BORDER_MODE_REPLICATE: out = cvk::BorderKind::Replicate; return true;
    case CV_BORDER_MODE_REFLECT: out = cvk::BorderKind::Reflect; return true;
    case CV_BORDER_MODE_WRAP: out = cvk::BorderKind::Wrap; return true;
    case CV_BORDER_MODE_REFLECT101: out = cvk::BorderKind::Reflect101; return true;
    default: return false;
    }
}

} // namespace

bool planCopyMakeBorder(const Tensor &src, const Tensor &dst, const cvCopyMakeBorderParams &params,
                        cvk::CopyMakeBorderParams &p) {
    using namespace ops;
    const char *fn = currentFunction();
    const TensorDesc &s = src.desc(), &d = dst.desc();
    const Image sv = imageOf(s, "src", "HWC,NHWC"), dv = imageOf(d, "dst", "HWC,NHWC");
    if (s.layout != d.layout)
        invalid(fn, ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ (they must be equal)");
    if (s.dtype != d.dtype)
        invalid(fn, ": src dtype ", dtypeName(s.dtype), " and dst dtype ", dtypeName(d.dtype),
                " differ (they must be equal)");
    requireDType(s, "src", dtypeInfo(s.dtype) != nullptr, "every dtype");
    if (sv.c < 1 || sv.c > 4) invalid(fn, ": src shape ", shapeString(s), " has ", sv.c, " channels (1 to 4 are supported)");
    if (sv.n != dv.n || sv.c != dv.c)
        invalid(fn, ": src shape ", shapeString(s), " and dst shape ", shapeString(d),
                " differ in N or C (only H and W may grow)");
    cvk::BorderKind kind;
    const int32_t mode = params.borderMode;
    if (!borderKind(mode, kind))
        invalid(fn, ": params->borderMode=", mode, " is not a cvBorderMode (CONSTANT=1, REPLICATE=2, REFLECT=3, WRAP=4, "
                "REFLECT101=5)");
    if (params.top < 0 || params.left < 0)
        invalid(fn, ": params->top=", params.top, ", params->left=", params.left, " (they must be >= 0)");
    const int64_t bottom = dv.h - sv.h - params.top, right = dv.w - sv.w - params.left;
    if (bottom < 0 || right < 0)
        invalid(fn, ": dst shape ", shapeString(d), " is too small for src shape ", shapeString(s), " with top=",
                params.top, ", left=", params.left, " (bottom=", bottom, ", right=", right, " must be >= 0)");
    requireWritable(d, "dst");
    if (d.numel == 0) return false;
    if ((sv.h == 0 || sv.w == 0) && kind != cvk::BorderKind::Constant)
        invalid(fn, ": src shape ", shapeString(s), " is empty; only CV_BORDER_MODE_CONSTANT can pad an empty image");
    requireNoOverlap(s, d, false);

    p = {};
    p.src = sv.view;
    p.dst = dv.view;
    p.top = params.top;
    p.left = params.left;
    p.elemSize = s.itemSize;
    p.kind = kind;
    for (int c = 0; c < sv.c; ++c)
        saturateToBytes(params.borderValue[c], s.dtype, p.value + c * p.elemSize);
    return true;
}

void copyMakeBorder(const Ref<Stream> &stream, Tensor &src, Tensor &dst, const cvCopyMakeBorderParams &params) {
    cvk::CopyMakeBorderParams p;
    if (!planCopyMakeBorder(src, dst, params, p)) return;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        checkCuda(cvk::launchCopyMakeBorder(p, stream->handle()), "copymakeborder kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace cv
