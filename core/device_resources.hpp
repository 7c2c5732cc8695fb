// Per-device objects the library owns for the life of the process: the stream-ordered memory pool with its
// allocation stream, and the relay stream that exports use instead of a default stream.
#pragma once

#include "ref.hpp"
#include "stream.hpp"

#include <cuda_runtime.h>
#include <vector>

namespace cv {

struct DeviceResources {
    Ref<Stream> allocStream; // allocations and frees of library-owned tensors (non-blocking)
    Ref<Stream> relayStream; // waits on pending writes that happened on a default stream, for CAI exports
    cudaMemPool_t pool = nullptr;
};

// Created on first use; never destroyed (CUDA may be gone by the time static destructors run).
DeviceResources &deviceResources(int device);

// Loads the library's kernels on `device`, once. CUDA's lazy module loading would otherwise load each kernel at its
// first launch, which may wait for all work on the device (a host sync hidden in an operation). Called where the
// library may block anyway: stream creation and adoption through the C API.
void loadKernels(int device);

// Devices whose resources exist (for cvSyncAndCollect).
std::vector<int> devicesWithResources();

} // namespace cv
