// cvFlip of packed NHWC uint8 tensors larger than 4 GiB: 64-bit indexing in every kernel path that such a tensor
// reaches. Every dst byte is checked on the GPU against the hash pattern (large_pattern.hpp), and a sample of bytes,
// those around the 4 GiB boundary included, is read back and checked on the CPU. GPU; about 11 GB of device memory.
#include "gpu.hpp"
#include "large_pattern.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cuda_runtime.h>
#include <cvcuda/cvcuda.h>

#include <random>
#include <vector>

using namespace cvtest;

namespace {

struct LargeCase {
    int64_t n, h, w, c;
    int flipCode;
    bool inPlace;
    const char *path; // which kernel the shape reaches, for the report
};

void requireOk(cvStatus st) {
    INFO(cvStatusName(st) << ": " << cvGetLastErrorMessage());
    REQUIRE(st == CV_SUCCESS);
}

cvTensor wrapNhwc(void *data, const LargeCase &c) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = reinterpret_cast<uint64_t>(data);
    cai.ndim = 4;
    const int64_t shape[] = {c.n, c.h, c.w, c.c};
    for (int i = 0; i < 4; ++i) cai.shape[i] = shape[i];
    cai.streamKind = CV_CAI_STREAM_NONE;
    cai.typestr[0] = '|', cai.typestr[1] = 'u', cai.typestr[2] = '1';
    cvTensor t = nullptr;
    requireOk(cvTensorWrap(&cai, "NHWC", &t));
    return t;
}

} // namespace

TEST_CASE("cvFlip of tensors larger than 4 GiB", "[gpu][flip][large]") {
    CVTEST_REQUIRE_GPU();
    const LargeCase table[] = {
        {1, 32768, 32768, 5, -1, false, "one merged 5 GiB row, 1-byte pieces"},
        {3, 16384, 32768, 3, 1, true, "in place, 16-byte groups"},
        {2, 20000, 30000, 4, 0, false, "flat aligned blocks (launchCopy)"},
        {2, 20000, 30000, 4, 0, true, "in place: the row copy kernel"},
    };
    for (const LargeCase &c : table) {
        INFO(c.n << "x" << c.h << "x" << c.w << "x" << c.c << " flipCode " << c.flipCode << (c.inPlace ? " in place" : "")
                  << " (" << c.path << ")");
        const uint64_t bytes = uint64_t(c.n) * c.h * c.w * c.c;
        REQUIRE(bytes > (uint64_t(1) << 32));
        void *src = nullptr, *dst = nullptr;
        CVTEST_CUDA(cudaMalloc(&src, bytes));
        CVTEST_CUDA(fillPattern(src, bytes));
        if (c.inPlace) {
            dst = src;
        } else {
            CVTEST_CUDA(cudaMalloc(&dst, bytes));
            CVTEST_CUDA(cudaMemset(dst, 0x5a, bytes));
        }
        CVTEST_CUDA(cudaDeviceSynchronize());
        cvTensor srcT = wrapNhwc(src, c), dstT = c.inPlace ? srcT : wrapNhwc(dst, c);
        cvStream stream = nullptr;
        requireOk(cvStreamCreate(&stream));
        requireOk(cvFlip(stream, srcT, dstT, c.flipCode));
        requireOk(cvStreamSync(stream));

        uint64_t mismatches = ~uint64_t(0);
        CVTEST_CUDA(countFlipMismatches(dst, c.n, c.h, c.w, c.c, c.flipCode, &mismatches));
        CHECK(mismatches == 0);

        std::vector<uint64_t> sample;
        for (uint64_t k = 0; k < 64; ++k) sample.insert(sample.end(), {k, bytes - 1 - k, (uint64_t(1) << 32) - 32 + k});
        std::mt19937_64 rng(7);
        for (int k = 0; k < 1000; ++k) sample.push_back(rng() % bytes);
        int wrong = 0;
        for (uint64_t i : sample) {
            uint8_t got = 0;
            CVTEST_CUDA(cudaMemcpy(&got, static_cast<const uint8_t *>(dst) + i, 1, cudaMemcpyDeviceToHost));
            wrong += got != patternByte(flippedSourceIndex(i, c.n, c.h, c.w, c.c, c.flipCode));
        }
        CHECK(wrong == 0);

        cvStreamRelease(stream);
        cvTensorRelease(srcT);
        if (!c.inPlace) cvTensorRelease(dstT);
        requireOk(cvSyncAndCollect());
        cudaFree(src);
        if (!c.inPlace) cudaFree(dst);
    }
}
