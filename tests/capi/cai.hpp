// Builders for cvArrayInterface values and small checks shared by the C API tests.
#pragma once

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

namespace cvtest {

// A fake device address: wrapping makes no GPU call, so validation tests need no real memory.
constexpr uint64_t kFakeData = 0x7f0000100000ull;

// A CAI v3 dict with the given typestr and shape, C-contiguous, stream key absent.
inline cvArrayInterface makeCai(const char *typestr, std::initializer_list<int64_t> shape, uint64_t data = kFakeData) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = data;
    cai.ndim = static_cast<int32_t>(shape.size());
    int i = 0;
    for (int64_t n : shape) cai.shape[i++] = n;
    std::strncpy(cai.typestr, typestr, sizeof(cai.typestr) - 1);
    return cai;
}

inline void setStrides(cvArrayInterface &cai, std::initializer_list<int64_t> strides) {
    cai.hasStrides = 1;
    int i = 0;
    for (int64_t s : strides) cai.strides[i++] = s;
}

inline void setStream(cvArrayInterface &cai, int64_t value) {
    cai.streamKind = CV_CAI_STREAM_INTEGER;
    cai.stream = value;
}

// Stores any 32-bit value in an enum field, as a C caller may; C++ code must not load the field afterwards.
template <class E> void setRawEnum(E &field, int32_t value) {
    static_assert(sizeof(E) == sizeof(value), "public enums are 32-bit");
    std::memcpy(&field, &value, sizeof(value));
}

inline std::string lastError() { return cvGetLastErrorMessage(); }

// Owns one reference to a tensor for the scope of a test.
struct TensorRef {
    cvTensor t = nullptr;
    TensorRef() = default;
    TensorRef(const TensorRef &) = delete;
    TensorRef &operator=(const TensorRef &) = delete;
    ~TensorRef() { cvTensorRelease(t); }
};

inline cvTensorInfo infoOf(cvTensor t) {
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    REQUIRE(cvTensorGetInfo(t, &info) == CV_SUCCESS);
    return info;
}

// True when this process sees a usable CUDA device (through the library itself: no CUDA header needed).
inline bool libraryHasDevice() {
    cvStream s = nullptr;
    const cvStatus status = cvStreamCreate(&s);
    cvStreamRelease(s);
    return status == CV_SUCCESS;
}

} // namespace cvtest
