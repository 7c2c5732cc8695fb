// Hazards between cvcuda streams (RAW, WAR, WAW), tracked per memory range: several streams and several wrappers of
// one memory, each scenario with its negative control (tracking switched off through the engine's test hook).
#include "engine_fixtures.hpp"

#include <random>

using namespace enginetest;

namespace {

constexpr Shape kPingPongShape{1, 64, 96, 3};

struct PingPongResult {
    bool aMatches, bMatches;
    cvStats stats;
};

// Two tensors A and B, three cvcuda streams, `steps` flips alternating A -> B and B -> A with flipCode cycling
// 0, 1, -1. Consecutive steps always run on different streams, so every step has a cross-stream RAW (it reads what
// the previous step wrote), WAR (it overwrites what the previous step read) and WAW (it overwrites what the step
// before that wrote). Each step first spins its stream for a random 20-100 us, so that unordered streams drift apart;
// `firstSpin` replaces the first step's spin (the negative control makes it long enough to force the race).
PingPongResult pingPong(int steps, uint32_t seed, uint64_t firstSpin = 0) {
    DeviceBuffer a(kPingPongShape.bytes()), b(kPingPongShape.bytes());
    Bytes hostA = randomImage(kPingPongShape, seed), hostB = randomImage(kPingPongShape, seed + 1);
    a.upload(hostA);
    b.upload(hostB);
    Tensor ta = wrap(a, kPingPongShape, kCaiNone), tb = wrap(b, kPingPongShape, kCaiNone);
    Stream streams[3] = {createStream(), createStream(), createStream()};
    constexpr int32_t kCodes[3] = {0, 1, -1};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint64_t> spin(20 * kMicrosecond, 100 * kMicrosecond);

    cvResetStats();
    for (int i = 0; i < steps; ++i) {
        // (i + i / 3) % 3 changes by 1 or 2 from one step to the next, and pairs every stream with every flipCode.
        cvStream s = streams[(i + i / 3) % 3].get();
        const int32_t code = kCodes[i % 3];
        const bool aToB = i % 2 == 0;
        const uint64_t spinFor = spin(rng);
        CVTEST_CUDA(cvtest::launchSpin(handleOf(s), i == 0 && firstSpin > 0 ? firstSpin : spinFor));
        CV_OK(cvFlip(s, aToB ? ta.get() : tb.get(), aToB ? tb.get() : ta.get(), code));
        Bytes &dst = aToB ? hostB : hostA;
        dst = cpuFlip(aToB ? hostA : hostB, kPingPongShape, code);
    }
    for (const Stream &s : streams) CV_OK(cvStreamSync(s.get()));
    return {a.download() == hostA, b.download() == hostB, stats()};
}

} // namespace

TEST_CASE("three streams, two tensors, 1000 steps of RAW, WAR and WAW: equal to the CPU replay", "[gpu][engine][hazards]") {
    CVTEST_REQUIRE_GPU();
    const PingPongResult r = pingPong(1000, 11);
    CHECK(r.aMatches);
    CHECK(r.bMatches);
    CHECK(r.stats.deviceSyncs == 0);
    CHECK(r.stats.eventWaits >= 999); // every step waits on at least the previous step's stream
    WARN("ping-pong, 1000 steps on 3 streams: final tensors " << (r.aMatches && r.bMatches ? "equal" : "DIFFER")
                                                               << " to the CPU replay, deviceSyncs=" << r.stats.deviceSyncs
                                                               << ", eventWaits=" << r.stats.eventWaits);
}

TEST_CASE("three steps of ping-pong with the first step's stream busy for 50 ms: equal to the CPU replay",
          "[gpu][engine][hazards]") {
    CVTEST_REQUIRE_GPU();
    const PingPongResult r = pingPong(3, 12, kBusyProducer);
    CHECK(r.aMatches);
    CHECK(r.bMatches);
    CHECK(r.stats.eventWaits >= 2);
}

