// cvStreamWaitStream: work enqueued on a stream afterwards runs after what the other stream had queued, through an
// event (no host sync, the host does not block); its negative control forces the race with a busy producer.
#include "engine_fixtures.hpp"

#include <chrono>

using namespace enginetest;

namespace {

constexpr size_t kBytes = 1 << 20;
constexpr uint8_t kWritten = 7;

// The producer spins, then fills `buf` with kWritten; the consumer copies `buf` to `out` after waiting (or not).
// Returns what `out` holds and how long the wait call took on the host.
struct Pair {
    Stream producer = createStream();
    Stream consumer = createStream();
};

Bytes copyAfterProducer(const Pair &streams, bool wait, DeviceBuffer &buf, DeviceBuffer &out, double &hostSeconds) {
    const Stream &producer = streams.producer, &consumer = streams.consumer;
    buf.fill(kPoison);
    out.fill(kPoison);
    CVTEST_CUDA(cvtest::launchBusyFill(handleOf(producer.get()), kBusyProducer, buf.get(), kBytes, kWritten));
    const auto start = std::chrono::steady_clock::now();
    if (wait) CV_OK(cvStreamWaitStream(consumer.get(), producer.get()));
    hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CVTEST_CUDA(cudaMemcpyAsync(out.get(), buf.get(), kBytes, cudaMemcpyDeviceToDevice, handleOf(consumer.get())));
    CV_OK(cvStreamSync(consumer.get()));
    CV_OK(cvStreamSync(producer.get()));
    return out.download();
}

} // namespace

TEST_CASE("cvStreamWaitStream orders the consumer after the producer's queued work, with one event and no host sync",
          "[gpu][engine][wait]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer buf(kBytes), out(kBytes);
    const Pair streams;
    double hostSeconds = 0;
    cvResetStats();
    const Bytes got = copyAfterProducer(streams, true, buf, out, hostSeconds);
    const cvStats s = stats();
    CHECK(got == Bytes(kBytes, kWritten));
    CHECK(s.deviceSyncs == 0);
    CHECK(s.eventRecords == 1);
    CHECK(s.eventWaits == 1);
    CHECK(hostSeconds < 0.5 * static_cast<double>(kBusyProducer) / 1e9);  // did not wait for the busy producer
}

TEST_CASE("negative control: without cvStreamWaitStream the consumer copies before the producer's write lands",
          "[gpu][engine][wait][negative-control]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer buf(kBytes), out(kBytes);
    const Pair streams;
    double hostSeconds = 0;
    CHECK(copyAfterProducer(streams, false, buf, out, hostSeconds) != Bytes(kBytes, kWritten));
}

TEST_CASE("cvStreamWaitStream of a stream on itself is a no-op", "[gpu][engine][wait]") {
    CVTEST_REQUIRE_GPU();
    Stream s = createStream();
    Stream same = wrapStream(handleOf(s.get()));
    cvResetStats();
    CV_OK(cvStreamWaitStream(s.get(), s.get()));
    CV_OK(cvStreamWaitStream(s.get(), same.get()));
    CHECK(stats().eventRecords == 0);
}
