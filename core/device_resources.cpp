#include "device_resources.hpp"

#include "cuda_check.hpp"

#include <cstdint>
#include <map>
#include <mutex>

namespace cv {
namespace {

std::mutex &resourcesMutex() { static auto *m = new std::mutex; return *m; }
std::map<int, DeviceResources *> &resourcesTable() { static auto *t = new std::map<int, DeviceResources *>; return *t; }

DeviceResources *makeResources(int device) {
    DeviceGuard guard(device);
    auto *r = new DeviceResources;
    r->allocStream = Stream::create();
    r->relayStream = Stream::create();
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

} // namespace

DeviceResources &deviceResources(int device) {
    std::lock_guard<std::mutex> lock(resourcesMutex());
    auto &slot = resourcesTable()[device];
    if (slot == nullptr) slot = makeResources(device);
    return *slot;
}

std::vector<int> devicesWithResources() {
    std::lock_guard<std::mutex> lock(resourcesMutex());
    std::vector<int> devices;
    for (const auto &entry : resourcesTable()) devices.push_back(entry.first);
    return devices;
}

} // namespace cv
