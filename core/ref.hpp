// Intrusive reference counting shared by the library's owners of an object (a C handle's slot, capi/handle_table.hpp;
// pending GPU work), so that they may drop theirs in any order.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace cv {

class RefCounted {
public:
    void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) lastReleased();
    }
    int64_t useCount() const noexcept { return refs_.load(std::memory_order_acquire); }
    // Adds a reference unless the count already reached zero (the object is being destroyed).
    bool tryRetain() noexcept {
        int64_t n = refs_.load(std::memory_order_relaxed);
        while (n > 0)
            if (refs_.compare_exchange_weak(n, n + 1, std::memory_order_acq_rel)) return true;
        return false;
    }

protected:
    RefCounted() noexcept = default;
    virtual ~RefCounted() = default;
    // Called once when the count reaches zero; the default deletes the object.
    virtual void lastReleased() noexcept { delete this; }

private:
    std::atomic<int64_t> refs_{1};
};

// Owning pointer to a RefCounted object. adopt() takes over an existing reference; the constructor adds one.
template <class T> class Ref {
public:
    Ref() noexcept = default;
    Ref(std::nullptr_t) noexcept {}
    explicit Ref(T *p) noexcept : p_(p) { if (p_) p_->retain(); }
    static Ref adopt(T *p) noexcept { Ref r; r.p_ = p; return r; }
    Ref(const Ref &o) noexcept : Ref(o.p_) {}
    Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    Ref &operator=(Ref o) noexcept { std::swap(p_, o.p_); return *this; }
    ~Ref() { if (p_) p_->release(); }
    T *get() const noexcept { return p_; }
    T *operator->() const noexcept { return p_; }
    T &operator*() const noexcept { return *p_; }
    explicit operator bool() const noexcept { return p_ != nullptr; }
    T *detach() noexcept { return std::exchange(p_, nullptr); }
    bool operator==(const Ref &o) const noexcept { return p_ == o.p_; }
    bool operator!=(const Ref &o) const noexcept { return p_ != o.p_; }

private:
    T *p_ = nullptr;
};

} // namespace cv
