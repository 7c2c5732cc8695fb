#include "stream.hpp"

#include "cuda_check.hpp"
#include "device_resources.hpp"
#include "error.hpp"
#include "hazards.hpp"
#include "stats.hpp"

#include <deque>
#include <map>
#include <mutex>

namespace cv {
namespace {

// Streams the library created, by handle, so that adopting one of their handles finds the owning object.
std::mutex gOwnedMutex; // constant-initialised, trivially destructible
std::map<cudaStream_t, Stream *> *gOwned = nullptr;

} // namespace

// Released library streams, per device, oldest first. A stream enters at its last reference, so no handle and no
// hazard state holds it; it is handed out again only once nothing is pending on it, so a new owner never waits
// behind an old owner's work (a false dependency a sync() or a capture of the new owner would inherit). Whether it is
// idle is known for free while its raw handle has not been given out since it was created or last found idle
// (Stream::knownIdle_: a Stream() released unused, or whose handle was never asked for, costs no CUDA call);
// otherwise a cudaStreamQuery decides, for at most kQueriesPerTake streams a call, and a busy one stays pooled for a
// later call. From its release on, the raw cudaStream_t belongs to the pool: work queued or a capture begun through
// it afterwards is the caller's error (docs/streams.md). CUDA streams are costly to create (several microseconds)
// and cheap to keep; the pool is bounded.
class StreamPool {
public:
    static constexpr size_t kMaxIdlePerDevice = 32;
    static constexpr int kQueriesPerTake = 4;

    // The oldest pooled stream of `device` with nothing pending, with one reference, or null.
    static Stream *take(int device) {
        std::lock_guard<std::mutex> lock(mutex());
        auto it = idle().find(device);
        if (it == idle().end() || it->second.empty()) return nullptr;
        std::deque<Stream *> &streams = it->second;
        int queries = 0;
        for (auto s = streams.begin(); s != streams.end(); ++s) {
            Stream *stream = *s;
            if (!stream->knownIdle_.load(std::memory_order_relaxed)) {
                if (queries++ == kQueriesPerTake) break;
                RelaxedCaptureMode relaxed;
                const cudaError_t state = stream->poll(true);
                if (state == cudaErrorNotReady) continue; // busy: stays pooled, in its order
                if (state != cudaSuccess) {
                    (void)cudaGetLastError();
                    streams.erase(s);
                    stats().liveStreams.fetch_add(1, std::memory_order_relaxed); // the destructor counts it out again
                    delete stream; // unusable (a failed earlier launch, say): not handed out again
                    return nullptr;
                }
            }
            streams.erase(s);
            stream->retain(); // pooled streams have a count of 0
            stats().liveStreams.fetch_add(1, std::memory_order_relaxed);
            return stream;
        }
        return nullptr;
    }

