// What the operators' CPU validation tables share: fake-memory tensors (wrapping makes no GPU call) and one check
// that runs an operator's plan function (validation and planning, no CUDA call) as its C entry point would, and
// compares the status and the message with a row's expectation.
#pragma once

#include "cai.hpp"

#include "../../capi/firewall.hpp"
#include "../../core/error.hpp"
#include "../../core/tensor.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace cvtest {

// A tensor description for a table row: typestr, shape, layout, optional byte strides, data offset, readonly.
struct Spec {
    const char *typestr;
    std::vector<int64_t> shape;
    const char *layout;
    std::vector<int64_t> strides = {};
    uint64_t offset = 0;
    bool readonly = false;
};

inline cv::Tensor &wrapSpec(TensorRef &ref, const Spec &s) {
    cvArrayInterface cai = makeCai(s.typestr, {}, kFakeData + s.offset);
    cai.ndim = static_cast<int32_t>(s.shape.size());
    for (size_t i = 0; i < s.shape.size(); ++i) cai.shape[i] = s.shape[i];
    if (!s.strides.empty()) {
        cai.hasStrides = 1;
        for (size_t i = 0; i < s.strides.size(); ++i) cai.strides[i] = s.strides[i];
    }
    cai.readonly = s.readonly;
    cai.streamKind = CV_CAI_STREAM_NONE; // ready: nothing to settle at first use
    REQUIRE(cvTensorWrap(&cai, s.layout, &ref.t) == CV_SUCCESS);
    return cv::capi::deref<cv::Tensor>(ref.t, "tensor"); // handles are not pointers (capi/handle_table.hpp)
}

// Runs `plan` under the name of C function `function`; returns the status and leaves the message in `message`.
template <class F> cvStatus runPlan(const char *function, F &&plan, std::string &message) {
    cv::detail::setCurrentFunction(function);
    try {
        plan();
        return CV_SUCCESS;
    } catch (const cv::Error &e) {
        message = e.what();
        return e.status();
    }
}

// A rejection's message starts with the function and contains every one of `parts` (argument, value, rule).
inline void checkMessage(const std::string &message, const char *function, const std::vector<const char *> &parts) {
    INFO("message: " << message);
    CHECK(message.rfind(std::string(function) + ": ", 0) == 0);
    for (const char *part : parts) CHECK(message.find(part) != std::string::npos);
}

} // namespace cvtest
