// cvTensorWrap validation, one row per case: every row asserts the exact status; a rejection's message must
// name the field, the offending value and the rule; an accepted row's description is checked through cvTensorGetInfo.
#include "cai.hpp"
#include "gpu.hpp"
#include "raw_enums.h"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace cvtest;

namespace {

struct WrapRow {
    const char *name;
    cvArrayInterface cai;
    const char *layout;
    cvStatus status;
    // Rejections: substrings the message must contain.
    const char *field;
    const char *value;
    const char *rule;
    // Acceptances: expected dtype, and byte strides when given.
    cvDataType dtype;
    std::vector<int64_t> strides;
};

cvArrayInterface edited(cvArrayInterface cai, const std::function<void(cvArrayInterface &)> &edit) {
    edit(cai);
    return cai;
}

WrapRow accept(const char *name, cvArrayInterface cai, const char *layout, cvDataType dtype, std::vector<int64_t> strides = {}) {
    return {name, cai, layout, CV_SUCCESS, nullptr, nullptr, nullptr, dtype, std::move(strides)};
}

WrapRow reject(const char *name, cvArrayInterface cai, const char *layout, cvStatus status, const char *field,
               const char *value, const char *rule) {
    return {name, cai, layout, status, field, value, rule, CV_DTYPE_UNSPECIFIED, {}};
}

const std::vector<WrapRow> &rows() {
    constexpr cvStatus kInvalid = CV_ERROR_INVALID_ARGUMENT;
    constexpr cvStatus kUnsupported = CV_ERROR_NOT_SUPPORTED;
    static const std::vector<WrapRow> table = {
        // typestrs (numpy notation; this library is little-endian)
        accept("typestr |u1", makeCai("|u1", {2, 3}), "HW", CV_DTYPE_UINT8, {3, 1}),
        accept("typestr |i1", makeCai("|i1", {2, 3}), "HW", CV_DTYPE_INT8),
        accept("typestr <u2", makeCai("<u2", {2, 3}), "HW", CV_DTYPE_UINT16, {6, 2}),
        accept("typestr <i2", makeCai("<i2", {2, 3}), "HW", CV_DTYPE_INT16),
        accept("typestr <u4", makeCai("<u4", {2, 3}), "HW", CV_DTYPE_UINT32),
        accept("typestr <i4", makeCai("<i4", {2, 3}), "HW", CV_DTYPE_INT32),
        accept("typestr <u8", makeCai("<u8", {2, 3}), "HW", CV_DTYPE_UINT64, {24, 8}),
        accept("typestr <i8", makeCai("<i8", {2, 3}), "HW", CV_DTYPE_INT64),
        accept("typestr <f2", makeCai("<f2", {2, 3}), "HW", CV_DTYPE_FLOAT16),
        accept("typestr <f4", makeCai("<f4", {2, 3}), "HW", CV_DTYPE_FLOAT32, {12, 4}),
        accept("typestr <f8", makeCai("<f8", {2, 3}), "HW", CV_DTYPE_FLOAT64),
        accept("typestr |b1", makeCai("|b1", {2, 3}), "HW", CV_DTYPE_BOOL),
        accept("typestr <c8", makeCai("<c8", {2, 3}), "HW", CV_DTYPE_COMPLEX64, {24, 8}),
        accept("typestr <c16", makeCai("<c16", {2, 3}), "HW", CV_DTYPE_COMPLEX128, {48, 16}),
        accept("typestr =f4 (native order)", makeCai("=f4", {2, 3}), "HW", CV_DTYPE_FLOAT32),
        accept("typestr <V2 with dtype bfloat16", edited(makeCai("<V2", {2, 3}), [](auto &c) { c.dtype = CV_DTYPE_BFLOAT16; }),
               "HW", CV_DTYPE_BFLOAT16, {6, 2}),
        accept("typestr <f4 with the same dtype", edited(makeCai("<f4", {2, 3}), [](auto &c) { c.dtype = CV_DTYPE_FLOAT32; }),
               "HW", CV_DTYPE_FLOAT32),
        reject("typestr >f4 (big-endian)", makeCai(">f4", {2, 3}), "HW", kInvalid, "typestr", "'>f4'", "big-endian"),
        reject("typestr >u2 (big-endian)", makeCai(">u2", {2, 3}), "HW", kInvalid, "typestr", "'>u2'", "big-endian"),
        reject("typestr |i (sizeless)", makeCai("|i", {2, 3}), "HW", kInvalid, "typestr", "'|i'", "sizeless"),
        reject("typestr |i0 (size 0)", makeCai("|i0", {2, 3}), "HW", kInvalid, "typestr", "'|i0'", "sizeless"),
        reject("typestr |V3 (opaque)", makeCai("|V3", {2, 3}), "HW", kUnsupported, "typestr", "'|V3'", "opaque"),
        reject("typestr <x4 (unknown kind)", makeCai("<x4", {2, 3}), "HW", kInvalid, "typestr", "'<x4'", "unknown kind"),
        reject("typestr empty", makeCai("", {2, 3}), "HW", kInvalid, "typestr", "''", "malformed"),
        reject("typestr u1 (no byte order)", makeCai("u1", {2, 3}), "HW", kInvalid, "typestr", "'u1'", "byte order"),
        reject("typestr <f4x (malformed size)", makeCai("<f4x", {2, 3}), "HW", kInvalid, "typestr", "'<f4x'", "malformed"),
        reject("typestr <f3 (no such float)", makeCai("<f3", {2, 3}), "HW", kInvalid, "typestr", "'<f3'", "no supported type"),
        reject("typestr <V2 without dtype", makeCai("<V2", {2, 3}), "HW", kInvalid, "typestr", "'<V2'", "set dtype"),
        reject("typestr <c32 (complex of 32 bytes)", makeCai("<c32", {2, 3}), "HW", kUnsupported, "typestr", "'<c32'", "complex type of an unsupported size"),
        reject("typestr <M8 (datetime)", makeCai("<M8", {2, 3}), "HW", kUnsupported, "typestr", "'<M8'", "unsupported"),
        reject("typestr not NUL-terminated", edited(makeCai("", {2, 3}), [](auto &c) { std::memset(c.typestr, 'u', sizeof(c.typestr)); }),
               "HW", kInvalid, "typestr", "16 bytes", "NUL-terminated"),
        reject("dtype contradicts typestr", edited(makeCai("<f2", {2, 3}), [](auto &c) { c.dtype = CV_DTYPE_BFLOAT16; }), "HW",
               kInvalid, "dtype", "bfloat16", "contradicts typestr='<f2'"),
        reject("dtype item size differs from typestr's", edited(makeCai("<V2", {2, 3}), [](auto &c) { c.dtype = CV_DTYPE_FLOAT32; }),
               "HW", kInvalid, "dtype", "float32", "itemsize 4"),
        reject("dtype not in the enum", edited(makeCai("<V2", {2, 3}), [](auto &c) { c.dtype = static_cast<cvDataType>(99); }),
               "HW", kInvalid, "dtype", "99", "not a cvDataType"),

        // strides (bytes)
        accept("strides absent: C-contiguous", makeCai("<f4", {2, 3, 4}), "HWC", CV_DTYPE_FLOAT32, {48, 16, 4}),
        accept("strides explicit and packed", edited(makeCai("<f4", {2, 3}), [](auto &c) { setStrides(c, {12, 4}); }), "HW",
               CV_DTYPE_FLOAT32, {12, 4}),
        accept("strides of pitched rows", edited(makeCai("|u1", {4, 3, 3}), [](auto &c) { setStrides(c, {512, 3, 1}); }), "HWC",
               CV_DTYPE_UINT8, {512, 3, 1}),
        accept("strides of an NHWC view of an NCHW tensor",
               edited(makeCai("<f4", {2, 4, 5, 3}), [](auto &c) { setStrides(c, {240, 20, 4, 80}); }), "NHWC", CV_DTYPE_FLOAT32,
               {240, 20, 4, 80}),
        accept("strides of size-1 dimensions are arbitrary",
               edited(makeCai("<u2", {1, 3, 1}), [](auto &c) { setStrides(c, {7, 2, -123457}); }), "HWC", CV_DTYPE_UINT16,
               {7, 2, -123457}),
        accept("strides negative (the extent starts before data)",
               edited(makeCai("|u1", {2, 3}), [](auto &c) { setStrides(c, {-3, -1}); }), "HW", CV_DTYPE_UINT8, {-3, -1}),
        accept("strides zero (broadcast)", edited(makeCai("<f4", {4, 3}), [](auto &c) { setStrides(c, {0, 4}); }), "HW",
               CV_DTYPE_FLOAT32, {0, 4}),
        reject("stride not a multiple of the item size", edited(makeCai("<f4", {2, 3}), [](auto &c) { setStrides(c, {12, 6}); }),
               "HW", kInvalid, "strides[1]", "=6", "not a multiple of itemsize 4"),
        reject("negative stride not a multiple of the item size",
               edited(makeCai("<f8", {2, 3}), [](auto &c) { setStrides(c, {-20, 8}); }), "HW", kInvalid, "strides[0]", "=-20",
               "not a multiple of itemsize 8"),
        reject("negative strides reaching below address 0",
               edited(makeCai("|u1", {2, 3}, 2), [](auto &c) { setStrides(c, {-3, 1}); }), "HW", kInvalid, "data", "=0x2",
               "outside the address space"),

        // sizes
        accept("empty tensor with data 0", makeCai("<f4", {0, 3}, 0), "HW", CV_DTYPE_FLOAT32, {12, 4}),
        accept("empty tensor with data set", makeCai("<f4", {2, 0}), "HW", CV_DTYPE_FLOAT32),
        accept("0-d tensor", makeCai("<f4", {}), nullptr, CV_DTYPE_FLOAT32),
        accept("rank CV_MAX_DIMS", makeCai("|u1", {1, 2, 1, 2, 1, 2, 1, 2}), nullptr, CV_DTYPE_UINT8),
        reject("data 0 with a non-zero size", makeCai("<f4", {2, 3}, 0), "HW", kInvalid, "data", "=0", "only empty tensors"),
        reject("0-d tensor with data 0", makeCai("<f4", {}, 0), nullptr, kInvalid, "data", "=0", "only empty tensors"),
        reject("data not aligned to the item size", makeCai("<f4", {2, 3}, 0x7f0000000001ull), "HW", kInvalid, "data",
               "=0x7f0000000001", "not aligned to itemsize 4"),
        accept("data of 1-byte items at an odd address", makeCai("|u1", {2, 3}, 0x7f0000000001ull), "HW", CV_DTYPE_UINT8),
        reject("ndim above the maximum", edited(makeCai("|u1", {}), [](auto &c) { c.ndim = CV_MAX_DIMS + 1; }), nullptr, kInvalid,
               "ndim", "=9", "outside 0..8"),
        reject("ndim negative", edited(makeCai("|u1", {}), [](auto &c) { c.ndim = -1; }), nullptr, kInvalid, "ndim", "=-1",
               "outside 0..8"),
        reject("shape negative", makeCai("|u1", {2, -3}), "HW", kInvalid, "shape[1]", "=-3", "negative"),
        reject("shape x stride overflows 64 bits",
               edited(makeCai("|u1", {4, 2}), [](auto &c) { setStrides(c, {int64_t(1) << 62, 1}); }), "HW", kInvalid,
               "strides[0]", "=4611686018427387904", "overflows"),
        reject("contiguous byte size overflows 64 bits", makeCai("<f4", {int64_t(1) << 32, int64_t(1) << 32}), "HW", kInvalid,
               "shape[0]", "=4294967296", "overflow"),
        reject("element count overflows 64 bits",
               edited(makeCai("|u1", {int64_t(1) << 32, int64_t(1) << 32}), [](auto &c) { setStrides(c, {0, 0}); }), "HW",
               kInvalid, "shape[1]", "=4294967296", "overflow"),
        // an empty tensor is accepted whatever the order of its extents: no element count or size can overflow
        accept("empty: zero extent first, huge extents after",
               edited(makeCai("|u1", {0, int64_t(1) << 62, 4}), [](auto &c) { setStrides(c, {4, 4, 1}); }), nullptr,
               CV_DTYPE_UINT8, {4, 4, 1}),
        accept("empty: zero extent last, huge extents before",
               edited(makeCai("|u1", {int64_t(1) << 62, 4, 0}), [](auto &c) { setStrides(c, {4, 1, 1}); }), nullptr,
               CV_DTYPE_UINT8, {4, 1, 1}),
        accept("empty: zero extent in the middle", edited(makeCai("<f4", {int64_t(1) << 40, 0, int64_t(1) << 40}),
               [](auto &c) { setStrides(c, {4, 4, 4}); }), nullptr, CV_DTYPE_FLOAT32, {4, 4, 4}),
        accept("empty contiguous: zero extent last, huge extents before", makeCai("|u1", {int64_t(1) << 62, 4, 0}), nullptr,
               CV_DTYPE_UINT8, {4, 1, 1}),
        accept("empty contiguous: extents whose product overflows", makeCai("<f4", {int64_t(1) << 30, int64_t(1) << 40, 0}),
               nullptr, CV_DTYPE_FLOAT32, {int64_t(1) << 42, 4, 4}),
        reject("empty contiguous whose outer stride cannot be represented", makeCai("|u1", {0, int64_t(1) << 62, 4}), nullptr,
               kInvalid, "shape[1]", "=4611686018427387904", "strides overflow"),
        reject("extent past the end of the address space", makeCai("|u1", {1024}, 0xffffffffffffff00ull), "W", kInvalid, "data",
               "=0xffffffffffffff00", "outside the address space"),

        // layouts
        accept("layout NULL (none)", makeCai("|u1", {2, 3, 4}), nullptr, CV_DTYPE_UINT8),
        accept("layout empty for a 0-d tensor", makeCai("|u1", {}), "", CV_DTYPE_UINT8),
        accept("layout NCHW", makeCai("|u1", {1, 3, 2, 2}), "NCHW", CV_DTYPE_UINT8),
        reject("layout rank mismatch", makeCai("|u1", {2, 3, 4}), "NHWC", kInvalid, "layout", "'NHWC'", "ndim=3"),
        reject("layout empty for a 2-d tensor", makeCai("|u1", {2, 3}), "", kInvalid, "layout", "''", "ndim=2"),
        reject("layout unknown label", makeCai("|u1", {2, 3, 4}), "HWX", kInvalid, "layout", "'HWX'", "unknown label 'X'"),
        reject("layout lower-case label", makeCai("|u1", {2, 3, 4}), "hwc", kInvalid, "layout", "'hwc'", "unknown label 'h'"),
        reject("layout repeated label", makeCai("|u1", {2, 3, 4}), "HWH", kInvalid, "layout", "'HWH'", "repeats the label 'H'"),

        // the CAI "stream" key (docs/streams.md, the producer table); > 2 needs a GPU and has its own test below
        accept("stream: CAI v2 (no key)", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.version = 2; }), "HW", CV_DTYPE_UINT8),
        accept("stream: v3, key absent", makeCai("|u1", {2, 3}), "HW", CV_DTYPE_UINT8),
        accept("stream: None", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.streamKind = CV_CAI_STREAM_NONE; }), "HW",
               CV_DTYPE_UINT8),
        accept("stream: 0 (no stream associated)", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, 0); }), "HW",
               CV_DTYPE_UINT8),
        accept("stream: 1 (legacy default)", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, 1); }), "HW",
               CV_DTYPE_UINT8),
        accept("stream: 2 (per-thread default)", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, 2); }), "HW",
               CV_DTYPE_UINT8),
        accept("stream: -1 (opt-out)", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, -1); }), "HW", CV_DTYPE_UINT8),
        reject("stream: -2", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, -2); }), "HW", kInvalid, "stream", "=-2",
               "only -1"),
        reject("stream: INT64_MIN", edited(makeCai("|u1", {2, 3}), [](auto &c) { setStream(c, INT64_MIN); }), "HW", kInvalid,
               "stream", "=-9223372036854775808", "only -1"),
        reject("streamKind not in the enum",
               edited(makeCai("|u1", {2, 3}), [](auto &c) { setRawEnum(c.streamKind, 3); }), "HW", kInvalid,
               "streamKind", "=3", "not a cvCaiStreamKind"),
        reject("streamKind negative (outside the C++ enum's range)",
               edited(makeCai("|u1", {2, 3}), [](auto &c) { setRawEnum(c.streamKind, -1); }), "HW", kInvalid,
               "streamKind", "=-1", "not a cvCaiStreamKind"),
        reject("streamKind INT32_MIN", edited(makeCai("|u1", {2, 3}), [](auto &c) { setRawEnum(c.streamKind, INT32_MIN); }),
               "HW", kInvalid, "streamKind", "=-2147483648", "not a cvCaiStreamKind"),
        reject("dtype negative (outside the C++ enum's range)",
               edited(makeCai("|u1", {2, 3}), [](auto &c) { setRawEnum(c.dtype, -7); }), "HW", kInvalid, "dtype", "=-7",
               "not a cvDataType"),

        // struct header
        accept("readonly data", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.readonly = 1; }), "HW", CV_DTYPE_UINT8),
        reject("version 1", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.version = 1; }), "HW", kInvalid, "version", "=1",
               "2 or 3"),
        reject("version 4", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.version = 4; }), "HW", kInvalid, "version", "=4",
               "2 or 3"),
        reject("reserved0 not 0", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.reserved0 = 5; }), "HW", kInvalid, "reserved0",
               "=5", "must be 0"),
        reject("structSize too small", edited(makeCai("|u1", {2, 3}), [](auto &c) { c.structSize = 8; }), "HW", kInvalid,
               "structSize", "=8", "CV_ARRAY_INTERFACE_INIT"),
    };
    return table;
}

} // namespace

