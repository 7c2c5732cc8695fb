// cvTensorWrapDLPack's validation table (no GPU: validation comes before the producer stream is used) and its
// ownership rule: on failure the caller keeps the managed tensor, so its deleter is not called.
#include "cai.hpp"

#include <cvcuda/cvcuda.h>

#include <catch2/catch_test_macros.hpp>

#include <string>
#include <vector>

using namespace cvtest;

namespace {

int gDeleterCalls = 0;
void countingDeleter(DLManagedTensorVersioned *) { ++gDeleterCalls; }

// A managed tensor over fake device memory: shape/strides live in the struct, strides in ELEMENTS (DLPack).
struct Managed {
    int64_t shape[CV_MAX_DIMS + 1] = {2, 3, 4};
    int64_t strides[CV_MAX_DIMS + 1] = {12, 4, 1};
    DLManagedTensorVersioned m{};
    Managed() {
        m.version = {1, 1};
        m.deleter = countingDeleter;
        m.dl_tensor.data = reinterpret_cast<void *>(kFakeData);
        m.dl_tensor.device = {kDLCUDA, 0};
        m.dl_tensor.ndim = 3;
        m.dl_tensor.dtype = {kDLUInt, 8, 1};
        m.dl_tensor.shape = shape;
        m.dl_tensor.strides = strides;
    }
    Managed(const Managed &) = delete;
};

struct Row {
    const char *name;
    void (*edit)(Managed &);
    cvStatus status;
    const char *needle; // part of the message: field and rule
};

const std::vector<Row> &rows() {
    static const std::vector<Row> table = {
        {"major version 2", [](Managed &x) { x.m.version = {2, 0}; }, CV_ERROR_INVALID_ARGUMENT, "another major version"},
        {"host memory", [](Managed &x) { x.m.dl_tensor.device = {kDLCPU, 0}; }, CV_ERROR_INVALID_ARGUMENT, "kDLCPU, host memory"},
        {"pinned host memory", [](Managed &x) { x.m.dl_tensor.device = {kDLCUDAHost, 0}; }, CV_ERROR_INVALID_ARGUMENT, "device_type=3"},
        {"vector type", [](Managed &x) { x.m.dl_tensor.dtype = {kDLUInt, 8, 4}; }, CV_ERROR_NOT_SUPPORTED, "lanes=4"},
        {"float8", [](Managed &x) { x.m.dl_tensor.dtype = {kDLFloat8_e4m3fn, 8, 1}; }, CV_ERROR_NOT_SUPPORTED, "code 10, bits 8"},
        {"int 24 bits", [](Managed &x) { x.m.dl_tensor.dtype = {kDLInt, 24, 1}; }, CV_ERROR_NOT_SUPPORTED, "bits 24"},
        {"ndim 9", [](Managed &x) { x.m.dl_tensor.ndim = 9; }, CV_ERROR_INVALID_ARGUMENT, "ndim=9"},
        {"ndim -1", [](Managed &x) { x.m.dl_tensor.ndim = -1; }, CV_ERROR_INVALID_ARGUMENT, "ndim=-1"},
        {"shape NULL", [](Managed &x) { x.m.dl_tensor.shape = nullptr; }, CV_ERROR_INVALID_ARGUMENT, "shape is NULL"},
        {"negative extent", [](Managed &x) { x.shape[1] = -3; }, CV_ERROR_INVALID_ARGUMENT, "shape[1]=-3"},
        {"stride overflows bytes",
         [](Managed &x) {
             x.m.dl_tensor.dtype = {kDLFloat, 32, 1};
             x.strides[0] = INT64_MAX / 2;
         },
         CV_ERROR_INVALID_ARGUMENT, "strides[0]"},
        {"misaligned byte_offset",
         [](Managed &x) {
             x.m.dl_tensor.dtype = {kDLFloat, 32, 1};
             x.m.dl_tensor.byte_offset = 2;
         },
         CV_ERROR_INVALID_ARGUMENT, "not aligned to itemsize 4"},
        {"data NULL with elements", [](Managed &x) { x.m.dl_tensor.data = nullptr; }, CV_ERROR_INVALID_ARGUMENT, "data=0"},
        // Valid tensors reach the producer check, which comes last.
        {"valid, contiguous (strides NULL)", [](Managed &x) { x.m.dl_tensor.strides = nullptr; }, CV_ERROR_INVALID_ARGUMENT, "producer is NULL"},
        {"valid bfloat16", [](Managed &x) { x.m.dl_tensor.dtype = {kDLBfloat, 16, 1}; }, CV_ERROR_INVALID_ARGUMENT, "producer is NULL"},
        {"valid complex128", [](Managed &x) { x.m.dl_tensor.dtype = {kDLComplex, 128, 1}; }, CV_ERROR_INVALID_ARGUMENT, "producer is NULL"},
        {"valid managed memory", [](Managed &x) { x.m.dl_tensor.device = {kDLCUDAManaged, 0}; }, CV_ERROR_INVALID_ARGUMENT, "producer is NULL"},
        {"valid, empty with data NULL",
         [](Managed &x) {
             x.shape[0] = 0;
             x.m.dl_tensor.data = nullptr;
         },
         CV_ERROR_INVALID_ARGUMENT, "producer is NULL"},
    };
    return table;
}

} // namespace

