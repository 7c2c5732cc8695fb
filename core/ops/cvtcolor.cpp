#include "cvtcolor.hpp"

#include "op_common.hpp"

#include "../cuda_check.hpp"
#include "../dtype.hpp"
#include "../error.hpp"
#include "../hazards.hpp"
#include "../stats.hpp"
#include "../stream.hpp"
#include "../tensor.hpp"

#include "../../kernels/cvtcolor.hpp"

#include <cvcuda/cvtcolor.h>

#include <cmath>
#include <cstring>

namespace cv {
namespace {

enum class Family { Permute, ToGray, ToGrayTorchvision, YuvDecode, YuvEncode };

// One row per supported code: what it computes and the channel counts on each side.
struct CodeRow {
    int32_t code;
    const char *name;
    Family family;
    int32_t srcChannels, dstChannels;
    int32_t map[4];    // Permute: dst channel <- src channel, -1 = alpha
    int32_t blueIndex; // ToGray / YUV: where blue is on the RGB side
    cvk::ChromaLayout chroma;
    int32_t uFirst;
};

constexpr cvk::ChromaLayout SP = cvk::ChromaLayout::SemiPlanar, PL = cvk::ChromaLayout::Planar;

const CodeRow kCodes[] = {
    {CV_COLOR_BGR2BGRA, "BGR2BGRA", Family::Permute, 3, 4, {0, 1, 2, -1}, 0, SP, 0},
    {CV_COLOR_BGRA2BGR, "BGRA2BGR", Family::Permute, 4, 3, {0, 1, 2, 0}, 0, SP, 0},
    {CV_COLOR_BGR2RGBA, "BGR2RGBA", Family::Permute, 3, 4, {2, 1, 0, -1}, 0, SP, 0},
    {CV_COLOR_RGBA2BGR, "RGBA2BGR", Family::Permute, 4, 3, {2, 1, 0, 0}, 0, SP, 0},
    {CV_COLOR_BGR2RGB, "BGR2RGB", Family::Permute, 3, 3, {2, 1, 0, 0}, 0, SP, 0},
    {CV_COLOR_BGRA2RGBA, "BGRA2RGBA", Family::Permute, 4, 4, {2, 1, 0, 3}, 0, SP, 0},
    {CV_COLOR_BGR2GRAY, "BGR2GRAY", Family::ToGray, 3, 1, {}, 0, SP, 0},
    {CV_COLOR_RGB2GRAY, "RGB2GRAY", Family::ToGray, 3, 1, {}, 2, SP, 0},
    {CV_COLOR_GRAY2BGR, "GRAY2BGR", Family::Permute, 1, 3, {0, 0, 0, 0}, 0, SP, 0},
    {CV_COLOR_GRAY2BGRA, "GRAY2BGRA", Family::Permute, 1, 4, {0, 0, 0, -1}, 0, SP, 0},
    {CV_COLOR_BGRA2GRAY, "BGRA2GRAY", Family::ToGray, 4, 1, {}, 0, SP, 0},
    {CV_COLOR_RGBA2GRAY, "RGBA2GRAY", Family::ToGray, 4, 1, {}, 2, SP, 0},
    {CV_COLOR_RGB2GRAY_TV, "RGB2GRAY_TV", Family::ToGrayTorchvision, 3, 1, {}, 2, SP, 0},
    {CV_COLOR_BGR2GRAY_TV, "BGR2GRAY_TV", Family::ToGrayTorchvision, 3, 1, {}, 0, SP, 0},
    {CV_COLOR_RGBA2GRAY_TV, "RGBA2GRAY_TV", Family::ToGrayTorchvision, 4, 1, {}, 2, SP, 0},
    {CV_COLOR_BGRA2GRAY_TV, "BGRA2GRAY_TV", Family::ToGrayTorchvision, 4, 1, {}, 0, SP, 0},
    {CV_COLOR_YUV2RGB_NV12, "YUV2RGB_NV12", Family::YuvDecode, 1, 3, {}, 2, SP, 1},
    {CV_COLOR_YUV2BGR_NV12, "YUV2BGR_NV12", Family::YuvDecode, 1, 3, {}, 0, SP, 1},
    {CV_COLOR_YUV2RGB_NV21, "YUV2RGB_NV21", Family::YuvDecode, 1, 3, {}, 2, SP, 0},
    {CV_COLOR_YUV2BGR_NV21, "YUV2BGR_NV21", Family::YuvDecode, 1, 3, {}, 0, SP, 0},
    {CV_COLOR_YUV2RGBA_NV12, "YUV2RGBA_NV12", Family::YuvDecode, 1, 4, {}, 2, SP, 1},
    {CV_COLOR_YUV2BGRA_NV12, "YUV2BGRA_NV12", Family::YuvDecode, 1, 4, {}, 0, SP, 1},
    {CV_COLOR_YUV2RGBA_NV21, "YUV2RGBA_NV21", Family::YuvDecode, 1, 4, {}, 2, SP, 0},
    {CV_COLOR_YUV2BGRA_NV21, "YUV2BGRA_NV21", Family::YuvDecode, 1, 4, {}, 0, SP, 0},
    {CV_COLOR_YUV2RGB_YV12, "YUV2RGB_YV12", Family::YuvDecode, 1, 3, {}, 2, PL, 0},
    {CV_COLOR_YUV2BGR_YV12, "YUV2BGR_YV12", Family::YuvDecode, 1, 3, {}, 0, PL, 0},
    {CV_COLOR_YUV2RGB_IYUV, "YUV2RGB_IYUV", Family::YuvDecode, 1, 3, {}, 2, PL, 1},
    {CV_COLOR_YUV2BGR_IYUV, "YUV2BGR_IYUV", Family::YuvDecode, 1, 3, {}, 0, PL, 1},
    {CV_COLOR_YUV2RGBA_YV12, "YUV2RGBA_YV12", Family::YuvDecode, 1, 4, {}, 2, PL, 0},
    {CV_COLOR_YUV2BGRA_YV12, "YUV2BGRA_YV12", Family::YuvDecode, 1, 4, {}, 0, PL, 0},
    {CV_COLOR_YUV2RGBA_IYUV, "YUV2RGBA_IYUV", Family::YuvDecode, 1, 4, {}, 2, PL, 1},
    {CV_COLOR_YUV2BGRA_IYUV, "YUV2BGRA_IYUV", Family::YuvDecode, 1, 4, {}, 0, PL, 1},
    {CV_COLOR_RGB2YUV_NV12, "RGB2YUV_NV12", Family::YuvEncode, 3, 1, {}, 2, SP, 1},
    {CV_COLOR_BGR2YUV_NV12, "BGR2YUV_NV12", Family::YuvEncode, 3, 1, {}, 0, SP, 1},
    {CV_COLOR_RGB2YUV_NV21, "RGB2YUV_NV21", Family::YuvEncode, 3, 1, {}, 2, SP, 0},
    {CV_COLOR_BGR2YUV_NV21, "BGR2YUV_NV21", Family::YuvEncode, 3, 1, {}, 0, SP, 0},
    {CV_COLOR_RGBA2YUV_NV12, "RGBA2YUV_NV12", Family::YuvEncode, 4, 1, {}, 2, SP, 1},
    {CV_COLOR_BGRA2YUV_NV12, "BGRA2YUV_NV12", Family::YuvEncode, 4, 1, {}, 0, SP, 1},
    {CV_COLOR_RGBA2YUV_NV21, "RGBA2YUV_NV21", Family::YuvEncode, 4, 1, {}, 2, SP, 0},
    {CV_COLOR_BGRA2YUV_NV21, "BGRA2YUV_NV21", Family::YuvEncode, 4, 1, {}, 0, SP, 0},
};

// The reference library's codes run from 0 to 151 (OpenCV's to 139, then its RGB-to-NV12 family and its
// torchvision-exact gray codes 148-151, which this library implements too).
constexpr int32_t kLastReferenceCode = 151;

const CodeRow &codeRow(int32_t code) {
    for (const CodeRow &r : kCodes)
        if (r.code == code) return r;
    if (code >= 0 && code <= kLastReferenceCode)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": code=", code,
             " is an OpenCV colour conversion this library does not implement (see cvtcolor.h for the list)");
    invalid(currentFunction(), ": code=", code, " is not a colour conversion code (cvColorConversion, 0 to ",
            kLastReferenceCode, ")");
}

bool colorElem(cvDataType t, cvk::ColorElem &out) {
    switch (t) {
    case CV_DTYPE_UINT8: out = cvk::ColorElem::U8; return true;
    case CV_DTYPE_UINT16: out = cvk::ColorElem::U16; return true;
    case CV_DTYPE_FLOAT16: out = cvk::ColorElem::F16; return true;
    case CV_DTYPE_FLOAT32: out = cvk::ColorElem::F32; return true;
    default: return false;
    }
}

int32_t fixed20(double v) { return static_cast<int32_t>(std::lround(v * (1 << 20))); }

// The YUV matrix of a spec in 20-bit fixed point. BT.601 limited range is OpenCV's own integers (rounded from its
// three-digit coefficients); the others are derived from Kr, Kb and the range (ITU-R BT.601, BT.709, BT.2020).
cvk::YuvCoefficients yuvCoefficients(int32_t spec) {
    if (spec == CV_COLOR_SPEC_UNSPECIFIED || spec == CV_COLOR_SPEC_BT601)
        return {16, 1220542, 1673527, -409993, -852492, 2116026, 269484, 528482, 102760,
                -155188, -305135, 460324, 460324, -385875, -74448};
    double kr, kb;
    bool full;
    switch (spec) {
    case CV_COLOR_SPEC_BT601_ER: kr = 0.299, kb = 0.114, full = true; break;
    case CV_COLOR_SPEC_BT709: kr = 0.2126, kb = 0.0722, full = false; break;
    case CV_COLOR_SPEC_BT709_ER: kr = 0.2126, kb = 0.0722, full = true; break;
    case CV_COLOR_SPEC_BT2020: kr = 0.2627, kb = 0.0593, full = false; break;
    case CV_COLOR_SPEC_BT2020_ER: kr = 0.2627, kb = 0.0593, full = true; break;
    default:
        invalid(currentFunction(), ": colorSpec=", spec, " is not a cvColorSpec (0 to ", CV_COLOR_SPEC_BT2020_ER, ")");
    }
    const double kg = 1.0 - kr - kb;
    const double ys = full ? 1.0 : 219.0 / 255.0, cs = full ? 1.0 : 224.0 / 255.0; // range scales
    const double ur = 2.0 * (1.0 - kb), vr = 2.0 * (1.0 - kr); // B - Y = ur * U', R - Y = vr * V'
    cvk::YuvCoefficients c{};
    c.yOffset = full ? 0 : 16;
    c.cy = fixed20(1.0 / ys);
    c.cvr = fixed20(vr / cs);
    c.cub = fixed20(ur / cs);
    c.cug = fixed20(-ur * kb / kg / cs);
    c.cvg = fixed20(-vr * kr / kg / cs);
    c.cry = fixed20(kr * ys);
    c.cgy = fixed20(kg * ys);
    c.cby = fixed20(kb * ys);
    c.cru = fixed20(-kr / ur * cs);
    c.cgu = fixed20(-kg / ur * cs);
    c.cbu = fixed20(0.5 * cs);
    c.crv = fixed20(0.5 * cs);
    c.cgv = fixed20(-kg / vr * cs);
    c.cbv = fixed20(-kb / vr * cs);
    return c;
}

using ops::shapeString;

void requireShape(bool ok, const TensorDesc &s, const TensorDesc &d, const CodeRow &row, const char *rule) {
    if (!ok)
        invalid(currentFunction(), ": src shape ", shapeString(s), " and dst shape ", shapeString(d), " do not fit code ",
                row.name, " (", rule, ")");
}

} // namespace

