#include "crop.hpp"

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

void runCrop(const Ref<Stream> &stream, Tensor &src, Tensor &dst, const cvk::RowView &v) {
    const int32_t itemSize = src.desc().itemSize;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        checkCuda(cvk::launchCopy(v, itemSize, stream->handle()), "crop kernel launch");
        count(stats().kernelLaunches);
    });
}
} // namespace

bool planCrop(const Tensor &src, const Tensor &dst, int32_t x, int32_t y, int32_t width, int32_t height, cvk::RowView &out) {
    const TensorDesc &sd = src.desc(), &dd = dst.desc();
    const Image s = imageOf(sd, "src", kLayouts), d = imageOf(dd, "dst", kLayouts);
    if (s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ (they must be equal)");
    if (sd.dtype != dd.dtype)
        invalid(currentFunction(), ": src dtype ", dtypeName(sd.dtype), " and dst dtype ", dtypeName(dd.dtype),
                " differ (they must be equal)");
    if (width <= 0 || height <= 0)
        invalid(currentFunction(), ": rect width=", width, " height=", height, " (both must be > 0)");
    if (x < 0 || y < 0 || int64_t(x) + width > s.w || int64_t(y) + height > s.h)
        invalid(currentFunction(), ": rect (x=", x, ", y=", y, ", width=", width, ", height=", height,
                ") is outside src of width ", s.w, " and height ", s.h,
                " (need x >= 0, y >= 0, x + width <= width of src, y + height <= height of src)");
    if (d.n != s.n || d.c != s.c || d.h != height || d.w != width)
        invalid(currentFunction(), ": dst shape ", shapeString(dd), " (", d.layout, ") does not match the crop: need N=", s.n,
                ", H=", height, ", W=", width, ", C=", s.c);
    requireWritable(dd, "dst");
    requireNoOverlap(sd, dd, true);
    if (sd.numel == 0 || dd.numel == 0 || overlapOf(sd, dd) == Overlap::Same) return false;
    cvk::View4 sv = s.view;
    sv.data += x * sv.stride[cvk::kW] + y * sv.stride[cvk::kH];
    for (int i = 0; i < 4; ++i) sv.shape[i] = d.view.shape[i];
    if (!cvk::collapseImages(sv, d.view, false, cvk::DimOrder::ByDstStride, out))
        fail(CV_ERROR_INTERNAL, currentFunction(), ": an image view did not collapse to the kernel's rank");
    return true;
}

void customCrop(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t x, int32_t y, int32_t width, int32_t height) {
    cvk::RowView v;
    if (planCrop(src, dst, x, y, width, height, v)) runCrop(stream, src, dst, v);
}

void centerCrop(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t cropWidth, int32_t cropHeight) {
    const Image s = imageOf(src.desc(), "src", kLayouts);
    if (cropWidth <= 0 || cropHeight <= 0 || cropWidth > s.w || cropHeight > s.h)
        invalid(currentFunction(), ": cropWidth=", cropWidth, " cropHeight=", cropHeight, " do not fit src of width ", s.w,
                " and height ", s.h, " (need 0 < cropWidth <= width, 0 < cropHeight <= height)");
    const int32_t x = static_cast<int32_t>((s.w - cropWidth) / 2), y = static_cast<int32_t>((s.h - cropHeight) / 2);
    cvk::RowView v;
    if (planCrop(src, dst, x, y, cropWidth, cropHeight, v)) runCrop(stream, src, dst, v);
}

} // namespace cv::ops
