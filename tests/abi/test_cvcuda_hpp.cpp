// The C++ wrapper (include/cvcuda/cvcuda.hpp) as a consumer of the shared library uses it: RAII references,
// exceptions that carry the library's message and status. Needs no GPU.
#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.hpp>

#include <cstring>
#include <string>
#include <utility>

namespace {

cvArrayInterface description(const char *typestr = "<f4") {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = 0x7f0000100000ull;
    cai.ndim = 3;
    cai.shape[0] = 4;
    cai.shape[1] = 5;
    cai.shape[2] = 3;
    cai.streamKind = CV_CAI_STREAM_NONE;
    std::strcpy(cai.typestr, typestr);
    return cai;
}

int64_t liveTensors() { return cvcuda::stats().liveTensors; }

void countCleanup(void *userData) { ++*static_cast<int *>(userData); }

} // namespace

TEST_CASE("cvcuda::version is the header's", "[cpp]") { CHECK(cvcuda::version() == CVCUDA_C_VERSION_NUMBER); }

TEST_CASE("cvcuda::Error carries the library's message and status", "[cpp]") {
    try {
        cvcuda::Tensor::wrap(description(">f4"), "HWC");
        FAIL("no exception");
    } catch (const cvcuda::Error &e) {
        CHECK(e.status() == CV_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(e.statusName()) == "CV_ERROR_INVALID_ARGUMENT");
        CHECK(std::string(e.what()) ==
              "cvTensorWrap: typestr='>f4' is big-endian; only little-endian or native byte order is supported");
    }
    try {
        cvcuda::Tensor::wrap(description("<c32"), "HWC");
        FAIL("no exception");
    } catch (const std::runtime_error &e) { // catchable as a standard exception too
        CHECK(std::string(e.what()).find("complex") != std::string::npos);
    }
}

TEST_CASE("cvcuda::Tensor references: copy retains, move transfers, destruction releases", "[cpp]") {
    const int64_t before = liveTensors();
    int cleanups = 0;
    {
        cvcuda::Tensor a = cvcuda::Tensor::wrap(description(), "HWC");
        a.setCleanup(countCleanup, &cleanups);
        CHECK(liveTensors() == before + 1);
        cvcuda::Tensor b = a;
        CHECK(b.get() == a.get());
        cvcuda::Tensor c = std::move(a);
        CHECK(!a);
        CHECK(c.get() == b.get());
        b = cvcuda::Tensor();
        CHECK(cleanups == 0);
        CHECK(liveTensors() == before + 1);
    }
    CHECK(cleanups == 1);
    CHECK(liveTensors() == before);
}

TEST_CASE("cvcuda::Tensor queries and export", "[cpp]") {
    const cvcuda::Tensor t = cvcuda::Tensor::wrap(description(), "HWC");
    CHECK(t.shape() == std::vector<int64_t>{4, 5, 3});
    CHECK(t.strides() == std::vector<int64_t>{60, 12, 4});
    CHECK(t.dtype() == CV_DTYPE_FLOAT32);
    CHECK(t.layout() == "HWC");
    cvcuda::Stream writer;
    const cvArrayInterface cai = t.exportInterface(&writer);
    CHECK(!writer);
    CHECK(cai.version == 3);
    CHECK(cai.streamKind == CV_CAI_STREAM_NONE);
    const cvcuda::Tensor again = cvcuda::Tensor::wrap(cai, "HWC");
    CHECK(again.strides() == t.strides());
}

TEST_CASE("an empty cvcuda handle is refused by the library, not dereferenced", "[cpp]") {
    const cvcuda::Tensor empty;
    try {
        (void)empty.info();
        FAIL("no exception");
    } catch (const cvcuda::Error &e) {
        CHECK(e.status() == CV_ERROR_INVALID_ARGUMENT);
        CHECK(std::string(e.what()) == "cvTensorGetInfo: tensor is NULL");
    }
    CHECK_THROWS_AS(cvcuda::Stream().sync(), cvcuda::Error);
    CHECK_THROWS_AS(cvcuda::flip(cvcuda::Stream(), empty, empty, 0), cvcuda::Error);
}

TEST_CASE("without a device, cvcuda::Stream::create throws CV_ERROR_NO_DEVICE", "[cpp][nodevice]") {
    try {
        cvcuda::Stream s = cvcuda::Stream::create();
        SKIP("a CUDA device is visible");
    } catch (const cvcuda::Error &e) {
        CHECK(e.status() == CV_ERROR_NO_DEVICE);
        CHECK(std::string(e.what()).rfind("cvStreamCreate: no ", 0) == 0);
    }
}
