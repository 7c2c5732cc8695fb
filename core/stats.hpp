// Process-wide counters behind cvGetStats.
#pragma once

#include <atomic>
#include <cstdint>

namespace cv {

// Each counter on its own cache line: threads submitting on different streams update them at the same time.
struct Stats {
    alignas(64) std::atomic<uint64_t> deviceSyncs{0};
    alignas(64) std::atomic<uint64_t> eventRecords{0};
    alignas(64) std::atomic<uint64_t> eventWaits{0};
    alignas(64) std::atomic<uint64_t> kernelLaunches{0};
    alignas(64) std::atomic<int64_t> liveTensors{0};
    alignas(64) std::atomic<int64_t> liveStreams{0};
};

Stats &stats() noexcept;

inline void count(std::atomic<uint64_t> &counter) noexcept { counter.fetch_add(1, std::memory_order_relaxed); }

} // namespace cv
