// cv::Stream: the object behind cvStream. Owned (created by the library, non-blocking) or adopted (never destroyed).
#pragma once

#include "ref.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace cv {

class Stream final : public RefCounted {
public:

    // A non-blocking stream on `device` (a valid index: requireDeviceIndex): a released library stream of that
    // device that no handle holds and that has no work pending (cudaStreamQuery), else a new one. The caller's
    // current device is unchanged.
    static Ref<Stream> create(int device);
    // The same on the calling thread's current device.
    static Ref<Stream> create();
    // create() for the library's own per-device streams (device_resources.hpp), which live as long as the process
    // and are not counted in cvStats.liveStreams: that count is of streams a handle or tracked work holds.
    static Ref<Stream> createInternal(int device);
    // Adopts `handle` (nullptr = legacy default stream) on its device without owning it. A handle of a stream the
    // library created returns that stream's own object, so hazard state keeps it alive rather than an alias.
    // cudaStreamPerThread is rejected: it names a different stream in every thread.
    static Ref<Stream> adopt(cudaStream_t handle);
    // CUDA's legacy default stream of `device` (a valid index), adopted.
    static Ref<Stream> adoptDefault(int device);

    cudaStream_t handle() const noexcept { return handle_; }
    int device() const noexcept { return device_; }
    // Created by the library, so alive as long as this object: safe to record on or free on later. An adopted
    // stream may be destroyed by its owner at any time after the call that used it.
    bool owned() const noexcept { return owned_; }

    // Library records on this stream object are numbered (noteRecord, after the cudaEventRecord call returned);
    // synchronize() remembers how many were issued before it, so that their completion is known without a query.
    uint64_t noteRecord() noexcept { return records_.fetch_add(1, std::memory_order_acq_rel); }
    bool synchronizedPast(uint64_t record) const noexcept { return record < synced_.load(std::memory_order_acquire); }
    // BLOCKS until the stream's work has completed (cudaStreamSynchronize).
    void synchronize();

private:
    friend class StreamPool;
    Stream(cudaStream_t handle, int device, bool owned) noexcept;
    ~Stream() override;
    // An owned stream goes to the pool of idle streams (or is destroyed when the pool is full); an adopted one is
    // deleted.
    void lastReleased() noexcept override;
    cudaStream_t handle_;
    int device_;
    bool owned_;
    bool internal_ = false; // not counted live (createInternal)
    std::atomic<uint64_t> records_{0}, synced_{0};
};

// One CUDA stream: the legacy (NULL) and per-thread default streams of two devices share a handle value.
inline bool sameStream(const Stream &a, const Stream &b) noexcept {
    return a.handle() == b.handle() && a.device() == b.device();
}

} // namespace cv
