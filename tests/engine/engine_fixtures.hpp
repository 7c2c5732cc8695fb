// What the stream-engine tests share: device buffers, random images with their CPU flip, CAI wrapping with each
// producer-stream state, RAII handles, the library's counters, and the busy producer (a spin, then a write).
#pragma once

#include "busy.hpp"
#include "gpu.hpp"

#include <cvcuda/cvcuda.h>

#include <catch2/catch_test_macros.hpp>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <vector>

// Requires CV_SUCCESS; on failure the report shows the call and the library's message.
#define CV_OK(call)                                                                                                     \
    do {                                                                                                                \
        const cvStatus cv_ok_status = (call);                                                                           \
        INFO(#call << " -> " << cvStatusName(cv_ok_status) << ": " << cvGetLastErrorMessage());                        \
        REQUIRE(cv_ok_status == CV_SUCCESS);                                                                            \
    } while (0)

namespace enginetest {

constexpr uint64_t kMicrosecond = 1000;      // in nanoseconds (busy.hpp's unit)
constexpr uint64_t kMillisecond = 1000000;
// Long enough that an operation not ordered after the producer certainly reads the buffer before the write lands.
constexpr uint64_t kBusyProducer = 50 * kMillisecond;

// An NHWC uint8 batch.
struct Shape {
    int64_t n, h, w, c;
    size_t bytes() const { return static_cast<size_t>(n * h * w * c); }
};

using Bytes = std::vector<uint8_t>;

// Random bytes in 1..255 (never 0, so that a zeroed or unwritten buffer cannot pass).
Bytes randomImage(const Shape &shape, uint32_t seed);

// The CPU reference: OpenCV's flipCode convention (0: rows, > 0: columns, < 0: both) on an NHWC batch.
Bytes cpuFlip(const Bytes &src, const Shape &shape, int32_t flipCode);

// A byte pattern no random image equals, written into outputs before each run.
constexpr uint8_t kPoison = 0;

// Device memory owned by the test (cudaMalloc / cudaFree), with synchronous host transfers on the legacy stream.
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    void *get() const { return ptr_; }
    size_t bytes() const { return bytes_; }
    // Both wait for the whole device first (cudaDeviceSynchronize is the test's own, not counted by the library),
    // so that no stream of any test is still using the buffer.
    void upload(const Bytes &data);
    void fill(uint8_t value);
    Bytes download() const;

private:
    void *ptr_ = nullptr;
    size_t bytes_;
};

// The CAI "stream" key, in its three states (see cvCaiStreamKind and docs/streams.md).
struct CaiStream {
    int32_t version;
    cvCaiStreamKind kind;
    int64_t value;
};
constexpr CaiStream kCaiV2{2, CV_CAI_STREAM_ABSENT, 0};
constexpr CaiStream kCaiV3Absent{3, CV_CAI_STREAM_ABSENT, 0};
constexpr CaiStream kCaiNone{3, CV_CAI_STREAM_NONE, 0};
constexpr CaiStream kCaiOptOut{3, CV_CAI_STREAM_INTEGER, -1};
constexpr CaiStream caiInteger(int64_t value) { return {3, CV_CAI_STREAM_INTEGER, value}; }
CaiStream caiStreamOf(cudaStream_t stream);

struct TensorRelease {
    void operator()(cvTensor t) const { cvTensorRelease(t); }
};
struct StreamRelease {
    void operator()(cvStream s) const { cvStreamRelease(s); }
};
using Tensor = std::unique_ptr<cvTensor_t, TensorRelease>;
using Stream = std::unique_ptr<cvStream_t, StreamRelease>;

// cvTensorWrap of a C-contiguous NHWC uint8 buffer (REQUIREs success).
Tensor wrap(void *data, const Shape &shape, CaiStream stream);
Tensor wrap(const DeviceBuffer &buffer, const Shape &shape, CaiStream stream);
Stream createStream();
Stream wrapStream(cudaStream_t handle);
cudaStream_t handleOf(cvStream stream);

cvStats stats();

// The busy producer: on `stream`, spin for `nanoseconds`, then copy `source` into `target` (a device-to-device copy
// that is the write a consumer must wait for). Nothing is enqueued anywhere else.
void produce(cudaStream_t stream, uint64_t nanoseconds, const DeviceBuffer &source, const DeviceBuffer &target);

// A non-blocking CUDA stream owned by the test (a "side stream", as PyTorch's would be).
class SideStream {
public:
    SideStream();
    ~SideStream();
    SideStream(const SideStream &) = delete;
    SideStream &operator=(const SideStream &) = delete;
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

// True while work enqueued on `stream` has not completed (cudaStreamQuery).
bool busy(cudaStream_t stream);

// Switches the engine's cross-stream waits off for the scope (negative controls; see core/hazards.hpp).
class TrackingOff {
public:
    TrackingOff();
    ~TrackingOff();
    TrackingOff(const TrackingOff &) = delete;
    TrackingOff &operator=(const TrackingOff &) = delete;
};

} // namespace enginetest
