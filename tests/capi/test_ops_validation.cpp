// Validation of the image operators (crop, center crop, convertto, normalize, reformat), one row per case: the
// status and the message of bad shapes, layouts, dtypes and parameters, and the plan of good ones. The operators'
// planning runs before any CUDA call, so these run without a GPU: they call the core planners inside the C API's
// firewall (which sets the function name that prefixes every message) on wrappers of fake device addresses.
#include "cai.hpp"

#include "../../capi/firewall.hpp"
#include "../../core/ops/convert_to.hpp"
#include "../../core/ops/crop.hpp"
#include "../../core/ops/normalize.hpp"
#include "../../core/ops/reformat.hpp"
#include "../../core/stream.hpp"
#include "../../core/tensor.hpp"

#include <catch2/catch_test_macros.hpp>

#include <functional>
#include <memory>
#include <vector>

using namespace cvtest;

namespace {

struct Spec {
    const char *typestr;
    std::vector<int64_t> shape;
    const char *layout;
    uint64_t data = kFakeData;
    std::vector<int64_t> strides = {}; // bytes; empty = C-contiguous
    bool readonly = false;
};

// Wrappers that live for one test row.
struct Pool {
    const char *function = ""; // the entry point being emulated: wrapping sets its own name, this restores it
    std::vector<cvTensor> handles;
    ~Pool() {
        for (cvTensor t : handles) cvTensorRelease(t);
    }
    cv::Tensor &operator()(const Spec &s) {
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cai.data = s.data;
        cai.readonly = s.readonly;
        cai.ndim = static_cast<int32_t>(s.shape.size());
        for (size_t i = 0; i < s.shape.size(); ++i) cai.shape[i] = s.shape[i];
        if (!s.strides.empty()) {
            cai.hasStrides = 1;
            for (size_t i = 0; i < s.strides.size(); ++i) cai.strides[i] = s.strides[i];
        }
        std::strncpy(cai.typestr, s.typestr, sizeof(cai.typestr) - 1);
        cvTensor t = nullptr;
        REQUIRE(cvTensorWrap(&cai, s.layout, &t) == CV_SUCCESS);
        handles.push_back(t);
        cv::detail::setCurrentFunction(function);
        return cv::capi::deref<cv::Tensor>(t, "tensor"); // handles are not pointers (capi/handle_table.hpp)
    }
};

struct Row {
    const char *name;
    const char *function;
    std::function<void(Pool &)> call; // throws like the operator's C entry point
    cvStatus status;
    const char *message; // expected substring (after the function name), "" for success
};

void runTable(const std::vector<Row> &rows) {
    for (const Row &r : rows) {
        INFO(r.name);
        Pool pool;
        pool.function = r.function;
        const cvStatus status = cv::capi::guarded(r.function, [&] { r.call(pool); });
        CHECK(status == r.status);
        if (r.status != CV_SUCCESS) {
            const std::string message = lastError();
            INFO(message);
            CHECK(message.rfind(std::string(r.function) + ": ", 0) == 0);
            CHECK(message.find(r.message) != std::string::npos);
        }
    }
}

const Spec kNhwc8{"|u1", {2, 10, 12, 3}, "NHWC"};
constexpr uint64_t kOther = kFakeData + (1u << 20); // far from kFakeData: no overlap

Spec at(Spec s, uint64_t data) {
    s.data = data;
    return s;
}

cvk::RowView cropPlan(Pool &p, const Spec &src, const Spec &dst, int x, int y, int w, int h) {
    cvk::RowView v{};
    REQUIRE(cv::ops::planCrop(p(src), p(dst), x, y, w, h, v));
    return v;
}

} // namespace

