// The exception firewall at every C entry point: no C++ exception crosses the ABI; every failure becomes a cvStatus
// and a per-thread message that names the function. The handlers do not allocate: a second std::bad_alloc inside a
// handler of this noexcept function would terminate the process.
#pragma once

#include "../core/error.hpp"
#include "../core/ref.hpp"

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

// The object behind a handle, after checking it is non-NULL and of the right type.
template <class T, class Handle> T &deref(Handle handle, const char *argument) {
    if (handle == nullptr) invalid(currentFunction(), ": ", argument, " is NULL");
    T *object = reinterpret_cast<T *>(handle);
    if (!object->hasMagic(T::kMagic))
        invalid(currentFunction(), ": ", argument, " is not a valid handle of its type (released, or another type)");
    return *object;
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
