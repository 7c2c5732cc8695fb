// Tensor lifecycle without a GPU: references, Release(NULL), cleanup callbacks, queries, export round trip.
#include "cai.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <cstring>
#include <utility>
#include <string>

using namespace cvtest;

namespace {

struct CleanupLog {
    int calls = 0;
};

void countCleanup(void *userData) { ++static_cast<CleanupLog *>(userData)->calls; }

int64_t liveTensors() {
    cvStats stats = CV_STATS_INIT;
    REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
    return stats.liveTensors;
}

} // namespace

TEST_CASE("Retain and Release of NULL are no-ops", "[lifecycle]") {
    const int64_t before = liveTensors();
    cvTensorRetain(nullptr);
    cvTensorRelease(nullptr);
    cvStreamRetain(nullptr);
    cvStreamRelease(nullptr);
    CHECK(liveTensors() == before);
}

TEST_CASE("a wrapped tensor lives until its last reference is released", "[lifecycle]") {
    const int64_t before = liveTensors();
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    cvTensor t = nullptr;
    REQUIRE(cvTensorWrap(&cai, "HW", &t) == CV_SUCCESS);
    CHECK(liveTensors() == before + 1);
    cvTensorRetain(t);
    cvTensorRelease(t);
    CHECK(liveTensors() == before + 1);
    CHECK(infoOf(t).ndim == 2);
    cvTensorRelease(t);
    CHECK(liveTensors() == before);
}

// A wrapped tensor never used on a GPU has no pending work: its cleanup runs inside the last cvTensorRelease.
TEST_CASE("cleanup callback of a tensor never used on the GPU runs once, at the last release", "[lifecycle]") {
    const struct {
        const char *name;
        cvArrayInterface cai;
    } rows[] = {
        {"non-empty, producer unknown", makeCai("<f4", {2, 3})},
        {"non-empty, producer ready", [] {
             cvArrayInterface c = makeCai("<f4", {2, 3});
             c.streamKind = CV_CAI_STREAM_NONE;
             return c;
         }()},
        {"empty", makeCai("<f4", {0, 3}, 0)},
        {"0-d", makeCai("<f4", {})},
    };
    for (const auto &row : rows) {
        INFO(row.name);
        CleanupLog log;
        cvTensor t = nullptr;
        REQUIRE(cvTensorWrap(&row.cai, nullptr, &t) == CV_SUCCESS);
        REQUIRE(cvTensorSetCleanup(t, countCleanup, &log) == CV_SUCCESS);
        cvTensorRetain(t);
        cvTensorRelease(t);
        CHECK(log.calls == 0);
        cvTensorRelease(t);
        CHECK(log.calls == 1);
        REQUIRE(cvCollect() == CV_SUCCESS);
        REQUIRE(cvSyncAndCollect() == CV_SUCCESS);
        CHECK(log.calls == 1);
    }
}

// include/cvcuda/tensor.h and docs/threading.md: the callback runs with no library lock held and may call back in.
TEST_CASE("a cleanup callback may call back into the library", "[lifecycle]") {
    struct Chain {
        cvTensor next = nullptr; // released by the callback, whose own callback then runs
        int calls = 0;
        int64_t infoNdim = -1;
        cvStatus wrapStatus = CV_ERROR_INTERNAL;
    };
    static constexpr auto reenter = [](void *userData) {
        auto *chain = static_cast<Chain *>(userData);
        ++chain->calls;
        cvArrayInterface cai = makeCai("|u1", {3});
        cvTensor fresh = nullptr;
        chain->wrapStatus = cvTensorWrap(&cai, "W", &fresh);
        cvTensorInfo info = CV_TENSOR_INFO_INIT;
        if (cvTensorGetInfo(fresh, &info) == CV_SUCCESS) chain->infoNdim = info.ndim;
        cvTensorRelease(fresh);
        cvTensorRelease(std::exchange(chain->next, nullptr));
    };
    const int64_t before = liveTensors();
    Chain first, second;
    cvArrayInterface cai = makeCai("|u1", {4});
    cvTensor a = nullptr, b = nullptr;
    REQUIRE(cvTensorWrap(&cai, "W", &a) == CV_SUCCESS);
    REQUIRE(cvTensorWrap(&cai, "W", &b) == CV_SUCCESS);
    first.next = b;
    REQUIRE(cvTensorSetCleanup(a, reenter, &first) == CV_SUCCESS);
    REQUIRE(cvTensorSetCleanup(b, reenter, &second) == CV_SUCCESS);
    cvTensorRelease(a);
    CHECK(first.calls == 1);
    CHECK(second.calls == 1);
    CHECK(first.wrapStatus == CV_SUCCESS);
    CHECK(second.wrapStatus == CV_SUCCESS);
    CHECK(first.infoNdim == 1);
    CHECK(liveTensors() == before);
}

