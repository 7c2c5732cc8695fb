#include "handle_table.hpp"

#include <new>

namespace cv::capi {
namespace {

constexpr uint64_t kRefMask = 0xffffffffu;

constexpr uint64_t pack(uint32_t generation, uint32_t refs) noexcept { return uint64_t{generation} << 32 | refs; }
constexpr uint32_t generationOf(uint64_t state) noexcept { return static_cast<uint32_t>(state >> 32); }
constexpr uint32_t refsOf(uint64_t state) noexcept { return static_cast<uint32_t>(state & kRefMask); }

} // namespace

static_assert(sizeof(uintptr_t) == 8, "handles encode a 32-bit generation above the slot index");

HandleTable::Slot *HandleTable::slot(uint32_t index) const noexcept {
    Slot *chunk = directory_[index >> kChunkBits].load(std::memory_order_acquire);
    return chunk == nullptr ? nullptr : chunk + (index & (kChunkSize - 1));
}

HandleTable::Slot &HandleTable::allocated(uint32_t index) const noexcept {
    return directory_[index >> kChunkBits].load(std::memory_order_acquire)[index & (kChunkSize - 1)];
}

bool HandleTable::decode(uintptr_t handle, Slot *&s, uint32_t &generation) const noexcept {
    if ((handle & ((uintptr_t{1} << kTagBits) - 1)) != tag_) return false;
    const uint64_t index = (handle & 0xffffffffu) >> kTagBits;
    generation = static_cast<uint32_t>(handle >> 32);
    if (index >= kCapacity || generation == 0) return false;
    s = slot(static_cast<uint32_t>(index));
    return s != nullptr;
}

RefCounted *HandleTable::find(uintptr_t handle) const noexcept {
    Slot *s = nullptr;
    uint32_t generation = 0;
    if (!decode(handle, s, generation)) return nullptr;
    const uint64_t before = s->state.load(std::memory_order_acquire);
    if (generationOf(before) != generation || refsOf(before) == 0) return nullptr;
    RefCounted *object = s->object.load(std::memory_order_acquire);
    // Same generation: the pointer belongs to this handle, not to a later owner of the slot (freeing a slot always
    // moves its generation on; the reference count may change meanwhile through other callers' retains).
    if (generationOf(s->state.load(std::memory_order_acquire)) != generation) return nullptr;
    return object;
}

uint32_t HandleTable::references(uintptr_t handle) const noexcept {
    Slot *s = nullptr;
    uint32_t generation = 0;
    if (!decode(handle, s, generation)) return 0;
    const uint64_t state = s->state.load(std::memory_order_acquire);
    return generationOf(state) == generation ? refsOf(state) : 0;
}

bool HandleTable::retain(uintptr_t handle) noexcept {
    Slot *s = nullptr;
    uint32_t generation = 0;
    if (!decode(handle, s, generation)) return false;
    uint64_t state = s->state.load(std::memory_order_relaxed);
    do {
        // A saturated count keeps the handle alive for good rather than wrapping to "free".
        if (generationOf(state) != generation || refsOf(state) == 0 || refsOf(state) == kRefMask) return false;
    } while (!s->state.compare_exchange_weak(state, state + 1, std::memory_order_relaxed));
    return true;
}

bool HandleTable::release(uintptr_t handle) noexcept {
    Slot *s = nullptr;
    uint32_t generation = 0;
    if (!decode(handle, s, generation)) return false;
    uint64_t state = s->state.load(std::memory_order_relaxed);
    uint64_t next = 0;
    do {
        if (generationOf(state) != generation || refsOf(state) == 0 || refsOf(state) == kRefMask) return false;
        // The last reference moves the slot to the next generation with no reference: the handle is dead from here.
        next = refsOf(state) == 1 ? pack(generation + 1, 0) : state - 1;
    } while (!s->state.compare_exchange_weak(state, next, std::memory_order_acq_rel, std::memory_order_relaxed));
    if (refsOf(next) != 0) return true;
    RefCounted *object = s->object.exchange(nullptr, std::memory_order_acq_rel);
    // A slot whose generation would wrap to 0 (never a valid handle) is retired instead of reused.
    if (generation + 1 != 0xffffffffu) pushFree(static_cast<uint32_t>(((handle & 0xffffffffu) >> kTagBits)));
    object->release();
    return true;
}

uintptr_t HandleTable::add(RefCounted *object) {
    uint32_t index1 = popFree();
    if (index1 == 0) index1 = grow();
    const uint32_t index = index1 - 1;
    Slot *s = &allocated(index);
    const uint32_t generation = generationOf(s->state.load(std::memory_order_relaxed));
    s->object.store(object, std::memory_order_relaxed);
    s->state.store(pack(generation, 1), std::memory_order_release);
    return uintptr_t{generation} << 32 | uintptr_t{index} << kTagBits | tag_;
}

uint32_t HandleTable::popFree() noexcept {
    uint64_t head = freeHead_.load(std::memory_order_acquire);
    for (;;) {
        const uint32_t first = static_cast<uint32_t>(head & kRefMask);
        if (first == 0) return 0;
        // Slots are never freed, so reading a slot another thread just popped is harmless; the counter in the head
        // makes the exchange fail then.
        const uint32_t next = allocated(first - 1).nextFree.load(std::memory_order_relaxed);
        const uint64_t replacement = ((head >> 32) + 1) << 32 | next;
        if (freeHead_.compare_exchange_weak(head, replacement, std::memory_order_acquire, std::memory_order_acquire))
            return first;
    }
}

void HandleTable::pushFree(uint32_t index) noexcept {
    Slot *s = &allocated(index);
    uint64_t head = freeHead_.load(std::memory_order_relaxed);
    uint64_t replacement = 0;
    do {
        s->nextFree.store(static_cast<uint32_t>(head & kRefMask), std::memory_order_relaxed);
        replacement = ((head >> 32) + 1) << 32 | (index + 1);
    } while (!freeHead_.compare_exchange_weak(head, replacement, std::memory_order_release, std::memory_order_relaxed));
}

uint32_t HandleTable::grow() {
    std::lock_guard<std::mutex> lock(growMutex_);
    if (used_ == kCapacity) throw std::bad_alloc();
    const uint32_t index = used_;
    std::atomic<Slot *> &chunk = directory_[index >> kChunkBits];
    if (chunk.load(std::memory_order_relaxed) == nullptr) {
        Slot *fresh = new Slot[kChunkSize];
        // Generation 1 first: a handle is never 0 in its upper half, so never a small integer or NULL.
        for (uint32_t i = 0; i < kChunkSize; ++i) fresh[i].state.store(pack(1, 0), std::memory_order_relaxed);
        chunk.store(fresh, std::memory_order_release);
    }
    ++used_;
    return index + 1;
}

HandleTable::~HandleTable() {
    {
        // A call made after this (from another static destructor) finds no handle and cannot make one.
        std::lock_guard<std::mutex> lock(growMutex_);
        used_ = kCapacity;
        freeHead_.store(0, std::memory_order_release);
    }
    for (auto &chunk : directory_) delete[] chunk.exchange(nullptr, std::memory_order_acq_rel);
}

namespace {
// Constant-initialised (constexpr constructor): usable from the first call, whatever the order of static
// initialisation.
HandleTable gTensorHandles(1);
HandleTable gStreamHandles(2);
} // namespace

template <> HandleTable &handleTable<Tensor>() noexcept { return gTensorHandles; }
template <> HandleTable &handleTable<Stream>() noexcept { return gStreamHandles; }

} // namespace cv::capi
