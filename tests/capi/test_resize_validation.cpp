// Validation of cvResize, cvResizeTorchvision and cvResizeCropConvertReformat, one row per case: wrapped tensors
// (no GPU needed: wrapping makes no CUDA call) go through the operators' planners, which run before any stream or
// device is touched; every row asserts the exact status and, for rejections, the message's function, argument,
// value and rule. Accepted rows check the kernel view the planner builds.
#include "cai.hpp"

#include "../../capi/firewall.hpp"
#include "../../core/error.hpp"
#include "../../core/ops/resize.hpp"
#include "../../core/tensor.hpp"
#include "../../kernels/resize.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <functional>
#include <string>
#include <vector>

using namespace cvtest;

namespace {

enum class Op { Resize, Torchvision, Fused, TvFused };

struct Side {
    cvArrayInterface cai;
    const char *layout;
};

struct Row {
    const char *name;
    Op op;
    Side src, dst;
    int32_t interp;
    std::function<void(cvResizeCropConvertParams &)> edit; // fused rows
    cvStatus status;
    std::vector<const char *> message; // substrings of the rejection message
};

constexpr uint64_t kDst = kFakeData + (1ull << 30); // far from src

Side side(const char *typestr, std::initializer_list<int64_t> shape, const char *layout, uint64_t data = kFakeData) {
    return {makeCai(typestr, shape, data), layout};
}
Side readonly(Side s) {
    s.cai.readonly = 1;
    return s;
}
Side strided(Side s, std::initializer_list<int64_t> strides) {
    setStrides(s.cai, strides);
    return s;
}

const char *functionOf(Op op) {
    return op == Op::Resize        ? "cvResize"
           : op == Op::Torchvision ? "cvResizeTorchvision"
           : op == Op::Fused       ? "cvResizeCropConvertReformat"
                                   : "cvResizeTorchvisionCropConvertReformat";
}

void fused224(cvResizeCropConvertParams &p) {
    p.resizeWidth = 256, p.resizeHeight = 256, p.cropX = 16, p.cropY = 16;
}

const std::vector<Row> &rows() {
    constexpr cvStatus kOk = CV_SUCCESS, kInvalid = CV_ERROR_INVALID_ARGUMENT, kUnsupported = CV_ERROR_NOT_SUPPORTED;
    const auto u8 = [](std::initializer_list<int64_t> s, const char *l, uint64_t d = kFakeData) { return side("|u1", s, l, d); };
    static const std::vector<Row> table = {
        // accepted: every layout and dtype of the header's table
        {"NHWC u8 down", Op::Resize, u8({2, 534, 800, 3}, "NHWC"), u8({2, 224, 224, 3}, "NHWC", kDst), CV_INTERP_LINEAR, {}, kOk, {}},
        {"HWC u16 up", Op::Resize, side("<u2", {5, 7, 4}, "HWC"), side("<u2", {50, 70, 4}, "HWC", kDst), CV_INTERP_CUBIC, {}, kOk, {}},
        {"NCHW f32", Op::Resize, side("<f4", {2, 3, 9, 9}, "NCHW"), side("<f4", {2, 3, 4, 4}, "NCHW", kDst), CV_INTERP_AREA, {}, kOk, {}},
        {"CHW f16", Op::Resize, side("<f2", {3, 9, 9}, "CHW"), side("<f2", {3, 4, 4}, "CHW", kDst), CV_INTERP_NEAREST, {}, kOk, {}},
        {"NHW s16", Op::Resize, side("<i2", {2, 9, 9}, "NHW"), side("<i2", {2, 1, 1}, "NHW", kDst), CV_INTERP_NEAREST_FLOOR, {}, kOk, {}},
        {"HW u8, one channel", Op::Resize, u8({9, 9}, "HW"), u8({3, 3}, "HW", kDst), CV_INTERP_LINEAR, {}, kOk, {}},
        {"HWC 7 channels", Op::Resize, u8({9, 9, 7}, "HWC"), u8({3, 3, 7}, "HWC", kDst), CV_INTERP_CUBIC, {}, kOk, {}},
        {"empty batch is a no-op", Op::Resize, u8({0, 9, 9, 3}, "NHWC"), u8({0, 3, 3, 3}, "NHWC", kDst), CV_INTERP_LINEAR, {}, kOk, {}},
        {"torchvision AA", Op::Torchvision, u8({1, 3, 90, 90}, "NCHW"), u8({1, 3, 30, 30}, "NCHW", kDst), CV_INTERP_CUBIC, {}, kOk, {}},
        // rejected
        {"interp 0", Op::Resize, u8({9, 9, 3}, "HWC"), u8({3, 3, 3}, "HWC", kDst), 0, {}, kInvalid, {"cvResize: interp=0", "is not a cvInterp"}},
        {"interp 99", Op::Resize, u8({9, 9, 3}, "HWC"), u8({3, 3, 3}, "HWC", kDst), 99, {}, kInvalid, {"interp=99"}},
        {"torchvision AREA", Op::Torchvision, u8({9, 9, 3}, "HWC"), u8({3, 3, 3}, "HWC", kDst), CV_INTERP_AREA, {}, kInvalid,
         {"cvResizeTorchvision: interp=5", "torchvision's modes"}},
        {"dtypes differ", Op::Resize, u8({9, 9, 3}, "HWC"), side("<f4", {3, 3, 3}, "HWC", kDst), CV_INTERP_LINEAR, {}, kInvalid,
         {"src dtype uint8 and dst dtype float32 differ"}},
        {"int32 unsupported", Op::Resize, side("<i4", {9, 9, 3}, "HWC"), side("<i4", {3, 3, 3}, "HWC", kDst), CV_INTERP_LINEAR, {}, kUnsupported,
         {"src dtype int32 is not supported (supported: uint8, uint16, int16, float16, float32)"}},
        {"layouts differ", Op::Resize, u8({9, 9, 3}, "HWC"), u8({3, 3, 3}, "CHW", kDst), CV_INTERP_LINEAR, {}, kInvalid,
         {"src layout 'HWC' and dst layout 'CHW' differ"}},
        {"layout WHC", Op::Resize, u8({9, 9, 3}, "WHC"), u8({3, 3, 3}, "WHC", kDst), CV_INTERP_LINEAR, {}, kInvalid,
         {"src layout 'WHC' (shape (9, 9, 3)) is not one of HWC,NHWC,CHW,NCHW,HW,NHW"}},
        {"no layout", Op::Resize, u8({9, 9, 3}, nullptr), u8({3, 3, 3}, nullptr, kDst), CV_INTERP_LINEAR, {}, kInvalid, {"src has no layout"}},
        {"N differs", Op::Resize, u8({2, 9, 9, 3}, "NHWC"), u8({3, 3, 3, 3}, "NHWC", kDst), CV_INTERP_LINEAR, {}, kInvalid,
         {"src N=2 and dst N=3 differ", "(2, 9, 9, 3)"}},
        {"C differs", Op::Resize, u8({9, 9, 3}, "HWC"), u8({3, 3, 4}, "HWC", kDst), CV_INTERP_LINEAR, {}, kInvalid, {"src C=3 and dst C=4 differ"}},
        {"dst H 0", Op::Resize, u8({9, 9, 3}, "HWC"), u8({0, 3, 3}, "HWC", kDst), CV_INTERP_LINEAR, {}, kInvalid,
         {"dst shape (0, 3, 3) has H=0 W=3", "[1, 2^31 - 1]"}},
        {"src W 0", Op::Resize, u8({9, 0, 3}, "HWC"), u8({3, 3, 3}, "HWC", kDst), CV_INTERP_LINEAR, {}, kInvalid, {"src shape (9, 0, 3) has H=9 W=0"}},
        {"dst readonly", Op::Resize, u8({9, 9, 3}, "HWC"), readonly(u8({3, 3, 3}, "HWC", kDst)), CV_INTERP_LINEAR, {}, kInvalid, {"dst is readonly"}},
        {"dst zero stride", Op::Resize, u8({9, 9, 3}, "HWC"), strided(u8({3, 3, 3}, "HWC", kDst), {9, 0, 1}), CV_INTERP_LINEAR, {}, kInvalid,
         {"dst has elements that overlap each other"}},
        {"overlap", Op::Resize, u8({9, 9, 3}, "HWC"), u8({3, 3, 3}, "HWC", kFakeData + 100), CV_INTERP_LINEAR, {}, kInvalid,
         {"src and dst memory overlap partially (they must not overlap)"}},
        // fused pass
        {"fused NHWC -> NCHW f32", Op::Fused, u8({2, 300, 400, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kOk, {}},
        {"fused HWC -> CHW f16", Op::Fused, u8({300, 400, 4}, "HWC"), side("<f2", {4, 224, 224}, "CHW", kDst), CV_INTERP_AREA, fused224, kOk, {}},
        {"fused u8 out", Op::Fused, u8({2, 300, 400, 3}, "NHWC"), u8({2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kUnsupported,
         {"dst dtype uint8 is not supported (supported: float32, float16)"}},
        {"fused f32 in", Op::Fused, side("<f4", {2, 30, 40, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224,
         kUnsupported, {"src dtype float32 is not supported (supported: uint8)"}},
        {"fused NCHW src", Op::Fused, u8({2, 3, 30, 40}, "NCHW"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kInvalid,
         {"src layout 'NCHW' (shape (2, 3, 30, 40)) is not one of NHWC,HWC"}},
        {"fused 5 channels", Op::Fused, u8({2, 30, 40, 5}, "NHWC"), side("<f4", {2, 5, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kInvalid,
         {"src C=5 is outside [1, 4]"}},
        {"fused batch mismatch", Op::Fused, u8({30, 40, 3}, "HWC"), side("<f4", {1, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kInvalid,
         {"must both have a batch dimension N or both lack it"}},
        {"fused crop outside", Op::Fused, u8({2, 30, 40, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR,
         [](cvResizeCropConvertParams &p) { fused224(p), p.cropX = 33; }, kInvalid,
         {"the crop at (x=33, y=16) of dst's size W=224 H=224 does not lie inside the resized image (256 x 256)"}},
        {"fused resize 0", Op::Fused, u8({2, 30, 40, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR,
         [](cvResizeCropConvertParams &p) { fused224(p), p.resizeWidth = 0; }, kInvalid, {"params->resizeWidth=0", ">= 1"}},
        {"fused stddev 0", Op::Fused, u8({2, 30, 40, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR,
         [](cvResizeCropConvertParams &p) { fused224(p), p.normalize = 1, p.stddev[2] = 0.f; }, kInvalid, {"params->stddev[2]=0", "nonzero"}},
        {"fused interp 0", Op::Fused, u8({2, 30, 40, 3}, "NHWC"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), 0, fused224, kInvalid,
         {"cvResizeCropConvertReformat: interp=0"}},
        // the torchvision fused pass: torch's contiguous (NCHW) and channels_last (NHWC) images, its four modes
        {"tv fused NCHW -> NCHW f32", Op::TvFused, u8({2, 3, 300, 400}, "NCHW"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kOk, {}},
        {"tv fused CHW -> CHW f16 bicubic", Op::TvFused, u8({3, 300, 400}, "CHW"), side("<f2", {3, 224, 224}, "CHW", kDst), CV_INTERP_CUBIC, fused224, kOk, {}},
        {"tv fused NHWC nearest", Op::TvFused, u8({2, 300, 400, 3}, "NHWC"), side("<f4", {2, 224, 224, 3}, "NHWC", kDst), CV_INTERP_NEAREST, fused224, kOk, {}},
        {"tv fused AREA", Op::TvFused, u8({2, 3, 300, 400}, "NCHW"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_AREA, fused224, kInvalid,
         {"cvResizeTorchvisionCropConvertReformat: params->interp=5 is not one of torchvision's modes"}},
        {"tv fused float src", Op::TvFused, side("<f4", {2, 3, 300, 400}, "NCHW"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kUnsupported,
         {"src"}},
        {"tv fused 5 channels", Op::TvFused, u8({2, 5, 30, 40}, "NCHW"), side("<f4", {2, 5, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR, fused224, kInvalid,
         {"src C=5 is outside [1, 4]"}},
        {"tv fused crop outside", Op::TvFused, u8({2, 3, 30, 40}, "NCHW"), side("<f4", {2, 3, 224, 224}, "NCHW", kDst), CV_INTERP_LINEAR,
         [](cvResizeCropConvertParams &p) { fused224(p), p.cropY = 40; }, kInvalid,
         {"the crop at (x=16, y=40) of dst's size W=224 H=224 does not lie inside the resized image (256 x 256)"}},
    };
    return table;
}

struct Outcome {
    cvStatus status = CV_SUCCESS;
    std::string message;
    cvk::ResizeParams resize{};
    cvk::FusedParams fused{};
};

Outcome plan(const Row &r, cvTensor src, cvTensor dst) {
    Outcome out;
    cv::detail::setCurrentFunction(functionOf(r.op));
    // Handles are not pointers (capi/handle_table.hpp).
    const auto &s = cv::capi::deref<cv::Tensor>(src, "src");
    const auto &d = cv::capi::deref<cv::Tensor>(dst, "dst");
    try {
        if (r.op == Op::Resize) cv::planResize(s, d, r.interp, out.resize);
        if (r.op == Op::Torchvision) cv::planResizeTorchvision(s, d, r.interp, 1, out.resize);
        if (r.op == Op::Fused) {
            cvResizeCropConvertParams p = CV_RESIZE_CROP_CONVERT_PARAMS_INIT;
            p.interp = r.interp;
            if (r.edit) r.edit(p);
            cv::planResizeCropConvertReformat(s, d, p, out.fused);
        }
        if (r.op == Op::TvFused) {
            cvResizeCropConvertParams p = CV_RESIZE_CROP_CONVERT_PARAMS_INIT;
            p.interp = r.interp;
            if (r.edit) r.edit(p);
            cv::planResizeTorchvisionCropConvertReformat(s, d, p, 1, out.fused);
        }
    } catch (const cv::Error &e) {
        out.status = e.status();
        out.message = e.what();
    }
    return out;
}

} // namespace

TEST_CASE("resize operators: validation table", "[capi][resize]") {
    for (const Row &r : rows()) {
        INFO(r.name);
        TensorRef src, dst;
        REQUIRE(cvTensorWrap(&r.src.cai, r.src.layout, &src.t) == CV_SUCCESS);
        REQUIRE(cvTensorWrap(&r.dst.cai, r.dst.layout, &dst.t) == CV_SUCCESS);
        const Outcome o = plan(r, src.t, dst.t);
        CHECK(o.status == r.status);
        INFO(o.message);
        if (r.status != CV_SUCCESS) CHECK(o.message.rfind(functionOf(r.op), 0) == 0);
        for (const char *part : r.message) CHECK(o.message.find(part) != std::string::npos);
    }
}

TEST_CASE("resize planner: the [N, H, W, C] view of every layout", "[capi][resize]") {
    // NCHW 2x3x9x10 float32: C's stride is the plane pitch, W's the item size.
    cvArrayInterface s = makeCai("<f4", {2, 3, 9, 10}), d = makeCai("<f4", {2, 3, 4, 5}, kDst);
    TensorRef src, dst;
    REQUIRE(cvTensorWrap(&s, "NCHW", &src.t) == CV_SUCCESS);
    REQUIRE(cvTensorWrap(&d, "NCHW", &dst.t) == CV_SUCCESS);
    cvk::ResizeParams p{};
    cv::detail::setCurrentFunction("cvResize");
    REQUIRE(cv::planResize(cv::capi::deref<cv::Tensor>(src.t, "tensor"), cv::capi::deref<cv::Tensor>(dst.t, "tensor"), CV_INTERP_AREA, p));
    CHECK(p.src.shape[cvk::kN] == 2);
    CHECK(p.src.shape[cvk::kC] == 3);
    CHECK(p.src.shape[cvk::kH] == 9);
    CHECK(p.src.shape[cvk::kW] == 10);
    CHECK(p.src.stride[cvk::kN] == 3 * 9 * 10 * 4);
    CHECK(p.src.stride[cvk::kC] == 9 * 10 * 4);
    CHECK(p.src.stride[cvk::kH] == 40);
    CHECK(p.src.stride[cvk::kW] == 4);
    CHECK(p.dst.stride[cvk::kC] == 4 * 5 * 4);
    CHECK(p.type == cvk::kResizeF32);
    CHECK(p.interp == cvk::resize::kArea);
    CHECK(p.torchMode == -1);
    // An empty batch plans nothing.
    cvArrayInterface e = makeCai("|u1", {0, 9, 9, 3}), f = makeCai("|u1", {0, 3, 3, 3}, kDst);
    TensorRef es, ed;
    REQUIRE(cvTensorWrap(&e, "NHWC", &es.t) == CV_SUCCESS);
    REQUIRE(cvTensorWrap(&f, "NHWC", &ed.t) == CV_SUCCESS);
    CHECK_FALSE(cv::planResize(cv::capi::deref<cv::Tensor>(es.t, "tensor"), cv::capi::deref<cv::Tensor>(ed.t, "tensor"), CV_INTERP_LINEAR, p));
}

TEST_CASE("cvResizeCropConvertReformat checks params before anything else it needs", "[capi][resize]") {
    // A NULL stream is reported first (no stream can exist without a device); NULL params after the handles.
    cvArrayInterface s = makeCai("|u1", {2, 3});
    TensorRef t;
    REQUIRE(cvTensorWrap(&s, "HW", &t.t) == CV_SUCCESS);
    CHECK(cvResizeCropConvertReformat(nullptr, t.t, t.t, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvResizeCropConvertReformat: stream is NULL");
    CHECK(cvResize(nullptr, t.t, t.t, CV_INTERP_LINEAR) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvResize: stream is NULL");
    CHECK(cvResizeTorchvision(nullptr, t.t, t.t, CV_INTERP_LINEAR, 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvResizeTorchvision: stream is NULL");
}

TEST_CASE("cvResizeTorchvisionCropConvertReformat: the stream first, then the torch mode the kernels get", "[capi][resize]") {
    cvArrayInterface s = makeCai("|u1", {2, 3});
    TensorRef t;
    REQUIRE(cvTensorWrap(&s, "HW", &t.t) == CV_SUCCESS);
    CHECK(cvResizeTorchvisionCropConvertReformat(nullptr, t.t, t.t, nullptr, 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvResizeTorchvisionCropConvertReformat: stream is NULL");

    cvArrayInterface a = makeCai("|u1", {2, 3, 300, 400}), b = makeCai("<f4", {2, 3, 224, 224}, kDst);
    TensorRef src, dst;
    REQUIRE(cvTensorWrap(&a, "NCHW", &src.t) == CV_SUCCESS);
    REQUIRE(cvTensorWrap(&b, "NCHW", &dst.t) == CV_SUCCESS);
    const auto &si = cv::capi::deref<cv::Tensor>(src.t, "src");
    const auto &di = cv::capi::deref<cv::Tensor>(dst.t, "dst");
    cv::detail::setCurrentFunction("cvResizeTorchvisionCropConvertReformat");
    struct ModeRow {
        int32_t interp, antialias, mode;
    };
    using namespace cvk::resize;
    for (const ModeRow &m : std::vector<ModeRow>{{CV_INTERP_LINEAR, 1, kTvLinearAA}, {CV_INTERP_LINEAR, 0, kTvLinear},
                                                 {CV_INTERP_CUBIC, 1, kTvCubicAA}, {CV_INTERP_CUBIC, 0, kTvCubic},
                                                 {CV_INTERP_NEAREST, 1, kTvNearest}, {CV_INTERP_NEAREST_FLOOR, 0, kTvNearestFloor}}) {
        INFO("interp " << m.interp << " antialias " << m.antialias);
        cvResizeCropConvertParams p = CV_RESIZE_CROP_CONVERT_PARAMS_INIT;
        p.interp = m.interp;
        fused224(p);
        cvk::FusedParams q{};
        REQUIRE(cv::planResizeTorchvisionCropConvertReformat(si, di, p, m.antialias, q));
        CHECK(q.torchMode == m.mode);
        CHECK(q.interp == -1);
        CHECK(q.src.stride[cvk::kC] == 300 * 400); // planar source: C's stride is the plane
        CHECK(q.src.stride[cvk::kW] == 1);
    }
    // cvResizeCropConvertReformat keeps OpenCV's sampler.
    cvArrayInterface h = makeCai("|u1", {2, 300, 400, 3});
    TensorRef hs;
    REQUIRE(cvTensorWrap(&h, "NHWC", &hs.t) == CV_SUCCESS);
    cvResizeCropConvertParams p = CV_RESIZE_CROP_CONVERT_PARAMS_INIT;
    fused224(p);
    cvk::FusedParams q{};
    cv::detail::setCurrentFunction("cvResizeCropConvertReformat");
    REQUIRE(cv::planResizeCropConvertReformat(cv::capi::deref<cv::Tensor>(hs.t, "src"), di, p, q));
    CHECK(q.torchMode == -1);
    CHECK(q.interp == kLinear);
}