TEST_CASE("cvTensorWrap validation table", "[wrap]") {
    REQUIRE(rows().size() >= 40);
    for (const WrapRow &row : rows()) {
        INFO("row: " << row.name);
        TensorRef t;
        const cvStatus status = cvTensorWrap(&row.cai, row.layout, &t.t);
        const std::string message = lastError();
        INFO("status: " << cvStatusName(status) << ", message: " << message);
        CHECK(status == row.status);
        if (row.status != CV_SUCCESS) {
            CHECK(t.t == nullptr);
            CHECK(message.rfind("cvTensorWrap: ", 0) == 0);
            CHECK(message.find(row.field) != std::string::npos);
            CHECK(message.find(row.value) != std::string::npos);
            CHECK(message.find(row.rule) != std::string::npos);
            continue;
        }
        if (t.t == nullptr) continue;
        const cvTensorInfo info = infoOf(t.t);
        CHECK(info.ndim == row.cai.ndim);
        CHECK(info.dtype == row.dtype);
        CHECK(info.data == row.cai.data);
        CHECK(info.readonly == row.cai.readonly);
        CHECK(std::string(info.layout) == (row.layout ? row.layout : ""));
        for (int i = 0; i < info.ndim; ++i) CHECK(info.shape[i] == row.cai.shape[i]);
        for (size_t i = 0; i < row.strides.size(); ++i) {
            INFO("strides[" << i << "]");
            CHECK(info.strides[i] == row.strides[i]);
        }
    }
}