TEST_CASE("cvTensorSetCleanup errors", "[lifecycle]") {
    CleanupLog log;
    CHECK(cvTensorSetCleanup(nullptr, countCleanup, &log) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorSetCleanup: tensor is NULL");
    TensorRef t;
    cvArrayInterface cai = makeCai("|u1", {4});
    REQUIRE(cvTensorWrap(&cai, "W", &t.t) == CV_SUCCESS);
    CHECK(cvTensorSetCleanup(t.t, nullptr, &log) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorSetCleanup: fn is NULL");
    REQUIRE(cvTensorSetCleanup(t.t, countCleanup, &log) == CV_SUCCESS);
    CHECK(cvTensorSetCleanup(t.t, countCleanup, &log) == CV_ERROR_INVALID_STATE);
    CHECK(lastError() == "cvTensorSetCleanup: the tensor already has a cleanup callback");
}

TEST_CASE("cvTensorGetInfo describes a wrapped tensor", "[lifecycle][info]") {
    cvArrayInterface cai = makeCai("<V2", {2, 4, 5, 3});
    cai.dtype = CV_DTYPE_BFLOAT16;
    cai.readonly = 1;
    TensorRef t;
    REQUIRE(cvTensorWrap(&cai, "NHWC", &t.t) == CV_SUCCESS);
    const cvTensorInfo info = infoOf(t.t);
    CHECK(info.ndim == 4);
    const int64_t shape[] = {2, 4, 5, 3}, strides[] = {120, 30, 6, 2};
    for (int i = 0; i < 4; ++i) {
        CHECK(info.shape[i] == shape[i]);
        CHECK(info.strides[i] == strides[i]);
    }
    for (int i = 4; i < CV_MAX_DIMS; ++i) {
        CHECK(info.shape[i] == 0);
        CHECK(info.strides[i] == 0);
    }
    CHECK(info.data == kFakeData);
    CHECK(info.dtype == CV_DTYPE_BFLOAT16);
    CHECK(info.readonly == 1);
    CHECK(info.ownsMemory == 0);
    CHECK(std::string(info.layout) == "NHWC");
}

TEST_CASE("cvTensorGetInfo and cvTensorExport errors", "[lifecycle][info]") {
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    CHECK(cvTensorGetInfo(nullptr, &info) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorGetInfo: tensor is NULL");
    TensorRef t;
    cvArrayInterface cai = makeCai("|u1", {4});
    REQUIRE(cvTensorWrap(&cai, "W", &t.t) == CV_SUCCESS);
    CHECK(cvTensorGetInfo(t.t, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorGetInfo: out is NULL");
    info.structSize = 16;
    CHECK(cvTensorGetInfo(t.t, &info) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("out->structSize=16 is smaller than " + std::to_string(sizeof(cvTensorInfo))) != std::string::npos);

    cvArrayInterface out = CV_ARRAY_INTERFACE_INIT;
    CHECK(cvTensorExport(nullptr, &out, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorExport: tensor is NULL");
    CHECK(cvTensorExport(t.t, nullptr, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorExport: out is NULL");
    out.structSize = 4;
    CHECK(cvTensorExport(t.t, &out, nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("out->structSize=4") != std::string::npos);

    // A handle of another type is refused, not misread.
    cvTensorInfo *notATensor = &info;
    std::memset(notATensor, 0, sizeof(info));
    CHECK(cvTensorGetInfo(reinterpret_cast<cvTensor>(notATensor), &info) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("cvTensorGetInfo: tensor=0x") == 0);
    CHECK(lastError().find("is not a valid handle of its type") != std::string::npos);
}

namespace {

// Producer declared ready: exporting it needs no device (an unknown producer is synchronised at export, a GPU use).
cvArrayInterface ready(cvArrayInterface cai) {
    cai.streamKind = CV_CAI_STREAM_NONE;
    return cai;
}

} // namespace

// Export then wrap must describe the same tensor (the cvcuda -> cvcuda chain of the seed).
TEST_CASE("cvTensorExport round trip", "[lifecycle][export]") {
    const struct {
        const char *name;
        cvArrayInterface cai;
        const char *layout;
    } rows[] = {
        {"contiguous uint8 HWC", ready(makeCai("|u1", {4, 5, 3})), "HWC"},
        {"pitched float32", [] {
             cvArrayInterface c = makeCai("<f4", {3, 5});
             setStrides(c, {64, 4});
             return ready(c);
         }(), "HW"},
        {"reversed rows (negative stride)", [] {
             cvArrayInterface c = makeCai("<i2", {3, 5});
             setStrides(c, {-10, 2});
             return ready(c);
         }(), "HW"},
        {"bfloat16 readonly, stream -1", [] {
             cvArrayInterface c = makeCai("<V2", {2, 2, 2, 2});
             c.dtype = CV_DTYPE_BFLOAT16;
             c.readonly = 1;
             setStream(c, -1);
             return c;
         }(), "NCHW"},
        {"empty", makeCai("<f8", {0, 7}, 0), "HW"},
        {"0-d", ready(makeCai("<u8", {})), nullptr},
    };
    for (const auto &row : rows) {
        INFO(row.name);
        TensorRef original;
        REQUIRE(cvTensorWrap(&row.cai, row.layout, &original.t) == CV_SUCCESS);
        cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
        cvStream writer = reinterpret_cast<cvStream>(&exported); // must be overwritten
        REQUIRE(cvTensorExport(original.t, &exported, &writer) == CV_SUCCESS);
        CHECK(exported.structSize == sizeof(cvArrayInterface));
        CHECK(exported.version == 3);
        CHECK(exported.hasStrides == 1);
        CHECK(exported.streamKind == CV_CAI_STREAM_NONE); // nothing pending: never used on a GPU
        CHECK(writer == nullptr);
        CHECK(exported.reserved0 == 0);

        TensorRef again;
        REQUIRE(cvTensorWrap(&exported, row.layout, &again.t) == CV_SUCCESS);
        const cvTensorInfo a = infoOf(original.t), b = infoOf(again.t);
        CHECK(std::memcmp(&a, &b, sizeof(a)) == 0);
        CHECK(std::string(exported.typestr) == cvDataTypeTypestr(a.dtype));
        CHECK(exported.dtype == a.dtype);
    }
}

TEST_CASE("cvGetStats counts live tensors and rejects a short struct", "[lifecycle][stats]") {
    cvStats stats = CV_STATS_INIT;
    CHECK(cvGetStats(nullptr) == CV_ERROR_INVALID_ARGUMENT);
    stats.structSize = 8;
    CHECK(cvGetStats(&stats) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().find("out->structSize=8") != std::string::npos);
    const int64_t before = liveTensors();
    {
        TensorRef a, b;
        cvArrayInterface cai = makeCai("|u1", {4});
        REQUIRE(cvTensorWrap(&cai, nullptr, &a.t) == CV_SUCCESS);
        REQUIRE(cvTensorWrap(&cai, nullptr, &b.t) == CV_SUCCESS);
        CHECK(liveTensors() == before + 2);
    }
    CHECK(liveTensors() == before);
}

TEST_CASE("dtype table: typestr, name and item size of every cvDataType", "[types]") {
    const struct {
        cvDataType dtype;
        const char *typestr;
        const char *name;
        int32_t itemSize;
    } table[] = {
        {CV_DTYPE_BOOL, "|b1", "bool", 1},          {CV_DTYPE_UINT8, "|u1", "uint8", 1},
        {CV_DTYPE_INT8, "|i1", "int8", 1},          {CV_DTYPE_UINT16, "<u2", "uint16", 2},
        {CV_DTYPE_INT16, "<i2", "int16", 2},        {CV_DTYPE_UINT32, "<u4", "uint32", 4},
        {CV_DTYPE_INT32, "<i4", "int32", 4},        {CV_DTYPE_UINT64, "<u8", "uint64", 8},
        {CV_DTYPE_INT64, "<i8", "int64", 8},        {CV_DTYPE_FLOAT16, "<f2", "float16", 2},
        {CV_DTYPE_BFLOAT16, "<V2", "bfloat16", 2},  {CV_DTYPE_FLOAT32, "<f4", "float32", 4},
        {CV_DTYPE_FLOAT64, "<f8", "float64", 8},    {CV_DTYPE_COMPLEX64, "<c8", "complex64", 8},
        {CV_DTYPE_COMPLEX128, "<c16", "complex128", 16}, {CV_DTYPE_UNSPECIFIED, "", "unspecified", 0},
        {static_cast<cvDataType>(16), "", "unspecified", 0},
    };
    for (const auto &row : table) {
        INFO(row.name);
        CHECK(std::string(cvDataTypeTypestr(row.dtype)) == row.typestr);
        CHECK(std::string(cvDataTypeName(row.dtype)) == row.name);
        CHECK(cvDataTypeItemSize(row.dtype) == row.itemSize);
        if (row.itemSize == 0) continue;
        cvDataType parsed = CV_DTYPE_FORCE_32BIT;
        REQUIRE(cvDataTypeFromTypestr(row.typestr, &parsed) == CV_SUCCESS);
        // "<V2" is opaque: the caller must name bfloat16.
        CHECK(parsed == (row.dtype == CV_DTYPE_BFLOAT16 ? CV_DTYPE_UNSPECIFIED : row.dtype));
    }
    cvDataType parsed = CV_DTYPE_UNSPECIFIED;
    CHECK(cvDataTypeFromTypestr(nullptr, &parsed) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvDataTypeFromTypestr: typestr is NULL");
    CHECK(cvDataTypeFromTypestr("|u1", nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvDataTypeFromTypestr: out is NULL");
}
