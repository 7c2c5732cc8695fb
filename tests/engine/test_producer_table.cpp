// The CAI producer table of docs/streams.md, through the C API: a busy producer writes a buffer, the buffer is wrapped
// with each state of the CAI "stream" key and flipped on a cvcuda stream; results against the CPU, host syncs counted.
#include "engine_fixtures.hpp"

#include <string>

using namespace enginetest;

namespace {

constexpr Shape kShape{2, 48, 64, 3};

// One run of the seed's scenario: the producer writes `src` (spin, then copy of `image`), the consumer wraps it with
// `stream` (after a manual sync when asked) and flips it into `dst` on `consumer`. Returns what dst holds.
struct Run {
    DeviceBuffer &image, &src, &dst;
    cudaStream_t producer;
    cvStream consumer;
    cvTensor dstTensor;
};

Bytes flipProduced(const Run &r, CaiStream stream, bool manualSync, int32_t flipCode) {
    r.src.fill(kPoison);
    r.dst.fill(kPoison);
    produce(r.producer, kBusyProducer, r.image, r.src);
    if (manualSync) CVTEST_CUDA(cudaStreamSynchronize(r.producer));
    Tensor src = wrap(r.src, kShape, stream);
    CV_OK(cvFlip(r.consumer, src.get(), r.dstTensor, flipCode));
    CV_OK(cvStreamSync(r.consumer));
    return r.dst.download();
}

} // namespace

TEST_CASE("a producer stream named in the CAI orders the flip after it with an event, no host sync: 200/200",
          "[gpu][engine][producer]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    SideStream producer;
    Stream consumer = createStream();
    Tensor dstTensor = wrap(dst, kShape, kCaiNone);
    const Run run{image, src, dst, producer.get(), consumer.get(), dstTensor.get()};

    constexpr int kRuns = 200;
    constexpr int32_t kCodes[3] = {0, 1, -1};
    int correct = 0;
    cvResetStats();
    for (int i = 0; i < kRuns; ++i) {
        const Bytes data = randomImage(kShape, 1000 + static_cast<uint32_t>(i));
        image.upload(data);
        const int32_t code = kCodes[i % 3];
        if (flipProduced(run, caiStreamOf(producer.get()), false, code) == cpuFlip(data, kShape, code)) ++correct;
    }
    const cvStats s = stats();
    CHECK(correct == kRuns);
    CHECK(s.deviceSyncs == 0);
    CHECK(s.eventWaits >= 1);
    WARN("producer stream in CAI: " << correct << "/" << kRuns << " correct, deviceSyncs=" << s.deviceSyncs
                                    << ", eventWaits=" << s.eventWaits << ", eventRecords=" << s.eventRecords);
}

// [timing]: checks that the producer's spin kernel is still running at a point of the host code, which a sanitizer
// (serialising and slowing every launch) can let it finish before; scripts/gpu-check.sh leaves it out of those runs.
TEST_CASE("the defensive sync happens at the first use of an unknown-producer wrapper, not at wrap",
          "[gpu][engine][producer][timing]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    SideStream producer;
    Stream consumer = createStream();
    const Bytes data = randomImage(kShape, 7);
    image.upload(data);
    src.fill(kPoison);
    dst.fill(kPoison);
    Tensor dstTensor = wrap(dst, kShape, kCaiNone);

    cvResetStats();
    produce(producer.get(), kBusyProducer, image, src);
    Tensor srcTensor = wrap(src, kShape, kCaiV2);
    CHECK(stats().deviceSyncs == 0);
    CHECK(busy(producer.get())); // wrapping neither synchronised nor waited for the producer

    CV_OK(cvFlip(consumer.get(), srcTensor.get(), dstTensor.get(), -1));
    CHECK(stats().deviceSyncs == 1);
    CHECK_FALSE(busy(producer.get())); // the first use synchronised the device
    CV_OK(cvStreamSync(consumer.get()));
    CHECK(dst.download() == cpuFlip(data, kShape, -1));
}