TEST_CASE("cvTensorWrap rejects NULL arguments", "[wrap]") {
    const cvArrayInterface cai = makeCai("|u1", {2, 3});
    cvTensor t = nullptr;
    CHECK(cvTensorWrap(nullptr, "HW", &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorWrap: cai is NULL");
    CHECK(t == nullptr);
    CHECK(cvTensorWrap(&cai, "HW", nullptr) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorWrap: out is NULL");
}

// A caller built against a newer header passes a longer struct: zero appended fields mean "not used".
TEST_CASE("cvTensorWrap accepts a longer struct only when its newer fields are zero", "[wrap]") {
    struct Newer {
        cvArrayInterface cai;
        uint64_t appended[2];
    } newer = {makeCai("|u1", {2, 3}), {0, 0}};
    newer.cai.structSize = sizeof(Newer);
    TensorRef ok;
    CHECK(cvTensorWrap(&newer.cai, "HW", &ok.t) == CV_SUCCESS);

    newer.appended[1] = 1;
    TensorRef bad;
    CHECK(cvTensorWrap(&newer.cai, "HW", &bad.t) == CV_ERROR_INVALID_ARGUMENT);
    const std::string message = lastError();
    CHECK(message.find("structSize=" + std::to_string(sizeof(Newer))) != std::string::npos);
    CHECK(message.find("not 0") != std::string::npos);
}

// An integer stream > 2 is a real producer stream: wrapping records one event on it (the CAI's point of consumption).
TEST_CASE("cvTensorWrap records an event on a real producer stream", "[wrap][gpu]") {
    CVTEST_REQUIRE_GPU();
    cudaStream_t producer = nullptr;
    CVTEST_CUDA(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
    void *buffer = nullptr;
    CVTEST_CUDA(cudaMalloc(&buffer, 6));
    cvArrayInterface cai = makeCai("|u1", {2, 3}, reinterpret_cast<uint64_t>(buffer));
    setStream(cai, static_cast<int64_t>(reinterpret_cast<intptr_t>(producer)));
    cvResetStats();
    {
        TensorRef t;
        REQUIRE(cvTensorWrap(&cai, "HW", &t.t) == CV_SUCCESS);
        cvStats stats = CV_STATS_INIT;
        REQUIRE(cvGetStats(&stats) == CV_SUCCESS);
        CHECK(stats.eventRecords == 1);
        CHECK(stats.deviceSyncs == 0);
    }
    REQUIRE(cvSyncAndCollect() == CV_SUCCESS);
    CVTEST_CUDA(cudaFree(buffer));
    CVTEST_CUDA(cudaStreamDestroy(producer));
}

// Enum arguments a C caller may pass although they name no enumerator: answered, never undefined behaviour.
TEST_CASE("enum arguments outside their enums", "[wrap][types]") {
    const int32_t values[] = {-1, -7, INT32_MIN, 16, 1000, INT32_MAX};
    for (const int32_t v : values) {
        INFO("value " << v);
        CHECK(std::string(cvtestStatusName(v)) == "CV_STATUS_UNKNOWN");
        CHECK(std::string(cvtestDataTypeName(v)) == "unspecified");
        CHECK(std::string(cvtestDataTypeTypestr(v)) == "");
        CHECK(cvtestDataTypeItemSize(v) == 0);
        CHECK(cvtestTensorCreate(v) == CV_ERROR_INVALID_ARGUMENT);
        CHECK(lastError() == "cvTensorCreate: dtype=" + std::to_string(v) + " is not a cvDataType");
    }
}
