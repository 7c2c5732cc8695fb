// Submissions from several threads, each on its own stream, over the same memory: the engine's lock covers only the
// bookkeeping, so a thread may need an event that another thread reserved but has not recorded yet; it must wait for
// the record (a CUDA wait on an unrecorded event orders nothing). The window is held open with the engine's
// before-launch test hook; the negative control switches that wait off.
#include "engine_fixtures.hpp"

#include "../../core/hazards.hpp"

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

using namespace enginetest;

namespace {

constexpr Shape kShape{1, 48, 80, 3};
constexpr auto kStall = std::chrono::milliseconds(40);

// The stalled thread: the before-launch hook sleeps in it only, once, after saying it is inside the window.
std::atomic<std::thread::id> gStalledThread{};
std::atomic<bool> gInsideWindow{false};

void stallOnce() {
    if (std::this_thread::get_id() != gStalledThread.load()) return;
    gStalledThread.store(std::thread::id());
    gInsideWindow.store(true);
    std::this_thread::sleep_for(kStall);
}

struct WindowResult {
    bool correct;
    double readerCallMs; // how long the reader's cvFlip took on the host
};

// Thread A writes M (flip of X) on stream a and is held for kStall between its bookkeeping and its launch; meanwhile
// the main thread reads M on stream b into Y. Y is right only if b's wait waited for A's event to be recorded.
WindowResult readWhileWriterIsInsideTheWindow() {
    DeviceBuffer x(kShape.bytes()), m(kShape.bytes()), y(kShape.bytes());
    const Bytes hostX = randomImage(kShape, 501);
    x.upload(hostX);
    m.fill(kPoison);
    y.fill(kPoison);
    Stream a = createStream(), b = createStream();
    Tensor tx = wrap(x, kShape, kCaiNone), tm = wrap(m, kShape, kCaiNone), ty = wrap(y, kShape, kCaiNone);

    gInsideWindow.store(false);
    cv::detail::setBeforeLaunchHook(stallOnce);
    cvStatus writerStatus = CV_ERROR_INTERNAL;
    std::thread writer([&] {
        gStalledThread.store(std::this_thread::get_id());
        writerStatus = cvFlip(a.get(), tx.get(), tm.get(), 1);
    });
    while (!gInsideWindow.load()) std::this_thread::yield();
    const auto t0 = std::chrono::steady_clock::now();
    const cvStatus readerStatus = cvFlip(b.get(), tm.get(), ty.get(), 0);
    const auto t1 = std::chrono::steady_clock::now();
    writer.join();
    cv::detail::setBeforeLaunchHook(nullptr);
    REQUIRE(writerStatus == CV_SUCCESS);
    REQUIRE(readerStatus == CV_SUCCESS);
    CV_OK(cvStreamSync(b.get()));
    CV_OK(cvStreamSync(a.get()));
    return {y.download() == cpuFlip(cpuFlip(hostX, kShape, 1), kShape, 0),
            std::chrono::duration<double, std::milli>(t1 - t0).count()};
}

} // namespace

TEST_CASE("threads: a read of memory whose writer has not launched yet waits for the writer's event to be recorded",
          "[gpu][engine][threads]") {
    CVTEST_REQUIRE_GPU();
    const WindowResult r = readWhileWriterIsInsideTheWindow();
    CHECK(r.correct);
    CHECK(r.readerCallMs >= 20.0); // it waited for the stalled writer's record
    WARN("threads: reader waited " << r.readerCallMs << " ms for a writer held " << kStall.count() << " ms before its launch");
}

TEST_CASE("negative control: without waiting for unrecorded events the reader runs before the writer's launch",
          "[gpu][engine][threads][negative-control]") {
    CVTEST_REQUIRE_GPU();
    cv::detail::setAwaitRecordedEnabled(false);
    const WindowResult r = readWhileWriterIsInsideTheWindow();
    cv::detail::setAwaitRecordedEnabled(true);
    CHECK_FALSE(r.correct); // forced: the writer's kernel is not even enqueued while the reader's runs
    CHECK(r.readerCallMs < 20.0);
}

namespace {

// Eight threads, each on its own stream, flip one shared tensor in place, `steps` times each, with flipCode 0 or 1
// at random and a random 0-30 us spin of their stream first. Row and column flips commute and each is an
// involution, so whatever the interleaving, the result is P0 flipped by rows (count of 0s mod 2) and columns (count
// of 1s mod 2) — provided no two flips of the memory ever overlap on the GPU.
bool sharedInPlaceFlips(int threads, int steps) {
    DeviceBuffer p(kShape.bytes());
    const Bytes host = randomImage(kShape, 601);
    p.upload(host);
    Tensor tp = wrap(p, kShape, kCaiNone);
    std::vector<Stream> streams;
    std::vector<cudaStream_t> handles; // looked up here: Catch2's assertions (in handleOf) must not run on the workers
    for (int i = 0; i < threads; ++i) {
        streams.push_back(createStream());
        handles.push_back(handleOf(streams.back().get()));
    }
    std::atomic<int> rows{0}, cols{0};
    std::atomic<bool> failed{false};
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&, i] {
            std::mt19937 rng(700 + static_cast<uint32_t>(i));
            const cudaStream_t handle = handles[static_cast<size_t>(i)];
            for (int k = 0; k < steps && !failed; ++k) {
                const int32_t code = static_cast<int32_t>(rng() % 2);
                if (cvtest::launchSpin(handle, (rng() % 30) * kMicrosecond) != cudaSuccess ||
                    cvFlip(streams[static_cast<size_t>(i)].get(), tp.get(), tp.get(), code) != CV_SUCCESS)
                    failed = true;
                (code == 0 ? rows : cols).fetch_add(1);
            }
        });
    for (std::thread &t : pool) t.join();
    REQUIRE_FALSE(failed.load());
    for (const Stream &s : streams) CV_OK(cvStreamSync(s.get()));
    Bytes expected = host;
    if (rows % 2) expected = cpuFlip(expected, kShape, 0);
    if (cols % 2) expected = cpuFlip(expected, kShape, 1);
    return p.download() == expected;
}

} // namespace

TEST_CASE("threads: 8 threads x 300 in-place flips of one tensor, each thread its own stream: equal to the CPU result",
          "[gpu][engine][threads]") {
    CVTEST_REQUIRE_GPU();
    cvResetStats();
    CHECK(sharedInPlaceFlips(8, 300));
    CHECK(stats().deviceSyncs == 0);
}
