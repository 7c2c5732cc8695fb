#include "event_pool.hpp"

#include "cuda_check.hpp"
#include "stats.hpp"
#include "stream.hpp"

#include <map>
#include <mutex>
#include <vector>

namespace cv {

class EventPool {
public:
    static Event *acquire(int device) {
        {
            std::lock_guard<std::mutex> lock(mutex());
            auto &list = free()[device];
            if (!list.empty()) {
                Event *e = list.back();
                list.pop_back();
                e->retain(); // pooled events have a count of 0
                return e;
            }
        }
        cudaEvent_t handle = nullptr;
        checkCuda(cudaEventCreateWithFlags(&handle, cudaEventDisableTiming), "cudaEventCreateWithFlags");
        return new Event(handle, device);
    }
    static void give(Event *e) {
        std::lock_guard<std::mutex> lock(mutex());
        free()[e->device()].push_back(e);
    }

private:
    // Never destroyed: events stay valid for the life of the process (CUDA may be torn down before static dtors).
    static std::mutex &mutex() { static auto *m = new std::mutex; return *m; }
    static std::map<int, std::vector<Event *>> &free() { static auto *f = new std::map<int, std::vector<Event *>>; return *f; }
};

void Event::lastReleased() noexcept {
    try {
        EventPool::give(this);
    } catch (...) {
        (void)cudaEventDestroy(handle_);
    }
}

bool Event::done() const noexcept {
    RelaxedCaptureMode relaxed; // cudaEventQuery would invalidate a global-mode capture of any thread
    return cudaEventQuery(handle_) != cudaErrorNotReady;
}

Ref<Event> recordEvent(const Stream &stream) {
    Ref<Event> e = Ref<Event>::adopt(EventPool::acquire(stream.device()));
    checkCuda(cudaEventRecord(e->handle(), stream.handle()), "cudaEventRecord");
    count(stats().eventRecords);
    return e;
}

void waitEvent(const Stream &stream, const Event &event) {
    checkCuda(cudaStreamWaitEvent(stream.handle(), event.handle(), 0), "cudaStreamWaitEvent");
    count(stats().eventWaits);
}

} // namespace cv
