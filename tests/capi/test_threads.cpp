// The C API from several threads at once, without a GPU: the cleanup race, and a hammer over wrap, export, re-wrap,
// retain/release of shared handles, cleanup callbacks, stats and the per-thread last error. Threads record what they
// saw in atomics and the main thread asserts (Catch2's assertions are not thread-safe). The TSan build
// (scripts/sanitizers.sh) runs these with CVCUDA_TEST_ITERATIONS raised.
#include "cai.hpp"

#include "../../core/error.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace cvtest;

namespace {

int iterations(int fallback) {
    const char *v = std::getenv("CVCUDA_TEST_ITERATIONS");
    return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

// All participants leave wait() together, round after round.
class SpinBarrier {
public:
    explicit SpinBarrier(int participants) : participants_(participants) {}
    void wait() {
        const int round = round_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == participants_) {
            arrived_.store(0, std::memory_order_relaxed);
            round_.store(round + 1, std::memory_order_release);
            return;
        }
        // Busy first, so that the racers leave together; then yield, so that a loaded machine still progresses.
        for (int spins = 0; round_.load(std::memory_order_acquire) == round; ++spins)
            if (spins > 20000) std::this_thread::yield();
    }

private:
    const int participants_;
    std::atomic<int> arrived_{0};
    std::atomic<int> round_{0};
};

// Fault hook (core/error.hpp) run at the entry of every C call: the two cvTensorSetCleanup calls of a round meet here
// and leave together, busy-waiting, so that their checks overlap as often as the machine's cores allow.
std::atomic<int> gRendezvous{0};
void meetAtSetCleanup(const char *function) {
    if (std::string(function) != "cvTensorSetCleanup") return;
    const int ticket = gRendezvous.fetch_add(1, std::memory_order_acq_rel);
    const int target = (ticket / 2 + 1) * 2;
    for (int spins = 0; gRendezvous.load(std::memory_order_acquire) < target; ++spins)
        if (spins > 20000) std::this_thread::yield();
}

void countCall(void *counter) { static_cast<std::atomic<int> *>(counter)->fetch_add(1, std::memory_order_relaxed); }

cvArrayInterface readyCai(std::initializer_list<int64_t> shape, uint64_t data = kFakeData) {
    cvArrayInterface cai = makeCai("<f4", shape, data);
    cai.streamKind = CV_CAI_STREAM_NONE;
    return cai;
}

} // namespace

// Two threads set the cleanup of one tensor at the same moment: exactly one succeeds and exactly its callback runs.
TEST_CASE("cvTensorSetCleanup: of two racing calls exactly one wins", "[threads]") {
    const int rounds = iterations(20000);
    SpinBarrier barrier(3);
    std::atomic<cvTensor> shared{nullptr};
    std::atomic<int> calls[2] = {{0}, {0}};
    std::atomic<int> successes{0}, wrongStatus{0};
    auto racer = [&](int me) {
        for (int r = 0; r < rounds; ++r) {
            barrier.wait(); // the tensor is ready
            const cvStatus status = cvTensorSetCleanup(shared.load(), countCall, &calls[me]);
            if (status == CV_SUCCESS) successes.fetch_add(1);
            else if (status != CV_ERROR_INVALID_STATE) wrongStatus.fetch_add(1);
            barrier.wait(); // both calls returned
        }
    };
    gRendezvous.store(0);
    cv::detail::setFaultHook(meetAtSetCleanup);
    std::thread a(racer, 0), b(racer, 1);
    int badRounds = 0;
    for (int r = 0; r < rounds; ++r) {
        const cvArrayInterface cai = readyCai({4});
        cvTensor t = nullptr;
        REQUIRE(cvTensorWrap(&cai, nullptr, &t) == CV_SUCCESS);
        shared.store(t);
        const int before = calls[0].load() + calls[1].load(), won = successes.load();
        barrier.wait();
        barrier.wait();
        cvTensorRelease(t); // never used on a GPU: the callback runs here
        if (successes.load() - won != 1 || calls[0].load() + calls[1].load() - before != 1) ++badRounds;
    }
    a.join();
    b.join();
    cv::detail::setFaultHook(nullptr);
    CHECK(wrongStatus.load() == 0);
    CHECK(badRounds == 0);
    CHECK(successes.load() == rounds);
    CHECK(calls[0].load() + calls[1].load() == rounds);
}

