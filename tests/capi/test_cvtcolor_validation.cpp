// cvCvtColor validation, one row per case: every row asserts the exact status; a rejection's message names the
// argument, the value and the rule; an accepted row's kernel parameters are checked. No GPU: the plan function is
// what cvCvtColor runs before any CUDA call.
#include "op_validation.hpp"

#include "../../core/ops/cvtcolor.hpp"
#include "../../kernels/cvtcolor.hpp"

#include <catch2/catch_test_macros.hpp>

using namespace cvtest;

namespace {

struct Row {
    const char *name;
    int32_t code;
    int32_t spec;
    Spec src, dst;
    cvStatus status;
    // Message parts (rejections) or nothing. A vector: an initializer_list member would point at an array that dies
    // with the braced row that made it (ASan: stack-use-after-return).
    std::vector<const char *> parts;
};

constexpr cvStatus kOk = CV_SUCCESS, kInvalid = CV_ERROR_INVALID_ARGUMENT, kUnsupported = CV_ERROR_NOT_SUPPORTED;
const uint64_t kFar = uint64_t(1) << 30; // dst placed away from src

const std::vector<Row> &rows() {
    static const std::vector<Row> table = {
        {"RGB2BGR u8 NHWC", CV_COLOR_RGB2BGR, 0, {"|u1", {2, 4, 6, 3}, "NHWC"}, {"|u1", {2, 4, 6, 3}, "NHWC", {}, kFar}, kOk, {}},
        {"BGR2BGRA f32 HWC", CV_COLOR_BGR2BGRA, 0, {"<f4", {4, 6, 3}, "HWC"}, {"<f4", {4, 6, 4}, "HWC", {}, kFar}, kOk, {}},
        {"RGBA2GRAY u16", CV_COLOR_RGBA2GRAY, 0, {"<u2", {4, 6, 4}, "HWC"}, {"<u2", {4, 6, 1}, "HWC", {}, kFar}, kOk, {}},
        {"GRAY2RGB f16", CV_COLOR_GRAY2RGB, 0, {"<f2", {4, 6, 1}, "HWC"}, {"<f2", {4, 6, 3}, "HWC", {}, kFar}, kOk, {}},
        {"YUV2RGB_NV12", CV_COLOR_YUV2RGB_NV12, 0, {"|u1", {1, 6, 4, 1}, "NHWC"}, {"|u1", {1, 4, 4, 3}, "NHWC", {}, kFar}, kOk, {}},
        {"YUV2BGRA_I420 BT709_ER", CV_COLOR_YUV2BGRA_I420, CV_COLOR_SPEC_BT709_ER, {"|u1", {6, 4, 1}, "HWC"},
         {"|u1", {4, 4, 4}, "HWC", {}, kFar}, kOk, {}},
        {"RGB2YUV_NV12", CV_COLOR_RGB2YUV_NV12, 0, {"|u1", {1, 4, 4, 3}, "NHWC"}, {"|u1", {1, 6, 4, 1}, "NHWC", {}, kFar}, kOk, {}},
        {"strided src", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC", {64, 3, 1}}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kOk, {}},
        {"empty image", CV_COLOR_RGB2BGR, 0, {"|u1", {0, 6, 3}, "HWC"}, {"|u1", {0, 6, 3}, "HWC"}, kOk, {}},

        {"unknown code 1000", 1000, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"code=1000", "not a colour conversion code"}},
        {"negative code", -1, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kInvalid, {"code=-1"}},
        {"HSV is not implemented", 40, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kUnsupported,
         {"code=40", "does not implement"}},
        {"RGB2GRAY_TV is not implemented", 148, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 1}, "HWC", {}, kFar},
         kUnsupported, {"code=148"}},
        {"unknown colorSpec", CV_COLOR_YUV2RGB_NV12, 7, {"|u1", {6, 4, 1}, "HWC"}, {"|u1", {4, 4, 3}, "HWC", {}, kFar},
         kInvalid, {"colorSpec=7", "cvColorSpec"}},
        {"layout NCHW", CV_COLOR_RGB2BGR, 0, {"|u1", {1, 3, 4, 6}, "NCHW"}, {"|u1", {1, 3, 4, 6}, "NCHW", {}, kFar},
         kInvalid, {"src layout 'NCHW'", "HWC,NHWC"}},
        {"rank 2", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6}, "HW"}, {"|u1", {4, 6}, "HW", {}, kFar}, kInvalid, {"src layout 'HW'"}},
        {"no layout", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, nullptr}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"src has no layout"}},
        {"layouts differ", CV_COLOR_RGB2BGR, 0, {"|u1", {1, 4, 6, 3}, "NHWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar},
         kInvalid, {"'NHWC'", "'HWC'", "differ"}},
        {"dtype int16", CV_COLOR_RGB2BGR, 0, {"<i2", {4, 6, 3}, "HWC"}, {"<i2", {4, 6, 3}, "HWC", {}, kFar}, kUnsupported,
         {"src dtype int16", "uint8, uint16, float16, float32"}},
        {"YUV needs uint8", CV_COLOR_YUV2RGB_NV12, 0, {"<u2", {6, 4, 1}, "HWC"}, {"<u2", {4, 4, 3}, "HWC", {}, kFar},
         kUnsupported, {"src dtype uint16", "uint8 for the YUV codes"}},
        {"dtypes differ", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC"}, {"<f4", {4, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"src dtype uint8", "dst dtype float32", "differ"}},
        {"src channels", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 4}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"src shape (4, 6, 4)", "4 channels", "needs 3"}},
        {"dst channels", CV_COLOR_BGR2GRAY, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"dst shape (4, 6, 3)", "code BGR2GRAY needs 1"}},
        {"heights differ", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {5, 6, 3}, "HWC", {}, kFar}, kInvalid,
         {"(4, 6, 3)", "(5, 6, 3)", "heights and widths must be equal"}},
        {"N differs", CV_COLOR_RGB2BGR, 0, {"|u1", {2, 4, 6, 3}, "NHWC"}, {"|u1", {1, 4, 6, 3}, "NHWC", {}, kFar}, kInvalid,
         {"N must be equal"}},
        {"YUV height not 3/2", CV_COLOR_YUV2RGB_NV12, 0, {"|u1", {5, 4, 1}, "HWC"}, {"|u1", {4, 4, 3}, "HWC", {}, kFar},
         kInvalid, {"(5, 4, 1)", "multiple of 3"}},
        {"YUV 2x2 image (3 rows)", CV_COLOR_YUV2RGB_NV12, 0, {"|u1", {3, 2, 1}, "HWC"}, {"|u1", {2, 2, 3}, "HWC", {}, kFar},
         kOk, {}},
        {"YUV odd chroma height (9 rows)", CV_COLOR_YUV2RGB_I420, 0, {"|u1", {9, 10, 1}, "HWC"},
         {"|u1", {6, 10, 3}, "HWC", {}, kFar}, kOk, {}},
        {"YUV odd width", CV_COLOR_YUV2RGB_NV12, 0, {"|u1", {6, 3, 1}, "HWC"}, {"|u1", {4, 3, 3}, "HWC", {}, kFar}, kInvalid,
         {"width even"}},
        {"YUV dst height", CV_COLOR_YUV2RGB_NV12, 0, {"|u1", {6, 4, 1}, "HWC"}, {"|u1", {6, 4, 3}, "HWC", {}, kFar}, kInvalid,
         {"dst height must be 2/3"}},
        {"encode odd height", CV_COLOR_RGB2YUV_NV12, 0, {"|u1", {3, 4, 3}, "HWC"}, {"|u1", {4, 4, 1}, "HWC", {}, kFar},
         kInvalid, {"must be even"}},
        {"encode dst height", CV_COLOR_RGB2YUV_NV12, 0, {"|u1", {4, 4, 3}, "HWC"}, {"|u1", {4, 4, 1}, "HWC", {}, kFar},
         kInvalid, {"dst height must be 3/2"}},
        {"dst readonly", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, kFar, true}, kInvalid,
         {"dst is readonly"}},
        {"in place", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC"}, kInvalid, {"same memory"}},
        {"partial overlap", CV_COLOR_RGB2BGR, 0, {"|u1", {4, 6, 3}, "HWC"}, {"|u1", {4, 6, 3}, "HWC", {}, 5}, kInvalid,
         {"overlap partially"}},
    };
    return table;
}

} // namespace

