// Pooled CUDA events without timing (cudaEventDisableTiming), shared by the threads of the process.
//
// An event can be reserved before it is recorded: the hazard engine assigns a submission's event under its lock and
// records it after the launch, outside the lock. A thread that needs such an event waits (awaitRecorded) until it is
// recorded, because cudaStreamWaitEvent on an event not recorded yet is a silent no-op in CUDA.
#pragma once

#include "ref.hpp"

#include <cuda_runtime.h>

#include <atomic>

namespace cv {

class Stream;

class Event final : public RefCounted {
public:
    cudaEvent_t handle() const noexcept { return handle_; }
    int device() const noexcept { return device_; }
    // True once the record of this use was issued (always true for events from recordEvent).
    bool recorded() const noexcept { return (state_.load(std::memory_order_acquire) & kRecorded) != 0; }
    // Non-blocking: true once the work captured by the record has completed; false while not recorded yet. A
    // completed event is remembered, so that asking again costs no cudaEventQuery.
    bool done() const noexcept;
    // True when completion is known without a query: done() found it, or `on` (the stream object of the access) was
    // synchronised after this event was recorded on it.
    bool knownDone(const Stream &on) const noexcept;

private:
    friend class EventPool;
    friend void publishEvent(Event &, Stream *) noexcept;
    friend void awaitRecorded(const Event &) noexcept;
    friend Ref<Event> recordEvent(Stream &);
    static constexpr int kRecorded = 1, kComplete = 2, kWaiters = 4;
    Event(cudaEvent_t handle, int device) noexcept : handle_(handle), device_(device) {}
    void lastReleased() noexcept override;
    void noteRecorded(Stream &on) noexcept;
    cudaEvent_t handle_;
    int device_;
    mutable std::atomic<int> state_{0};
    bool completedBySync() const noexcept;
    const Stream *recordedOn_ = nullptr; // written before kRecorded is published
    uint64_t record_ = 0;
    uint64_t sequence_ = 0; // process-wide number of the record (0: none), for deviceSyncDone
};

// Records a pooled event on `stream` (counted in eventRecords).
Ref<Event> recordEvent(Stream &stream);

// A pooled event of `device`, not recorded yet: whoever reserves it must publish it (publishEvent), on every path.
Ref<Event> reserveEvent(int device);

// Records a reserved event on `stream` (the stream's device must be current), or, with a null stream or when the
// record fails, marks it recorded without a record (waiting on it then orders nothing new, which only happens after
// a CUDA failure that the caller reports). Wakes the threads waiting in awaitRecorded. Never throws.
void publishEvent(Event &event, Stream *stream) noexcept;

// Blocks (briefly: until another thread's launch has been issued) until `event` is recorded.
void awaitRecorded(const Event &event) noexcept;

// A cudaDeviceSynchronize of `device` as the events know it: every event whose record had been issued when
// deviceSyncStarting returned has completed once deviceSyncDone(device, its result) is called, so done() and
// knownDone() say so without a query.
uint64_t deviceSyncStarting() noexcept;
void deviceSyncDone(int device, uint64_t started) noexcept;

// Makes `stream` wait on `event` (counted in eventWaits). The event must be recorded (awaitRecorded): a wait on an
// event not recorded yet orders nothing.
void waitEvent(const Stream &stream, const Event &event);

} // namespace cv
