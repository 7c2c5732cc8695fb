#include "error.hpp"

#include <atomic>
#include <cstring>
#include <initializer_list>

namespace cv {
namespace {
thread_local const char *tCurrentFunction = "cvcuda";
// A plain buffer, not a std::string: a thread_local with a destructor makes glibc pin the library in memory for the
// life of the thread (dlclose would then never unload it, which plugin hosts rely on).
constexpr size_t kMessageCapacity = 1024;
thread_local char tLastError[kMessageCapacity];
} // namespace

const char *currentFunction() noexcept { return tCurrentFunction; }

namespace detail {
namespace {
std::atomic<FaultHook> gFaultHook{nullptr};
} // namespace

void setCurrentFunction(const char *function) noexcept { tCurrentFunction = function; }

void setLastError(const char *part1, const char *part2, const char *part3) noexcept {
    static constexpr char kEllipsis[] = "...";
    constexpr size_t kRoom = kMessageCapacity - sizeof(kEllipsis);
    size_t used = 0;
    for (const char *part : {part1, part2, part3}) {
        const size_t length = std::strlen(part);
        if (used + length > kRoom) {
            std::memcpy(tLastError + used, part, kRoom - used);
            std::memcpy(tLastError + kRoom, kEllipsis, sizeof(kEllipsis));
            return;
        }
        std::memcpy(tLastError + used, part, length);
        used += length;
    }
    tLastError[used] = '\0';
}

const char *lastError() noexcept { return tLastError; }

void setFaultHook(FaultHook hook) noexcept { gFaultHook.store(hook); }
FaultHook faultHook() noexcept { return gFaultHook.load(std::memory_order_relaxed); }
} // namespace detail
} // namespace cv