bool planCvtColor(const Tensor &src, const Tensor &dst, int32_t code, int32_t colorSpec, cvk::CvtColorParams &p) {
    using namespace ops;
    const char *fn = currentFunction();
    const CodeRow &row = codeRow(code);
    const cvk::YuvCoefficients yuv = yuvCoefficients(colorSpec);
    const TensorDesc &s = src.desc(), &d = dst.desc();
    const Image sv = imageOf(s, "src", "HWC,NHWC"), dv = imageOf(d, "dst", "HWC,NHWC");
    if (s.layout != d.layout)
        invalid(fn, ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ (they must be equal)");
    if (s.dtype != d.dtype)
        invalid(fn, ": src dtype ", dtypeName(s.dtype), " and dst dtype ", dtypeName(d.dtype),
                " differ (they must be equal)");
    cvk::ColorElem elem = cvk::ColorElem::U8;
    const bool yuvCode = row.family == Family::YuvDecode || row.family == Family::YuvEncode;
    requireDType(s, "src", colorElem(s.dtype, elem) && (!yuvCode || elem == cvk::ColorElem::U8),
                 yuvCode ? "uint8 for the YUV codes" : "uint8, uint16, float16, float32");
    if (sv.c != row.srcChannels)
        invalid(fn, ": src shape ", shapeString(s), " has ", sv.c, " channels; code ", row.name, " needs ", row.srcChannels);
    if (dv.c != row.dstChannels)
        invalid(fn, ": dst shape ", shapeString(d), " has ", dv.c, " channels; code ", row.name, " needs ", row.dstChannels);
    requireShape(sv.n == dv.n, s, d, row, "N must be equal");
    int64_t h = sv.h, w = sv.w;
    if (row.family == Family::YuvDecode) {
        requireShape(sv.h % 3 == 0 && sv.w % 2 == 0, s, d, row,
                     "the YUV src height must be a multiple of 3 (3/2 of an even image height) and its width even");
        h = sv.h / 3 * 2;
        requireShape(dv.h == h && dv.w == w, s, d, row, "dst height must be 2/3 of src's, widths equal");
    } else if (row.family == Family::YuvEncode) {
        requireShape(sv.h % 2 == 0 && sv.w % 2 == 0, s, d, row, "the image height and width must be even");
        requireShape(dv.h == sv.h / 2 * 3 && dv.w == w, s, d, row, "dst height must be 3/2 of src's, widths equal");
    } else {
        requireShape(sv.h == dv.h && sv.w == dv.w, s, d, row, "heights and widths must be equal");
    }
    requireWritable(d, "dst");
    if (s.numel == 0 || d.numel == 0) return false;
    requireNoOverlap(s, d, false);

    p = {};
    p.src = sv.view;
    p.dst = dv.view;
    p.n = sv.n;
    p.h = h;
    p.w = w;
    p.srcChannels = row.srcChannels;
    p.dstChannels = row.dstChannels;
    p.elem = elem;
    switch (row.family) {
    case Family::Permute: p.op = cvk::ColorOp::Permute; break;
    case Family::ToGray: p.op = cvk::ColorOp::ToGray; break;
    case Family::ToGrayTorchvision: p.op = cvk::ColorOp::ToGrayTorchvision; break;
    case Family::YuvDecode: p.op = cvk::ColorOp::YuvDecode; break;
    case Family::YuvEncode: p.op = cvk::ColorOp::YuvEncode; break;
    }
    std::memcpy(p.map, row.map, sizeof p.map);
    p.blueIndex = row.blueIndex;
    p.chroma = row.chroma;
    p.uFirst = row.uFirst;
    p.yuv = yuv;
    return true;
}

void cvtColor(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t code, int32_t colorSpec) {
    cvk::CvtColorParams p;
    if (!planCvtColor(src, dst, code, colorSpec, p)) return;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        checkCuda(cvk::launchCvtColor(p, stream->handle()), "cvtcolor kernel launch");
        count(stats().kernelLaunches);
    });
}

} // namespace cv
