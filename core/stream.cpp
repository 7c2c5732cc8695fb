#include "stream.hpp"

#include "cuda_check.hpp"
#include "device_resources.hpp"
#include "stats.hpp"

namespace cv {

Stream::Stream(cudaStream_t handle, int device, bool owned) noexcept
    : RefCounted(kMagic), handle_(handle), device_(device), owned_(owned) {
    stats().liveStreams.fetch_add(1, std::memory_order_relaxed);
}

Stream::~Stream() {
    // CUDA defers the destruction of a stream with queued work until that work completes.
    if (owned_) (void)cudaStreamDestroy(handle_);
    stats().liveStreams.fetch_sub(1, std::memory_order_relaxed);
}

Ref<Stream> Stream::create() {
    const int device = currentDevice();
    cudaStream_t handle = nullptr;
    loadKernels(device);
    checkCuda(cudaStreamCreateWithFlags(&handle, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return Ref<Stream>::adopt(new Stream(handle, device, true));
}

Ref<Stream> Stream::adopt(cudaStream_t handle) {
    int device = currentDevice();
    if (handle != nullptr && handle != cudaStreamLegacy && handle != cudaStreamPerThread)
        checkCuda(cudaStreamGetDevice(handle, &device), "cudaStreamGetDevice");
    return Ref<Stream>::adopt(new Stream(handle, device, false));
}

} // namespace cv
