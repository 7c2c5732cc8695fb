// The pool of released library streams behind cvStreamCreate: a released stream is handed out again once no handle
// and no tracked work holds it, whatever it still has queued, and the new owner's work then runs after that work.
#include "engine_fixtures.hpp"

using namespace enginetest;

namespace {

// A released stream with nothing queued: the next cvStreamCreate hands out its cudaStream_t again.
cudaStream_t releasedIdleHandle() {
    Stream s = createStream();
    const cudaStream_t h = handleOf(s.get());
    CV_OK(cvStreamSync(s.get()));
    return h;
}

} // namespace

TEST_CASE("stream pool: a released stream is reused, busy or not; one still held or tracked is not",
          "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        bool held, busy, tracked; // what keeps the released stream from being handed out
    };
    const Row rows[] = {
        {"released and idle: reused", false, false, false},
        {"a handle is still held: not reused", true, false, false},
        {"work queued through its raw cudaStream_t is pending: reused all the same", false, true, false},
        {"a tensor's hazard state still holds it: not reused", false, false, true},
    };
    constexpr Shape kShape{1, 16, 24, 3};
    for (const Row &row : rows) {
        INFO(row.name);
        CV_OK(cvSyncAndCollect());
        (void)releasedIdleHandle(); // the pool now holds at least one idle stream
        Stream first = createStream();
        const cudaStream_t h = handleOf(first.get());
        DeviceBuffer src(kShape.bytes()), dst(kShape.bytes());
        src.upload(randomImage(kShape, 5));
        Tensor ts = wrap(src, kShape, kCaiNone), td = wrap(dst, kShape, kCaiNone);
        if (row.busy) CVTEST_CUDA(cvtest::launchSpin(h, kBusyProducer));
        if (row.tracked) CV_OK(cvFlip(first.get(), ts.get(), td.get(), 1));
        if (row.tracked) CV_OK(cvStreamSync(first.get())); // idle, but the region of dst still names the stream
        Stream keep = row.held ? Stream(first.release()) : Stream();
        first.reset();
        if (row.busy) REQUIRE(busy(h));
        // The pool hands out its older streams before `h`, so take streams until `h` comes or none is left.
        std::vector<Stream> taken;
        bool handedOut = false;
        for (int i = 0; i < 40 && !handedOut; ++i) {
            taken.push_back(createStream());
            handedOut = handleOf(taken.back().get()) == h;
        }
        const bool shouldBeReused = !row.held && !row.tracked;
        CHECK(handedOut == shouldBeReused);
        if (row.busy) CVTEST_CUDA(cudaStreamSynchronize(h));
    }
}

namespace {

// A stream is released with a write still queued through its raw cudaStream_t (a spin, then a copy of `src` into `mid`);
// then a flip on `owner` reads `mid`, declared ready (CAI stream None), so that nothing but the stream itself can order
// the read after the write. `reuse` takes the released stream back from the pool as `owner`; without it (the negative
// control) the released stream stays held and `owner` is another stream. Returns the flip's output, and whether the
// write was still pending when the flip had completed on a stream that is not the writer's.
struct ReuseResult {
    Bytes out, expected;
    bool raceForced = false;
};

ReuseResult flipAfterReleasedWrite(bool reuse) {
    constexpr Shape kShape{1, 37, 53, 3};
    CV_OK(cvSyncAndCollect());
    DeviceBuffer src(kShape.bytes()), mid(kShape.bytes()), dst(kShape.bytes());
    const Bytes image = randomImage(kShape, 17);
    src.upload(image);
    mid.fill(kPoison);
    dst.fill(kPoison);
    Stream first = createStream();
    const cudaStream_t h = handleOf(first.get());
    produce(h, kBusyProducer, src, mid);
    std::vector<Stream> taken;
    Stream keep;
    if (reuse) {
        first.reset();
        for (int i = 0; i < 40 && (taken.empty() || handleOf(taken.back().get()) != h); ++i) taken.push_back(createStream());
        REQUIRE(handleOf(taken.back().get()) == h);
    } else {
        keep = std::move(first);
        taken.push_back(createStream());
        REQUIRE(handleOf(taken.back().get()) != h);
    }
    cvStream owner = taken.back().get();
    REQUIRE(busy(h)); // the write is still queued when the read is submitted
    Tensor in = wrap(mid, kShape, kCaiNone), out = wrap(dst, kShape, kCaiNone);
    CV_OK(cvFlip(owner, in.get(), out.get(), 1));
    CV_OK(cvStreamSync(owner));
    ReuseResult r;
    r.raceForced = busy(h);
    // The reused stream goes on working as any other: its sync covered the flip, so an export names no stream.
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    CV_OK(cvTensorExport(out.get(), &cai, nullptr));
    CHECK(cai.streamKind == CV_CAI_STREAM_NONE);
    CVTEST_CUDA(cudaStreamSynchronize(h));
    r.out = dst.download();
    r.expected = cpuFlip(image, kShape, 1);
    return r;
}

} // namespace

TEST_CASE("stream pool: work on a reused stream runs after what its previous owner left queued on it",
          "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    const ReuseResult r = flipAfterReleasedWrite(true);
    CHECK_FALSE(r.raceForced); // the flip's sync waited for the write ahead of it on the same stream
    CHECK(r.out == r.expected);
}

TEST_CASE("negative control: on a stream that is not the released one, the read overtakes the queued write",
          "[gpu][engine][stream-pool][negative-control]") {
    CVTEST_REQUIRE_GPU();
    const ReuseResult r = flipAfterReleasedWrite(false);
    REQUIRE(r.raceForced);
    CHECK(r.out != r.expected);
}

TEST_CASE("stream pool: a reused stream is counted live again, a pooled one is not", "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    Stream warm = createStream();
    warm.reset();
    const int64_t before = stats().liveStreams;
    Stream s = createStream();
    CHECK(stats().liveStreams == before + 1);
    s.reset();
    CHECK(stats().liveStreams == before);
}

TEST_CASE("cvStreamCreateWithHandle returns the handle cvStreamGetHandle reports", "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    void *handle = nullptr;
    cvStream s = nullptr;
    CV_OK(cvStreamCreateWithHandle(&handle, &s));
    Stream owned(s);
    CHECK(handle == static_cast<void *>(handleOf(s)));
    CHECK(handle != nullptr);
}
