// The stream-ordering engine (docs/streams.md): hazard state per memory range, shared by every
// tensor viewing overlapping memory; cross-stream waits through pooled events; the defensive device sync for
// producers of unknown stream; deferred releases.
#pragma once

#include "event_pool.hpp"
#include "ref.hpp"
#include "stream.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

namespace cv {

class Tensor;

// One stream's access to a region, and the event recorded after it. The event is reserved under the engine's lock
// and recorded by the submitting thread right after its launch (Event::recorded() tells which); a thread that needs
// it earlier waits for the record. A null event means "not reserved yet": it is recorded on the stream when first
// needed (covering that access and whatever the stream did since, which is conservative), so an allocation ordered
// on the stream that uses it costs no event at all.
struct Access {
    Ref<Stream> stream;
    Ref<Event> event;
};

// A range of device memory [lo, hi). When ranges of two regions come to overlap they are merged: the absorbed one
// forwards to the survivor, so every tensor sees one state.
class Region final : public RefCounted {
public:
    Region(uint64_t lo, uint64_t hi) noexcept : lo(lo), hi(hi) {}
    uint64_t lo, hi;
    Ref<Region> forward;
    std::vector<Access> writers; // last write(s): more than one only after a merge
    std::vector<Access> readers; // reads since the last write, one entry per stream
};

struct Use {
    Tensor *tensor;
    bool write;
    const char *name = nullptr; // the argument, for messages ("src"); null: "a tensor"
};

namespace hazards {

// Finds or creates the region for [lo, hi), merging every region it overlaps. No CUDA call.
Ref<Region> attach(uint64_t lo, uint64_t hi);

// Records that `stream` produces the tensor's memory (CAI producer stream, allocation), as a write: with an event now,
// or (recordNow == false) with one recorded when another stream first needs it. Nothing while `stream` is captured.
void addProducer(Tensor &tensor, const Ref<Stream> &stream, bool recordNow = true);
// addProducer(tensor, stream, false) for an allocation on `stream`, a stream the library owns that the caller found
// not capturing: no CUDA call.
void addAllocation(Tensor &tensor, const Ref<Stream> &stream);

// Orders `stream` after the hazards of `uses`, runs `launch` (which enqueues work on `stream`), then records the
// accesses. Does the first-use device checks and the defensive sync of unknown-producer wrappers. The engine's lock
// is held for the bookkeeping only: threads submitting on different streams launch in parallel, and submissions on
// one memory are ordered as their bookkeeping was (see Access). Then runs the ready cleanups of `stream`'s queue and
// of one other stream's. `launch` must not release a tensor of `uses` (its release would wait for this submission's
// own event, which is recorded only after `launch` returns).
void submit(const Ref<Stream> &stream, std::initializer_list<Use> uses, const std::function<void()> &launch);

// The stream a CAI export should advertise: null when no access is pending; the one stream with pending writes or
// reads; else the device's relay stream, made to wait on all of them (exports never name a default stream).
// Settles an unknown producer first (one defensive sync): "ready" must not be advertised for data still in flight.
Ref<Stream> exportStream(Tensor &tensor);

// DLPack export: makes `consumer` wait on the writes pending on the tensor's memory, and on pending reads too when
// `includeReads` (a consumer that may write). Settles an unknown producer first and does the device checks; with
// `wait` false (DLPack's stream -1) only those. While `consumer` is being captured nothing is waited on.
void orderConsumer(Tensor &tensor, const Ref<Stream> &consumer, bool includeReads, bool wait);

// Records that `consumer` may have queued accesses the library does not track (a DLPack or CAI consumer dropping
// an export): an event recorded on it now becomes one of the memory's writers, so later work and the release of
// owned memory are ordered after it. Records nothing while `consumer` is being captured.
void addConsumer(Tensor &tensor, const Ref<Stream> &consumer);

// The device holding the tensor's memory (first-use check of wrapped memory, once); the current device for empty
// wrapped tensors.
int deviceOf(Tensor &tensor);

// cudaStreamIsCapturing as a bool (legal during capture, unlike most queries).
bool isCapturing(const Stream &stream);

// Called when the last reference to a tensor is gone: frees owned memory stream-ordered and runs or defers the
// cleanup callback until the tensor's GPU work has completed. Never blocks, never throws.
void retire(Tensor &tensor) noexcept;

// Runs deferred cleanups whose work has completed (every stream's queue); with wait, first waits for all tracked work.
void collect(bool wait);

} // namespace hazards

namespace detail {
// Test hook (not exported from the shared library): false makes submit skip every cross-stream wait while still
// recording accesses, so that ordering tests can run their negative control with the barrier switched off.
void setHazardTrackingEnabled(bool enabled) noexcept;
// Test hook: false makes submit skip waiting for events that other threads reserved but have not recorded yet (the
// cross-stream wait then orders nothing), for the negative control of the threads tests.
void setAwaitRecordedEnabled(bool enabled) noexcept;
// Test hook: called by every submit between its bookkeeping and its launch (null: none), so that a test can hold a
// thread inside that window.
void setBeforeLaunchHook(void (*hook)()) noexcept;
// Test hooks: how many memory regions the registry holds, and how many cleanup callbacks wait in the deferred
// queues, so that leak tests can check that both return to where they started.
size_t registeredRegions() noexcept;
size_t deferredCleanups() noexcept;
} // namespace detail
} // namespace cv