// The race is forced: step 0 (A -> B on stream 0) waits behind a 50 ms spin; unordered, step 1 (B -> A on stream 1)
// reads B before step 0 writes it, so A ends as a flip of the initial B, which the replay never reads (B0 and A0 are
// independent random images). A random schedule (the 1000 steps above) is not used here: its streams may happen not
// to overlap, and a negative control must not depend on timing luck.
TEST_CASE("negative control: the same three steps with hazard tracking switched off differ from the CPU replay",
          "[gpu][engine][hazards][negative-control]") {
    CVTEST_REQUIRE_GPU();
    PingPongResult r{};
    {
        TrackingOff off;
        r = pingPong(3, 12, kBusyProducer);
    }
    CHECK_FALSE(r.aMatches);
    CHECK_FALSE(r.bMatches);
    CHECK(r.stats.eventWaits == 0);
    WARN("negative control, ping-pong without tracking: A " << (r.aMatches ? "equal (the race was not seen)" : "differs")
                                                            << ", B " << (r.bMatches ? "equal (the race was not seen)" : "differs"));
}

namespace {

constexpr Shape kBatch{4, 40, 56, 3};

struct SharedResult {
    bool correct;
    cvStats stats;
};

// Two separate wrappers of one buffer M: the first is written on stream A (after A spins 50 ms, so the write is
// late), the second is read on stream B. The reader wraps images [first, first + count) of the batch: the same range
// as the writer, or a view inside it. Ordering B after A can only come from the hazard state of the memory.
SharedResult writeThroughOneReadThroughOther(int64_t first, int64_t count) {
    const Shape view{count, kBatch.h, kBatch.w, kBatch.c};
    DeviceBuffer x(kBatch.bytes()), m(kBatch.bytes()), y(view.bytes());
    const Bytes hostX = randomImage(kBatch, 31);
    x.upload(hostX);
    m.fill(kPoison);
    y.fill(kPoison);
    Stream a = createStream(), b = createStream();
    Tensor tx = wrap(x, kBatch, kCaiNone), writer = wrap(m, kBatch, kCaiNone), ty = wrap(y, view, kCaiNone);
    const size_t offset = static_cast<size_t>(first) * (kBatch.bytes() / static_cast<size_t>(kBatch.n));
    Tensor reader = wrap(static_cast<uint8_t *>(m.get()) + offset, view, kCaiNone);

    cvResetStats();
    CVTEST_CUDA(cvtest::launchSpin(handleOf(a.get()), kBusyProducer));
    CV_OK(cvFlip(a.get(), tx.get(), writer.get(), 1));
    CV_OK(cvFlip(b.get(), reader.get(), ty.get(), 0));
    CV_OK(cvStreamSync(b.get()));
    const cvStats s = stats();
    CV_OK(cvStreamSync(a.get()));

    const Bytes written = cpuFlip(hostX, kBatch, 1);
    const Bytes viewed(written.begin() + static_cast<std::ptrdiff_t>(offset),
                       written.begin() + static_cast<std::ptrdiff_t>(offset + view.bytes()));
    return {y.download() == cpuFlip(viewed, view, 0), s};
}

} // namespace

TEST_CASE("two wrappers of one memory share its hazard state", "[gpu][engine][hazards]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        int64_t first, count;
    };
    const Row rows[] = {
        {"the reader wraps the same range", 0, kBatch.n},
        {"the reader wraps images 1..2 of the batch (a view inside the range)", 1, 2},
        {"the reader wraps the last image", kBatch.n - 1, 1},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        const SharedResult r = writeThroughOneReadThroughOther(row.first, row.count);
        CHECK(r.correct);
        CHECK(r.stats.deviceSyncs == 0);
        CHECK(r.stats.eventWaits >= 1);
    }
}

TEST_CASE("negative control: two wrappers of one memory with hazard tracking switched off race",
          "[gpu][engine][hazards][negative-control]") {
    CVTEST_REQUIRE_GPU();
    TrackingOff off;
    const SharedResult r = writeThroughOneReadThroughOther(0, kBatch.n);
    CHECK_FALSE(r.correct);
    CHECK(r.stats.eventWaits == 0);
}
