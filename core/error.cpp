#include "error.hpp"

#include <atomic>
#include <string>

namespace cv {
namespace {
thread_local const char *tCurrentFunction = "cvcuda";
thread_local std::string tLastError;
} // namespace

const char *currentFunction() noexcept { return tCurrentFunction; }

namespace detail {
namespace {
std::atomic<FaultHook> gFaultHook{nullptr};
} // namespace

void setCurrentFunction(const char *function) noexcept { tCurrentFunction = function; }

void setLastError(const char *message) noexcept {
    try {
        tLastError = message;
    } catch (...) {
        tLastError.clear(); // out of memory while storing the message: keep "" rather than a stale one
    }
}

const char *lastError() noexcept { return tLastError.c_str(); }

void setFaultHook(FaultHook hook) noexcept { gFaultHook.store(hook); }
FaultHook faultHook() noexcept { return gFaultHook.load(std::memory_order_relaxed); }
} // namespace detail
} // namespace cv
