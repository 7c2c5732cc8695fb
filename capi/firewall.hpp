// The exception firewall at every C entry point: no C++ exception crosses the ABI; every failure becomes a cvStatus
// and a per-thread message that names the function. The handlers do not allocate: a second std::bad_alloc inside a
// handler of this noexcept function would terminate the process.
#pragma once

#include "../core/error.hpp"
#include "../core/ref.hpp"
#include "handle_table.hpp"

#include <cvcuda/status.h>

#include <exception>
#include <new>

namespace cv::capi {

template <class F> cvStatus guarded(const char *function, F &&body) noexcept {
    detail::setCurrentFunction(function);
    try {
        if (auto hook = detail::faultHook()) hook(function);
        body();
        return CV_SUCCESS;
    } catch (const Error &e) {
        detail::setLastError(e.what());
        return e.status();
    } catch (const std::bad_alloc &) {
        detail::setLastError(function, ": out of host memory");
        return CV_ERROR_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        detail::setLastError(function, ": internal error: ", e.what());
        return CV_ERROR_INTERNAL;
    } catch (...) {
        detail::setLastError(function, ": internal error: unknown exception");
        return CV_ERROR_INTERNAL;
    }
}

// The object behind a handle, after checking it is non-NULL, live and of the right type (capi/handle_table.hpp).
template <class T, class Handle> T &deref(Handle handle, const char *argument) {
    if (handle == nullptr) invalid(currentFunction(), ": ", argument, " is NULL");
    RefCounted *object = handleTable<T>().find(reinterpret_cast<uintptr_t>(handle));
    if (object == nullptr)
        invalid(currentFunction(), ": ", argument, "=0x", std::hex, reinterpret_cast<uintptr_t>(handle), std::dec,
                " is not a valid handle of its type (released, or another type)");
    return static_cast<T &>(*object);
}

// A new C handle with one reference, taking over the reference `object` holds.
template <class Handle, class T> Handle newHandle(Ref<T> object) {
    const uintptr_t handle = handleTable<T>().add(object.get());
    object.detach();
    return reinterpret_cast<Handle>(handle);
}

// cvTensorRetain / cvStreamRetain and the releases: NULL, released, stale and foreign handles are ignored.
template <class T, class Handle> void retainHandle(Handle handle) noexcept {
    if (handle != nullptr) handleTable<T>().retain(reinterpret_cast<uintptr_t>(handle));
}
template <class T, class Handle> void releaseHandle(Handle handle) noexcept {
    if (handle != nullptr) handleTable<T>().release(reinterpret_cast<uintptr_t>(handle));
}

// The references a live handle holds (its creating call's, and cvTensorRetain's / cvStreamRetain's not yet
// released), 0 for any other value.
template <class T, class Handle> uint32_t handleReferences(Handle handle) noexcept {
    return handleTable<T>().references(reinterpret_cast<uintptr_t>(handle));
}

template <class T> void requireOut(T *out, const char *argument) {
    if (out == nullptr) invalid(currentFunction(), ": ", argument, " is NULL");
}

template <class Struct> void requireStruct(Struct *s, const char *argument) {
    requireOut(s, argument);
    if (s->structSize < sizeof(Struct))
        invalid(currentFunction(), ": ", argument, "->structSize=", s->structSize, " is smaller than ", sizeof(Struct),
                " (initialise it with its _INIT macro)");
}

} // namespace cv::capi
