// The identity of the handles given to C callers. A handle is not a pointer: it encodes a slot of a table, the
// slot's generation and the handle's type, so that a released, stale or foreign handle is recognised without reading
// the object it once named (which may be freed). Slots and their chunks are never freed; a slot is reused with the
// next generation, so a stale handle never reaches the object now in its slot. Chunks are freed only when the
// library is unloaded.
//
// Each live slot counts the references its handle has been given (the creating call, cvTensorRetain/cvStreamRetain)
// apart from the object's own reference count: when the last of them is released the handle dies at once, even
// while the library still holds the object for pending GPU work, and the slot drops the one object reference it held.
//
// A lookup is two acquire loads of the slot's state around one load of its object pointer, with no lock. A handle
// released by one thread while another thread is inside a call that uses it is the caller's race, as for any C
// handle: the library checks identity, it does not pin an object for the duration of a call.
#pragma once

#include "../core/ref.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace cv {
class Tensor;
class Stream;
} // namespace cv

namespace cv::capi {

class HandleTable {
public:
    // tag: 1..3, the handle type's value in the low bits (a pointer aligned to 4 bytes has 0 there).
    explicit constexpr HandleTable(uintptr_t tag) noexcept : tag_(tag) {}
    // Frees the chunks when the library is unloaded (dlclose) or the process exits, so that a plugin host loading
    // it repeatedly does not lose them each time; handles still alive then are invalid afterwards (their chunks are
    // unlinked before they are freed), and their objects are not released.
    ~HandleTable();
    HandleTable(const HandleTable &) = delete;
    HandleTable &operator=(const HandleTable &) = delete;

    // A new handle with one reference; takes over one reference to `object`. Throws std::bad_alloc when the table
    // cannot grow.
    uintptr_t add(RefCounted *object);
    // The object of a live handle of this table, or nullptr (released, stale, another type, or not a handle).
    RefCounted *find(uintptr_t handle) const noexcept;
    // The references a live handle has been given and not yet released (at least 1), or 0 for any other value.
    uint32_t references(uintptr_t handle) const noexcept;
    // Adds a reference to a live handle; false (and nothing done) for any other value.
    bool retain(uintptr_t handle) noexcept;
    // Drops a reference of a live handle; the last one frees the slot and releases the object. False (and nothing
    // done) for any other value, so a stale handle never touches the slot's new owner.
    bool release(uintptr_t handle) noexcept;

private:
    struct Slot {
        // generation << 32 | references. references == 0: the slot is free.
        std::atomic<uint64_t> state{0};
        std::atomic<RefCounted *> object{nullptr};
        std::atomic<uint32_t> nextFree{0}; // index + 1 of the next free slot; 0 ends the list
    };
    static constexpr unsigned kTagBits = 2;
    static constexpr unsigned kChunkBits = 12;                  // 4096 slots per chunk
    static constexpr unsigned kDirectoryBits = 14;              // 16384 chunks: 2^26 handles of one type
    static constexpr uint32_t kChunkSize = 1u << kChunkBits;
    static constexpr uint32_t kCapacity = 1u << (kChunkBits + kDirectoryBits);

    Slot *slot(uint32_t index) const noexcept;      // nullptr when its chunk does not exist
    Slot &allocated(uint32_t index) const noexcept; // a slot handed out before
    bool decode(uintptr_t handle, Slot *&s, uint32_t &generation) const noexcept;
    uint32_t popFree() noexcept;        // index + 1, or 0 when the free list is empty
    void pushFree(uint32_t index) noexcept;
    uint32_t grow();                    // a never-used slot's index + 1

    const uintptr_t tag_;
    std::atomic<Slot *> directory_[1u << kDirectoryBits]{};
    // Lock-free free list: (pops and pushes so far) << 32 | index + 1 of the first free slot; the counter stops ABA.
    std::atomic<uint64_t> freeHead_{0};
    std::mutex growMutex_;              // constant-initialised, trivially destructible
    uint32_t used_ = 0;                 // slots handed out so far, guarded by growMutex_
};

// The table of each handle type (cvTensor, cvStream).
template <class T> HandleTable &handleTable() noexcept;
template <> HandleTable &handleTable<Tensor>() noexcept;
template <> HandleTable &handleTable<Stream>() noexcept;

} // namespace cv::capi
