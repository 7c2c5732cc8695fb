// cvTensorCreateLike: a C-contiguous tensor with the shape, dtype and layout of any tensor (strided wrappers
// included), on the stream's device, usable at once as an operator's output.
#include "engine_fixtures.hpp"

#include <cstring>
#include <string>

using namespace enginetest;

namespace {

cvTensorInfo infoOf(cvTensor t) {
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    CV_OK(cvTensorGetInfo(t, &info));
    return info;
}

} // namespace

TEST_CASE("cvTensorCreateLike copies shape, dtype and layout and makes C-contiguous strides", "[gpu][engine][create-like]") {
    CVTEST_REQUIRE_GPU();
    Stream stream = createStream();
    DeviceBuffer memory(1 << 20);
    struct Row {
        const char *name;
        const char *typestr;
        int32_t ndim;
        int64_t shape[4];
        int64_t strides[4]; // bytes; all 0: C-contiguous (no strides key)
        const char *layout;
        int64_t contiguous[4]; // the new tensor's strides, bytes
    };
    const Row rows[] = {
        {"packed NHWC u8", "|u1", 4, {2, 29, 41, 3}, {0, 0, 0, 0}, "NHWC", {29 * 41 * 3, 41 * 3, 3, 1}},
        {"HWC u16 rows at a 512-byte pitch", "<u2", 3, {17, 23, 3}, {512, 6, 2, 0}, "HWC", {23 * 6, 6, 2, 0}},
        {"CHW f32, channels reversed (negative stride)", "<f4", 3, {3, 5, 7}, {-140, 28, 4, 0}, "CHW", {140, 28, 4, 0}},
        {"no layout, 2-D s16, transposed", "<i2", 2, {6, 9}, {2, 12, 0, 0}, "", {18, 2, 0, 0}},
        {"empty tensor", "|u1", 3, {0, 4, 3}, {0, 0, 0, 0}, "HWC", {12, 3, 1, 0}},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cai.data = reinterpret_cast<uint64_t>(memory.get()) + (row.strides[0] < 0 ? 4096 : 0);
        cai.ndim = row.ndim;
        bool strided = false;
        for (int i = 0; i < row.ndim; ++i) {
            cai.shape[i] = row.shape[i];
            cai.strides[i] = row.strides[i];
            strided = strided || row.strides[i] != 0;
        }
        cai.hasStrides = strided ? 1 : 0;
        cai.streamKind = CV_CAI_STREAM_NONE;
        std::strncpy(cai.typestr, row.typestr, sizeof(cai.typestr) - 1);
        cvTensor like = nullptr;
        CV_OK(cvTensorWrap(&cai, *row.layout ? row.layout : nullptr, &like)); // NULL: no layout ("" is rejected)
        Tensor likeRef(like);
        cvTensor made = nullptr;
        CV_OK(cvTensorCreateLike(stream.get(), like, &made));
        Tensor madeRef(made);
        const cvTensorInfo a = infoOf(like), b = infoOf(made);
        CHECK(b.ndim == a.ndim);
        CHECK(b.dtype == a.dtype);
        CHECK(std::string(b.layout) == row.layout);
        for (int i = 0; i < row.ndim; ++i) {
            CHECK(b.shape[i] == row.shape[i]);
            CHECK(b.strides[i] == row.contiguous[i]);
        }
        CHECK((b.data != 0) == (row.shape[0] != 0)); // an empty tensor allocates nothing
        CHECK(b.data != a.data);
        int32_t device = -1;
        CV_OK(cvTensorGetDevice(made, &device));
        int32_t streamDevice = -2;
        CV_OK(cvStreamGetDevice(stream.get(), &streamDevice));
        CHECK(device == streamDevice);
    }
}

TEST_CASE("cvTensorCreateLike's output takes an operator's result: flip into it, then read it back", "[gpu][engine][create-like]") {
    CVTEST_REQUIRE_GPU();
    const Shape shape{2, 13, 19, 3};
    const Bytes image = randomImage(shape, 7);
    DeviceBuffer source(shape.bytes());
    source.upload(image);
    Stream stream = createStream();
    Tensor src = wrap(source, shape, kCaiNone);
    cvTensor made = nullptr;
    CV_OK(cvTensorCreateLike(stream.get(), src.get(), &made));
    Tensor dst(made);
    CV_OK(cvFlip(stream.get(), src.get(), dst.get(), 1));
    CV_OK(cvStreamSync(stream.get()));
    Bytes out(shape.bytes(), kPoison);
    CVTEST_CUDA(cudaMemcpy(out.data(), reinterpret_cast<void *>(infoOf(dst.get()).data), out.size(), cudaMemcpyDeviceToHost));
    CHECK(out == cpuFlip(image, shape, 1));
}

TEST_CASE("cvTensorCreateLike names its NULL arguments", "[gpu][engine][create-like]") {
    CVTEST_REQUIRE_GPU();
    Stream stream = createStream();
    cvTensor made = nullptr;
    CHECK(cvTensorCreateLike(stream.get(), nullptr, &made) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(cvGetLastErrorMessage()) == "cvTensorCreateLike: like is NULL");
    CHECK(made == nullptr);
}