// Eight threads use the C API at once. Each wraps its own tensors, exports and re-wraps them, checks the round trip,
// sets a cleanup on each, retains and releases tensors shared by all threads, reads the stats and makes a failing
// call whose per-thread message must be its own.
TEST_CASE("eight threads hammer the C API", "[threads]") {
    constexpr int kThreads = 8;
    const int perThread = iterations(2000);
    cvStats start = CV_STATS_INIT;
    REQUIRE(cvGetStats(&start) == CV_SUCCESS);
    std::vector<cvTensor> shared(4);
    for (auto &t : shared) {
        const cvArrayInterface cai = readyCai({3, 5});
        REQUIRE(cvTensorWrap(&cai, "HW", &t) == CV_SUCCESS);
    }
    std::atomic<int> cleanups{0}, failures{0};
    std::atomic<int> firstFailure{-1};
    auto note = [&](int code) {
        failures.fetch_add(1);
        int none = -1;
        firstFailure.compare_exchange_strong(none, code);
    };
    auto worker = [&](int me) {
        for (int i = 0; i < perThread; ++i) {
            const int64_t rows = 1 + (i + me) % 7, cols = 1 + (i * 3 + me) % 11;
            const uint64_t data = kFakeData + 4096 * static_cast<uint64_t>(me * perThread + i);
            const cvArrayInterface cai = readyCai({rows, cols}, data);
            cvTensor t = nullptr;
            if (cvTensorWrap(&cai, "HW", &t) != CV_SUCCESS) { note(1); continue; }
            if (cvTensorSetCleanup(t, countCall, &cleanups) != CV_SUCCESS) note(2);
            cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
            cvStream writer = nullptr;
            if (cvTensorExport(t, &exported, &writer) != CV_SUCCESS || writer != nullptr) note(3);
            cvTensor again = nullptr;
            if (cvTensorWrap(&exported, "HW", &again) != CV_SUCCESS) note(4);
            cvTensorInfo a = CV_TENSOR_INFO_INIT, b = CV_TENSOR_INFO_INIT;
            if (cvTensorGetInfo(t, &a) != CV_SUCCESS || cvTensorGetInfo(again, &b) != CV_SUCCESS) note(5);
            if (a.data != data || b.data != data || a.shape[0] != rows || b.shape[1] != cols || a.strides[0] != b.strides[0])
                note(6);
            cvTensor s = shared[static_cast<size_t>(i + me) % shared.size()];
            cvTensorRetain(s);
            cvTensorInfo si = CV_TENSOR_INFO_INIT;
            if (cvTensorGetInfo(s, &si) != CV_SUCCESS || si.shape[1] != 5) note(7);
            cvTensorRelease(s);
            cvStats stats = CV_STATS_INIT;
            if (cvGetStats(&stats) != CV_SUCCESS || stats.liveTensors < 4) note(8);
            // A failure names this thread's value in this thread's message, whatever the others do meanwhile.
            cvArrayInterface bad = cai;
            bad.ndim = -(me + 1);
            cvTensor none = nullptr;
            if (cvTensorWrap(&bad, nullptr, &none) != CV_ERROR_INVALID_ARGUMENT ||
                std::string(cvGetLastErrorMessage()) != "cvTensorWrap: ndim=" + std::to_string(-(me + 1)) + " is outside 0..8")
                note(9);
            if (cvCollect() != CV_SUCCESS) note(10);
            cvTensorRelease(again);
            cvTensorRelease(t);
            // The handle died with its last reference, although another thread may reuse its slot at once.
            if (cvTensorGetInfo(t, &a) != CV_ERROR_INVALID_ARGUMENT) note(11);
        }
    };
    std::vector<std::thread> threads;
    for (int me = 0; me < kThreads; ++me) threads.emplace_back(worker, me);
    for (auto &th : threads) th.join();
    for (cvTensor t : shared) cvTensorRelease(t);
    INFO("first failure code: " << firstFailure.load());
    CHECK(failures.load() == 0);
    CHECK(cleanups.load() == kThreads * perThread);
    cvStats end = CV_STATS_INIT;
    REQUIRE(cvGetStats(&end) == CV_SUCCESS);
    CHECK(end.liveTensors == start.liveTensors);
}
