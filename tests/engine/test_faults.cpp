// Faults the library must survive without losing or corrupting anything: an allocation the device cannot satisfy,
// handles released while their work is still queued, and many threads sharing tensors through the engine.
#include "engine_fixtures.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace enginetest;

// [cuda-error]: provokes a CUDA API error on purpose (cudaErrorMemoryAllocation), which compute-sanitizer reports as
// an error; scripts/gpu-check.sh leaves such cases out of its sanitizer runs.
TEST_CASE("an allocation the device cannot satisfy is CV_ERROR_OUT_OF_MEMORY, and the next call works",
          "[gpu][engine][faults][cuda-error]") {
    CVTEST_REQUIRE_GPU();
    size_t freeBytes = 0, totalBytes = 0;
    CVTEST_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
    // Twice the device's memory, as one uint8 tensor: valid arithmetic, impossible to satisfy.
    const int64_t shape[2] = {2, static_cast<int64_t>(totalBytes)};
    Stream s = createStream();
    for (int round = 0; round < 3; ++round) {
        cvTensor t = nullptr;
        const cvStatus status = cvTensorCreateOnStream(s.get(), 2, shape, CV_DTYPE_UINT8, nullptr, &t);
        INFO(cvGetLastErrorMessage());
        CHECK(status == CV_ERROR_OUT_OF_MEMORY);
        CHECK(t == nullptr);
        const std::string message = cvGetLastErrorMessage();
        CHECK(message.find("cvTensorCreateOnStream") != std::string::npos);
    }
    // The device and the library are still usable: a real flip round-trips.
    const Shape small{1, 7, 9, 3};
    DeviceBuffer src(small.bytes()), dst(small.bytes());
    const Bytes host = randomImage(small, 5);
    src.upload(host);
    dst.fill(kPoison);
    Tensor ts = wrap(src, small, kCaiNone), td = wrap(dst, small, kCaiNone);
    CV_OK(cvFlip(s.get(), ts.get(), td.get(), 1));
    CV_OK(cvStreamSync(s.get()));
    CHECK(dst.download() == cpuFlip(host, small, 1));
}

TEST_CASE("streams and tensors released while their work is queued: the work completes, correctly",
          "[gpu][engine][faults]") {
    CVTEST_REQUIRE_GPU();
    const Shape shape{2, 33, 47, 3};
    DeviceBuffer src(shape.bytes()), out(shape.bytes());
    const Bytes host = randomImage(shape, 9);
    src.upload(host);
    out.fill(kPoison);
    {
        Stream s = createStream();
        Tensor ts = wrap(src, shape, kCaiNone), to = wrap(out, shape, kCaiNone);
        // An owned intermediate: its memory is freed on release, with the flips that use it still queued.
        const int64_t dims[4] = {shape.n, shape.h, shape.w, shape.c};
        cvTensor mid = nullptr;
        CV_OK(cvTensorCreateOnStream(s.get(), 4, dims, CV_DTYPE_UINT8, "NHWC", &mid));
        CVTEST_CUDA(cvtest::launchSpin(handleOf(s.get()), 30 * kMillisecond));
        CV_OK(cvFlip(s.get(), ts.get(), mid, 1));
        CV_OK(cvFlip(s.get(), mid, to.get(), 0));
        cvTensorRelease(mid);
        REQUIRE(busy(handleOf(s.get()))); // everything above is still queued behind the spin
    } // the stream and both wrappers go here, with the work still queued
    CV_OK(cvSyncAndCollect());
    CHECK(out.download() == cpuFlip(host, shape, -1));
    const cvStats st = stats();
    CHECK(st.liveTensors == 0);
    CHECK(st.liveStreams == 0);
}

