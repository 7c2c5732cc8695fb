// Calls per second of cvFlip from 1, 2, 4 and 8 threads at once, each thread with its own stream and its own tiny
// tensors (1x64x64x3 uint8), so that nothing but the library itself and the CUDA driver is shared. Shows whether
// threads serialise inside the library (the hazard engine's lock must be held for bookkeeping only).
// Prints a table; the target is 8 threads >= 4x the 1-thread rate. Usage: threads [seconds per row, default 1]
#include <cvcuda/cvcuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace {

constexpr int kSyncEvery = 256; // calls between stream syncs, so that the GPU queue stays short
const int64_t kShape[] = {1, 64, 64, 3};

bool ok(cvStatus status, const char *what) {
    if (status == CV_SUCCESS) return true;
    std::fprintf(stderr, "threads: %s: %s\n", what, cvGetLastErrorMessage());
    return false;
}

struct Worker {
    cvStream stream = nullptr;
    cvTensor src = nullptr, dst = nullptr;
    uint64_t calls = 0;
    bool failed = false;
};

bool setUp(Worker &w) {
    return ok(cvStreamCreate(&w.stream), "cvStreamCreate") &&
           ok(cvTensorCreateOnStream(w.stream, 4, kShape, CV_DTYPE_UINT8, "NHWC", &w.src), "cvTensorCreateOnStream") &&
           ok(cvTensorCreateOnStream(w.stream, 4, kShape, CV_DTYPE_UINT8, "NHWC", &w.dst), "cvTensorCreateOnStream");
}

void tearDown(Worker &w) {
    cvTensorRelease(w.src);
    cvTensorRelease(w.dst);
    cvStreamRelease(w.stream);
}

// Every thread calls cvFlip until the deadline; returns all threads' calls per second.
double callsPerSecond(int threads, double seconds) {
    std::vector<Worker> workers(static_cast<size_t>(threads));
    for (Worker &w : workers)
        if (!setUp(w)) std::exit(1);
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::atomic<int64_t> deadline{0};
    auto body = [&](Worker &w) {
        for (int i = 0; i < 2 * kSyncEvery; ++i) w.failed |= cvFlip(w.stream, w.src, w.dst, 1) != CV_SUCCESS; // warm-up
        w.failed |= cvStreamSync(w.stream) != CV_SUCCESS;
        ready.fetch_add(1);
        while (!go.load()) std::this_thread::yield();
        const auto end = std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(deadline.load()));
        while (!w.failed && std::chrono::steady_clock::now() < end) {
            for (int i = 0; i < kSyncEvery; ++i) w.failed |= cvFlip(w.stream, w.src, w.dst, i % 3 - 1) != CV_SUCCESS;
            w.failed |= cvStreamSync(w.stream) != CV_SUCCESS;
            w.calls += kSyncEvery;
        }
    };
    std::vector<std::thread> pool;
    for (Worker &w : workers) pool.emplace_back(body, std::ref(w));
    while (ready.load() < threads) std::this_thread::yield();
    const auto start = std::chrono::steady_clock::now();
    deadline.store((start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds)))
                       .time_since_epoch()
                       .count());
    go.store(true);
    for (std::thread &t : pool) t.join();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t calls = 0;
    for (Worker &w : workers) {
        if (w.failed) {
            std::fprintf(stderr, "threads: a call failed: %s\n", cvGetLastErrorMessage());
            std::exit(1);
        }
        calls += w.calls;
        tearDown(w);
    }
    return static_cast<double>(calls) / elapsed;
}

} // namespace

int main(int argc, char **argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
    cvStream probe = nullptr;
    if (!ok(cvStreamCreate(&probe), "cvStreamCreate")) return 1;
    cvStreamRelease(probe);
    std::printf("| threads | cvFlip calls/s (C) | x 1 thread |\n|---:|---:|---:|\n");
    double one = 0, eight = 0;
    for (int threads : {1, 2, 4, 8}) {
        // Median of three runs of `seconds` each.
        double runs[3];
        for (double &r : runs) r = callsPerSecond(threads, seconds / 3);
        std::sort(runs, runs + 3);
        const double rate = runs[1];
        if (threads == 1) one = rate;
        if (threads == 8) eight = rate;
        std::printf("| %d | %.0f | %.2f |\n", threads, rate, rate / one);
    }
    std::printf("\ntarget: 8 threads >= 4x 1 thread: %s (%.2fx)\n", eight >= 4 * one ? "met" : "NOT met", eight / one);
    return 0;
}
