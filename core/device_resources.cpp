#include "device_resources.hpp"

#include "cuda_check.hpp"

#include "../kernels/copy.hpp"
#include "../kernels/copymakeborder.hpp"
#include "../kernels/cvtcolor.hpp"
#include "../kernels/flip.hpp"
#include "../kernels/resize.hpp"

#include <atomic>

#include <cstdint>
#include <map>
#include <mutex>

namespace cv {
namespace {

// Neither is ever destroyed (CUDA may be gone by the time static destructors run), and neither allocates before a
// device is used: a plugin host that loads, uses and unloads the library without a GPU leaks nothing per cycle.
std::mutex gResourcesMutex; // constant-initialised, trivially destructible
std::map<int, DeviceResources *> *gResources = nullptr;

DeviceResources *makeResources(int device) {
    DeviceGuard guard(device);
    RelaxedCaptureMode relaxed; // may be first needed inside a capture (an allocation on a capturing stream)
    auto *r = new DeviceResources;
    r->allocStream = Stream::createInternal(device);
    r->relayStream = Stream::createInternal(device);
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    checkCuda(cudaMemPoolCreate(&r->pool, &props), "cudaMemPoolCreate");
    // Keep freed blocks cached in the pool rather than returning them to the driver at every synchronisation.
    uint64_t threshold = UINT64_MAX;
    checkCuda(cudaMemPoolSetAttribute(r->pool, cudaMemPoolAttrReleaseThreshold, &threshold), "cudaMemPoolSetAttribute");
    return r;
}

constexpr int kMaxCachedDevices = 64;
std::atomic<bool> gKernelsLoaded[kMaxCachedDevices]; // zero-initialised: false
// Resources of the first devices, readable without the lock: every allocation asks for them.
std::atomic<DeviceResources *> gCachedResources[kMaxCachedDevices]; // zero-initialised: null

} // namespace

void loadKernels(int device) {
    const bool cached = device >= 0 && device < kMaxCachedDevices;
    if (cached && gKernelsLoaded[device].load(std::memory_order_acquire)) return;
    DeviceGuard guard(device);
    RelaxedCaptureMode relaxed; // cvStreamWrap of a capturing stream may be the library's first call
    checkCuda(cvk::preloadFlipKernels(), "cudaFuncGetAttributes (loading the flip kernels)");
    checkCuda(cvk::preloadResizeKernels(), "cudaFuncGetAttributes (loading the resize kernels)");
    checkCuda(cvk::preloadCvtColorKernels(), "cudaFuncGetAttributes (loading the cvtcolor kernels)");
    checkCuda(cvk::preloadCopyMakeBorderKernels(), "cudaFuncGetAttributes (loading the copymakeborder kernels)");
    checkCuda(cvk::preloadCopyKernels(), "cudaFuncGetAttributes (loading the copy kernels)");
    if (cached) gKernelsLoaded[device].store(true, std::memory_order_release);
}

DeviceResources &deviceResources(int device) {
    const bool cached = device >= 0 && device < kMaxCachedDevices;
    if (cached)
        if (DeviceResources *r = gCachedResources[device].load(std::memory_order_acquire)) return *r;
    std::lock_guard<std::mutex> lock(gResourcesMutex);
    if (gResources == nullptr) gResources = new std::map<int, DeviceResources *>;
    auto &slot = (*gResources)[device];
    if (slot == nullptr) slot = makeResources(device);
    if (cached) gCachedResources[device].store(slot, std::memory_order_release);
    return *slot;
}

std::vector<int> devicesWithResources() {
    std::lock_guard<std::mutex> lock(gResourcesMutex);
    std::vector<int> devices;
    if (gResources != nullptr)
        for (const auto &entry : *gResources) devices.push_back(entry.first);
    return devices;
}

} // namespace cv
