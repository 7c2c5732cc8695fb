// cvTensorExport: the CAI v3 it advertises (the pending writer's stream, relayed when that is a default stream; None
// when nothing is pending), what a consumer that honours only that stream sees, and wrapping the export back.
#include "engine_fixtures.hpp"

#include <cstring>

using namespace enginetest;

namespace {

constexpr Shape kShape{2, 40, 56, 3};

// A consumer outside the library, as CuPy or Numba would be: it orders its own stream after the advertised stream
// (an event recorded there) and copies the exported memory. It knows nothing of the library's hazard state.
Bytes consumeLikeAForeignLibrary(const cvArrayInterface &cai, const DeviceBuffer &out) {
    SideStream consumer;
    cudaEvent_t ready = nullptr;
    CVTEST_CUDA(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    if (cai.streamKind == CV_CAI_STREAM_INTEGER) {
        CVTEST_CUDA(cudaEventRecord(ready, reinterpret_cast<cudaStream_t>(static_cast<intptr_t>(cai.stream))));
        CVTEST_CUDA(cudaStreamWaitEvent(consumer.get(), ready, 0));
    }
    CVTEST_CUDA(cudaMemcpyAsync(out.get(), reinterpret_cast<void *>(cai.data), out.bytes(), cudaMemcpyDeviceToDevice,
                                consumer.get()));
    CVTEST_CUDA(cudaStreamSynchronize(consumer.get()));
    CVTEST_CUDA(cudaEventDestroy(ready));
    return out.download();
}

} // namespace

TEST_CASE("export advertises the pending writer's stream; a consumer honouring it and a wrap-back both see the write",
          "[gpu][engine][export]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer x(kShape.bytes()), m(kShape.bytes()), copy(kShape.bytes()), y(kShape.bytes());
    Stream reader = createStream();
    const Bytes hostX = randomImage(kShape, 51);
    x.upload(hostX);
    const Bytes written = cpuFlip(hostX, kShape, 1);

    enum class Writer { CvcudaStream, LegacyDefault };
    struct Row {
        const char *name;
        Writer writer;
        bool advertisesTheWriter; // false: a default stream, relayed through a library stream
    };
    const Row rows[] = {
        {"writer on a cvcuda stream: advertised as is", Writer::CvcudaStream, true},
        {"writer on the legacy default stream: relayed", Writer::LegacyDefault, false},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        Stream writer = row.writer == Writer::CvcudaStream ? createStream() : wrapStream(nullptr);
        m.fill(kPoison);
        copy.fill(kPoison);
        y.fill(kPoison);
        Tensor tx = wrap(x, kShape, kCaiNone), tm = wrap(m, kShape, kCaiNone), ty = wrap(y, kShape, kCaiNone);

        cvResetStats();
        CVTEST_CUDA(cvtest::launchSpin(handleOf(writer.get()), kBusyProducer));
        CV_OK(cvFlip(writer.get(), tx.get(), tm.get(), 1));

        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cvStream advertised = nullptr;
        CV_OK(cvTensorExport(tm.get(), &cai, &advertised));
        Stream keepAlive(advertised);
        CHECK(cai.version == 3);
        CHECK(cai.data == reinterpret_cast<uint64_t>(m.get()));
        CHECK(std::strcmp(cai.typestr, "|u1") == 0);
        REQUIRE(cai.streamKind == CV_CAI_STREAM_INTEGER);
        REQUIRE(advertised != nullptr);
        CHECK(cai.stream > 2); // never 0, 1 or 2: those mean "unknown" or a default stream to a consumer
        CHECK(cai.stream == reinterpret_cast<intptr_t>(handleOf(advertised)));
        const bool isWriter = cai.stream == reinterpret_cast<intptr_t>(handleOf(writer.get()));
        CHECK(isWriter == row.advertisesTheWriter);
        CHECK(busy(handleOf(writer.get()))); // the export did not block

        CHECK(consumeLikeAForeignLibrary(cai, copy) == written);

        cvTensor back = nullptr;
        CV_OK(cvTensorWrap(&cai, "NHWC", &back));
        Tensor wrappedBack(back);
        CV_OK(cvFlip(reader.get(), wrappedBack.get(), ty.get(), 0));
        CV_OK(cvStreamSync(reader.get()));
        CHECK(y.download() == cpuFlip(written, kShape, 0));
        CHECK(stats().deviceSyncs == 0);

        CV_OK(cvStreamSync(writer.get()));
        CV_OK(cvStreamSync(advertised));
        cvArrayInterface settled = CV_ARRAY_INTERFACE_INIT;
        CV_OK(cvTensorExport(tm.get(), &settled, nullptr));
        CHECK(settled.streamKind == CV_CAI_STREAM_NONE); // nothing pending any more
    }
}

TEST_CASE("export -> wrap back -> export: a cvcuda chain pays no host sync", "[gpu][engine][export]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer x(kShape.bytes()), m(kShape.bytes()), y(kShape.bytes()), z(kShape.bytes());
    const Bytes hostX = randomImage(kShape, 61);
    x.upload(hostX);
    m.fill(kPoison);
    y.fill(kPoison);
    z.fill(kPoison);
    Stream a = createStream(), b = createStream(), c = createStream();
    Tensor tx = wrap(x, kShape, kCaiNone), tm = wrap(m, kShape, kCaiNone), tz = wrap(z, kShape, kCaiNone);

    cvResetStats();
    CVTEST_CUDA(cvtest::launchSpin(handleOf(a.get()), kBusyProducer));
    CV_OK(cvFlip(a.get(), tx.get(), tm.get(), -1));
    cvArrayInterface first = CV_ARRAY_INTERFACE_INIT;
    CV_OK(cvTensorExport(tm.get(), &first, nullptr));
    cvTensor raw = nullptr;
    CV_OK(cvTensorWrap(&first, "NHWC", &raw));
    Tensor hop(raw);
    // The wrapped-back tensor is written on b (in place), exported again and read on c.
    CV_OK(cvFlip(b.get(), hop.get(), hop.get(), 0));
    cvArrayInterface second = CV_ARRAY_INTERFACE_INIT;
    CV_OK(cvTensorExport(hop.get(), &second, nullptr));
    REQUIRE(second.streamKind == CV_CAI_STREAM_INTEGER);
    CHECK(second.stream == reinterpret_cast<intptr_t>(handleOf(b.get())));
    CV_OK(cvTensorWrap(&second, "NHWC", &raw));
    Tensor hop2(raw);
    CV_OK(cvFlip(c.get(), hop2.get(), tz.get(), 1));
    CV_OK(cvStreamSync(c.get()));

    CHECK(z.download() == cpuFlip(cpuFlip(cpuFlip(hostX, kShape, -1), kShape, 0), kShape, 1));
    CHECK(stats().deviceSyncs == 0);
}

TEST_CASE("exporting an unknown-producer wrapper pays its one defensive sync first and advertises None",
          "[gpu][engine][export]") {
    CVTEST_REQUIRE_GPU();
    DeviceBuffer image(kShape.bytes()), src(kShape.bytes()), y(kShape.bytes());
    SideStream producer;
    Stream reader = createStream();
    const Bytes data = randomImage(kShape, 71);
    image.upload(data);
    src.fill(kPoison);
    y.fill(kPoison);
    Tensor ty = wrap(y, kShape, kCaiNone);

    cvResetStats();
    produce(producer.get(), kBusyProducer, image, src);
    Tensor unknown = wrap(src, kShape, kCaiV2);
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    CV_OK(cvTensorExport(unknown.get(), &cai, nullptr));
    CHECK(stats().deviceSyncs == 1);
    CHECK_FALSE(busy(producer.get()));
    CHECK(cai.streamKind == CV_CAI_STREAM_NONE); // true now: the producer's work has completed

    cvTensor raw = nullptr;
    CV_OK(cvTensorWrap(&cai, "NHWC", &raw));
    Tensor back(raw);
    CV_OK(cvFlip(reader.get(), back.get(), ty.get(), 0));
    CV_OK(cvFlip(reader.get(), unknown.get(), ty.get(), 0)); // the wrapper's sync is paid: no second one
    CV_OK(cvStreamSync(reader.get()));
    CHECK(y.download() == cpuFlip(data, kShape, 0));
    CHECK(stats().deviceSyncs == 1);
}

TEST_CASE("after a defensive device sync, an earlier write is known complete: its export advertises None",
          "[gpu][engine][export]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        CaiStream other; // the producer rule of another tensor used after the write
        bool advertisesWriter;
    };
    const Row rows[] = {
        {"no device sync since the write: the writer's stream, not asked whether it is done", kCaiNone, true},
        {"a defensive device sync since the write: None, known without a query", kCaiV2, false},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        DeviceBuffer x(kShape.bytes()), y(kShape.bytes()), z(kShape.bytes()), w(kShape.bytes());
        x.upload(randomImage(kShape, 72));
        z.upload(randomImage(kShape, 73));
        Stream writer = createStream(), later = createStream();
        Tensor tx = wrap(x, kShape, kCaiNone), ty = wrap(y, kShape, kCaiNone);
        Tensor tz = wrap(z, kShape, row.other), tw = wrap(w, kShape, kCaiNone);
        CV_OK(cvFlip(writer.get(), tx.get(), ty.get(), 1));
        CV_OK(cvFlip(later.get(), tz.get(), tw.get(), 1)); // the device sync, when tz's producer is unknown
        CV_OK(cvStreamSync(later.get()));
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        CV_OK(cvTensorExport(ty.get(), &cai, nullptr));
        CHECK((cai.streamKind == CV_CAI_STREAM_INTEGER) == row.advertisesWriter);
        if (row.advertisesWriter) CHECK(cai.stream == reinterpret_cast<intptr_t>(handleOf(writer.get())));
        CV_OK(cvStreamSync(writer.get()));
    }
}
