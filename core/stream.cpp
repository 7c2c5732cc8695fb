#include "stream.hpp"

#include "cuda_check.hpp"
#include "device_resources.hpp"
#include "error.hpp"
#include "stats.hpp"

#include <map>
#include <mutex>

namespace cv {
namespace {

// Streams the library created, by handle, so that adopting one of their handles finds the owning object.
std::mutex gOwnedMutex; // constant-initialised, trivially destructible
std::map<cudaStream_t, Stream *> *gOwned = nullptr;

} // namespace

Stream::Stream(cudaStream_t handle, int device, bool owned) noexcept
    : handle_(handle), device_(device), owned_(owned) {
    stats().liveStreams.fetch_add(1, std::memory_order_relaxed);
}

Stream::~Stream() {
    if (owned_) {
        {
            std::lock_guard<std::mutex> lock(gOwnedMutex);
            if (gOwned != nullptr) gOwned->erase(handle_);
        }
        // CUDA defers the destruction of a stream with queued work until that work completes.
        (void)cudaStreamDestroy(handle_);
    }
    stats().liveStreams.fetch_sub(1, std::memory_order_relaxed);
}

Ref<Stream> Stream::create() {
    const int device = currentDevice();
    cudaStream_t handle = nullptr;
    loadKernels(device);
    checkCuda(cudaStreamCreateWithFlags(&handle, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    Ref<Stream> s = Ref<Stream>::adopt(new Stream(handle, device, true));
    std::lock_guard<std::mutex> lock(gOwnedMutex);
    if (gOwned == nullptr) gOwned = new std::map<cudaStream_t, Stream *>;
    (*gOwned)[handle] = s.get();
    return s;
}

Ref<Stream> Stream::adopt(cudaStream_t handle) {
    if (handle == cudaStreamPerThread)
        invalid(currentFunction(), ": stream=2 (cudaStreamPerThread) names a different stream in each thread, so the "
                "library cannot order work against it; pass the thread's own stream handle instead");
    {
        std::lock_guard<std::mutex> lock(gOwnedMutex);
        if (gOwned != nullptr) {
            auto it = gOwned->find(handle);
            if (it != gOwned->end() && it->second->tryRetain()) return Ref<Stream>::adopt(it->second);
        }
    }
    int device = currentDevice();
    if (handle != nullptr && handle != cudaStreamLegacy && handle != cudaStreamPerThread)
        checkCuda(cudaStreamGetDevice(handle, &device), "cudaStreamGetDevice");
    return Ref<Stream>::adopt(new Stream(handle, device, false));
}

} // namespace cv
