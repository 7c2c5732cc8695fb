// Flips an image on the GPU with the C++ wrapper (cvcuda/cvcuda.hpp) and the CUDA runtime, checked on the CPU.
// Errors arrive as cvcuda::Error carrying the library's message. Exit status: 0 ok, 1 failure, 77 no CUDA device.
#include <cvcuda/cvcuda.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <stdexcept>
#include <vector>

namespace {

constexpr int kHeight = 360, kWidth = 500, kChannels = 4;
constexpr int kNoGpu = 77;

void checkCuda(cudaError_t err, const char *what) {
    if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// Device memory owned by the sample; the library only borrows it through the CAI.
struct DeviceBuffer {
    void *ptr = nullptr;
    explicit DeviceBuffer(size_t bytes) { checkCuda(cudaMalloc(&ptr, bytes), "cudaMalloc"); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    ~DeviceBuffer() { cudaFree(ptr); }
};

// A packed NHWC float32 batch of one, with rows padded to `pitch` bytes: the library takes byte strides.
cvArrayInterface describe(const DeviceBuffer &buffer, int64_t pitch) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = reinterpret_cast<uint64_t>(buffer.ptr);
    cai.ndim = 4;
    const int64_t shape[] = {1, kHeight, kWidth, kChannels};
    const int64_t strides[] = {pitch * kHeight, pitch, kChannels * 4, 4};
    for (int i = 0; i < 4; ++i) {
        cai.shape[i] = shape[i];
        cai.strides[i] = strides[i];
    }
    cai.hasStrides = 1;
    std::snprintf(cai.typestr, sizeof cai.typestr, "<f4");
    cai.streamKind = CV_CAI_STREAM_NONE; // written by a completed cudaMemcpy2D
    return cai;
}

int run() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "no usable CUDA device: nothing to flip\n");
        return kNoGpu;
    }
    if (cvcuda::version() != CVCUDA_C_VERSION_NUMBER) throw std::runtime_error("library and header versions differ");

    const int64_t rowBytes = kWidth * kChannels * 4, pitch = (rowBytes + 511) / 512 * 512;
    std::vector<float> image(static_cast<size_t>(kHeight) * kWidth * kChannels), result(image.size());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
    for (float &v : image) v = dist(rng);

    DeviceBuffer srcMemory(pitch * kHeight), dstMemory(pitch * kHeight);
    checkCuda(cudaMemcpy2D(srcMemory.ptr, pitch, image.data(), rowBytes, rowBytes, kHeight, cudaMemcpyHostToDevice), "copy in");
    checkCuda(cudaMemset(dstMemory.ptr, 0xFF, pitch * kHeight), "poison"); // NaNs: an unwritten pixel cannot match
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    {
        const cvcuda::Stream stream = cvcuda::Stream::create();
        const cvcuda::Tensor src = cvcuda::Tensor::wrap(describe(srcMemory, pitch), "NHWC");
        const cvcuda::Tensor dst = cvcuda::Tensor::wrap(describe(dstMemory, pitch), "NHWC");
        cvcuda::flip(stream, src, dst, -1);
        stream.sync();
    }
    cvcuda::syncAndCollect(); // the library is done with the borrowed memory before it is freed
    checkCuda(cudaMemcpy2D(result.data(), rowBytes, dstMemory.ptr, pitch, rowBytes, kHeight, cudaMemcpyDeviceToHost), "copy out");

    size_t mismatches = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            for (int c = 0; c < kChannels; ++c)
                mismatches += result[(static_cast<size_t>(y) * kWidth + x) * kChannels + c] !=
                              image[(static_cast<size_t>(kHeight - 1 - y) * kWidth + (kWidth - 1 - x)) * kChannels + c];
    std::printf("flipCode -1 on a pitched NHWC float32 image: %s\n", mismatches == 0 ? "matches the CPU reference" : "MISMATCH");
    return mismatches == 0 ? 0 : 1;
}

} // namespace

int main() {
    try {
        return run();
    } catch (const cvcuda::Error &e) {
        std::fprintf(stderr, "%s: %s\n", e.statusName(), e.what());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
    }
    return 1;
}
