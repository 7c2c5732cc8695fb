// Handle identity: NULL, released, stale, foreign and mistyped handles are refused (CV_ERROR_INVALID_ARGUMENT)
// without the library reading memory through them, and a stale handle never releases the tensor now in its slot.
// One row per kind of bad handle; the ASan build runs these (scripts/sanitizers.sh), so a read of freed memory fails.
#include "busy.hpp"
#include "cai.hpp"
#include "gpu.hpp"

#include "../../capi/firewall.hpp"
#include "../../core/tensor.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <cstdint>
#include <functional>
#include <string>

using namespace cvtest;

namespace {

int64_t liveTensors() {
    cvStats stats = CV_STATS_INIT;
    REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
    return stats.liveTensors;
}

cvTensor wrapNew() {
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    cai.streamKind = CV_CAI_STREAM_NONE;
    cvTensor t = nullptr;
    REQUIRE(cvTensorWrap(&cai, "HW", &t) == CV_SUCCESS);
    return t;
}

// Every entry point taking a cvTensor refuses `t`, with a message naming the argument.
void requireRefused(cvTensor t) {
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    CHECK(cvTensorGetInfo(t, &info) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvTensorGetInfo: tensor=0x") == 0);
    CHECK(lastError().find("is not a valid handle of its type") != std::string::npos);
    cvArrayInterface out = CV_ARRAY_INTERFACE_INIT;
    CHECK(cvTensorExport(t, &out, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvTensorExport: tensor=0x") == 0);
    CHECK(cvTensorSetCleanup(t, [](void *) {}, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvTensorSetCleanup: tensor=0x") == 0);
    // Ignored, not applied to whatever object the value might once have named.
    const int64_t before = liveTensors();
    cvTensorRetain(t);
    cvTensorRelease(t);
    CHECK(liveTensors() == before);
}

struct BadHandleRow {
    const char *name;
    // Makes the bad handle; may leave a tensor in `keep` that must survive the row untouched.
    std::function<cvTensor(cvTensor &keep)> make;
};

} // namespace

TEST_CASE("bad tensor handles are refused without touching memory", "[handles]") {
    static cvTensorInfo notATensor{};
    const BadHandleRow rows[] = {
        {"released handle", [](cvTensor &) {
             cvTensor t = wrapNew();
             cvTensorRelease(t);
             return t;
         }},
        {"released twice (the second release is ignored)", [](cvTensor &) {
             cvTensor t = wrapNew();
             cvTensorRelease(t);
             cvTensorRelease(t);
             return t;
         }},
        {"stale handle whose slot now holds another tensor", [](cvTensor &keep) {
             cvTensor t = wrapNew();
             cvTensorRelease(t);
             keep = wrapNew(); // the freed slot is reused first
             return t;
         }},
        {"pointer to other memory", [](cvTensor &) { return reinterpret_cast<cvTensor>(&notATensor); }},
        {"small integer", [](cvTensor &) { return reinterpret_cast<cvTensor>(uintptr_t{1}); }},
        {"tensor tag, generation 0", [](cvTensor &) { return reinterpret_cast<cvTensor>(uintptr_t{0x5}); }},
        {"tensor tag, slot beyond the table", [](cvTensor &) {
             return reinterpret_cast<cvTensor>(uintptr_t{1} << 32 | uintptr_t{0x3fffffff} << 2 | 1);
         }},
        {"all bits set", [](cvTensor &) { return reinterpret_cast<cvTensor>(~uintptr_t{0}); }},
    };
    for (const auto &row : rows) {
        INFO(row.name);
        const int64_t before = liveTensors();
        cvTensor keep = nullptr;
        const cvTensor bad = row.make(keep);
        requireRefused(bad);
        if (keep != nullptr) {
            CHECK(liveTensors() == before + 1);
            CHECK(infoOf(keep).ndim == 2); // still alive and still itself
            cvTensorRelease(keep);
        }
        CHECK(liveTensors() == before);
    }
}

// The handle's references are counted apart from the library's own: releasing the last one invalidates the handle at
// once, although the tensor lives on for the library (here a reference taken through the C API's own lookup, as
// pending GPU work takes one; the GPU suites cover the real case).
TEST_CASE("a released handle is refused while the library still holds its tensor", "[handles]") {
    const int64_t before = liveTensors();
    cvTensor t = wrapNew();
    cvTensorRetain(t);
    cv::Ref<cv::Tensor> internal(&cv::capi::deref<cv::Tensor>(t, "tensor"));
    cvTensorRelease(t);
    CHECK(infoOf(t).ndim == 2); // one handle reference left
    cvTensorRelease(t);
    requireRefused(t);
    CHECK(liveTensors() == before + 1);
    CHECK(internal->desc().ndim == 2);
    internal = nullptr;
    CHECK(liveTensors() == before);
}

TEST_CASE("a tensor handle is not a stream handle", "[handles]") {
    cvTensor t = wrapNew();
    void *cudaStream = nullptr;
    CHECK(cvStreamGetHandle(reinterpret_cast<cvStream>(t), &cudaStream) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvStreamGetHandle: stream=0x") == 0);
    CHECK(cvStreamSync(reinterpret_cast<cvStream>(t)) == CV_ERROR_INVALID_ARGUMENT);
    const int64_t before = liveTensors();
    cvStreamRelease(reinterpret_cast<cvStream>(t)); // ignored: not a stream
    CHECK(liveTensors() == before);
    CHECK(infoOf(t).ndim == 2);
    cvTensorRelease(t);
}

TEST_CASE("handle values are not reused after release", "[handles]") {
    cvTensor first = wrapNew();
    cvTensorRelease(first);
    for (int i = 0; i < 100; ++i) {
        cvTensor again = wrapNew();
        CHECK(again != first);
        cvTensorRelease(again);
    }
}

// The real case of internal references: GPU work still queued. The spin kernel holds the stream, so the flip, and with
// it the library's references to both tensors and the stream, stay pending while the handles are released.
TEST_CASE("handles released with GPU work pending are refused at once", "[handles][gpu]") {
    CVTEST_REQUIRE_GPU();
    cvStats stats = CV_STATS_INIT;
    REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
    const int64_t tensorsBefore = stats.liveTensors, streamsBefore = stats.liveStreams;
    cvStream stream = nullptr;
    REQUIRE(cvStreamCreate(&stream) == CV_SUCCESS);
    void *cudaStream = nullptr;
    REQUIRE(cvStreamGetHandle(stream, &cudaStream) == CV_SUCCESS);
    const int64_t shape[] = {64, 48, 3};
    cvTensor src = nullptr, dst = nullptr;
    REQUIRE(cvTensorCreateOnStream(stream, 3, shape, CV_DTYPE_UINT8, "HWC", &src) == CV_SUCCESS);
    REQUIRE(cvTensorCreateOnStream(stream, 3, shape, CV_DTYPE_UINT8, "HWC", &dst) == CV_SUCCESS);
    CVTEST_CUDA(cvtest::launchSpin(static_cast<cudaStream_t>(cudaStream), 300'000'000)); // 0.3 s
    REQUIRE(cvFlip(stream, src, dst, 1) == CV_SUCCESS);
    cvTensorRelease(src);
    cvTensorRelease(dst);
    cvStreamRelease(stream);
    requireRefused(src);
    requireRefused(dst);
    CHECK(cvStreamGetHandle(stream, &cudaStream) == CV_ERROR_INVALID_ARGUMENT);
    REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
    CHECK(stats.liveTensors == tensorsBefore + 2); // kept for the pending flip
    CHECK(stats.liveStreams >= streamsBefore + 1);
    REQUIRE(cvSyncAndCollect() == CV_SUCCESS);
    REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
    CHECK(stats.liveTensors == tensorsBefore);
}