TEST_CASE("crop validation names the argument, the value and the rule", "[ops][crop]") {
    auto crop = [](Spec src, Spec dst, int x, int y, int w, int h) {
        return [=](Pool &p) { cv::ops::customCrop(nullptr, p(src), p(dst), x, y, w, h); };
    };
    auto center = [](Spec src, Spec dst, int w, int h) {
        return [=](Pool &p) { cv::ops::centerCrop(nullptr, p(src), p(dst), w, h); };
    };
    const Spec dst{"|u1", {2, 4, 5, 3}, "NHWC", kOther};
    runTable({
        {"layouts differ", "cvCustomCrop", crop(kNhwc8, Spec{"|u1", {2, 3, 4, 5}, "NCHW", kOther}, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "src layout 'NHWC' and dst layout 'NCHW' differ"},
        {"no layout", "cvCustomCrop", crop(Spec{"|u1", {2, 10, 12, 3}, nullptr}, dst, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "src has no layout"},
        {"layout outside the table", "cvCustomCrop", crop(Spec{"|u1", {10, 12}, "HW"}, dst, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "src layout 'HW' (shape (10, 12)) is not one of HWC,NHWC,CHW,NCHW"},
        {"dtypes differ", "cvCustomCrop", crop(kNhwc8, Spec{"<u2", {2, 4, 5, 3}, "NHWC", kOther}, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "src dtype uint8 and dst dtype uint16 differ"},
        {"rect past the right edge", "cvCustomCrop", crop(kNhwc8, dst, 8, 0, 5, 4), CV_ERROR_INVALID_ARGUMENT,
         "rect (x=8, y=0, width=5, height=4) is outside src of width 12 and height 10"},
        {"rect past the bottom", "cvCustomCrop", crop(kNhwc8, dst, 0, 7, 5, 4), CV_ERROR_INVALID_ARGUMENT,
         "is outside src of width 12 and height 10"},
        {"negative x", "cvCustomCrop", crop(kNhwc8, dst, -1, 0, 5, 4), CV_ERROR_INVALID_ARGUMENT, "x >= 0"},
        {"int32 overflow of x + width", "cvCustomCrop", crop(kNhwc8, dst, INT32_MAX, 0, 5, 4), CV_ERROR_INVALID_ARGUMENT,
         "is outside src"},
        {"zero width", "cvCustomCrop", crop(kNhwc8, dst, 0, 0, 0, 4), CV_ERROR_INVALID_ARGUMENT,
         "rect width=0 height=4 (both must be > 0)"},
        {"dst shape not the crop's", "cvCustomCrop", crop(kNhwc8, dst, 0, 0, 4, 4), CV_ERROR_INVALID_ARGUMENT,
         "dst shape (2, 4, 5, 3) (NHWC) does not match the crop: need N=2, H=4, W=4, C=3"},
        {"dst channels differ", "cvCustomCrop", crop(kNhwc8, Spec{"|u1", {2, 4, 5, 4}, "NHWC", kOther}, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "need N=2, H=4, W=5, C=3"},
        {"dst readonly", "cvCustomCrop", crop(kNhwc8, Spec{"|u1", {2, 4, 5, 3}, "NHWC", kOther, {}, true}, 0, 0, 5, 4),
         CV_ERROR_INVALID_ARGUMENT, "dst is readonly"},
        {"dst inside src", "cvCustomCrop", crop(kNhwc8, at(dst, kFakeData + 16), 0, 0, 5, 4), CV_ERROR_INVALID_ARGUMENT,
         "src and dst memory overlap partially"},
        {"zero dst stride", "cvCustomCrop",
         crop(kNhwc8, Spec{"|u1", {2, 4, 5, 3}, "NHWC", kOther, {60, 15, 0, 1}}, 0, 0, 5, 4), CV_ERROR_INVALID_ARGUMENT,
         "dst has elements that overlap each other"},
        {"centre crop larger than src", "cvCenterCrop", center(kNhwc8, dst, 13, 4), CV_ERROR_INVALID_ARGUMENT,
         "cropWidth=13 cropHeight=4 do not fit src of width 12 and height 10"},
        {"centre crop of zero", "cvCenterCrop", center(kNhwc8, dst, 5, 0), CV_ERROR_INVALID_ARGUMENT, "0 < cropHeight"},
        {"centre crop dst of another size", "cvCenterCrop", center(kNhwc8, dst, 6, 4), CV_ERROR_INVALID_ARGUMENT,
         "does not match the crop: need N=2, H=4, W=6"},
    });
}

TEST_CASE("crop plans: the rectangle's offset and the merged rows", "[ops][crop]") {
    Pool p;
    SECTION("NHWC, x = 1, y = 2: rows of W * C bytes, src pitch of the full image") {
        const cvk::RowView v = cropPlan(p, kNhwc8, Spec{"|u1", {2, 4, 5, 3}, "NHWC", kOther}, 1, 2, 5, 4);
        CHECK(v.src == reinterpret_cast<const char *>(kFakeData) + 2 * 36 + 1 * 3);
        CHECK(v.inner == 15);
        CHECK(v.srcInner == 1);
        CHECK(v.rows[1] == 2);
        CHECK(v.rows[2] == 4);
        CHECK(v.srcRow[2] == 36);
        CHECK(v.dstRow[2] == 15);
        CHECK(v.srcRow[1] == 360);
    }
    SECTION("full-width rows merge with H") {
        const cvk::RowView v = cropPlan(p, kNhwc8, Spec{"|u1", {2, 4, 12, 3}, "NHWC", kOther}, 0, 3, 12, 4);
        CHECK(v.inner == 4 * 36);
        CHECK(v.rows[2] == 2);
        CHECK(v.srcRow[2] == 360);
    }
    SECTION("NCHW: planes are rows too") {
        const cvk::RowView v = cropPlan(p, Spec{"<f4", {2, 3, 10, 12}, "NCHW"}, Spec{"<f4", {2, 3, 4, 5}, "NCHW", kOther}, 1, 2, 5, 4);
        CHECK(v.inner == 5);
        CHECK(v.srcInner == 4);
        CHECK(v.rows[0] * v.rows[1] * v.rows[2] == 2 * 3 * 4);
    }
    SECTION("the whole image onto itself is nothing to do") {
        cvk::RowView v{};
        cv::Tensor &t = p(kNhwc8);
        CHECK_FALSE(cv::ops::planCrop(t, t, 0, 0, 12, 10, v));
    }
}

TEST_CASE("convertto validation", "[ops][convertto]") {
    auto conv = [](Spec src, Spec dst, int32_t round) {
        return [=](Pool &p) { cv::ops::convertTo(nullptr, p(src), p(dst), 1.0, 0.0, round); };
    };
    const Spec f32{"<f4", {2, 10, 12, 3}, "NHWC", kOther};
    runTable({
        {"shapes differ", "cvConvertTo", conv(kNhwc8, Spec{"<f4", {2, 10, 12, 4}, "NHWC", kOther}, 1),
         CV_ERROR_INVALID_ARGUMENT, "src shape (2, 10, 12, 3) and dst shape (2, 10, 12, 4) differ"},
        {"ranks differ", "cvConvertTo", conv(kNhwc8, Spec{"<f4", {20, 12, 3}, "HWC", kOther}, 1),
         CV_ERROR_INVALID_ARGUMENT, "src shape (2, 10, 12, 3) and dst shape (20, 12, 3) differ"},
        {"layouts differ", "cvConvertTo", conv(kNhwc8, Spec{"<f4", {2, 10, 12, 3}, "NCHW", kOther}, 1),
         CV_ERROR_INVALID_ARGUMENT, "src layout 'NHWC' and dst layout 'NCHW' differ"},
        {"uint32 src", "cvConvertTo", conv(Spec{"<u4", {2, 10, 12, 3}, "NHWC"}, f32, 1), CV_ERROR_NOT_SUPPORTED,
         "src dtype uint32 is not supported (supported: uint8, int8"},
        {"bool dst", "cvConvertTo", conv(kNhwc8, Spec{"|b1", {2, 10, 12, 3}, "NHWC", kOther}, 1), CV_ERROR_NOT_SUPPORTED,
         "dst dtype bool is not supported"},
        {"int64 dst", "cvConvertTo", conv(kNhwc8, Spec{"<i8", {2, 10, 12, 3}, "NHWC", kOther}, 1), CV_ERROR_NOT_SUPPORTED,
         "dst dtype int64 is not supported"},
        {"round unspecified", "cvConvertTo", conv(kNhwc8, f32, 0), CV_ERROR_INVALID_ARGUMENT,
         "round=0 is not a cvRoundMode"},
        {"round out of range", "cvConvertTo", conv(kNhwc8, f32, 5), CV_ERROR_INVALID_ARGUMENT, "round=5 is not a cvRoundMode"},
        {"dst readonly", "cvConvertTo", conv(kNhwc8, Spec{"<f4", {2, 10, 12, 3}, "NHWC", kOther, {}, true}, 1),
         CV_ERROR_INVALID_ARGUMENT, "dst is readonly"},
        {"in place across item sizes", "cvConvertTo", conv(kNhwc8, at(f32, kFakeData), 1), CV_ERROR_INVALID_ARGUMENT,
         "overlap partially"},
        {"ok without layouts", "cvConvertTo", [](Pool &p) {
             cvk::ConvertParams c;
             CHECK(cv::ops::planConvertTo(p(Spec{"|u1", {7}, nullptr}), p(Spec{"<f8", {7}, nullptr, kOther}), 1.0, 0.0, 4, c));
         }, CV_SUCCESS, ""},
    });
}

TEST_CASE("convertto plans: the contiguous dimension of dst is the inner one", "[ops][convertto]") {
    Pool p;
    cvk::ConvertParams c{};
    SECTION("contiguous tensors collapse to one row") {
        REQUIRE(cv::ops::planConvertTo(p(kNhwc8), p(Spec{"<f4", {2, 10, 12, 3}, "NHWC", kOther}), 2.0, 1.0, 1, c));
        CHECK(c.view.inner == 720);
        CHECK(c.view.rows[0] * c.view.rows[1] * c.view.rows[2] == 1);
        CHECK(c.src == CV_DTYPE_UINT8);
        CHECK(c.dst == CV_DTYPE_FLOAT32);
        CHECK(c.scale == 2.0);
    }
    SECTION("a transposed src keeps dst's order") {
        REQUIRE(cv::ops::planConvertTo(p(Spec{"|u1", {4, 6}, nullptr, kFakeData, {1, 4}}), p(Spec{"<f4", {4, 6}, nullptr, kOther}),
                                       1.0, 0.0, 1, c));
        CHECK(c.view.inner == 6);
        CHECK(c.view.srcInner == 4);
        CHECK(c.view.dstInner == 4);
        CHECK(c.view.rows[2] == 4);
        CHECK(c.view.srcRow[2] == 1);
    }
    SECTION("empty tensors launch nothing") {
        CHECK_FALSE(cv::ops::planConvertTo(p(Spec{"|u1", {0, 3}, nullptr, 0}), p(Spec{"<f4", {0, 3}, nullptr, 0}), 1.0, 0.0, 1, c));
    }
}

TEST_CASE("normalize validation", "[ops][normalize]") {
    static const float three[3] = {1.f, 2.f, 3.f};
    static const float many[300] = {};
    struct Args {
        const float *base = three, *scale = three;
        int32_t baseCount = 3, scaleCount = 3;
        uint32_t flags = 0;
        const Spec *baseTensor = nullptr;
    };
    auto norm = [](Spec src, Spec dst, Args a) {
        return [=](Pool &p) {
            cvNormalizeParams prm = CV_NORMALIZE_PARAMS_INIT;
            prm.flags = a.flags;
            prm.baseValues = a.base;
            prm.baseCount = a.baseCount;
            prm.scaleValues = a.scale;
            prm.scaleCount = a.scaleCount;
            cv::Tensor *base = a.baseTensor ? &p(*a.baseTensor) : nullptr;
            cv::ops::normalize(nullptr, p(src), p(dst), base, nullptr, prm);
        };
    };
    const Spec f32{"<f4", {2, 10, 12, 3}, "NHWC", kOther};
    static const Spec baseF16{"<f2", {1, 1, 1, 3}, "NHWC", kOther * 2};
    static const Spec base4{"<f4", {1, 1, 1, 4}, "NHWC", kOther * 2};
    static const Spec base3{"<f4", {1, 1, 1, 3}, "NHWC", kOther * 2};
    runTable({
        {"per-channel values: fine", "cvNormalize", [&](Pool &p) {
             cvk::NormalizeParams k;
             cvNormalizeParams prm = CV_NORMALIZE_PARAMS_INIT;
             prm.baseValues = three, prm.baseCount = 3, prm.scaleValues = three, prm.scaleCount = 1;
             REQUIRE(cv::ops::planNormalize(p(kNhwc8), p(f32), nullptr, nullptr, prm, k));
             CHECK(k.base.count == 3);
             CHECK(k.scale.count == 1);
             CHECK(k.base.values[2] == 3.f);
             CHECK(k.view.channels == 3);
             CHECK(k.view.channelRow == -1);
             CHECK(k.view.inner == 720);
         }, CV_SUCCESS, ""},
        {"planar: the channel is a row", "cvNormalize", [&](Pool &p) {
             cvk::NormalizeParams k;
             cvNormalizeParams prm = CV_NORMALIZE_PARAMS_INIT;
             prm.baseValues = three, prm.baseCount = 3, prm.scaleValues = three, prm.scaleCount = 3;
             REQUIRE(cv::ops::planNormalize(p(Spec{"<f4", {2, 3, 10, 12}, "NCHW"}), p(Spec{"<f4", {2, 3, 10, 12}, "NCHW", kOther}),
                                            nullptr, nullptr, prm, k));
             CHECK(k.view.inner == 120);
             CHECK(k.view.channels == 3);
             CHECK(k.view.channelRow >= 0);
             CHECK(k.view.rows[k.view.channelRow] == 6); // N and C merged: channel = index % 3
         }, CV_SUCCESS, ""},
        {"a base tensor of C values", "cvNormalize", [&](Pool &p) {
             cvk::NormalizeParams k;
             cvNormalizeParams prm = CV_NORMALIZE_PARAMS_INIT;
             prm.scaleValues = three, prm.scaleCount = 3;
             REQUIRE(cv::ops::planNormalize(p(kNhwc8), p(f32), &p(base3), nullptr, prm, k));
             CHECK(k.base.device == reinterpret_cast<const char *>(kOther * 2));
             CHECK(k.base.stride == 4);
             CHECK(k.base.count == 3);
         }, CV_SUCCESS, ""},
        {"count neither 1 nor C", "cvNormalize", norm(kNhwc8, f32, Args{three, three, 2, 3}), CV_ERROR_INVALID_ARGUMENT,
         "baseCount=2 must be 1 or the channel count C=3"},
        {"neither form", "cvNormalize", norm(kNhwc8, f32, Args{nullptr, three, 0, 3}), CV_ERROR_INVALID_ARGUMENT,
         "give base either as a tensor or as values (neither given)"},
        {"both forms", "cvNormalize", norm(kNhwc8, f32, Args{three, three, 3, 3, 0, &base3}), CV_ERROR_INVALID_ARGUMENT,
         "(both given)"},
        {"base tensor float16", "cvNormalize", norm(kNhwc8, f32, Args{nullptr, three, 0, 3, 0, &baseF16}),
         CV_ERROR_INVALID_ARGUMENT, "base dtype float16 must be float32"},
        {"base tensor of 4 values for 3 channels", "cvNormalize", norm(kNhwc8, f32, Args{nullptr, three, 0, 3, 0, &base4}),
         CV_ERROR_INVALID_ARGUMENT, "base shape (1, 1, 1, 4) must hold 1 or C=3 values"},
        {"unknown flag bits", "cvNormalize", norm(kNhwc8, f32, Args{three, three, 3, 3, 6}), CV_ERROR_INVALID_ARGUMENT,
         "params->flags=6 has unknown bits"},
        {"uint8 to int16", "cvNormalize", norm(kNhwc8, Spec{"<i2", {2, 10, 12, 3}, "NHWC", kOther}, Args{}),
         CV_ERROR_NOT_SUPPORTED, "src dtype uint8 to dst dtype int16 is not supported"},
        {"int8 src", "cvNormalize", norm(Spec{"|i1", {2, 10, 12, 3}, "NHWC"}, f32, Args{}), CV_ERROR_NOT_SUPPORTED,
         "src dtype int8 to dst dtype float32 is not supported"},
        {"float64 dst", "cvNormalize", norm(kNhwc8, Spec{"<f8", {2, 10, 12, 3}, "NHWC", kOther}, Args{}),
         CV_ERROR_NOT_SUPPORTED, "is not supported"},
        {"300 channels", "cvNormalize",
         norm(Spec{"<f4", {2, 2, 300}, "HWC"}, Spec{"<f4", {2, 2, 300}, "HWC", kOther}, Args{many, many, 300, 300}),
         CV_ERROR_NOT_SUPPORTED, "src has C=300 channels (at most 256)"},
        {"shapes differ", "cvNormalize", norm(kNhwc8, Spec{"<f4", {2, 10, 11, 3}, "NHWC", kOther}, Args{}),
         CV_ERROR_INVALID_ARGUMENT, "differ in N, H, W or C"},
        {"layout HW", "cvNormalize", norm(Spec{"|u1", {10, 12}, "HW"}, Spec{"<f4", {10, 12}, "HW", kOther}, Args{}),
         CV_ERROR_INVALID_ARGUMENT, "is not one of NHWC,HWC,NCHW,CHW"},
        {"in place across dtypes", "cvNormalize", norm(kNhwc8, at(f32, kFakeData), Args{}), CV_ERROR_INVALID_ARGUMENT,
         "overlap"},
    });
}

TEST_CASE("reformat validation and paths", "[ops][reformat]") {
    auto reformat = [](Spec src, Spec dst) { return [=](Pool &p) { cv::ops::reformat(nullptr, p(src), p(dst)); }; };
    runTable({
        {"N on one side only", "cvReformat", reformat(kNhwc8, Spec{"|u1", {3, 20, 12}, "CHW", kOther}),
         CV_ERROR_INVALID_ARGUMENT, "must both have N or both not"},
        {"dtypes differ", "cvReformat", reformat(kNhwc8, Spec{"<f4", {2, 3, 10, 12}, "NCHW", kOther}),
         CV_ERROR_INVALID_ARGUMENT, "src dtype uint8 and dst dtype float32 differ"},
        {"channels differ", "cvReformat", reformat(kNhwc8, Spec{"|u1", {2, 4, 10, 12}, "NCHW", kOther}),
         CV_ERROR_INVALID_ARGUMENT, "differ in N, H, W or C"},
        {"layout NHW", "cvReformat", reformat(Spec{"|u1", {2, 10, 12}, "NHW"}, Spec{"|u1", {2, 10, 12}, "NHW", kOther}),
         CV_ERROR_INVALID_ARGUMENT, "src layout 'NHW' (shape (2, 10, 12)) is not one of"},
        {"dst readonly", "cvReformat", reformat(kNhwc8, Spec{"|u1", {2, 3, 10, 12}, "NCHW", kOther, {}, true}),
         CV_ERROR_INVALID_ARGUMENT, "dst is readonly"},
        {"in place across layouts", "cvReformat", reformat(kNhwc8, Spec{"|u1", {2, 3, 10, 12}, "NCHW", kFakeData}),
         CV_ERROR_INVALID_ARGUMENT, "overlap partially"},
    });
    Pool p;
    using Path = cv::ops::ReformatPlan::Path;
    struct PathRow {
        const char *name;
        Spec src, dst;
        Path path;
    };
    const PathRow rows[] = {
        {"NHWC -> NCHW packed", kNhwc8, {"|u1", {2, 3, 10, 12}, "NCHW", kOther}, Path::Transpose},
        {"NCHW -> NHWC packed", {"<f4", {2, 3, 10, 12}, "NCHW"}, {"<f4", {2, 10, 12, 3}, "NHWC", kOther}, Path::Transpose},
        {"HWC -> CHW packed", {"<f2", {10, 12, 3}, "HWC"}, {"<f2", {3, 10, 12}, "CHW", kOther}, Path::Transpose},
        {"pitched planes still transpose", {"|u1", {3, 10, 12}, "CHW", kFakeData, {256, 12, 1}}, {"|u1", {10, 12, 3}, "HWC", kOther},
         Path::Transpose},
        {"pitched interleaved rows: copy", {"|u1", {10, 12, 3}, "HWC", kFakeData, {64, 3, 1}}, {"|u1", {3, 10, 12}, "CHW", kOther},
         Path::Copy},
        {"negative src rows: copy", {"|u1", {10, 12, 3}, "HWC", kFakeData + 4096, {-36, 3, 1}}, {"|u1", {3, 10, 12}, "CHW", kOther},
         Path::Copy},
        {"equal layouts: copy", kNhwc8, {"|u1", {2, 10, 12, 3}, "NHWC", kOther}, Path::Copy},
        {"one channel: copy", {"|u1", {2, 10, 12, 1}, "NHWC"}, {"|u1", {2, 1, 10, 12}, "NCHW", kOther}, Path::Copy},
        {"onto itself: nothing", kNhwc8, kNhwc8, Path::Nothing},
    };
    for (const PathRow &r : rows) {
        INFO(r.name);
        const cv::ops::ReformatPlan plan = cv::ops::planReformat(p(r.src), p(r.dst));
        CHECK(plan.path == r.path);
        if (r.path == Path::Transpose) {
            CHECK(plan.transpose.pixels == 120);
            CHECK(plan.transpose.channels == 3);
        }
    }
}
