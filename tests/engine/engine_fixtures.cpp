#include "engine_fixtures.hpp"

#include "../../core/hazards.hpp"

#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <random>

namespace enginetest {
namespace {

// Every test case starts with the device idle: cvStreamCreate hands out released streams with whatever they still
// have queued (docs/streams.md), and a stream an earlier case left deliberately busy would delay a later case's fresh
// stream behind its spin, which hides the race a negative control forces. Without a device the call just fails.
class DeviceIdleAtEachCase : public Catch::EventListenerBase {
public:
    using Catch::EventListenerBase::EventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo &) override {
        if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
    }
};

} // namespace
} // namespace enginetest

CATCH_REGISTER_LISTENER(enginetest::DeviceIdleAtEachCase)

namespace enginetest {

Bytes randomImage(const Shape &shape, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(1, 255);
    Bytes out(shape.bytes());
    for (uint8_t &b : out) b = static_cast<uint8_t>(value(rng));
    return out;
}

Bytes cpuFlip(const Bytes &src, const Shape &s, int32_t flipCode) {
    Bytes dst(src.size());
    const bool rows = flipCode <= 0, cols = flipCode != 0;
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t y = 0; y < s.h; ++y)
            for (int64_t x = 0; x < s.w; ++x) {
                const int64_t sy = rows ? s.h - 1 - y : y, sx = cols ? s.w - 1 - x : x;
                for (int64_t c = 0; c < s.c; ++c)
                    dst[static_cast<size_t>(((n * s.h + y) * s.w + x) * s.c + c)] =
                        src[static_cast<size_t>(((n * s.h + sy) * s.w + sx) * s.c + c)];
            }
    return dst;
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) { CVTEST_CUDA(cudaMalloc(&ptr_, bytes)); }

DeviceBuffer::~DeviceBuffer() {
    (void)cudaDeviceSynchronize();
    (void)cudaFree(ptr_);
}

void DeviceBuffer::upload(const Bytes &data) {
    REQUIRE(data.size() == bytes_);
    CVTEST_CUDA(cudaDeviceSynchronize());
    CVTEST_CUDA(cudaMemcpy(ptr_, data.data(), bytes_, cudaMemcpyHostToDevice));
    CVTEST_CUDA(cudaDeviceSynchronize());
}

void DeviceBuffer::fill(uint8_t value) {
    CVTEST_CUDA(cudaDeviceSynchronize());
    CVTEST_CUDA(cudaMemset(ptr_, value, bytes_));
    CVTEST_CUDA(cudaDeviceSynchronize());
}

Bytes DeviceBuffer::download() const {
    Bytes out(bytes_);
    CVTEST_CUDA(cudaDeviceSynchronize());
    CVTEST_CUDA(cudaMemcpy(out.data(), ptr_, bytes_, cudaMemcpyDeviceToHost));
    return out;
}

CaiStream caiStreamOf(cudaStream_t stream) { return caiInteger(static_cast<int64_t>(reinterpret_cast<intptr_t>(stream))); }

Tensor wrap(void *data, const Shape &shape, CaiStream stream) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.version = stream.version;
    cai.data = reinterpret_cast<uint64_t>(data);
    cai.ndim = 4;
    const int64_t extents[4] = {shape.n, shape.h, shape.w, shape.c};
    for (int i = 0; i < 4; ++i) cai.shape[i] = extents[i];
    cai.typestr[0] = '|';
    cai.typestr[1] = 'u';
    cai.typestr[2] = '1';
    cai.streamKind = stream.kind;
    cai.stream = stream.value;
    cvTensor t = nullptr;
    CV_OK(cvTensorWrap(&cai, "NHWC", &t));
    return Tensor(t);
}

Tensor wrap(const DeviceBuffer &buffer, const Shape &shape, CaiStream stream) {
    REQUIRE(buffer.bytes() == shape.bytes());
    return wrap(buffer.get(), shape, stream);
}

Stream createStream() {
    cvStream s = nullptr;
    CV_OK(cvStreamCreate(&s));
    return Stream(s);
}

Stream wrapStream(cudaStream_t handle) {
    cvStream s = nullptr;
    CV_OK(cvStreamWrap(handle, &s));
    return Stream(s);
}

cudaStream_t handleOf(cvStream stream) {
    void *handle = nullptr;
    CV_OK(cvStreamGetHandle(stream, &handle));
    return static_cast<cudaStream_t>(handle);
}

cvStats stats() {
    cvStats s = CV_STATS_INIT;
    CV_OK(cvGetStats(&s));
    return s;
}

void produce(cudaStream_t stream, uint64_t nanoseconds, const DeviceBuffer &source, const DeviceBuffer &target) {
    REQUIRE(source.bytes() == target.bytes());
    CVTEST_CUDA(cvtest::launchSpin(stream, nanoseconds));
    CVTEST_CUDA(cudaMemcpyAsync(target.get(), source.get(), target.bytes(), cudaMemcpyDeviceToDevice, stream));
}

SideStream::SideStream() { CVTEST_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

SideStream::~SideStream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
}

bool busy(cudaStream_t stream) {
    const cudaError_t status = cudaStreamQuery(stream);
    REQUIRE((status == cudaSuccess || status == cudaErrorNotReady));
    return status == cudaErrorNotReady;
}

TrackingOff::TrackingOff() { cv::detail::setHazardTrackingEnabled(false); }
TrackingOff::~TrackingOff() { cv::detail::setHazardTrackingEnabled(true); }

} // namespace enginetest
