// cv::Stream: the object behind cvStream. Owned (created by the library, non-blocking) or adopted (never destroyed).
#pragma once

#include "ref.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace cv {

class Stream final : public RefCounted {
public:

    // A non-blocking stream on `device` (a valid index: requireDeviceIndex): the oldest released library stream of
    // that device that no handle and no hazard state holds and that has no work pending (see StreamPool in
    // stream.cpp), else a new one. The caller's current device is unchanged.
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

    // The raw stream, for work: whoever gets it may queue work on it, so the stream is no longer known to be idle.
    cudaStream_t handle() const noexcept {
        if (knownIdle_.load(std::memory_order_relaxed)) knownIdle_.store(false, std::memory_order_relaxed);
        return handle_;
    }
    // The raw stream as an identity only (comparisons, map keys): nothing may be queued through it.
    cudaStream_t identity() const noexcept { return handle_; }
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
    // Whether the work queued on the stream so far has completed, without blocking: true with no CUDA call while it
    // is known idle, else cudaStreamQuery. Throws Error(CV_ERROR_INVALID_STATE) while the stream is being captured
    // (a query would invalidate the capture), CV_ERROR_CUDA for an earlier asynchronous failure.
    bool query() const;
    // Whether a new owner may be given this stream as the pool gives its streams (the caller holds the one reference
    // left, of a handle it is about to hand on): created by the library, no other reference (no other handle, no
    // hazard state), not being captured, nothing pending. As in the pool, the raw cudaStream_t given out earlier is no
    // longer its holders' to use, so a stream found idle is known idle from then on (no CUDA call the next time).
    // Throws Error(CV_ERROR_CUDA) for an earlier asynchronous failure.
    bool reusable() const;
    // reusable() as far as the library's own state tells: true only where reusable() would answer true with no CUDA
    // call (created by the library, no other reference, known idle); false also where only cudaStreamQuery could
    // tell. No CUDA call, no lock, no wait.
    bool knownReusable() const noexcept {
        return owned_ && useCount() == 1 && knownIdle_.load(std::memory_order_relaxed);
    }

    // Device memory of released owned tensors whose every access was on this stream (core/hazards.cpp, retire),
    // kept for the next allocation of the same size on it (core/tensor.cpp) instead of a cudaFreeAsync and a
    // cudaMallocFromPoolAsync: the pool would hand such a block to the next allocation on this stream at once too,
    // since stream order keeps every later use behind the earlier ones. Not while the stream is being captured
    // (callers check). A few small blocks per stream; freed (stream-ordered) when the stream's last reference goes.
    static constexpr size_t kMaxKeptBlocks = 4;
    static constexpr size_t kMaxKeptBlockBytes = size_t{16} << 20;
    // A kept block of exactly `bytes`, or null. No CUDA call.
    void *takeBlock(size_t bytes) noexcept;
    // Keeps `p` (an allocation of `bytes` from the library's pool, every use of it queued on this stream); false when
    // it is too large or the stream keeps enough already (the caller frees it). No CUDA call.
    bool keepBlock(void *p, size_t bytes) noexcept;

private:
    friend class StreamPool;
    Stream(cudaStream_t handle, int device, bool owned) noexcept;
    ~Stream() override;
    // An owned stream goes to the pool of released streams (or is destroyed when the pool is full); an adopted one is
    // deleted.
    void lastReleased() noexcept override;
    // The state of the work queued so far, for query(), reusable() and the pool: cudaSuccess (completed; no CUDA call
    // while knownIdle_), cudaErrorNotReady (pending; never left as the thread's last error), or an earlier failure.
    // `released`: the stream's raw handle is no longer its holders' to queue work through (a pooled stream, or one
    // about to be handed on), so an idle answer is kept in knownIdle_. The caller relaxes the capture mode
    // (RelaxedCaptureMode): cudaStreamQuery is not allowed while this thread captures in global mode otherwise.
    cudaError_t poll(bool released) const noexcept;
    cudaStream_t handle_;
    int device_;
    bool owned_;
    bool internal_ = false; // not counted live (createInternal)
    // True while nothing can be pending on the stream: from its creation, or from a cudaStreamQuery that found it
    // idle, until its raw handle is next given out (handle()). Lets the pool hand out such a stream with no CUDA call.
    mutable std::atomic<bool> knownIdle_{false};
    std::atomic<uint64_t> records_{0}, synced_{0};
    // cudaFreeAsync of the kept blocks on this stream (at its last release).
    void freeBlocks() noexcept;
    struct Block {
        void *p;
        size_t bytes;
    };
    std::mutex blocksMutex_;
    Block blocks_[kMaxKeptBlocks] = {};
    size_t keptBlocks_ = 0; // guarded by blocksMutex_
};

// One CUDA stream: the legacy (NULL) and per-thread default streams of two devices share a handle value.
inline bool sameStream(const Stream &a, const Stream &b) noexcept {
    return a.identity() == b.identity() && a.device() == b.device();
}

} // namespace cv