TEST_CASE("cvCvtColor validation table", "[cvtcolor][validation]") {
    for (const Row &row : rows()) {
        DYNAMIC_SECTION(row.name) {
            TensorRef src, dst;
            cv::Tensor &s = wrapSpec(src, row.src);
            cv::Tensor &d = wrapSpec(dst, row.dst);
            cvk::CvtColorParams p{};
            std::string message;
            const cvStatus status =
                runPlan("cvCvtColor", [&] { cv::planCvtColor(s, d, row.code, row.spec, p); }, message);
            INFO("message: " << message);
            REQUIRE(status == row.status);
            if (status != CV_SUCCESS) checkMessage(message, "cvCvtColor", row.parts);
        }
    }
}

TEST_CASE("cvCvtColor plans: families, channels, YUV sizes and matrices", "[cvtcolor][validation]") {
    TensorRef a, b;
    cvk::CvtColorParams p{};
    std::string message;
    SECTION("RGB2GRAY reads blue from channel 2") {
        cv::Tensor &s = wrapSpec(a, {"|u1", {4, 6, 3}, "HWC"});
        cv::Tensor &d = wrapSpec(b, {"|u1", {4, 6, 1}, "HWC", {}, kFar});
        REQUIRE(runPlan("cvCvtColor", [&] { REQUIRE(cv::planCvtColor(s, d, CV_COLOR_RGB2GRAY, 0, p)); }, message) == kOk);
        CHECK(p.op == cvk::ColorOp::ToGray);
        CHECK(p.blueIndex == 2);
        CHECK(p.srcChannels == 3);
        CHECK(p.dstChannels == 1);
    }
    SECTION("NV21 decode: image height 4 from 6 rows, V first, OpenCV's BT.601 integers") {
        cv::Tensor &s = wrapSpec(a, {"|u1", {6, 4, 1}, "HWC"});
        cv::Tensor &d = wrapSpec(b, {"|u1", {4, 4, 4}, "HWC", {}, kFar});
        REQUIRE(runPlan("cvCvtColor", [&] { REQUIRE(cv::planCvtColor(s, d, CV_COLOR_YUV2BGRA_NV21, 0, p)); }, message) == kOk);
        CHECK(p.op == cvk::ColorOp::YuvDecode);
        CHECK(p.h == 4);
        CHECK(p.uFirst == 0);
        CHECK(p.chroma == cvk::ChromaLayout::SemiPlanar);
        CHECK(p.yuv.cy == 1220542);
        CHECK(p.yuv.cvr == 1673527);
        CHECK(p.yuv.yOffset == 16);
    }
    SECTION("BT.709 full range: unit luma, no offset, Kr 0.2126") {
        cv::Tensor &s = wrapSpec(a, {"|u1", {6, 4, 1}, "HWC"});
        cv::Tensor &d = wrapSpec(b, {"|u1", {4, 4, 3}, "HWC", {}, kFar});
        REQUIRE(runPlan("cvCvtColor", [&] { cv::planCvtColor(s, d, CV_COLOR_YUV2RGB_I420, CV_COLOR_SPEC_BT709_ER, p); },
                        message) == kOk);
        CHECK(p.chroma == cvk::ChromaLayout::Planar);
        CHECK(p.yuv.yOffset == 0);
        CHECK(p.yuv.cy == 1 << 20);
        CHECK(p.yuv.cry == 222927); // 0.2126 * 2^20 = 222927.3
        CHECK(p.yuv.cvr == 1651297); // 2 * (1 - 0.2126) * 2^20 = 1651297.5 (below half in double)
    }
}
