#include "hazards.hpp"

#include "cuda_check.hpp"
#include "device_memory.hpp"
#include "device_resources.hpp"
#include "error.hpp"
#include "stats.hpp"
#include "tensor.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <new>

namespace cv {
namespace hazards {
namespace {

// An event some access recorded, with the stream it was recorded on (completion order is per stream).
struct Pending {
    cudaStream_t stream;
    Ref<Event> event;
};

// A cleanup callback waiting for GPU work. `waits` are the accesses still pending when it was deferred; the first
// one names the queue it sits in.
struct Deferred {
    std::vector<Pending> waits;
    cvCleanupFn fn;
    void *userData;
};

// Deferred cleanups in one FIFO per stream, keyed by the stream of their first pending event: events of one stream
// complete in the order they were recorded, so a collection checks the oldest entry of a queue and stops at the
// first one that is not done. A collection costs what is ready, not the backlog.
struct DeferredQueues {
    std::mutex mutex; // never held across a callback; guards the queues, not the engine's hazard state
    std::map<cudaStream_t, std::deque<Deferred>> queues;
    std::atomic<size_t> count{0};
    std::atomic<unsigned> submissions{0}; // submissions that found cleanups waiting (see collectReady)
    size_t rotation = 0;                 // which other queue a submission also looks at
};

// The engine's lock guards bookkeeping only (regions, accesses, the registry): no CUDA call and no event query is
// made under it.
struct Engine {
    std::mutex mutex;
    std::map<uint64_t, Ref<Region>> regions; // disjoint root regions keyed by lo
    std::atomic<uint64_t> attachCount{0};
    DeferredQueues deferred;
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

// Whether a region's accesses are known to have completed, without a query (a null or unrecorded event counts as
// in use).
bool knownIdle(const Region &r) {
    for (const auto *accesses : {&r.writers, &r.readers})
        for (const Access &a : *accesses)
            if (!a.event || !a.event->knownDone(*a.stream)) return false;
    return true;
}

// Forgets roots that only the registry holds and whose GPU work has completed (foreign memory released with work
// pending stays registered until then, holding the streams of its accesses). Called outside the lock, every 256
// attaches: what is known done goes at once; the rest is queried with the lock released, and forgotten if still
// unused. With `wait` (cvSyncAndCollect) the rest is waited for instead of queried, so every such root goes.
void sweepUnused(Engine &e, bool wait) {
    std::vector<Ref<Region>> candidates;
    std::vector<Ref<Event>> events;
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        for (auto it = e.regions.begin(); it != e.regions.end();) {
            const Region &r = *it->second;
            if (r.useCount() == 1 && knownIdle(r)) {
                it = e.regions.erase(it);
                continue;
            }
            if (r.useCount() == 1) {
                candidates.push_back(it->second);
                for (const auto *accesses : {&r.writers, &r.readers})
                    for (const Access &a : *accesses)
                        if (a.event) events.push_back(a.event);
            }
            ++it;
        }
    }
    // The queries (on copies: the accesses change under the lock only) mark completed events (Event::done), so the
    // check under the lock below needs none; an access added meanwhile (another wrapper of the memory, used and
    // released) is not marked, and keeps the region.
    for (const Ref<Event> &ev : events) {
        if (wait) {
            awaitRecorded(*ev);
            DeviceGuard guard(ev->device());
            checkCuda(cudaEventSynchronize(ev->handle()), "cudaEventSynchronize");
        }
        (void)ev->done();
    }
    std::lock_guard<std::mutex> lock(e.mutex);
    for (const Ref<Region> &r : candidates) {
        if (r->useCount() != 2 || !knownIdle(*r)) continue;
        auto it = e.regions.find(r->lo);
        if (it != e.regions.end() && it->second == r) e.regions.erase(it);
    }
}

// Events reserved under the engine lock that the reserving thread must record once the lock is released: deferred
// access events (see Access) and a submission's own event. Whatever is left is recorded by the destructor, so that a
// failure on the way (a failed wait or launch) still publishes them: other threads may already wait for them, and an
// event recorded on its stream covers that stream's earlier work, which later accesses were told to wait for.
class Reservations {
public:
    Reservations() = default;
    Reservations(const Reservations &) = delete;
    Reservations &operator=(const Reservations &) = delete;
    ~Reservations() {
        publishDeferred();
        publishOwn();
    }
    // The access's event, reserved now if it was deferred (recorded by publishDeferred, on the access's stream,
    // covering that access and whatever the stream did since).
    Ref<Event> eventOf(Access &a) {
        if (!a.event) {
            a.event = reserveEvent(a.stream->device());
            pending_.push_back({a.stream, a.event});
        }
        return a.event;
    }
    // Makes `event` (reserved, not published) this submission's event, recorded on `stream` by publishOwn.
    const Ref<Event> &own(const Ref<Stream> &stream, Ref<Event> event) {
        ownStream_ = stream;
        own_ = std::move(event);
        return own_;
    }
    void publishDeferred() noexcept {
        for (auto &[stream, event] : pending_) publish(*event, *stream);
        pending_.clear();
    }
    void publishOwn() noexcept {
        if (own_) publish(*own_, *ownStream_);
        own_ = nullptr;
    }

private:
    static void publish(Event &event, Stream &stream) noexcept {
        try {
            DeviceGuard guard(stream.device());
            publishEvent(event, &stream);
        } catch (...) {
            publishEvent(event, nullptr);
        }
    }
    std::vector<std::pair<Ref<Stream>, Ref<Event>>> pending_;
    Ref<Stream> ownStream_;
    Ref<Event> own_;
};

// Copies of a region's accesses, taken under the lock and examined outside it; with `reserved`, every one has an
// event (deferred ones reserved).
std::vector<Access> snapshot(Region &root, Reservations *reserved) {
    std::vector<Access> out;
    for (auto *accesses : {&root.writers, &root.readers})
        for (Access &a : *accesses) {
            if (reserved != nullptr) reserved->eventOf(a);
            out.push_back(a);
        }
    return out;
}

// Device checks of a wrapper's memory (once), outside the engine lock. `stream` is the operation's stream, or null for
// an export, which leaves the stream checks to the first operation.
void checkDevice(Tensor &t, const Stream *stream, const char *name = nullptr) {
    const TensorDesc &d = t.desc();
    if (!t.checked.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(t.firstUseMutex);
        if (!t.checked.load(std::memory_order_relaxed)) {
            if (d.numel > 0 && t.device < 0) t.device = checkDeviceMemory(d);
            t.checked.store(true, std::memory_order_release);
        }
    }
    if (stream != nullptr && d.numel > 0 && t.device != stream->device())
        invalid(currentFunction(), ": ", name != nullptr ? name : "a tensor", " is on device ", t.device,
                " (where its memory is) but the stream is on device ", stream->device(),
                "; use a stream of device ", t.device, " (cvStreamCreateOnDevice), or a tensor on device ", stream->device());
}

// The defensive sync owed by wrappers whose producer stream is unknown: one cudaDeviceSynchronize settles every such
// wrapper of the call; afterwards they take the event path. `stream` (null for an export) must not be capturing.
// Returns whether it synchronised the device (every event recorded before then has completed). `capturing`: whether
// `stream` is being captured, when the caller knows it already (one cudaStreamIsCapturing per operation is enough).
enum class Capture { Unknown, No, Yes };
bool settleUnknownProducers(std::initializer_list<Use> uses, const Stream *stream, Capture capturing = Capture::Unknown) {
    Tensor *owing = nullptr;
    for (const Use &u : uses)
        if (u.tensor->unknownProducer.load(std::memory_order_acquire)) owing = u.tensor;
    if (owing == nullptr) return false;
    // An export on a machine without a device: no producer work can be in flight, so there is nothing to settle.
    if (stream == nullptr && !deviceAvailable()) return false;
    if (stream != nullptr) {
        // Checked before any other CUDA call of the operation, so that nothing can disturb the capture.
        if (capturing == Capture::Unknown) capturing = isCapturing(*stream) ? Capture::Yes : Capture::No;
        if (capturing == Capture::Yes)
            fail(CV_ERROR_INVALID_STATE, currentFunction(),
                 ": a tensor whose producer stream is unknown (CAI v2 or stream 0/1/2) needs a device synchronisation at its "
                 "first use, which is impossible while the stream is being captured into a CUDA graph; declare the producer "
                 "stream in the CAI, or export with stream -1 after synchronising, or use the tensor once before capture");
    }
    for (const Use &u : uses) checkDevice(*u.tensor, stream, u.name);
    DeviceGuard guard(owing->device);
    const uint64_t started = deviceSyncStarting();
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    deviceSyncDone(owing->device, started); // later done() / knownDone() of earlier records need no query
    count(stats().deviceSyncs);
    for (const Use &u : uses) u.tensor->unknownProducer.store(false, std::memory_order_release);
    return true;
}

std::atomic<bool> &trackingEnabled() {
    static std::atomic<bool> enabled{true};
    return enabled;
}

std::atomic<bool> &awaitEnabled() {
    static std::atomic<bool> enabled{true};
    return enabled;
}

std::atomic<void (*)()> &beforeLaunchHook() {
    static std::atomic<void (*)()> hook{nullptr};
    return hook;
}

void runCleanups(std::vector<Deferred> &ready) {
    for (auto &d : ready) d.fn(d.userData);
}

// Queues a cleanup behind its first pending event, or returns true when it waits for nothing.
bool deferOrReady(Engine &e, Deferred &d) {
    if (d.waits.empty()) return true;
    std::lock_guard<std::mutex> lock(e.deferred.mutex);
    e.deferred.queues[d.waits.front().stream].push_back(std::move(d));
    e.deferred.count.fetch_add(1, std::memory_order_relaxed);
    return false;
}

// Moves the ready entries at the head of one queue into `ready`; entries that still wait on another stream move to
// that stream's queue. Stops at the first entry that is not done. Returns whether the queue is now empty.
bool drainQueue(DeferredQueues &q, cudaStream_t key, std::vector<Deferred> &ready) {
    auto it = q.queues.find(key);
    if (it == q.queues.end()) return true;
    std::deque<Deferred> &queue = it->second;
    while (!queue.empty()) {
        Deferred &d = queue.front();
        auto &w = d.waits;
        w.erase(w.begin(), std::find_if(w.begin(), w.end(), [](const Pending &p) { return !p.event->done(); }));
        if (!w.empty() && w.front().stream == key) break;
        Deferred moved = std::move(d);
        queue.pop_front();
        if (moved.waits.empty()) {
            q.count.fetch_sub(1, std::memory_order_relaxed);
            ready.push_back(std::move(moved));
        } else {
            q.queues[moved.waits.front().stream].push_back(std::move(moved)); // does not invalidate `queue` (std::map)
        }
    }
    if (!queue.empty()) return false;
    q.queues.erase(it);
    return true;
}

// Collects the queues of `stream` and of one other stream in turn (a submission's share of the work), or of every
// stream when `stream` is null. A submission looks only every kCollectEvery-th time while few cleanups wait: each
// look queries an event, and a cleanup may wait a few operations longer without harm.
void collectReady(const Stream *stream) {
    Engine &e = engine();
    DeferredQueues &q = e.deferred;
    const size_t waiting = q.count.load(std::memory_order_relaxed);
    if (waiting == 0) return;
    constexpr unsigned kCollectEvery = 8;
    constexpr size_t kManyWaiting = 64;
    if (stream != nullptr && waiting < kManyWaiting && q.submissions.fetch_add(1, std::memory_order_relaxed) % kCollectEvery != 0)
        return;
    std::vector<Deferred> ready;
    {
        std::unique_lock<std::mutex> lock(q.mutex, std::defer_lock);
        if (stream == nullptr) lock.lock();
        else if (!lock.try_lock()) return; // another thread is collecting
        if (stream == nullptr) {
            std::vector<cudaStream_t> keys;
            for (const auto &entry : q.queues) keys.push_back(entry.first);
            for (cudaStream_t key : keys) drainQueue(q, key, ready);
        } else {
            drainQueue(q, stream->identity(), ready);
            if (!q.queues.empty()) {
                auto other = q.queues.begin();
                std::advance(other, static_cast<std::ptrdiff_t>(q.rotation++ % q.queues.size()));
                drainQueue(q, other->first, ready);
            }
        }
    }
    runCleanups(ready);
}

} // namespace

Ref<Region> attach(uint64_t lo, uint64_t hi) {
    Engine &e = engine();
    if (e.attachCount.fetch_add(1, std::memory_order_relaxed) % 256 == 255) sweepUnused(e, false);
    std::lock_guard<std::mutex> lock(e.mutex);
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

namespace {
// Makes `stream` (with `event`, or null: recorded when first needed) a writer of the tensor's memory. No CUDA call.
void noteWriter(Engine &e, Tensor &tensor, const Ref<Stream> &stream, Ref<Event> event) {
    std::lock_guard<std::mutex> lock(e.mutex);
    Region *root = rootOf(tensor);
    if (root == nullptr) return;
    auto &w = root->writers;
    auto same = std::find_if(w.begin(), w.end(), [&](const Access &a) { return sameStream(*a.stream, *stream); });
    if (same != w.end()) same->event = std::move(event); // keeps the stream object already held (it may own the stream)
    else w.push_back({stream, std::move(event)});
}
} // namespace

void addProducer(Tensor &tensor, const Ref<Stream> &stream, bool recordNow) {
    Engine &e = engine();
    DeviceGuard guard(stream->device());
    // An event recorded inside a capture could never be queried or waited on outside it: work that follows on the
    // capture is ordered by the graph itself, so a capturing producer adds no hazard state.
    if (isCapturing(*stream)) return;
    // Only a stream the library owns may have its event recorded later: an adopted one may be gone by then.
    Ref<Event> event = recordNow || !stream->owned() ? recordEvent(*stream) : nullptr;
    noteWriter(e, tensor, stream, std::move(event));
}

void addAllocation(Tensor &tensor, const Ref<Stream> &stream) { noteWriter(engine(), tensor, stream, nullptr); }

void submit(const Ref<Stream> &stream, std::initializer_list<Use> uses, const std::function<void()> &launch) {
    Engine &e = engine();
    DeviceGuard guard(stream->device());
    // The first CUDA call after cudaGetDevice, which is legal during capture: nothing before it can disturb one.
    const bool capturing = isCapturing(*stream);
    settleUnknownProducers(uses, stream.get(), capturing ? Capture::Yes : Capture::No);
    for (const Use &u : uses) checkDevice(*u.tensor, stream.get(), u.name);
    if (capturing) {
        // Captured work runs when the graph is launched, not now: waits on events recorded outside the capture would
        // cross its boundary (CUDA rejects them), and its events must not become hazard state. Ordering a graph's
        // launch is the caller's, as for any CUDA graph (docs/streams.md).
        launch();
        return;
    }
    // Under the lock: the hazards to wait for, and this submission's access with its event reserved, so that every
    // later submission orders itself after this one. Outside it: the waits, the launch and the record. A later
    // submission that needs this event waits until it is recorded (awaitRecorded), also on the same stream, whose
    // order then follows the order of the bookkeeping.
    Reservations reserved;
    std::vector<Ref<Event>> waits;      // other streams' events: cudaStreamWaitEvent
    std::vector<Ref<Event>> unrecorded; // this stream's events not recorded yet: launch after them
    struct Touched {
        Region *root;
        bool write;
    };
    std::vector<Touched> touched;
    // Allocations (and an event creation when the pool is empty) happen before the lock, not under it.
    touched.reserve(uses.size());
    waits.reserve(2 * uses.size());
    Ref<Event> event = reserveEvent(stream->device());
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        for (const Use &u : uses) {
            Region *root = rootOf(*u.tensor);
            if (root == nullptr) continue;
            auto same = std::find_if(touched.begin(), touched.end(), [&](const Touched &t) { return t.root == root; });
            if (same != touched.end()) same->write = same->write || u.write;
            else touched.push_back({root, u.write});
        }
        auto addWaits = [&](std::vector<Access> &accesses) {
            for (Access &a : accesses) {
                if (sameStream(*a.stream, *stream)) {
                    if (a.event && !a.event->recorded()) unrecorded.push_back(a.event);
                    continue;
                }
                Ref<Event> ev = reserved.eventOf(a);
                if (std::find(waits.begin(), waits.end(), ev) == waits.end()) waits.push_back(std::move(ev));
            }
        };
        for (const Touched &t : touched) {
            addWaits(t.root->writers);              // RAW, WAW
            if (t.write) addWaits(t.root->readers); // WAR
        }
        if (!touched.empty()) {
            const Ref<Event> &done = reserved.own(stream, std::move(event));
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
    reserved.publishDeferred();
    const bool await = awaitEnabled().load(std::memory_order_relaxed);
    if (trackingEnabled().load(std::memory_order_relaxed))
        for (const Ref<Event> &ev : waits) {
            if (await) awaitRecorded(*ev);
            waitEvent(*stream, *ev);
        }
    if (await)
        for (const Ref<Event> &ev : unrecorded) awaitRecorded(*ev);
    if (auto hook = beforeLaunchHook().load(std::memory_order_acquire)) hook();
    launch();
    reserved.publishOwn();
    collectReady(stream.get());
}

Ref<Stream> exportStream(Tensor &tensor) {
    Engine &e = engine();
    const bool synced = settleUnknownProducers({{&tensor, false}}, nullptr);
    Reservations reserved;
    std::vector<Access> accesses;
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        Region *root = rootOf(tensor);
        if (root == nullptr) return nullptr;
        accesses = snapshot(*root, &reserved);
    }
    reserved.publishDeferred();
    // Pending reads count too: a consumer may write into the exported memory. What is known to be done (synchronised
    // streams, events found complete before) is left out without a query. If the rest is on one stream the library
    // owns, that stream is advertised without asking whether its work has completed meanwhile (a query costs about
    // a microsecond; a consumer's wait on a completed stream costs nothing): no access is ever left out unless done.
    std::vector<const Access *> pending;
    for (const Access &a : accesses) {
        awaitRecorded(*a.event); // the advertised stream must already hold the access's work
        if (!a.event->knownDone(*a.stream)) pending.push_back(&a);
    }
    auto onOneOwnedStream = [&] {
        return pending.front()->stream->owned() && std::all_of(pending.begin(), pending.end(), [&](const Access *a) {
                   return sameStream(*a->stream, *pending.front()->stream);
               });
    };
    if (pending.empty()) return nullptr;
    // After the defensive sync the accesses recorded before it have completed, which their events say without the
    // stream's knowledge: advertising their stream unasked would name work that is no longer pending.
    if (!synced && onOneOwnedStream()) return pending.front()->stream;
    pending.erase(std::remove_if(pending.begin(), pending.end(), [](const Access *a) { return a->event->done(); }), pending.end());
    if (pending.empty()) return nullptr;
    if (onOneOwnedStream()) return pending.front()->stream;
    const Ref<Stream> &first = pending.front()->stream;
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
    try {
        // Pending accesses matter for a cleanup callback, and for foreign memory, whose region must outlive its
        // pending work. No event is queried here (a query costs about a microsecond): what is not known done is
        // treated as pending, so the cleanup waits in its stream's queue for a collection, and the region for the
        // registry's sweep.
        const bool needPending = tensor.cleanup != nullptr || !tensor.ownsMemory();
        Reservations reserved;
        std::vector<Access> accesses;
        Ref<Region> held;
        Ref<Stream> onlyStream; // the one stream that accessed the memory, if there is exactly one
        bool oneStream = true;
        {
            std::lock_guard<std::mutex> lock(e.mutex);
            Region *root = rootOf(tensor);
            if (root != nullptr)
                for (const auto *list : {&root->writers, &root->readers})
                    for (const Access &a : *list) {
                        if (!onlyStream) onlyStream = a.stream;
                        else if (!sameStream(*onlyStream, *a.stream)) oneStream = false;
                    }
            const bool freeOnTheOneStream = onlyStream && oneStream && onlyStream->owned();
            if (root != nullptr) accesses = snapshot(*root, needPending || !freeOnTheOneStream ? &reserved : nullptr);
            held = Ref<Region>(root);
            tensor.region = nullptr;
        }
        reserved.publishDeferred();
        // Accesses other threads reserved before this release must be on their streams before the free is queued.
        for (const Access &a : accesses)
            if (a.event) awaitRecorded(*a.event);
        std::vector<Pending> pending;
        if (needPending)
            for (const Access &a : accesses)
                if (!a.event->knownDone(*a.stream)) pending.push_back({a.stream->identity(), a.event});
        if (tensor.ownsMemory() && held) {
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
                for (const Access &a : accesses) waitEvent(freeOn, *a.event); // recorded: awaited above
            void *block = reinterpret_cast<void *>(tensor.desc().data);
            // Every use on the one stream: the block may go straight to that stream's next allocation of its size
            // (not a graph's memory node: a graph cannot be launched again before its allocation is freed).
            const bool kept = onTheOneStream && !tensor.capturedOn &&
                              onlyStream->keepBlock(block, static_cast<size_t>(tensor.desc().extentHi));
            if (!kept) (void)cudaFreeAsync(block, freeOn.handle());
        }
        // Owned memory is freed stream-ordered (the pool orders any reuse), so its region can be forgotten at once;
        // foreign memory's only while nothing is pending on it.
        const bool idle = tensor.ownsMemory() || pending.empty();
        if (tensor.cleanup != nullptr) {
            Deferred d{std::move(pending), tensor.cleanup, tensor.cleanupUserData};
            if (deferOrReady(e, d)) d.fn(d.userData);
        }
        // Forget a region that nobody else views, with the streams and events it holds.
        if (held && idle) {
            std::lock_guard<std::mutex> lock(e.mutex);
            if (held->useCount() == 2) {
                auto it = e.regions.find(held->lo);
                if (it != e.regions.end() && it->second == held) e.regions.erase(it);
            }
        }
    } catch (...) {
        // Release cannot report errors; a failed free leaks rather than corrupts.
    }
}

int deviceOf(Tensor &tensor) {
    checkDevice(tensor, nullptr);
    return tensor.device >= 0 ? tensor.device : currentDevice();
}

bool isCapturing(const Stream &stream) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    checkCuda(cudaStreamIsCapturing(stream.identity(), &capture), "cudaStreamIsCapturing");
    return capture != cudaStreamCaptureStatusNone;
}

void orderConsumer(Tensor &tensor, const Ref<Stream> &consumer, bool includeReads, bool wait) {
    Engine &e = engine();
    DeviceGuard guard(consumer->device());
    settleUnknownProducers({{&tensor, false}}, consumer.get()); // its capture check comes before any other CUDA call
    checkDevice(tensor, consumer.get(), "tensor");
    if (!wait || isCapturing(*consumer)) return;
    // As in submit: the events are found (deferred ones reserved) under the lock, recorded and waited on outside it.
    Reservations reserved;
    std::vector<Ref<Event>> waits;
    {
        std::lock_guard<std::mutex> lock(e.mutex);
        Region *root = rootOf(tensor);
        if (root == nullptr) return;
        auto addWaits = [&](std::vector<Access> &accesses) {
            for (Access &a : accesses) {
                if (sameStream(*a.stream, *consumer)) continue;
                Ref<Event> ev = reserved.eventOf(a);
                if (std::find(waits.begin(), waits.end(), ev) == waits.end()) waits.push_back(std::move(ev));
            }
        };
        addWaits(root->writers);
        if (includeReads) addWaits(root->readers);
    }
    reserved.publishDeferred();
    if (trackingEnabled().load(std::memory_order_relaxed))
        for (const Ref<Event> &ev : waits) {
            awaitRecorded(*ev);
            waitEvent(*consumer, *ev);
        }
}

void addConsumer(Tensor &tensor, const Ref<Stream> &consumer) {
    if (tensor.desc().numel == 0) return;
    checkDevice(tensor, consumer.get(), "tensor");
    addProducer(tensor, consumer, true);
}

void collect(bool wait) {
    Engine &e = engine();
    if (wait) {
        std::vector<Ref<Event>> events;
        {
            std::lock_guard<std::mutex> lock(e.deferred.mutex);
            for (const auto &entry : e.deferred.queues)
                for (const Deferred &d : entry.second)
                    for (const Pending &p : d.waits) events.push_back(p.event);
        }
        for (const Ref<Event> &ev : events) checkCuda(cudaEventSynchronize(ev->handle()), "cudaEventSynchronize");
        for (int device : devicesWithResources()) {
            DeviceGuard guard(device);
            checkCuda(cudaStreamSynchronize(deviceResources(device).allocStream->handle()), "cudaStreamSynchronize");
        }
        sweepUnused(e, true);
    }
    collectReady(nullptr);
}

} // namespace hazards

namespace detail {
void setHazardTrackingEnabled(bool enabled) noexcept { hazards::trackingEnabled().store(enabled, std::memory_order_relaxed); }
void setAwaitRecordedEnabled(bool enabled) noexcept { hazards::awaitEnabled().store(enabled, std::memory_order_relaxed); }
void setBeforeLaunchHook(void (*hook)()) noexcept { hazards::beforeLaunchHook().store(hook, std::memory_order_release); }
size_t registeredRegions() noexcept {
    hazards::Engine &e = hazards::engine();
    std::lock_guard<std::mutex> lock(e.mutex);
    return e.regions.size();
}
size_t deferredCleanups() noexcept { return hazards::engine().deferred.count.load(std::memory_order_relaxed); }
} // namespace detail
} // namespace cv
