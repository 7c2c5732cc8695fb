// Pooled CUDA events without timing (cudaEventDisableTiming), one pool per device.
#pragma once

#include "ref.hpp"

#include <cuda_runtime.h>

namespace cv {

class Stream;

class Event final : public RefCounted {
public:
    cudaEvent_t handle() const noexcept { return handle_; }
    int device() const noexcept { return device_; }
    // Non-blocking: true once the work captured by the last record has completed.
    bool done() const noexcept;

private:
    friend class EventPool;
    Event(cudaEvent_t handle, int device) noexcept : handle_(handle), device_(device) {}
    void lastReleased() noexcept override;
    cudaEvent_t handle_;
    int device_;
};

// Records a pooled event on `stream` (counted in eventRecords).
Ref<Event> recordEvent(const Stream &stream);

// Makes `stream` wait on `event` (counted in eventWaits).
void waitEvent(const Stream &stream, const Event &event);

} // namespace cv
