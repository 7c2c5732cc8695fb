// DLPack ordering and lifetime through the C API, each with its forced negative control (a spin kernel keeps the
// writer's stream busy, so an unordered reader certainly runs first):
// - export: the consumer stream waits on our pending write (event, no host sync); CV_DLPACK_EXPORT_NO_SYNC does not;
// - deleter: memory the library owns is released only after the consumer's queued read;
// - import: the wrapper starts as written on the producer-ordered stream; the producer's deleter runs once, after
//   the library's queued work on the memory.
#include "engine_fixtures.hpp"

#include <vector>

using namespace enginetest;

namespace {

constexpr Shape kShape{2, 33, 47, 3};

// A flip into `out` on the library stream `s`, kept busy first: `out` is written ~kBusyProducer from now.
void lateFlip(const Stream &s, const Tensor &in, cvTensor out) {
    CVTEST_CUDA(cvtest::launchSpin(handleOf(s.get()), kBusyProducer));
    CV_OK(cvFlip(s.get(), in.get(), out, 1));
}

// The consumer's read: a copy of the exported memory into `probe` on `consumer`.
void consume(DLManagedTensorVersioned *m, const DeviceBuffer &probe, cudaStream_t consumer) {
    CVTEST_CUDA(cudaMemcpyAsync(probe.get(), m->dl_tensor.data, probe.bytes(), cudaMemcpyDeviceToDevice, consumer));
}

cvTensor createOn(cvStream stream) {
    const int64_t shape[4] = {kShape.n, kShape.h, kShape.w, kShape.c};
    cvTensor t = nullptr;
    CV_OK(cvTensorCreateOnStream(stream, 4, shape, CV_DTYPE_UINT8, "NHWC", &t));
    return t;
}

// Exports a late-written flip to a consumer on a side stream; returns what the consumer read.
Bytes exportAndRead(uint32_t flags, const Bytes &input) {
    DeviceBuffer src(kShape.bytes()), dst(kShape.bytes()), probe(kShape.bytes());
    src.upload(input);
    dst.fill(kPoison);
    probe.fill(kPoison);
    Stream s = createStream();
    SideStream consumer;
    Stream consumerHandle = wrapStream(consumer.get());
    Tensor in = wrap(src, kShape, kCaiNone), out = wrap(dst, kShape, kCaiNone);
    lateFlip(s, in, out.get());
    DLManagedTensorVersioned *m = nullptr;
    CV_OK(cvTensorExportDLPack(out.get(), consumerHandle.get(), flags, &m));
    CHECK(m->version.major == 1);
    CHECK(m->dl_tensor.strides[3] == 1); // elements, not bytes
    CHECK(m->dl_tensor.strides[2] == kShape.c);
    CHECK(m->dl_tensor.dtype.code == kDLUInt);
    consume(m, probe, consumer.get());
    m->deleter(m);
    CVTEST_CUDA(cudaStreamSynchronize(consumer.get()));
    CV_OK(cvStreamSync(s.get()));
    return probe.download();
}

int gDeleterCalls = 0;
void countingDeleter(DLManagedTensorVersioned *) { ++gDeleterCalls; }

} // namespace

TEST_CASE("DLPack export: the consumer stream waits on the pending write, with no host sync", "[gpu][engine][dlpack]") {
    CVTEST_REQUIRE_GPU();
    const Bytes input = randomImage(kShape, 11);
    cvResetStats();
    CHECK(exportAndRead(CV_DLPACK_EXPORT_DEFAULT, input) == cpuFlip(input, kShape, 1));
    CHECK(stats().deviceSyncs == 0);
    CHECK(stats().eventWaits >= 1);
}

TEST_CASE("negative control: DLPack export with NO_SYNC lets the consumer read before the write",
          "[gpu][engine][dlpack][negative-control]") {
    CVTEST_REQUIRE_GPU();
    const Bytes input = randomImage(kShape, 12);
    CHECK(exportAndRead(CV_DLPACK_EXPORT_NO_SYNC, input) != cpuFlip(input, kShape, 1));
}

