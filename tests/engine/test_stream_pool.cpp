// The pool of released library streams behind cvStreamCreate: a released stream is handed out again once no handle
// and no tracked work holds it and nothing is pending on it, whether its raw handle was ever given out or not.
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

// Ends the capture begun on `h`; true when it ends cleanly, i.e. no call since invalidated it.
bool captureEndsCleanly(cudaStream_t h) {
    cudaGraph_t graph = nullptr;
    const bool clean = cudaStreamEndCapture(h, &graph) == cudaSuccess;
    if (graph != nullptr) CVTEST_CUDA(cudaGraphDestroy(graph));
    return clean;
}

} // namespace

TEST_CASE("stream pool: a released idle stream is reused; one still held, busy or tracked is not",
          "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        bool held, busy, tracked; // what keeps the released stream from being handed out
    };
    const Row rows[] = {
        {"released and idle: reused", false, false, false},
        {"a handle is still held: not reused", true, false, false},
        {"work queued through its raw cudaStream_t is pending: not reused", false, true, false},
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
        const bool shouldBeReused = !row.held && !row.busy && !row.tracked;
        CHECK(handedOut == shouldBeReused);
        if (row.busy) CVTEST_CUDA(cudaStreamSynchronize(h));
    }
}

TEST_CASE("stream pool: a stream left waiting by library work, its raw handle never given out, is not handed out busy",
          "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    CV_OK(cvSyncAndCollect());
    Stream producer = createStream();
    CVTEST_CUDA(cvtest::launchSpin(handleOf(producer.get()), kBusyProducer));
    cvStream raw = nullptr;
    CV_OK(cvStreamCreate(&raw)); // no handle asked for: the stream is known idle until the library queues on it
    Stream waiting(raw);
    CV_OK(cvStreamWaitStream(waiting.get(), producer.get())); // now it waits behind the spin
    waiting.reset();
    // Every stream handed out now must be idle: the waiting one stays pooled until its wait is over.
    std::vector<Stream> taken;
    int busyHandedOut = 0;
    for (int i = 0; i < 40; ++i) {
        taken.push_back(createStream());
        busyHandedOut += busy(handleOf(taken.back().get()));
    }
    REQUIRE(busy(handleOf(producer.get()))); // the spin outlasted the takes: a busy stream could have been handed out
    CHECK(busyHandedOut == 0);
    CV_OK(cvStreamSync(producer.get()));
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

// cvStreamQuery answers without blocking; CV_NOT_READY is not an error (no message), and a capturing stream is
// refused without invalidating its capture. The busy row forces its race: a spin on the stream outlasts the query.
TEST_CASE("cvStreamQuery: idle, busy behind a spin, idle after a sync, refused while captured", "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        bool spin, sync, capture, otherCaptured;
        cvStatus expected;
    };
    const Row rows[] = {
        {"a new stream (its raw handle never given out): idle", false, false, false, false, CV_SUCCESS},
        {"a spin queued through its raw handle: not ready", true, false, false, false, CV_NOT_READY},
        {"the spin, then cvStreamSync: idle", true, true, false, false, CV_SUCCESS},
        {"being captured into a graph: invalid state", false, false, true, false, CV_ERROR_INVALID_STATE},
        {"its raw handle given out, another stream captured by this thread in global mode: answered", false, false, false, true,
         CV_SUCCESS},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        Stream s = createStream(), other = createStream();
        if (row.spin || row.capture || row.otherCaptured) {
            const cudaStream_t h = handleOf(s.get()); // given out: the query has to ask CUDA
            if (row.spin) CVTEST_CUDA(cvtest::launchSpin(h, kBusyProducer));
            if (row.sync) CV_OK(cvStreamSync(s.get()));
            if (row.capture) CVTEST_CUDA(cudaStreamBeginCapture(h, cudaStreamCaptureModeGlobal));
        }
        const cudaStream_t otherHandle = handleOf(other.get());
        if (row.otherCaptured) CVTEST_CUDA(cudaStreamBeginCapture(otherHandle, cudaStreamCaptureModeGlobal));
        REQUIRE(cvStreamQuery(nullptr) == CV_ERROR_INVALID_ARGUMENT); // a message to see whether the query replaces it
        const cvStatus status = cvStreamQuery(s.get());
        const std::string message = cvGetLastErrorMessage();
        CHECK(status == row.expected);
        if (status == CV_SUCCESS || status == CV_NOT_READY) CHECK(message == "cvStreamQuery: stream is NULL");
        if (row.capture || row.otherCaptured) {
            if (row.capture) CHECK(message.find("captured") != std::string::npos);
            // The capture is intact: the query made no call that global mode forbids (it relaxes the mode around them).
            CHECK(captureEndsCleanly(row.capture ? handleOf(s.get()) : otherHandle));
        }
        if (row.spin && !row.sync) {
            CHECK(cudaPeekAtLastError() == cudaSuccess); // the pending work left no error for a later launch check
            REQUIRE(busy(handleOf(s.get()))); // the spin outlasted the query: a wrong CV_SUCCESS could have been seen
            CV_OK(cvStreamSync(s.get()));
            CHECK(cvStreamQuery(s.get()) == CV_SUCCESS);
        }
    }
}

