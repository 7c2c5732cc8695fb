#include "hazards.hpp"

#include "cuda_check.hpp"
#include "device_memory.hpp"
#include "device_resources.hpp"
#include "error.hpp"
#include "stats.hpp"
#include "tensor.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <new>

namespace cv {
namespace hazards {
namespace {

struct Deferred {
    std::vector<Ref<Event>> events;
    cvCleanupFn fn;
    void *userData;
};

struct Engine {
    std::mutex mutex;
    std::map<uint64_t, Ref<Region>> regions; // disjoint root regions keyed by lo
    std::vector<Deferred> deferred;
    uint64_t attachCount = 0;
};

// Never destroyed (tensors may be released from static destructors of other libraries), and not on the heap: after
// a plugin host's dlclose nothing of the library may remain allocated.
Engine &engine() {
    alignas(Engine) static unsigned char storage[sizeof(Engine)];
    static Engine *e = new (storage) Engine;
    return *e;
}

Region *rootOf(Tensor &t) {
    Region *r = t.region.get();
    if (r == nullptr) return nullptr;
    while (r->forward) r = r->forward.get();
    if (r != t.region.get()) t.region = Ref<Region>(r);
    return r;
}

// A root only the registry holds and no GPU work uses any more (a never-recorded event counts as in use).
bool forgettable(const Region &r) {
    if (r.useCount() != 1) return false;
    for (const auto *accesses : {&r.writers, &r.readers})
        for (const Access &a : *accesses)
            if (!a.event || !a.event->done()) return false;
    return true;
}

void sweepUnused(Engine &e) {
    for (auto it = e.regions.begin(); it != e.regions.end();)
        it = forgettable(*it->second) ? e.regions.erase(it) : std::next(it);
}

// The access's event, recorded now if it was deferred (see Access).
Event &eventOf(Access &a) {
    if (!a.event) {
        DeviceGuard guard(a.stream->device());
        a.event = recordEvent(*a.stream);
    }
    return *a.event;
}

bool allDone(const std::vector<Ref<Event>> &events) {
    return std::all_of(events.begin(), events.end(), [](const Ref<Event> &e) { return e->done(); });
}

// Device checks of a wrapper's memory (once), outside the engine lock. `stream` is the operation's stream, or null for
// an export, which leaves the stream checks to the first operation.
void checkDevice(Tensor &t, const Stream *stream) {
    const TensorDesc &d = t.desc();
    if (!t.checked.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(t.firstUseMutex);
        if (!t.checked.load(std::memory_order_relaxed)) {
            if (d.numel > 0 && t.device < 0) t.device = checkDeviceMemory(d);
            t.checked.store(true, std::memory_order_release);
        }
    }
    if (stream != nullptr && d.numel > 0 && t.device != stream->device())
        invalid(currentFunction(), ": a tensor on device ", t.device, " is used on a stream of device ", stream->device());
}

// The defensive sync owed by wrappers whose producer stream is unknown: one cudaDeviceSynchronize settles every such
// wrapper of the call; afterwards they take the event path. `stream` (null for an export) must not be capturing.
void settleUnknownProducers(std::initializer_list<Use> uses, const Stream *stream) {
    Tensor *owing = nullptr;
    for (const Use &u : uses)
        if (u.tensor->unknownProducer.load(std::memory_order_acquire)) owing = u.tensor;
    if (owing == nullptr) return;
    // An export on a machine without a device: no producer work can be in flight, so there is nothing to settle.
    if (stream == nullptr && !deviceAvailable()) return;
    if (stream != nullptr) {
        // Checked before any other CUDA call of the operation, so that nothing can disturb the capture.
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        checkCuda(cudaStreamIsCapturing(stream->handle(), &capture), "cudaStreamIsCapturing");
        if (capture != cudaStreamCaptureStatusNone)
            fail(CV_ERROR_INVALID_STATE, currentFunction(),
                 ": a tensor whose producer stream is unknown (CAI v2 or stream 0/1/2) needs a device synchronisation at its "
                 "first use, which is impossible while the stream is being captured into a CUDA graph; declare the producer "
                 "stream in the CAI, or export with stream -1 after synchronising, or use the tensor once before capture");
    }
    for (const Use &u : uses) checkDevice(*u.tensor, stream);
    DeviceGuard guard(owing->device);
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    count(stats().deviceSyncs);
    for (const Use &u : uses) u.tensor->unknownProducer.store(false, std::memory_order_release);
}

std::atomic<bool> &trackingEnabled() {
    static std::atomic<bool> enabled{true};
    return enabled;
}

void runCleanups(std::vector<Deferred> &ready) {
    for (auto &d : ready) d.fn(d.userData);
}

} // namespace

Ref<Region> attach(uint64_t lo, uint64_t hi) {
    Engine &e = engine();
    std::lock_guard<std::mutex> lock(e.mutex);
    if (++e.attachCount % 256 == 0) sweepUnused(e);
    // Roots are disjoint and sorted by lo, so their hi are sorted too: start at the last root with lo <= query lo.
    auto it = e.regions.upper_bound(lo);
    if (it != e.regions.begin() && std::prev(it)->second->hi > lo) --it;
    std::vector<Ref<Region>> overlapping;
    while (it != e.regions.end() && it->first < hi) {
        if (it->second->hi > lo) overlapping.push_back(it->second);
        it = e.regions.erase(it);
    }
    Ref<Region> root;
    if (overlapping.empty()) {
        root = Ref<Region>::adopt(new Region(lo, hi));
    } else {
        root = overlapping.front();
        for (size_t i = 1; i < overlapping.size(); ++i) {
            Region &other = *overlapping[i];
            root->writers.insert(root->writers.end(), other.writers.begin(), other.writers.end());
            root->readers.insert(root->readers.end(), other.readers.begin(), other.readers.end());
            other.writers.clear();
            other.readers.clear();
            other.forward = root;
            root->lo = std::min(root->lo, other.lo);
            root->hi = std::max(root->hi, other.hi);
        }
        root->lo = std::min(root->lo, lo);
        root->hi = std::max(root->hi, hi);
    }
    e.regions.emplace(root->lo, root);
    return root;
}

void addProducer(Tensor &tensor, const Ref<Stream> &stream, bool recordNow) {
    Engine &e = engine();
    DeviceGuard guard(stream->device());
    // An event recorded inside a capture could never be queried or waited on outside it: work that follows on the
    // capture is ordered by the graph itself, so a capturing producer adds no hazard state.
    if (isCapturing(*stream)) return;
    // Only a stream the library owns may have its event recorded later: an adopted one may be gone by then.
    Ref<Event> event = recordNow || !stream->owned() ? recordEvent(*stream) : nullptr;
    std::lock_guard<std::mutex> lock(e.mutex);
    Region *root = rootOf(tensor);
    if (root == nullptr) return;
    auto &w = root->writers;
    auto same = std::find_if(w.begin(), w.end(), [&](const Access &a) { return sameStream(*a.stream, *stream); });
    if (same != w.end()) same->event = std::move(event); // keeps the stream object already held (it may own the stream)
    else w.push_back({stream, std::move(event)});
}

void submit(const Ref<Stream> &stream, std::initializer_list<Use> uses, const std::function<void()> &launch) {
    Engine &e = engine();
    DeviceGuard guard(stream->device());
    settleUnknownProducers(uses, stream.get());
    for (const Use &u : uses) checkDevice(*u.tensor, stream.get());
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    checkCuda(cudaStreamIsCapturing(stream->handle(), &capture), "cudaStreamIsCapturing");
    if (capture != cudaStreamCaptureStatusNone) {
        // Captured work runs when the graph is launched, not now: waits on events recorded outside the capture would
        // cross its boundary (CUDA rejects them), and its events must not become hazard state. Ordering a graph's
        // launch is the caller's, as for any CUDA graph (docs/streams.md).
        launch();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        struct Touched {
            Region *root;
            bool write;
        };
        std::vector<Touched> touched;
        for (const Use &u : uses) {
            Region *root = rootOf(*u.tensor);
            if (root == nullptr) continue;
            auto same = std::find_if(touched.begin(), touched.end(), [&](const Touched &t) { return t.root == root; });
            if (same != touched.end()) same->write = same->write || u.write;
            else touched.push_back({root, u.write});
        }
        std::vector<Event *> waits;
        auto addWaits = [&](std::vector<Access> &accesses) {
            for (Access &a : accesses)
                if (!sameStream(*a.stream, *stream) && std::find(waits.begin(), waits.end(), &eventOf(a)) == waits.end())
                    waits.push_back(a.event.get());
        };
        for (const Touched &t : touched) {
            addWaits(t.root->writers);           // RAW, WAW
            if (t.write) addWaits(t.root->readers); // WAR
        }
        if (trackingEnabled().load(std::memory_order_relaxed))
            for (Event *ev : waits) waitEvent(*stream, *ev);
        launch();
        if (!touched.empty()) {
            Ref<Event> done = recordEvent(*stream);
            for (const Touched &t : touched) {
                if (t.write) {
                    t.root->writers.assign(1, Access{stream, done});
                    t.root->readers.clear();
                } else {
                    auto &r = t.root->readers;
                    auto mine = std::find_if(r.begin(), r.end(), [&](const Access &a) { return sameStream(*a.stream, *stream); });
                    if (mine != r.end()) mine->event = done;
                    else r.push_back({stream, done});
                }
            }
        }
    }
    collect(false);
}

Ref<Stream> exportStream(Tensor &tensor) {
    Engine &e = engine();
    settleUnknownProducers({{&tensor, false}}, nullptr);
    std::lock_guard<std::mutex> lock(e.mutex);
    Region *root = rootOf(tensor);
    if (root == nullptr) return nullptr;
    // Pending reads count too: a consumer may write into the exported memory.
    std::vector<const Access *> pending;
    for (auto *accesses : {&root->writers, &root->readers})
        for (Access &a : *accesses)
            if (!eventOf(a).done()) pending.push_back(&a);
    if (pending.empty()) return nullptr;
    const Ref<Stream> &first = pending.front()->stream;
    const bool oneStream = std::all_of(pending.begin(), pending.end(), [&](const Access *a) { return sameStream(*a->stream, *first); });
    if (oneStream && first->owned()) return first;
    // A CAI export must not advertise a default stream (0/1/2 mean something else to consumers), nor several, nor an
    // adopted stream (the export must keep the advertised stream alive, which only the library's own streams allow):
    // relay them through a library-owned stream that waits on each.
    const int device = first->device();
    DeviceGuard guard(device);
    Ref<Stream> relay = deviceResources(device).relayStream;
    for (const Access *a : pending) waitEvent(*relay, *a->event);
    return relay;
}

void retire(Tensor &tensor) noexcept {
    Engine &e = engine();
    std::vector<Deferred> ready;
    try {
        std::lock_guard<std::mutex> lock(e.mutex);
        // Pending accesses are looked up (cudaEventQuery, slow) only where they matter: for a cleanup callback, and
        // for foreign memory, whose region must outlive its pending work.
        const bool needPending = tensor.cleanup != nullptr || !tensor.ownsMemory();
        std::vector<Ref<Event>> pending;
        Ref<Stream> onlyStream; // the one stream that accessed the memory, if there is exactly one
        bool oneStream = true;
        Region *root = rootOf(tensor);
        if (root != nullptr)
            for (auto *accesses : {&root->writers, &root->readers})
                for (Access &a : *accesses) {
                    if (!onlyStream) onlyStream = a.stream;
                    else if (!sameStream(*onlyStream, *a.stream)) oneStream = false;
                    if (needPending && !eventOf(a).done()) pending.push_back(a.event);
                }
        if (tensor.ownsMemory() && root != nullptr) {
            DeviceGuard guard(tensor.device);
            // Stream-ordered free, with no need to know whether the work has finished: on the one stream that used the
            // memory when the library owns it, else on the allocation stream after waiting for every access (a
            // completed event costs nothing; an adopted stream may no longer exist).
            const bool onTheOneStream = onlyStream && oneStream && onlyStream->owned();
            // Memory allocated inside a capture that is still going on is freed inside it too (a graph free node):
            // freed outside, it would be reused before the graph ever ran.
            const bool inCapture = tensor.capturedOn && isCapturing(*tensor.capturedOn);
            const Stream &freeOn = inCapture ? *tensor.capturedOn
                                   : onTheOneStream ? *onlyStream : *deviceResources(tensor.device).allocStream;
            if (!onTheOneStream && !inCapture)
                for (auto *accesses : {&root->writers, &root->readers})
                    for (Access &a : *accesses) waitEvent(freeOn, eventOf(a));
            (void)cudaFreeAsync(reinterpret_cast<void *>(tensor.desc().data), freeOn.handle());
        }
        // Owned memory is freed stream-ordered (the pool orders any reuse), so its region can be forgotten at once;
        // foreign memory's only while nothing is pending on it.
        const bool idle = tensor.ownsMemory() || pending.empty();
        if (tensor.cleanup != nullptr) {
            Deferred d{std::move(pending), tensor.cleanup, tensor.cleanupUserData};
            if (allDone(d.events)) ready.push_back(std::move(d));
            else e.deferred.push_back(std::move(d));
        }
        Ref<Region> held(root);
        tensor.region = nullptr;
        // Forget a region that nobody else views, with the streams and events it holds.
        if (held && held->useCount() == 2 && idle) {
            auto it = e.regions.find(held->lo);
            if (it != e.regions.end() && it->second == held) e.regions.erase(it);
        }
    } catch (...) {
        // Release cannot report errors; a failed free leaks rather than corrupts.
    }
    runCleanups(ready);
}

int deviceOf(Tensor &tensor) {
    checkDevice(tensor, nullptr);
    return tensor.device >= 0 ? tensor.device : currentDevice();
}

bool isCapturing(const Stream &stream) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    checkCuda(cudaStreamIsCapturing(stream.handle(), &capture), "cudaStreamIsCapturing");
    return capture != cudaStreamCaptureStatusNone;
}

void orderConsumer(Tensor &tensor, const Ref<Stream> &consumer, bool includeReads, bool wait) {
    Engine &e = engine();
    DeviceGuard guard(consumer->device());
    settleUnknownProducers({{&tensor, false}}, consumer.get()); // its capture check comes before any other CUDA call
    checkDevice(tensor, consumer.get());
    if (!wait || isCapturing(*consumer)) return;
    std::lock_guard<std::mutex> lock(e.mutex);
    Region *root = rootOf(tensor);
    if (root == nullptr) return;
    std::vector<Event *> waits;
    auto addWaits = [&](std::vector<Access> &accesses) {
        for (Access &a : accesses)
            if (!sameStream(*a.stream, *consumer) && std::find(waits.begin(), waits.end(), &eventOf(a)) == waits.end())
                waits.push_back(a.event.get());
    };
    addWaits(root->writers);
    if (includeReads) addWaits(root->readers);
    if (trackingEnabled().load(std::memory_order_relaxed))
        for (Event *ev : waits) waitEvent(*consumer, *ev);
}

void addConsumer(Tensor &tensor, const Ref<Stream> &consumer) {
    if (tensor.desc().numel > 0) addProducer(tensor, consumer, true);
}

void collect(bool wait) {
    Engine &e = engine();
    if (wait) {
        std::vector<Ref<Event>> events;
        {
            std::lock_guard<std::mutex> lock(e.mutex);
            for (const Deferred &d : e.deferred) events.insert(events.end(), d.events.begin(), d.events.end());
        }
        for (const Ref<Event> &ev : events) checkCuda(cudaEventSynchronize(ev->handle()), "cudaEventSynchronize");
        for (int device : devicesWithResources()) {
            DeviceGuard guard(device);
            checkCuda(cudaStreamSynchronize(deviceResources(device).allocStream->handle()), "cudaStreamSynchronize");
        }
    }
    std::vector<Deferred> ready;
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        if (e.deferred.empty()) return;
        auto keep = std::stable_partition(e.deferred.begin(), e.deferred.end(), [](const Deferred &d) { return !allDone(d.events); });
        std::move(keep, e.deferred.end(), std::back_inserter(ready));
        e.deferred.erase(keep, e.deferred.end());
    }
    runCleanups(ready);
}

} // namespace hazards

namespace detail {
void setHazardTrackingEnabled(bool enabled) noexcept { hazards::trackingEnabled().store(enabled, std::memory_order_relaxed); }
} // namespace detail
} // namespace cv
