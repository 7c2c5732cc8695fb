// cvCopyMakeBorder validation, one row per case: every row asserts the exact status; a rejection's message names the
// argument, the value and the rule; accepted rows check the kernel parameters (converted border value, path). No
// GPU: the plan function is what cvCopyMakeBorder runs before any CUDA call.
#include "op_validation.hpp"

#include "../../core/ops/copymakeborder.hpp"
#include "../../kernels/copymakeborder.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstring>

using namespace cvtest;

namespace {

struct Row {
    const char *name;
    Spec src, dst;
    int32_t top, left, mode;
    cvStatus status;
    std::vector<const char *> parts; // not an initializer_list: its array would die with the row's braces
};

constexpr cvStatus kOk = CV_SUCCESS, kInvalid = CV_ERROR_INVALID_ARGUMENT;
const uint64_t kFar = uint64_t(1) << 30;
constexpr int32_t kConstant = CV_BORDER_MODE_CONSTANT, kReflect = CV_BORDER_MODE_REFLECT;

const std::vector<Row> &rows() {
    static const std::vector<Row> table = {
        {"constant u8 NHWC", {"|u1", {2, 5, 7, 3}, "NHWC"}, {"|u1", {2, 8, 12, 3}, "NHWC", {}, kFar}, 1, 2, kConstant, kOk, {}},
        {"reflect f64 HWC 4 channels", {"<f8", {5, 7, 4}, "HWC"}, {"<f8", {9, 9, 4}, "HWC", {}, kFar}, 2, 1, kReflect, kOk, {}},
        {"every mode: wrap", {"<u2", {5, 7, 1}, "HWC"}, {"<u2", {5, 7, 1}, "HWC", {}, kFar}, 0, 0, CV_BORDER_MODE_WRAP, kOk, {}},
        {"empty src, constant", {"|u1", {0, 7, 3}, "HWC"}, {"|u1", {4, 7, 3}, "HWC", {}, kFar}, 2, 0, kConstant, kOk, {}},
        {"empty dst", {"|u1", {0, 0, 3}, "HWC"}, {"|u1", {0, 0, 3}, "HWC"}, 0, 0, kReflect, kOk, {}},

        {"mode unspecified", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar}, 0, 0, 0, kInvalid,
         {"params->borderMode=0", "not a cvBorderMode"}},
        {"mode 6", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar}, 0, 0, 6, kInvalid, {"borderMode=6"}},
        {"negative top", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar}, -1, 0, kConstant, kInvalid,
         {"params->top=-1", ">= 0"}},
        {"negative left", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar}, 0, -2, kConstant, kInvalid,
         {"params->left=-2"}},
        {"dst too short", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 9, 3}, "HWC", {}, kFar}, 1, 0, kConstant, kInvalid,
         {"dst shape (5, 9, 3)", "bottom=-1"}},
        {"dst too narrow", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {6, 8, 3}, "HWC", {}, kFar}, 1, 2, kConstant, kInvalid,
         {"right=-1"}},
        {"N differs", {"|u1", {2, 5, 7, 3}, "NHWC"}, {"|u1", {1, 5, 7, 3}, "NHWC", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"differ in N or C"}},
        {"C differs", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 4}, "HWC", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"differ in N or C"}},
        {"5 channels", {"|u1", {5, 7, 5}, "HWC"}, {"|u1", {5, 7, 5}, "HWC", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"5 channels", "1 to 4"}},
        {"layout CHW", {"|u1", {3, 5, 7}, "CHW"}, {"|u1", {3, 5, 7}, "CHW", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"src layout 'CHW'"}},
        {"layouts differ", {"|u1", {1, 5, 7, 3}, "NHWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"differ"}},
        {"dtypes differ", {"|u1", {5, 7, 3}, "HWC"}, {"|i1", {5, 7, 3}, "HWC", {}, kFar}, 0, 0, kConstant, kInvalid,
         {"src dtype uint8", "dst dtype int8"}},
        {"empty src, reflect", {"|u1", {0, 7, 3}, "HWC"}, {"|u1", {4, 7, 3}, "HWC", {}, kFar}, 2, 0, kReflect, kInvalid,
         {"is empty", "only CV_BORDER_MODE_CONSTANT"}},
        {"dst readonly", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC", {}, kFar, true}, 0, 0, kConstant, kInvalid,
         {"dst is readonly"}},
        {"overlap", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {6, 8, 3}, "HWC", {}, 7}, 0, 0, kConstant, kInvalid,
         {"overlap partially"}},
        {"same memory", {"|u1", {5, 7, 3}, "HWC"}, {"|u1", {5, 7, 3}, "HWC"}, 0, 0, kConstant, kInvalid, {"same memory"}},
    };
    return table;
}