TEST_CASE("producer table: host syncs at the first operation and on the next ten, results exact",
          "[gpu][engine][producer]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    SideStream side;
    Stream consumer = createStream();
    Tensor dstTensor = wrap(dst, kShape, kCaiNone);

    enum class On { Side, Legacy, PerThread };
    struct Row {
        const char *name;
        On producerStream;
        CaiStream stream; // value ignored when streamIsProducer
        bool streamIsProducer;
        bool manualSync; // the producer declared ready (None, -1) is trusted: the test synchronises as the caller
        uint64_t syncsAtFirstUse;
    };
    const Row rows[] = {
        {"CAI v2 (no stream key): unknown", On::Side, kCaiV2, false, false, 1},
        {"CAI v3, stream key absent: unknown", On::Side, kCaiV3Absent, false, false, 1},
        {"stream 0 (no stream associated): unknown", On::Side, caiInteger(0), false, false, 1},
        {"stream 1 (legacy default stream)", On::Legacy, caiInteger(1), false, false, 1},
        {"stream 2 (per-thread default stream)", On::PerThread, caiInteger(2), false, false, 1},
        {"a real producer stream: event at wrap", On::Side, {}, true, false, 0},
        {"None: the producer says ready", On::Side, kCaiNone, false, true, 0},
        {"-1 after a manual sync: opt-out", On::Side, kCaiOptOut, false, true, 0},
    };
    constexpr int32_t kCodes[3] = {0, 1, -1};
    uint32_t seed = 100;
    for (const Row &row : rows) {
        INFO(row.name);
        const cudaStream_t producer = row.producerStream == On::Side     ? side.get()
                                      : row.producerStream == On::Legacy ? cudaStreamLegacy
                                                                         : cudaStreamPerThread;
        const Bytes data = randomImage(kShape, ++seed);
        image.upload(data);
        src.fill(kPoison);
        dst.fill(kPoison);

        cvResetStats();
        produce(producer, kBusyProducer, image, src);
        if (row.manualSync) CVTEST_CUDA(cudaStreamSynchronize(producer));
        Tensor srcTensor = wrap(src, kShape, row.streamIsProducer ? caiStreamOf(producer) : row.stream);
        CHECK(stats().deviceSyncs == 0);
        CV_OK(cvFlip(consumer.get(), srcTensor.get(), dstTensor.get(), 1));
        CV_OK(cvStreamSync(consumer.get()));
        CHECK(stats().deviceSyncs == row.syncsAtFirstUse);
        CHECK(dst.download() == cpuFlip(data, kShape, 1));

        for (int op = 0; op < 10; ++op) {
            dst.fill(kPoison);
            CV_OK(cvFlip(consumer.get(), srcTensor.get(), dstTensor.get(), kCodes[op % 3]));
            CV_OK(cvStreamSync(consumer.get()));
            CHECK(dst.download() == cpuFlip(data, kShape, kCodes[op % 3]));
        }
        CHECK(stats().deviceSyncs == row.syncsAtFirstUse);
        if (row.streamIsProducer) CHECK(stats().eventWaits >= 1);
    }
}

TEST_CASE("-1 after a manual sync: no host sync, exact", "[gpu][engine][producer]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    SideStream producer;
    Stream consumer = createStream();
    Tensor dstTensor = wrap(dst, kShape, kCaiNone);
    const Run run{image, src, dst, producer.get(), consumer.get(), dstTensor.get()};
    const Bytes data = randomImage(kShape, 42);
    image.upload(data);

    cvResetStats();
    CHECK(flipProduced(run, kCaiOptOut, true, -1) == cpuFlip(data, kShape, -1));
    CHECK(stats().deviceSyncs == 0);
}

// Negative control of the producer tests: the same scenario without the manual sync must be seen to race.
TEST_CASE("negative control: -1 without the manual sync reads the buffer before the producer wrote it",
          "[gpu][engine][producer][negative-control]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    SideStream producer;
    Stream consumer = createStream();
    Tensor dstTensor = wrap(dst, kShape, kCaiNone);
    const Run run{image, src, dst, producer.get(), consumer.get(), dstTensor.get()};

    constexpr int kRuns = 20;
    int wrong = 0;
    cvResetStats();
    for (int i = 0; i < kRuns; ++i) {
        const Bytes data = randomImage(kShape, 2000 + static_cast<uint32_t>(i));
        image.upload(data);
        if (flipProduced(run, kCaiOptOut, false, -1) != cpuFlip(data, kShape, -1)) ++wrong;
    }
    CHECK(wrong >= 1);
    CHECK(stats().deviceSyncs == 0);
    WARN("negative control, -1 without sync: " << wrong << "/" << kRuns << " runs wrong (at least 1 required)");
}
