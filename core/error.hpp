// Library-internal error model: core code throws cv::Error(status, message); the C API firewall (capi/firewall.hpp)
// turns it into a cvStatus plus the per-thread message.
#pragma once

#include <cvcuda/status.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace cv {

class Error : public std::runtime_error {
public:
    Error(cvStatus status, const std::string &message) : std::runtime_error(message), status_(status) {}
    cvStatus status() const noexcept { return status_; }

private:
    cvStatus status_;
};

// Concatenates its arguments with operator<< (no locale surprises for integers).
template <class... Args> std::string concat(Args &&...args) {
    std::ostringstream os;
    (os << ... << std::forward<Args>(args));
    return os.str();
}

template <class... Args> [[noreturn]] void fail(cvStatus status, Args &&...args) {
    throw Error(status, concat(std::forward<Args>(args)...));
}

template <class... Args> [[noreturn]] void invalid(Args &&...args) {
    fail(CV_ERROR_INVALID_ARGUMENT, std::forward<Args>(args)...);
}

// The name of the C API function being executed on this thread; messages are prefixed with it.
const char *currentFunction() noexcept;

namespace detail {
// Test hook (not exported from the shared library): called at every C API entry with the function's name; it may
// throw to simulate an internal failure. nullptr disables it.
using FaultHook = void (*)(const char *function);
void setFaultHook(FaultHook hook) noexcept;
FaultHook faultHook() noexcept;
} // namespace detail

} // namespace cv

namespace cv::detail {
// Per-thread state behind cvGetLastErrorMessage and message prefixes.
void setCurrentFunction(const char *function) noexcept;
// Stores the concatenation of the parts without allocating (so it works while out of memory); long messages are
// truncated.
void setLastError(const char *part1, const char *part2 = "", const char *part3 = "") noexcept;
const char *lastError() noexcept;
} // namespace cv::detail
