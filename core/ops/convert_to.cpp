#include "convert_to.hpp"

#include "op_common.hpp"

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include <algorithm>

namespace cv::ops {
namespace {
constexpr const char *kDTypes = "uint8, int8, uint16, int16, int32, float16, bfloat16, float32, float64";
}

bool planConvertTo(const Tensor &src, const Tensor &dst, double scale, double offset, int32_t round, cvk::ConvertParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    if (s.ndim != d.ndim || !std::equal(s.shape, s.shape + s.ndim, d.shape))
        invalid(currentFunction(), ": src shape ", shapeString(s), " and dst shape ", shapeString(d), " differ (they must be equal)");
    if (!s.layout.empty() && !d.layout.empty() && s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ");
    requireDType(s, "src", cvk::convertSupported(s.dtype), kDTypes);
    requireDType(d, "dst", cvk::convertSupported(d.dtype), kDTypes);
    if (round < 1 || round > 4)
        invalid(currentFunction(), ": round=", round,
                " is not a cvRoundMode (CV_ROUND_MODE_NEAREST=1, _TRUNCATE=2, _NEAREST_WRAP=3, _TRUNCATE_WRAP=4)");
    requireWritable(d, "dst");
    requireNoOverlap(s, d, true);
    if (s.numel == 0) return false;
    cvk::PairDim dims[CV_MAX_DIMS];
    for (int i = 0; i < s.ndim; ++i) dims[i] = {s.shape[i], s.strides[i], d.strides[i], false};
    p = {};
    if (!cvk::collapseRows(dims, s.ndim, cvk::DimOrder::ByDstStride, reinterpret_cast<const char *>(s.data),
                           reinterpret_cast<char *>(d.data), p.view))
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": the strides of src ", shapeString(s),
             " and dst cannot be reduced to the kernel's four dimensions");
    p.src = s.dtype;
    p.dst = d.dtype;
    p.scale = scale;
    p.offset = offset;
    p.round = round;
    return true;
}

void convertTo(const Ref<Stream> &stream, Tensor &src, Tensor &dst, double scale, double offset, int32_t round) {
    cvk::ConvertParams p;
    if (!planConvertTo(src, dst, scale, offset, round, p)) return;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        checkCuda(cvk::launchConvertTo(p, stream->handle()), "convertto kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace cv::ops
