#include "event_pool.hpp"

#include "cuda_check.hpp"
#include "stats.hpp"
#include "stream.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <vector>

namespace cv {
namespace {

// Threads waiting for a reserved event to be recorded. Only threads that find the event unrecorded touch it, so a
// submission that nobody waits on costs no lock here.
std::mutex &recordMutex() { static auto *m = new std::mutex; return *m; }
std::condition_variable &recordCv() { static auto *c = new std::condition_variable; return *c; }

// The free lists are sharded by thread, so that threads submitting at the same time do not meet on one lock; an
// event freed by one thread may be reused by another.
constexpr unsigned kShards = 16;
struct Shard {
    std::mutex mutex;
    std::map<int, std::vector<Event *>> free; // by device
};

Shard &shardOfThisThread() {
    // Never destroyed: events stay valid for the life of the process (CUDA may be torn down before static dtors).
    static Shard *shards = new Shard[kShards];
    static std::atomic<unsigned> next{0};
    thread_local unsigned index = next.fetch_add(1, std::memory_order_relaxed) % kShards; // trivially destructible
    return shards[index];
}

// Records are numbered process-wide; a device sync publishes, per device, the number below which every record has
// completed (devices past the table fall back to queries).
constexpr int kSyncedDevices = 64;
std::atomic<uint64_t> gNextRecord{1};
std::atomic<uint64_t> gSyncedBelow[kSyncedDevices]; // zero-initialised

} // namespace

uint64_t deviceSyncStarting() noexcept { return gNextRecord.load(std::memory_order_acquire); }

void deviceSyncDone(int device, uint64_t started) noexcept {
    if (device < 0 || device >= kSyncedDevices) return;
    std::atomic<uint64_t> &below = gSyncedBelow[device];
    uint64_t seen = below.load(std::memory_order_relaxed);
    while (seen < started && !below.compare_exchange_weak(seen, started, std::memory_order_acq_rel)) {
    }
}

class EventPool {
public:
    static Event *acquire(int device) {
        Shard &shard = shardOfThisThread();
        {
            std::lock_guard<std::mutex> lock(shard.mutex);
            auto &list = shard.free[device];
            if (!list.empty()) {
                Event *e = list.back();
                list.pop_back();
                e->state_.store(0, std::memory_order_relaxed);
                e->sequence_ = 0;
                e->retain(); // pooled events have a count of 0
                return e;
            }
        }
        // An event belongs to the device current at its creation, which need not be `device` (a deferred access of
        // another stream, a release on another thread's device).
        DeviceGuard guard(device);
        cudaEvent_t handle = nullptr;
        checkCuda(cudaEventCreateWithFlags(&handle, cudaEventDisableTiming), "cudaEventCreateWithFlags");
        return new Event(handle, device);
    }
    static void give(Event *e) {
        Shard &shard = shardOfThisThread();
        std::lock_guard<std::mutex> lock(shard.mutex);
        shard.free[e->device()].push_back(e);
    }
};

void Event::lastReleased() noexcept {
    try {
        EventPool::give(this);
    } catch (...) {
        (void)cudaEventDestroy(handle_);
    }
}

bool Event::completedBySync() const noexcept {
    return sequence_ != 0 && device_ >= 0 && device_ < kSyncedDevices &&
           sequence_ < gSyncedBelow[device_].load(std::memory_order_acquire);
}

bool Event::done() const noexcept {
    const int s = state_.load(std::memory_order_acquire);
    if (!(s & kRecorded)) return false;
    if (s & kComplete) return true;
    if (completedBySync()) {
        state_.fetch_or(kComplete, std::memory_order_acq_rel);
        return true;
    }
    {
        RelaxedCaptureMode relaxed; // cudaEventQuery would invalidate a global-mode capture of any thread
        if (cudaEventQuery(handle_) == cudaErrorNotReady) return false;
    }
    state_.fetch_or(kComplete, std::memory_order_acq_rel);
    return true;
}

void Event::noteRecorded(Stream &on) noexcept {
    recordedOn_ = &on;
    record_ = on.noteRecord();
    // Numbered after the record call returned: a sync that starts later covers it.
    sequence_ = gNextRecord.fetch_add(1, std::memory_order_acq_rel);
}

bool Event::knownDone(const Stream &on) const noexcept {
    const int s = state_.load(std::memory_order_acquire);
    if (!(s & kRecorded)) return false;
    if (s & kComplete) return true;
    if (!completedBySync() && (recordedOn_ != &on || !on.synchronizedPast(record_))) return false;
    state_.fetch_or(kComplete, std::memory_order_acq_rel);
    return true;
}

Ref<Event> recordEvent(Stream &stream) {
    Ref<Event> e = Ref<Event>::adopt(EventPool::acquire(stream.device()));
    checkCuda(cudaEventRecord(e->handle(), stream.handle()), "cudaEventRecord");
    e->noteRecorded(stream);
    e->state_.store(Event::kRecorded, std::memory_order_release);
    count(stats().eventRecords);
    return e;
}

Ref<Event> reserveEvent(int device) { return Ref<Event>::adopt(EventPool::acquire(device)); }

void publishEvent(Event &event, Stream *stream) noexcept {
    event.recordedOn_ = nullptr;
    event.sequence_ = 0;
    if (stream != nullptr) {
        if (cudaEventRecord(event.handle(), stream->handle()) == cudaSuccess) {
            event.noteRecorded(*stream);
            count(stats().eventRecords);
        } else {
            (void)cudaGetLastError();
        }
    }
    const int before = event.state_.exchange(Event::kRecorded, std::memory_order_acq_rel);
    if (before & Event::kWaiters) {
        // Taking the mutex orders this wake-up after the waiter's check of the state (no lost wake-up).
        { std::lock_guard<std::mutex> lock(recordMutex()); }
        recordCv().notify_all();
    }
}

void awaitRecorded(const Event &event) noexcept {
    if (event.recorded()) return;
    std::unique_lock<std::mutex> lock(recordMutex());
    for (;;) {
        int s = event.state_.load(std::memory_order_acquire);
        if (s & Event::kRecorded) return;
        if (!(s & Event::kWaiters) && !event.state_.compare_exchange_weak(s, s | Event::kWaiters, std::memory_order_acq_rel))
            continue;
        recordCv().wait(lock);
    }
}

void waitEvent(const Stream &stream, const Event &event) {
    checkCuda(cudaStreamWaitEvent(stream.handle(), event.handle(), 0), "cudaStreamWaitEvent");
    count(stats().eventWaits);
}

} // namespace cv