namespace {

// The consumer queues a read of an exported library-owned tensor behind a spin, then calls the deleter and the
// owner releases its handle; new allocations on the tensor's stream then overwrite whatever memory they get (the
// pool hands a block freed on a stream to that stream's next allocation at once, unless the free waits on events).
Bytes readAfterRelease(bool orderRelease, const Bytes &input) {
    DeviceBuffer src(kShape.bytes()), probe(kShape.bytes()), garbageSource(kShape.bytes());
    src.upload(input);
    probe.fill(kPoison);
    garbageSource.fill(1);
    Stream s = createStream();
    SideStream consumer;
    Stream consumerHandle = wrapStream(consumer.get());
    Tensor in = wrap(src, kShape, kCaiNone), garbageIn = wrap(garbageSource, kShape, kCaiNone);
    Tensor owned(createOn(s.get()));
    CV_OK(cvFlip(s.get(), in.get(), owned.get(), 1));
    CV_OK(cvStreamSync(s.get()));
    DLManagedTensorVersioned *m = nullptr;
    CV_OK(cvTensorExportDLPack(owned.get(), orderRelease ? consumerHandle.get() : nullptr,
                               orderRelease ? CV_DLPACK_EXPORT_DEFAULT : CV_DLPACK_EXPORT_NO_SYNC, &m));
    CVTEST_CUDA(cvtest::launchSpin(consumer.get(), kBusyProducer));
    consume(m, probe, consumer.get());
    m->deleter(m);
    owned.reset();
    std::vector<Tensor> reuse;
    for (int i = 0; i < 4; ++i) {
        reuse.emplace_back(createOn(s.get()));
        CV_OK(cvFlip(s.get(), garbageIn.get(), reuse.back().get(), 0));
    }
    CVTEST_CUDA(cudaStreamSynchronize(consumer.get()));
    CV_OK(cvStreamSync(s.get()));
    return probe.download();
}

} // namespace

TEST_CASE("DLPack deleter: owned memory is released only after the consumer's queued read", "[gpu][engine][dlpack]") {
    CVTEST_REQUIRE_GPU();
    const Bytes input = randomImage(kShape, 13);
    CHECK(readAfterRelease(true, input) == cpuFlip(input, kShape, 1));
}

TEST_CASE("negative control: without the consumer stream the memory is reused under the consumer's read",
          "[gpu][engine][dlpack][negative-control]") {
    CVTEST_REQUIRE_GPU();
    const Bytes input = randomImage(kShape, 14);
    CHECK(readAfterRelease(false, input) != cpuFlip(input, kShape, 1));
}

TEST_CASE("DLPack import: ordered on the producer's stream, deleter once after the library's queued work",
          "[gpu][engine][dlpack]") {
    CVTEST_REQUIRE_GPU();
    const Bytes input = randomImage(kShape, 15);
    DeviceBuffer staged(kShape.bytes()), src(kShape.bytes()), dst(kShape.bytes());
    staged.upload(input);
    src.fill(kPoison);
    dst.fill(kPoison);
    SideStream producer;
    Stream ours = createStream(), later = createStream();
    produce(producer.get(), kBusyProducer, staged, src); // the producer's late write
    // The producer's half of __dlpack__(stream=ours): our stream waits on its pending work.
    cudaEvent_t ready = nullptr;
    CVTEST_CUDA(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CVTEST_CUDA(cudaEventRecord(ready, producer.get()));
    CVTEST_CUDA(cudaStreamWaitEvent(handleOf(ours.get()), ready, 0));

    int64_t shape[4] = {kShape.n, kShape.h, kShape.w, kShape.c};
    DLManagedTensorVersioned m{};
    m.version = {1, 1};
    m.deleter = countingDeleter;
    m.dl_tensor.data = src.get();
    m.dl_tensor.device = {kDLCUDA, 0};
    CVTEST_CUDA(cudaGetDevice(&m.dl_tensor.device.device_id));
    m.dl_tensor.ndim = 4;
    m.dl_tensor.dtype = {kDLUInt, 8, 1};
    m.dl_tensor.shape = shape;
    gDeleterCalls = 0;
    cvResetStats();
    cvTensor wrapped = nullptr;
    CV_OK(cvTensorWrapDLPack(&m, "NHWC", ours.get(), &wrapped));
    Tensor in(wrapped), out = wrap(dst, kShape, kCaiNone);
    // Used on another stream, which is kept busy so that the use is still pending when the handle goes.
    CVTEST_CUDA(cvtest::launchSpin(handleOf(later.get()), kBusyProducer));
    CV_OK(cvFlip(later.get(), in.get(), out.get(), -1));
    in.reset();
    CHECK(gDeleterCalls == 0); // the flip has not run yet
    CV_OK(cvStreamSync(later.get()));
    CHECK(gDeleterCalls == 1);
    CV_OK(cvSyncAndCollect());
    CHECK(gDeleterCalls == 1);
    CHECK(stats().deviceSyncs == 0);
    CHECK(dst.download() == cpuFlip(input, kShape, -1));
    CVTEST_CUDA(cudaEventDestroy(ready));
}