// cvStreamQueryReusable hands a stream on only under the pool's conditions: one handle with one reference, no hazard
// state naming it, not captured, nothing pending. The busy row forces its race: a spin on the stream outlasts the call.
// cvStreamPeekReusable, asked first, answers CV_SUCCESS only where the library knows the stream idle without CUDA
// (`peek`); once cvStreamQueryReusable has found a stream idle it is known idle, and the peek says so too.
TEST_CASE("cvStreamQueryReusable: only a sole, untracked, idle handle of a created stream", "[gpu][engine][stream-pool]") {
    CVTEST_REQUIRE_GPU();
    enum class Hold { none, retained, wrappedRaw, knownIdleWrapped, tracked, busy, busyThenSynced, captured, otherCaptured, adopted };
    struct Row {
        const char *name;
        Hold hold;
        cvStatus expected;
        cvStatus peek;
    };
    const Row rows[] = {
        {"a new stream, nothing held: reusable", Hold::none, CV_SUCCESS, CV_SUCCESS},
        {"its handle retained once more: not reusable", Hold::retained, CV_NOT_READY, CV_NOT_READY},
        {"another handle from cvStreamWrap of its cudaStream_t: not reusable", Hold::wrappedRaw, CV_NOT_READY, CV_NOT_READY},
        {"found idle (known idle from then on), then wrapped from its cudaStream_t: not reusable", Hold::knownIdleWrapped,
         CV_NOT_READY, CV_NOT_READY},
        {"a tensor's hazard state names it (a flip, synced): not reusable", Hold::tracked, CV_NOT_READY, CV_NOT_READY},
        {"a spin queued through its raw handle is pending: not reusable", Hold::busy, CV_NOT_READY, CV_NOT_READY},
        {"the spin, then cvStreamSync: reusable (only CUDA can tell)", Hold::busyThenSynced, CV_SUCCESS, CV_NOT_READY},
        {"being captured through its raw handle: not reusable, the capture intact", Hold::captured, CV_NOT_READY,
         CV_NOT_READY},
        {"its raw handle given out, another stream captured by this thread in global mode: answered", Hold::otherCaptured,
         CV_SUCCESS, CV_NOT_READY},
        {"an adopted stream (cvStreamWrap of a stream the library did not make): invalid", Hold::adopted,
         CV_ERROR_INVALID_ARGUMENT, CV_ERROR_INVALID_ARGUMENT},
    };
    constexpr Shape kShape{1, 16, 24, 3};
    for (const Row &row : rows) {
        INFO(row.name);
        CV_OK(cvSyncAndCollect());
        SideStream foreign; // a stream of CUDA's own, for the adopted row
        Stream s = row.hold == Hold::adopted ? wrapStream(foreign.get()) : createStream();
        Stream extra;
        DeviceBuffer src(kShape.bytes()), dst(kShape.bytes());
        src.upload(randomImage(kShape, 7)); // the tracked row's flip reads it
        Tensor ts = wrap(src, kShape, kCaiNone), td = wrap(dst, kShape, kCaiNone);
        switch (row.hold) {
        case Hold::retained:
            cvStreamRetain(s.get());
            extra = Stream(s.get());
            break;
        case Hold::wrappedRaw: extra = wrapStream(handleOf(s.get())); break;
        case Hold::knownIdleWrapped: {
            const cudaStream_t raw = handleOf(s.get());
            REQUIRE(cvStreamQueryReusable(s.get()) == CV_SUCCESS); // idle, and known idle from here on
            extra = wrapStream(raw); // a second reference to the same stream object
            break;
        }
        case Hold::tracked:
            CV_OK(cvFlip(s.get(), ts.get(), td.get(), 1));
            CV_OK(cvStreamSync(s.get()));
            break;
        case Hold::busy:
        case Hold::busyThenSynced:
            CVTEST_CUDA(cvtest::launchSpin(handleOf(s.get()), kBusyProducer));
            if (row.hold == Hold::busyThenSynced) CV_OK(cvStreamSync(s.get()));
            break;
        default: break;
        }
        Stream other = createStream();
        const cudaStream_t capturedHandle = row.hold == Hold::captured      ? handleOf(s.get())
                                            : row.hold == Hold::otherCaptured ? handleOf(other.get())
                                                                              : nullptr;
        if (row.hold == Hold::otherCaptured) (void)handleOf(s.get()); // given out: the call has to ask CUDA
        if (capturedHandle != nullptr) CVTEST_CUDA(cudaStreamBeginCapture(capturedHandle, cudaStreamCaptureModeGlobal));
        REQUIRE(cvStreamPeekReusable(nullptr) == CV_ERROR_INVALID_ARGUMENT); // a message the answer must not replace
        const cvStatus peeked = cvStreamPeekReusable(s.get());
        const std::string peekMessage = cvGetLastErrorMessage();
        CHECK(peeked == row.peek);
        if (peeked == CV_SUCCESS || peeked == CV_NOT_READY) CHECK(peekMessage == "cvStreamPeekReusable: stream is NULL");
        REQUIRE(cvStreamQueryReusable(nullptr) == CV_ERROR_INVALID_ARGUMENT);
        const cvStatus status = cvStreamQueryReusable(s.get());
        const std::string message = cvGetLastErrorMessage();
        CHECK(status == row.expected);
        if (status == CV_SUCCESS || status == CV_NOT_READY) {
            CHECK(message == "cvStreamQueryReusable: stream is NULL");
            CHECK(cudaPeekAtLastError() == cudaSuccess); // an answer leaves no error behind
        }
        // A stream found reusable is known idle from then on: the peek agrees without asking CUDA.
        if (status == CV_SUCCESS) CHECK(cvStreamPeekReusable(s.get()) == CV_SUCCESS);
        // The capture is intact: the call made no call that global mode forbids, and did not query the captured stream.
        if (capturedHandle != nullptr) CHECK(captureEndsCleanly(capturedHandle));
        if (row.hold == Hold::adopted) {
            CHECK(message.find("adopted") != std::string::npos);
            CHECK(peekMessage.find("cvStreamPeekReusable: stream is adopted") == 0);
        }
        if (row.hold == Hold::busy) {
            REQUIRE(busy(handleOf(s.get()))); // the spin outlasted the call: a wrong CV_SUCCESS could have been seen
            CV_OK(cvStreamSync(s.get()));
            CHECK(cvStreamQueryReusable(s.get()) == CV_SUCCESS);
        }
        if (row.hold == Hold::knownIdleWrapped) {
            extra.reset(); // the other reference gone, the stream is still known idle: refused above for the reference
            CHECK(cvStreamPeekReusable(s.get()) == CV_SUCCESS);
        }
        if (row.hold == Hold::tracked) {
            td.reset(); // the last tensor naming the stream: its hazard state goes once collected
            ts.reset();
            CV_OK(cvSyncAndCollect());
            CHECK(cvStreamQueryReusable(s.get()) == CV_SUCCESS);
        }
    }
}
