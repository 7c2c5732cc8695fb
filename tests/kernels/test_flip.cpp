// cvFlip on the GPU against the CPU reference (flip_case.cpp), over tables of layouts, element sizes, channels,
// shapes, flipCodes, stride kinds and in-place runs. Random src bytes; dst poisoned before each run; the whole dst
// buffer is compared, so bytes between pitched rows must stay poisoned.
#include "flip_case.hpp"
#include "../../kernels/flip.hpp"
#include "gpu.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cuda_runtime.h>
#include <cvcuda/cvcuda.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace cvtest;

namespace {

constexpr uint8_t kPoison = 0xA5;

// One dtype per element size, several families: flip moves bytes whatever they mean.
cvDataType dtypeOf(int elemSize) {
    switch (elemSize) {
    case 1: return CV_DTYPE_UINT8;
    case 2: return CV_DTYPE_FLOAT16;
    case 4: return CV_DTYPE_FLOAT32;
    case 16: return CV_DTYPE_COMPLEX128;
    default: return CV_DTYPE_INT64;
    }
}

struct DeviceBuffer {
    void *ptr = nullptr;
    explicit DeviceBuffer(int64_t bytes) { CVTEST_CUDA(cudaMalloc(&ptr, static_cast<size_t>(std::max<int64_t>(bytes, 1)))); }
    ~DeviceBuffer() { cudaFree(ptr); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

struct TensorHandle {
    cvTensor t = nullptr;
    ~TensorHandle() { cvTensorRelease(t); }
};

void requireOk(cvStatus st) {
    INFO(cvStatusName(st) << ": " << cvGetLastErrorMessage());
    REQUIRE(st == CV_SUCCESS);
}

void wrap(const FlipCase &c, const StridedView &v, void *buffer, TensorHandle &out) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = reinterpret_cast<uint64_t>(buffer) + static_cast<uint64_t>(v.base);
    cai.ndim = static_cast<int32_t>(v.shape.size());
    for (size_t i = 0; i < v.shape.size(); ++i) {
        cai.shape[i] = v.shape[i];
        cai.strides[i] = v.strides[i];
    }
    cai.hasStrides = 1;
    cai.streamKind = CV_CAI_STREAM_NONE; // the test synchronised the device after filling the buffer
    std::strcpy(cai.typestr, cvDataTypeTypestr(dtypeOf(c.elemSize)));
    requireOk(cvTensorWrap(&cai, c.layout.c_str(), &out.t));
}

// Runs one case; returns "" when the dst buffer matches the reference, else where it first differs.
std::string runCase(const FlipCase &c, cvStream stream, std::mt19937_64 &rng) {
    const std::vector<int64_t> shape = c.shape();
    const StridedView srcView = makeView(c, shape, c.kind, 48);
    const StrideKind dstKind = c.kind == StrideKind::Pitched ? StrideKind::Pitched : StrideKind::Packed;
    const StridedView dstView = c.inPlace ? srcView : makeView(c, shape, dstKind, 32);

    std::vector<uint8_t> src(static_cast<size_t>(srcView.bufferBytes));
    for (auto &b : src) b = static_cast<uint8_t>(rng());
    // A packed dst comes from cvTensorCreate, any other from a wrapped allocation. Buffers outlive the handles.
    DeviceBuffer srcBuf(srcView.bufferBytes);
    DeviceBuffer dstBuf(c.inPlace || dstKind == StrideKind::Packed ? 0 : dstView.bufferBytes);
    CVTEST_CUDA(cudaMemcpy(srcBuf.ptr, src.data(), src.size(), cudaMemcpyHostToDevice));
    TensorHandle srcT, dstT;
    wrap(c, srcView, srcBuf.ptr, srcT);
    void *dstData = dstBuf.ptr;
    if (c.inPlace) {
        dstT.t = srcT.t;
        cvTensorRetain(dstT.t);
        dstData = srcBuf.ptr;
    } else if (dstKind == StrideKind::Packed) {
        requireOk(cvTensorCreate(static_cast<int32_t>(shape.size()), shape.data(), dtypeOf(c.elemSize), c.layout.c_str(), &dstT.t));
        cvTensorInfo info = CV_TENSOR_INFO_INIT;
        requireOk(cvTensorGetInfo(dstT.t, &info));
        dstData = reinterpret_cast<void *>(info.data);
        CVTEST_CUDA(cudaDeviceSynchronize()); // the allocation is stream-ordered on a library stream
    } else {
        wrap(c, dstView, dstBuf.ptr, dstT);
    }
    if (!c.inPlace) CVTEST_CUDA(cudaMemset(dstData, kPoison, static_cast<size_t>(dstView.bufferBytes)));
    CVTEST_CUDA(cudaDeviceSynchronize());

    requireOk(cvFlip(stream, srcT.t, dstT.t, c.flipCode));
    requireOk(cvStreamSync(stream));

    std::vector<uint8_t> got(static_cast<size_t>(dstView.bufferBytes));
    CVTEST_CUDA(cudaMemcpy(got.data(), dstData, got.size(), cudaMemcpyDeviceToHost));
    std::vector<uint8_t> expected = c.inPlace ? src : std::vector<uint8_t>(got.size(), kPoison);
    referenceFlip(c, src, srcView, expected, dstView);
    const auto diff = std::mismatch(got.begin(), got.end(), expected.begin());
    if (diff.first == got.end()) return "";
    const size_t at = static_cast<size_t>(diff.first - got.begin());
    return c.describe() + ": dst byte " + std::to_string(at) + " of " + std::to_string(got.size()) + " is " +
           std::to_string(*diff.first) + ", expected " + std::to_string(*diff.second);
}

void runTable(const std::vector<FlipCase> &table) {
    cvStream stream = nullptr;
    requireOk(cvStreamCreate(&stream));
    std::mt19937_64 rng(12345);
    std::vector<std::string> failures;
    for (const FlipCase &c : table) {
        INFO(c.describe());
        const std::string failure = runCase(c, stream, rng);
        if (!failure.empty()) failures.push_back(failure);
    }
    cvStreamRelease(stream);
    std::string report;
    for (size_t i = 0; i < failures.size() && i < 20; ++i) report += failures[i] + "\n";
    INFO(failures.size() << " of " << table.size() << " cases differ from the reference; first ones:\n" << report);
    CHECK(failures.empty());
}

bool hasLabel(const std::string &layout, char label) { return layout.find(label) != std::string::npos; }

struct Variant {
    StrideKind kind;
    bool inPlace;
};

// The cross product of layout x element size x stride variant x flipCode, each row with a shape, channel count and
// batch drawn from fixed lists (1x1, 1xW, Hx1, 113x113, an aligned 16x48 and 1080x1920).
std::vector<FlipCase> sampledTable() {
    const char *layouts[] = {"HW", "HWC", "NHWC", "CHW", "NCHW", "NHW"};
    const int sizes[] = {1, 2, 4, 8, 16};
    const int64_t channels[] = {1, 2, 3, 4, 5, 8};
    const int64_t shapes[][2] = {{1, 1}, {1, 37}, {29, 1}, {113, 113}, {16, 48}, {1080, 1920}};
    const Variant variants[] = {{StrideKind::Packed, false},   {StrideKind::Pitched, false}, {StrideKind::Permuted, false},
                                {StrideKind::Negative, false}, {StrideKind::ZeroSrc, false}, {StrideKind::Packed, true},
                                {StrideKind::Pitched, true},   {StrideKind::Permuted, true}};
    std::mt19937 pick(2024);
    std::vector<FlipCase> table;
    for (const char *layout : layouts)
        for (int size : sizes)
            for (const Variant &v : variants)
                for (int code : {0, 1, -1}) {
                    FlipCase c{layout, size, 1 + static_cast<int64_t>(pick() % 3), channels[pick() % 6], 0, 0, code, v.kind, v.inPlace};
                    const auto &s = shapes[pick() % 6];
                    c.h = s[0];
                    c.w = s[1];
                    if (c.h == 1080) { // keep the full-HD rows to a few MB each
                        c.n = 1;
                        if ((hasLabel(layout, 'C') ? c.c : 1) * size > 4) c.h = 135;
                    }
                    table.push_back(c);
                }
    return table;
}

// NHWC rows around the fast paths' edges: pixel sizes with and without a 16-byte group shape, widths whose row
// bytes are or are not multiples of 16 and of two groups, packed, pitched, in place and backwards.
std::vector<FlipCase> rowEdgeTable() {
    const int pixels[][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {2, 3}, {2, 5}, {4, 3}, {4, 4}, {8, 3}, {8, 6},
                             {16, 1}, {16, 3}, {16, 5}};
    const int64_t widths[] = {1, 2, 3, 5, 12, 16, 17, 32, 48, 80, 112, 113, 224, 1920};
    const int64_t heights[] = {1, 2, 3, 7};
    const Variant variants[] = {{StrideKind::Packed, false}, {StrideKind::Pitched, false}, {StrideKind::Packed, true},
                                {StrideKind::Pitched, true}, {StrideKind::Negative, false}};
    std::vector<FlipCase> table;
    int i = 0;
    for (const auto &px : pixels)
        for (int64_t w : widths)
            for (const Variant &v : variants)
                for (int code : {0, 1, -1})
                    table.push_back({"NHWC", px[0], 2, px[1], heights[i++ % 4], w, code, v.kind, v.inPlace});
    return table;
}

// Many short rows (3 images of 37 rows): whole-row units that span images, end part-full and hold an odd group count
// (80 x 3 bytes: 5 groups), next to the rows that do not follow each other (pitched) or fill no stage with two.
std::vector<FlipCase> shortRowsTable() {
    const int pixels[][2] = {{1, 1}, {1, 3}, {1, 4}, {1, 6}, {2, 3}, {4, 3}, {4, 4}, {8, 3}, {8, 6}};
    const int64_t widths[] = {16, 80, 112, 224, 336};
    const Variant variants[] = {{StrideKind::Packed, false}, {StrideKind::Packed, true}, {StrideKind::Pitched, false}};
    std::vector<FlipCase> table;
    for (const auto &px : pixels)
        for (int64_t w : widths)
            for (const Variant &v : variants)
                for (int code : {1, -1}) table.push_back({"NHWC", px[0], 3, px[1], 37, w, code, v.kind, v.inPlace});
    return table;
}

// Flips both ways of short packed rows past kFlipFlatMaxBytes (kernels/flip.hpp), which take whole-row units whose
// span is reversed whole (flipColumnRows' FlipRows): 37 rows an image, so every image ends on a part-full unit; odd
// and even group counts a row (80 x 3 bytes: 5 groups of 48; 224 x 3: 14), 16-byte groups (4 channels: two rows a
// unit) and 6-byte pixels; next to the same flips pitched and in place, which keep the other paths.
std::vector<FlipCase> mirroredRowsTable() {
    struct Shape {
        int elemSize;
        int64_t c, w;
    };
    const Shape shapes[] = {{1, 3, 224}, {1, 3, 80}, {1, 4, 224}, {2, 3, 112}, {1, 1, 1024}};
    const Variant variants[] = {{StrideKind::Packed, false}, {StrideKind::Pitched, false}, {StrideKind::Packed, true}};
    constexpr int64_t kH = 37, kBytes = cvk::kFlipFlatMaxBytes + (int64_t(1) << 20); // just past the flat path's sizes
    std::vector<FlipCase> table;
    for (const Shape &s : shapes)
        for (const Variant &v : variants) {
            // Pitched and in place (the other paths) for the first shape only: each case is 33 MiB of CPU reference.
            if (v.kind != StrideKind::Packed || v.inPlace)
                if (&s != &shapes[0]) continue;
            const int64_t n = kBytes / (kH * s.w * s.c * s.elemSize) + 1;
            table.push_back({"NHWC", s.elemSize, n, s.c, kH, s.w, -1, v.kind, v.inPlace});
        }
    return table;
}

} // namespace

TEST_CASE("cvFlip matches the CPU reference: flips both ways past the flat path's sizes, in whole-row units", "[gpu][flip]") {
    CVTEST_REQUIRE_GPU();
    runTable(mirroredRowsTable());
}

TEST_CASE("cvFlip matches the CPU reference: layouts x element sizes x strides x flipCodes", "[gpu][flip]") {
    CVTEST_REQUIRE_GPU();
    runTable(sampledTable());
}

TEST_CASE("cvFlip matches the CPU reference: NHWC rows around the fast paths' edges", "[gpu][flip]") {
    CVTEST_REQUIRE_GPU();
    runTable(rowEdgeTable());
}

TEST_CASE("cvFlip matches the CPU reference: many short rows", "[gpu][flip]") {
    CVTEST_REQUIRE_GPU();
    runTable(shortRowsTable());
}

TEST_CASE("cvFlip of an empty tensor launches nothing", "[gpu][flip]") {
    CVTEST_REQUIRE_GPU();
    const int64_t shape[] = {2, 0, 5, 3};
    TensorHandle src, dst;
    requireOk(cvTensorCreate(4, shape, CV_DTYPE_UINT8, "NHWC", &src.t));
    requireOk(cvTensorCreate(4, shape, CV_DTYPE_UINT8, "NHWC", &dst.t));
    cvStream stream = nullptr;
    requireOk(cvStreamCreate(&stream));
    cvStats before = CV_STATS_INIT, after = CV_STATS_INIT;
    requireOk(cvGetStats(&before));
    requireOk(cvFlip(stream, src.t, dst.t, -1));
    requireOk(cvStreamSync(stream));
    requireOk(cvGetStats(&after));
    cvStreamRelease(stream);
    CHECK(after.kernelLaunches == before.kernelLaunches);
}
