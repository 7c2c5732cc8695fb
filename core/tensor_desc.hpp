// What a tensor is, independent of who owns its memory: validated shape, byte strides, dtype, layout and extent.
#pragma once

#include <cvcuda/array_interface.h>

#include <cstdint>
#include <string>

namespace cv {

struct TensorDesc {
    int32_t ndim = 0;
    int64_t shape[CV_MAX_DIMS] = {};
    int64_t strides[CV_MAX_DIMS] = {}; // bytes, always explicit
    cvDataType dtype = CV_DTYPE_UNSPECIFIED;
    int32_t itemSize = 0;
    uint64_t data = 0;
    bool readonly = false;
    std::string layout; // "" = none
    int64_t numel = 0;
    // Byte extent touched by the elements, relative to data: [extentLo, extentHi). Empty when numel == 0.
    int64_t extentLo = 0, extentHi = 0;

    uint64_t addressLo() const noexcept { return data + static_cast<uint64_t>(extentLo); }
    uint64_t addressHi() const noexcept { return data + static_cast<uint64_t>(extentHi); }
    int layoutIndex(char label) const noexcept; // -1 when absent
};

// What the CAI "stream" key says about the producer (docs/streams.md, the producer table).
enum class Producer {
    Unknown,  // v2, key absent, 0, 1 or 2: one defensive device sync at first use
    Ready,    // None or -1: nothing to do
    Stream,   // a real cudaStream_t: event recorded at wrap
};

struct WrapRequest {
    TensorDesc desc;
    Producer producer = Producer::Unknown;
    int64_t producerStream = 0;
};

// Validates a CAI struct and layout, makes no CUDA call. Throws cv::Error naming the field, value and rule.
WrapRequest validateArrayInterface(const cvArrayInterface *cai, const char *layout);

// Builds the description of a C-contiguous tensor (cvTensorCreate); data is left 0.
// dtype: any int32_t (core/raw_enum.hpp); values not in cvDataType are rejected.
TensorDesc contiguousDesc(int32_t ndim, const int64_t *shape, int32_t dtype, const char *layout);

// The description of a C-contiguous tensor with the shape, dtype and layout of `like` (validated before); data 0.
TensorDesc contiguousLike(const TensorDesc &like);

} // namespace cv