cvCopyMakeBorderParams params(int32_t top, int32_t left, int32_t mode, double v0 = 0, double v1 = 0, double v2 = 0,
                              double v3 = 0) {
    cvCopyMakeBorderParams p = CV_COPY_MAKE_BORDER_PARAMS_INIT;
    p.top = top;
    p.left = left;
    p.borderMode = mode;
    p.borderValue[0] = v0;
    p.borderValue[1] = v1;
    p.borderValue[2] = v2;
    p.borderValue[3] = v3;
    return p;
}

} // namespace

TEST_CASE("cvCopyMakeBorder validation table", "[copymakeborder][validation]") {
    for (const Row &row : rows()) {
        DYNAMIC_SECTION(row.name) {
            TensorRef src, dst;
            cv::Tensor &s = wrapSpec(src, row.src);
            cv::Tensor &d = wrapSpec(dst, row.dst);
            cvk::CopyMakeBorderParams p{};
            std::string message;
            const cvStatus status = runPlan(
                "cvCopyMakeBorder", [&] { cv::planCopyMakeBorder(s, d, params(row.top, row.left, row.mode), p); }, message);
            INFO("message: " << message);
            REQUIRE(status == row.status);
            if (status != CV_SUCCESS) checkMessage(message, "cvCopyMakeBorder", row.parts);
        }
    }
}

struct ValueRow {
    const char *typestr;
    double value;
    std::vector<unsigned char> bytes; // little-endian
};

TEST_CASE("cvCopyMakeBorder converts the border value as OpenCV's saturate_cast", "[copymakeborder][validation]") {
    const std::vector<ValueRow> table = {
        {"|u1", 254.5, {254}},          {"|u1", 255.5, {255}},   {"|u1", -0.1, {0}},        {"|u1", 300.0, {255}},
        {"|u1", 2.5, {2}},              {"|u1", 3.5, {4}},       {"|i1", -200.0, {0x80}},   {"|u1", std::nan(""), {0}},
        {"<u2", 70000.0, {0xff, 0xff}}, {"<i2", -1.0, {0xff, 0xff}}, {"<f2", 1.5, {0x00, 0x3e}},
        {"<f4", 0.5, {0, 0, 0, 0x3f}},  {"<i4", 1e10, {0xff, 0xff, 0xff, 0x7f}},
    };
    for (const ValueRow &row : table) {
        DYNAMIC_SECTION(row.typestr << " " << row.value) {
            TensorRef a, b;
            cv::Tensor &s = wrapSpec(a, {row.typestr, {2, 2, 1}, "HWC"});
            cv::Tensor &d = wrapSpec(b, {row.typestr, {3, 3, 1}, "HWC", {}, kFar});
            cvk::CopyMakeBorderParams p{};
            std::string message;
            REQUIRE(runPlan("cvCopyMakeBorder", [&] { cv::planCopyMakeBorder(s, d, params(1, 1, kConstant, row.value), p); },
                            message) == kOk);
            CHECK(std::vector<unsigned char>(p.value, p.value + row.bytes.size()) == row.bytes);
        }
    }
}

TEST_CASE("cvCopyMakeBorder path: 16-byte chunks for a contiguous aligned dst, else one element per thread",
          "[copymakeborder][validation]") {
    TensorRef a, b;
    cvk::CopyMakeBorderParams p{};
    std::string message;
    SECTION("contiguous dst, pitched src rows") {
        cv::Tensor &s = wrapSpec(a, {"|u1", {5, 7, 3}, "HWC", {64, 3, 1}});
        cv::Tensor &d = wrapSpec(b, {"|u1", {8, 12, 3}, "HWC", {}, kFar});
        REQUIRE(runPlan("cvCopyMakeBorder", [&] { cv::planCopyMakeBorder(s, d, params(1, 2, kReflect), p); }, message) == kOk);
        CHECK(cvk::copyMakeBorderPath(p) == cvk::CopyMakeBorderPath::Chunks);
        CHECK(p.kind == cvk::BorderKind::Reflect);
        CHECK(p.top == 1);
        CHECK(p.left == 2);
    }
    SECTION("dst with pitched rows") {
        cv::Tensor &s = wrapSpec(a, {"|u1", {5, 7, 3}, "HWC"});
        cv::Tensor &d = wrapSpec(b, {"|u1", {8, 12, 3}, "HWC", {64, 3, 1}, kFar});
        REQUIRE(runPlan("cvCopyMakeBorder", [&] { cv::planCopyMakeBorder(s, d, params(1, 2, kReflect), p); }, message) == kOk);
        CHECK(cvk::copyMakeBorderPath(p) == cvk::CopyMakeBorderPath::Generic);
    }
    SECTION("src channels not packed") {
        cv::Tensor &s = wrapSpec(a, {"<u2", {5, 7, 3}, "HWC", {84, 12, 4}});
        cv::Tensor &d = wrapSpec(b, {"<u2", {8, 12, 3}, "HWC", {}, kFar});
        REQUIRE(runPlan("cvCopyMakeBorder", [&] { cv::planCopyMakeBorder(s, d, params(1, 2, kReflect), p); }, message) == kOk);
        CHECK(cvk::copyMakeBorderPath(p) == cvk::CopyMakeBorderPath::Generic);
    }
}
