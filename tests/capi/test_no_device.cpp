// Behaviour without a usable CUDA device: everything that needs a device returns CV_ERROR_NO_DEVICE with a
// message; validation still comes first. On a GPU machine these tests skip in the plain run and run in the
// 'capi-no-device' run, which hides the GPUs (CUDA_VISIBLE_DEVICES=).
#include "cai.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <string>

using namespace cvtest;

#define CVTEST_REQUIRE_NO_DEVICE()                                                                                      \
    do {                                                                                                                \
        if (::cvtest::libraryHasDevice())                                                                               \
            SKIP("a CUDA device is visible; the 'capi-no-device' test run (CUDA_VISIBLE_DEVICES=) covers this");     \
    } while (0)

namespace {

void checkNoDevice(cvStatus status, const char *function) {
    INFO(function << ": " << lastError());
    CHECK(status == CV_ERROR_NO_DEVICE);
    CHECK(lastError().rfind(std::string(function) + ": no ", 0) == 0);
    CHECK(lastError().find("CUDA device") != std::string::npos);
}

} // namespace

TEST_CASE("without a device, streams cannot be created or adopted", "[nodevice]") {
    CVTEST_REQUIRE_NO_DEVICE();
    cvStream s = nullptr;
    checkNoDevice(cvStreamCreate(&s), "cvStreamCreate");
    CHECK(s == nullptr);
    checkNoDevice(cvStreamWrap(nullptr, &s), "cvStreamWrap");
    CHECK(s == nullptr);
    // Argument checks come before the device check.
    CHECK(cvStreamCreate(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamCreate: out is NULL");
    void *handle = &s;
    checkNoDevice(cvStreamCreateWithHandle(&handle, &s), "cvStreamCreateWithHandle");
    CHECK(s == nullptr);
    CHECK(handle == &s); // untouched on failure
    CHECK(cvStreamCreateWithHandle(nullptr, &s) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamCreateWithHandle: cudaStream is NULL");
    CHECK(cvStreamCreateWithHandle(&handle, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamCreateWithHandle: out is NULL");
}

TEST_CASE("without a device, cvTensorCreate validates, then reports no device", "[nodevice]") {
    CVTEST_REQUIRE_NO_DEVICE();
    const int64_t shape[] = {4, 5, 3};
    cvTensor t = nullptr;
    checkNoDevice(cvTensorCreate(3, shape, CV_DTYPE_UINT8, "HWC", &t), "cvTensorCreate");
    CHECK(t == nullptr);
    CHECK(cvTensorCreate(3, shape, CV_DTYPE_UINT8, "NHWC", &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("layout='NHWC'") != std::string::npos);
    CHECK(cvTensorCreate(3, shape, static_cast<cvDataType>(0), "HWC", &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorCreate: dtype=0 is not a cvDataType");
    CHECK(cvTensorCreate(3, nullptr, CV_DTYPE_UINT8, "HWC", &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorCreate: shape is NULL");
}

TEST_CASE("cvStreamWrap rejects cudaStreamPerThread, which names a different stream in each thread", "[capi]") {
    cvStream s = nullptr;
    CHECK(cvStreamWrap(reinterpret_cast<void *>(2), &s) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvStreamWrap: stream=2 (cudaStreamPerThread)") == 0);
    CHECK(s == nullptr);
}

TEST_CASE("cvTensorCreateOnStream needs a stream: without one it is an invalid argument, on any machine", "[capi]") {
    const int64_t shape[] = {4, 5, 3};
    cvTensor t = nullptr;
    CHECK(cvTensorCreateOnStream(nullptr, 3, shape, CV_DTYPE_UINT8, "HWC", &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorCreateOnStream: stream is NULL");
    CHECK(t == nullptr);
}

TEST_CASE("cvTensorCreateLike needs a stream: without one it is an invalid argument, on any machine", "[capi]") {
    cvArrayInterface cai = makeCai("|u1", {4, 5, 3});
    TensorRef like, t;
    REQUIRE(cvTensorWrap(&cai, "HWC", &like.t) == CV_SUCCESS);
    CHECK(cvTensorCreateLike(nullptr, like.t, &t.t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorCreateLike: stream is NULL");
    CHECK(t.t == nullptr);
}

TEST_CASE("cvStreamQuery needs a stream: NULL is an invalid argument, on any machine", "[capi]") {
    CHECK(cvStreamQuery(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamQuery: stream is NULL");
}

TEST_CASE("cvStreamQueryReusable needs a stream: NULL and a forged handle are invalid arguments, on any machine", "[capi]") {
    CHECK(cvStreamQueryReusable(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamQueryReusable: stream is NULL");
    CHECK(cvStreamQueryReusable(reinterpret_cast<cvStream>(uintptr_t{0x1000})) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("is not a valid handle") != std::string::npos);
}

TEST_CASE("cvStreamPeekReusable needs a stream: NULL and a forged handle are invalid arguments, on any machine", "[capi]") {
    CHECK(cvStreamPeekReusable(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamPeekReusable: stream is NULL");
    CHECK(cvStreamPeekReusable(reinterpret_cast<cvStream>(uintptr_t{0x1000})) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("is not a valid handle") != std::string::npos);
}

TEST_CASE("cvStreamWaitStream needs two streams: NULL is an invalid argument, on any machine", "[capi]") {
    CHECK(cvStreamWaitStream(nullptr, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamWaitStream: stream is NULL");
}

// Recording the producer event needs the device, so this one wrap fails without one.
TEST_CASE("without a device, wrapping with a real producer stream reports no device", "[nodevice]") {
    CVTEST_REQUIRE_NO_DEVICE();
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    setStream(cai, 0x1234);
    TensorRef t;
    checkNoDevice(cvTensorWrap(&cai, "HW", &t.t), "cvTensorWrap");
    CHECK(t.t == nullptr);
}

// cvFlip needs a cvStream, and no cvStream can exist without a device: it is refused as an invalid argument.
TEST_CASE("without a device, cvFlip has no stream to run on", "[nodevice]") {
    CVTEST_REQUIRE_NO_DEVICE();
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    TensorRef src, dst;
    REQUIRE(cvTensorWrap(&cai, "HW", &src.t) == CV_SUCCESS);
    cai.data += 4096;
    REQUIRE(cvTensorWrap(&cai, "HW", &dst.t) == CV_SUCCESS);
    CHECK(cvFlip(nullptr, src.t, dst.t, 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvFlip: stream is NULL");
}

TEST_CASE("without a device, wrap, export, queries and collection work", "[nodevice]") {
    CVTEST_REQUIRE_NO_DEVICE();
    cvArrayInterface cai = makeCai("<f4", {2, 3});
    cai.streamKind = CV_CAI_STREAM_NONE;
    TensorRef t;
    REQUIRE(cvTensorWrap(&cai, "HW", &t.t) == CV_SUCCESS);
    cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
    REQUIRE(cvTensorExport(t.t, &exported, nullptr) == CV_SUCCESS);
    CHECK(exported.data == cai.data);
    CHECK(infoOf(t.t).ndim == 2);
    CHECK(cvCollect() == CV_SUCCESS);
    CHECK(cvSyncAndCollect() == CV_SUCCESS);
    CHECK(cvStreamSync(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvStreamSync: stream is NULL");
    CHECK(cvGetVersion() == CVCUDA_C_VERSION_NUMBER);
}