    // Keeps `s` (count 0) for reuse; false when the pool is full.
    static bool give(Stream *s) {
        std::lock_guard<std::mutex> lock(mutex());
        std::deque<Stream *> &streams = idle()[s->device_];
        if (streams.size() >= kMaxIdlePerDevice) return false;
        streams.push_back(s);
        stats().liveStreams.fetch_sub(1, std::memory_order_relaxed);
        return true;
    }

private:
    // Never destroyed (CUDA may be gone by the time static destructors run), and allocated at the first release.
    static std::mutex &mutex() { static auto *m = new std::mutex; return *m; }
    static std::map<int, std::deque<Stream *>> &idle() { static auto *p = new std::map<int, std::deque<Stream *>>; return *p; }
};

void *Stream::takeBlock(size_t bytes) noexcept {
    std::lock_guard<std::mutex> lock(blocksMutex_);
    for (size_t i = 0; i < keptBlocks_; ++i)
        if (blocks_[i].bytes == bytes) {
            void *p = blocks_[i].p;
            blocks_[i] = blocks_[--keptBlocks_];
            return p;
        }
    return nullptr;
}

bool Stream::keepBlock(void *p, size_t bytes) noexcept {
    if (bytes > kMaxKeptBlockBytes) return false;
    std::lock_guard<std::mutex> lock(blocksMutex_);
    if (keptBlocks_ == kMaxKeptBlocks) return false;
    blocks_[keptBlocks_++] = {p, bytes};
    return true;
}

void Stream::freeBlocks() noexcept {
    std::lock_guard<std::mutex> lock(blocksMutex_);
    if (keptBlocks_ == 0) return;
    try {
        DeviceGuard guard(device_);
        for (size_t i = 0; i < keptBlocks_; ++i) (void)cudaFreeAsync(blocks_[i].p, handle());
    } catch (...) {
        // No device to make current: the blocks leak rather than being freed on the wrong device.
    }
    keptBlocks_ = 0;
}

void Stream::lastReleased() noexcept {
    freeBlocks();
    try {
        if (owned_ && StreamPool::give(this)) return;
    } catch (...) {
        // No room to remember it: destroy it instead.
    }
    delete this;
}

Stream::Stream(cudaStream_t handle, int device, bool owned) noexcept
    : handle_(handle), device_(device), owned_(owned) {
    stats().liveStreams.fetch_add(1, std::memory_order_relaxed);
}

Stream::~Stream() {
    if (owned_) {
        {
            std::lock_guard<std::mutex> lock(gOwnedMutex);
            if (gOwned != nullptr) gOwned->erase(handle_);
        }
        // CUDA defers the destruction of a stream with queued work until that work completes.
        (void)cudaStreamDestroy(handle_);
    }
    if (!internal_) stats().liveStreams.fetch_sub(1, std::memory_order_relaxed);
}

Ref<Stream> Stream::createInternal(int device) {
    Ref<Stream> s = create(device);
    s->internal_ = true;
    stats().liveStreams.fetch_sub(1, std::memory_order_relaxed);
    return s;
}

Ref<Stream> Stream::create() { return create(currentDevice()); }

Ref<Stream> Stream::create(int device) {
    if (Stream *pooled = StreamPool::take(device)) return Ref<Stream>::adopt(pooled);
    loadKernels(device);
    DeviceGuard guard(device); // cudaStreamCreate makes the stream on the current device
    cudaStream_t handle = nullptr;
    checkCuda(cudaStreamCreateWithFlags(&handle, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    Ref<Stream> s = Ref<Stream>::adopt(new Stream(handle, device, true));
    s->knownIdle_.store(true, std::memory_order_relaxed); // a new stream has nothing queued
    std::lock_guard<std::mutex> lock(gOwnedMutex);
    if (gOwned == nullptr) gOwned = new std::map<cudaStream_t, Stream *>;
    (*gOwned)[handle] = s.get();
    return s;
}

cudaError_t Stream::poll(bool released) const noexcept {
    if (knownIdle_.load(std::memory_order_relaxed)) return cudaSuccess;
    const cudaError_t state = cudaStreamQuery(handle_);
    if (state == cudaSuccess) {
        if (released) knownIdle_.store(true, std::memory_order_relaxed);
    } else if (state == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) {
        (void)cudaGetLastError(); // not an error: where the runtime keeps it, a later launch check would see it
    }
    return state;
}

bool Stream::query() const {
    if (knownIdle_.load(std::memory_order_relaxed)) return true;
    DeviceGuard guard(device_); // the legacy default stream's handle names the current device's
    RelaxedCaptureMode relaxed; // cudaStreamQuery is not allowed while this thread captures in global mode otherwise
    if (hazards::isCapturing(*this))
        fail(CV_ERROR_INVALID_STATE, currentFunction(), ": the stream is being captured into a CUDA graph, where CUDA allows no query of it");
    const cudaError_t state = poll(false); // a live stream's raw handle may be queued on again at any time
    if (state == cudaErrorNotReady) return false;
    checkCuda(state, "cudaStreamQuery");
    return true;
}

bool Stream::reusable() const {
    if (knownReusable()) return true;
    if (!owned_ || useCount() != 1) return false;
    RelaxedCaptureMode relaxed; // cudaStreamQuery is not allowed while this thread captures in global mode otherwise
    // Captured through a raw handle its holder should no longer use: busy, and a query would invalidate the capture.
    if (hazards::isCapturing(*this)) return false;
    const cudaError_t state = poll(true);
    if (state == cudaErrorNotReady) return false;
    checkCuda(state, "cudaStreamQuery");
    return true;
}

void Stream::synchronize() {
    const uint64_t issued = records_.load(std::memory_order_acquire);
    checkCuda(cudaStreamSynchronize(handle_), "cudaStreamSynchronize");
    uint64_t seen = synced_.load(std::memory_order_relaxed);
    while (seen < issued && !synced_.compare_exchange_weak(seen, issued, std::memory_order_acq_rel)) {
    }
}

Ref<Stream> Stream::adopt(cudaStream_t handle) {
    if (handle == cudaStreamPerThread)
        invalid(currentFunction(), ": stream=2 (cudaStreamPerThread) names a different stream in each thread, so the "
                "library cannot order work against it; pass the thread's own stream handle instead");
    {
        std::lock_guard<std::mutex> lock(gOwnedMutex);
        if (gOwned != nullptr) {
            auto it = gOwned->find(handle);
            if (it != gOwned->end() && it->second->tryRetain()) return Ref<Stream>::adopt(it->second);
        }
    }
    // The legacy default stream is per device: NULL names the current device's.
    int device = currentDevice();
    if (handle != nullptr && handle != cudaStreamLegacy) {
        // cudaStreamGetDevice is illegal while the stream is being captured into a CUDA graph (it invalidates the
        // capture); cudaStreamIsCapturing is legal. A capturing stream is taken to be on the current device, where
        // the framework that captures works (torch.cuda.graph sets it); an operator launched on it otherwise fails.
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        checkCuda(cudaStreamIsCapturing(handle, &capture), "cudaStreamIsCapturing");
        if (capture == cudaStreamCaptureStatusNone) checkCuda(cudaStreamGetDevice(handle, &device), "cudaStreamGetDevice");
    }
    return Ref<Stream>::adopt(new Stream(handle, device, false));
}

Ref<Stream> Stream::adoptDefault(int device) { return Ref<Stream>::adopt(new Stream(nullptr, device, false)); }

} // namespace cv