TEST_CASE("cvTensorWrapDLPack validation table, without a GPU; the caller keeps ownership on failure", "[dlpack][wrap]") {
    for (const Row &row : rows()) {
        INFO("row: " << row.name);
        Managed x;
        row.edit(x);
        gDeleterCalls = 0;
        cvTensor t = nullptr;
        const cvStatus status = cvTensorWrapDLPack(&x.m, "NHW", nullptr, &t);
        const std::string message = lastError();
        INFO("status: " << cvStatusName(status) << ", message: " << message);
        CHECK(status == row.status);
        CHECK(t == nullptr);
        CHECK(message.rfind("cvTensorWrapDLPack: ", 0) == 0);
        CHECK(message.find(row.needle) != std::string::npos);
        CHECK(gDeleterCalls == 0);
    }
}

TEST_CASE("cvTensorWrapDLPack and cvTensorExportDLPack reject NULL arguments", "[dlpack]") {
    cvTensor t = nullptr;
    CHECK(cvTensorWrapDLPack(nullptr, nullptr, nullptr, &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorWrapDLPack: managed is NULL");
    Managed x;
    CHECK(cvTensorWrapDLPack(&x.m, nullptr, nullptr, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorWrapDLPack: out is NULL");
    CHECK(cvTensorWrapDLPack(&x.m, "NHWC", nullptr, &t) == CV_ERROR_INVALID_ARGUMENT); // 4 labels, 3 dimensions
    CHECK(lastError().find("layout='NHWC'") != std::string::npos);

    DLManagedTensorVersioned *out = reinterpret_cast<DLManagedTensorVersioned *>(&x);
    CHECK(cvTensorExportDLPack(nullptr, nullptr, 0, &out) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(out == nullptr);
    CHECK(lastError() == "cvTensorExportDLPack: tensor is NULL");
    CHECK(cvTensorExportDLPack(nullptr, nullptr, 0, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorExportDLPack: out is NULL");
    CHECK(cvTensorAddConsumer(nullptr, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    int32_t device = 0;
    CHECK(cvTensorGetDevice(nullptr, &device) == CV_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("cvTensorExportDLPack: unknown flags and a missing consumer are rejected before any GPU call", "[dlpack]") {
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    cai.streamKind = CV_CAI_STREAM_NONE;
    cvTensor t = nullptr;
    REQUIRE(cvTensorWrap(&cai, "HW", &t) == CV_SUCCESS);
    DLManagedTensorVersioned *out = nullptr;
    CHECK(cvTensorExportDLPack(t, nullptr, 8, &out) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("flags=0x8") != std::string::npos);
    CHECK(cvTensorExportDLPack(t, nullptr, CV_DLPACK_EXPORT_DEFAULT, &out) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("consumer is NULL") != std::string::npos);
    CHECK(cvTensorExportDLPack(t, nullptr, CV_DLPACK_EXPORT_NO_SYNC | CV_DLPACK_EXPORT_COPY, &out) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(out == nullptr);
    cvTensorRelease(t);
}
