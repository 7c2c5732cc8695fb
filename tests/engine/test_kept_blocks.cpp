// The blocks a stream keeps from released owned tensors whose every use was on it (Stream::keepBlock): the next
// allocation of the same size on that stream gets the block without a cudaMallocFromPoolAsync, and stream order keeps
// its new uses behind the old ones.
#include "engine_fixtures.hpp"

using namespace enginetest;

namespace {

cvTensor createOn(cvStream stream, const Shape &shape) {
    const int64_t extents[4] = {shape.n, shape.h, shape.w, shape.c};
    cvTensor t = nullptr;
    CV_OK(cvTensorCreateOnStream(stream, 4, extents, CV_DTYPE_UINT8, "NHWC", &t));
    return t;
}

uint64_t dataOf(cvTensor t) {
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    CV_OK(cvTensorGetInfo(t, &info));
    return info.data;
}

constexpr Shape kShape{1, 29, 41, 3};

} // namespace

TEST_CASE("kept blocks: a block goes to the next allocation of its size on its stream only",
          "[gpu][engine][kept-blocks]") {
    CVTEST_REQUIRE_GPU();
    struct Row {
        const char *name;
        bool otherStream;
        Shape shape;
        bool sameBlock;
    };
    const Row rows[] = {
        {"same stream, same size: the kept block", false, kShape, true},
        {"another stream, same size: a block of its own", true, kShape, false},
        {"same stream, another size: a block of its own", false, Shape{1, 29, 41, 4}, false},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        Stream s = createStream(), other = createStream();
        DeviceBuffer src(kShape.bytes());
        src.upload(randomImage(kShape, 31));
        Tensor in = wrap(src, kShape, kCaiNone);
        Tensor first(createOn(s.get(), kShape));
        const uint64_t block = dataOf(first.get());
        CV_OK(cvFlip(s.get(), in.get(), first.get(), 1)); // used on s only
        first.reset();
        Tensor next(createOn(row.otherStream ? other.get() : s.get(), row.shape));
        CHECK((dataOf(next.get()) == block) == row.sameBlock);
        CV_OK(cvStreamSync(s.get()));
        CV_OK(cvStreamSync(other.get()));
    }
}

namespace {

// A tensor on stream s is read by a flip queued behind a spin (into `out`), then released; garbage is then written
// into its block, by a flip on s into the next allocation there (ordered), or, in the negative control, on another
// stream through a wrapper of the same address declared ready (unordered). Returns what `out` holds at the end.
Bytes readThenOverwriteKeptBlock(bool throughTheStream, Bytes &expected) {
    DeviceBuffer src(kShape.bytes()), garbage(kShape.bytes()), out(kShape.bytes());
    const Bytes image = randomImage(kShape, 32);
    src.upload(image);
    garbage.fill(1);
    out.fill(kPoison);
    Stream s = createStream(), other = createStream();
    Tensor in = wrap(src, kShape, kCaiNone), junk = wrap(garbage, kShape, kCaiNone), result = wrap(out, kShape, kCaiNone);
    Tensor owned(createOn(s.get(), kShape));
    const uint64_t block = dataOf(owned.get());
    CV_OK(cvFlip(s.get(), in.get(), owned.get(), 1));
    CVTEST_CUDA(cvtest::launchSpin(handleOf(s.get()), kBusyProducer));
    CV_OK(cvFlip(s.get(), owned.get(), result.get(), 1)); // the read, queued behind the spin
    owned.reset();
    Tensor next;
    if (throughTheStream) {
        next.reset(createOn(s.get(), kShape));
        REQUIRE(dataOf(next.get()) == block);
        CV_OK(cvFlip(s.get(), junk.get(), next.get(), 0));
    } else {
        next = wrap(reinterpret_cast<void *>(block), kShape, kCaiNone);
        CV_OK(cvFlip(other.get(), junk.get(), next.get(), 0));
        CV_OK(cvStreamSync(other.get()));
        REQUIRE(busy(handleOf(s.get()))); // the overwrite finished while the read still waited: the race was forced
    }
    CV_OK(cvStreamSync(s.get()));
    expected = image; // flipped twice
    return out.download();
}

} // namespace

TEST_CASE("kept blocks: the next allocation's write runs after the released tensor's queued read",
          "[gpu][engine][kept-blocks]") {
    CVTEST_REQUIRE_GPU();
    Bytes expected;
    const Bytes out = readThenOverwriteKeptBlock(true, expected);
    CHECK(out == expected);
}

TEST_CASE("negative control: the kept block overwritten from another stream without order corrupts the read",
          "[gpu][engine][kept-blocks][negative-control]") {
    CVTEST_REQUIRE_GPU();
    Bytes expected;
    const Bytes out = readThenOverwriteKeptBlock(false, expected);
    CHECK(out != expected);
}