TEST_CASE("8 threads x 10000 operations sharing tensors: every result equals the CPU replay",
          "[gpu][engine][faults][threads]") {
    CVTEST_REQUIRE_GPU();
    // Every thread owns a stream and a private pair; all of them read one shared source, and they take turns (a
    // fixed round-robin order, enforced on the host) writing one shared tensor on their own streams, so the engine
    // must order writes and reads across 8 streams: a missing wait shows as a wrong shared or private result.
    constexpr int kThreads = 8, kOpsPerThread = 10000, kRounds = kOpsPerThread / 4;
    const Shape shape{1, 16, 24, 3};
    DeviceBuffer shared(shape.bytes()), sharedSrc(shape.bytes());
    const Bytes hostSrc = randomImage(shape, 21);
    sharedSrc.upload(hostSrc);
    shared.upload(randomImage(shape, 22));
    Tensor tSrc = wrap(sharedSrc, shape, kCaiNone), tShared = wrap(shared, shape, kCaiNone);
    std::vector<std::unique_ptr<DeviceBuffer>> privA, privB;
    for (int i = 0; i < kThreads; ++i) {
        privA.push_back(std::make_unique<DeviceBuffer>(shape.bytes()));
        privB.push_back(std::make_unique<DeviceBuffer>(shape.bytes()));
        privA.back()->fill(kPoison);
        privB.back()->fill(kPoison);
    }
    std::mutex turnMutex;
    std::condition_variable turnChanged;
    int turn = 0; // whose turn it is to write the shared tensor
    std::atomic<int> failures{0};
    // Handles are made here: Catch2's assertions (inside createStream and wrap) may not run on other threads.
    std::vector<Stream> streams;
    std::vector<Tensor> wrappedA, wrappedB;
    for (int i = 0; i < kThreads; ++i) {
        streams.push_back(createStream());
        wrappedA.push_back(wrap(*privA[i], shape, kCaiNone));
        wrappedB.push_back(wrap(*privB[i], shape, kCaiNone));
    }
    auto worker = [&](int id) {
        const Stream &s = streams[id];
        const Tensor &a = wrappedA[id], &b = wrappedB[id];
        for (int r = 0; r < kRounds; ++r) {
            // 4 operations a round: two on private memory from the shared source, then (in turn) shared -> b and
            // a -> shared, so the shared tensor's content is the previous writer's a, flipped.
            if (cvFlip(s.get(), tSrc.get(), a.get(), (id + r) % 3 - 1) != CV_SUCCESS) ++failures;
            if (cvFlip(s.get(), a.get(), a.get(), 0) != CV_SUCCESS) ++failures;
            std::unique_lock<std::mutex> lock(turnMutex);
            turnChanged.wait(lock, [&] { return turn % kThreads == id; });
            if (cvFlip(s.get(), tShared.get(), b.get(), 1) != CV_SUCCESS) ++failures;
            if (cvFlip(s.get(), a.get(), tShared.get(), -1) != CV_SUCCESS) ++failures;
            ++turn;
            lock.unlock();
            turnChanged.notify_all();
        }
        if (cvStreamSync(s.get()) != CV_SUCCESS) ++failures;
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) threads.emplace_back(worker, i);
    for (std::thread &t : threads) t.join();
    REQUIRE(failures == 0);

    // CPU replay of the same turn order.
    auto aAfter = [&](int id, int r) { return cpuFlip(cpuFlip(hostSrc, shape, (id + r) % 3 - 1), shape, 0); };
    Bytes hostShared = randomImage(shape, 22);
    std::vector<Bytes> lastB(kThreads);
    for (int t = 0; t < kThreads * kRounds; ++t) {
        const int id = t % kThreads, r = t / kThreads;
        lastB[id] = cpuFlip(hostShared, shape, 1);
        hostShared = cpuFlip(aAfter(id, r), shape, -1);
    }
    CHECK(shared.download() == hostShared);
    int privateMismatches = 0;
    for (int id = 0; id < kThreads; ++id) {
        if (privA[id]->download() != aAfter(id, kRounds - 1)) ++privateMismatches;
        if (privB[id]->download() != lastB[id]) ++privateMismatches;
    }
    CHECK(privateMismatches == 0);
    WARN("8 threads x " << kOpsPerThread << " flips sharing tensors: shared "
                        << (shared.download() == hostShared ? "equal" : "DIFFERS") << ", private mismatches "
                        << privateMismatches);
}
