#include "cuda_check.hpp"

#include "error.hpp"

#include <atomic>
#include <string>

namespace cv {

void checkCuda(cudaError_t err, const char *what) {
    if (err == cudaSuccess) return;
    (void)cudaGetLastError();
    switch (err) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorCompatNotSupportedOnDevice:
        fail(CV_ERROR_NO_DEVICE, currentFunction(), ": no usable CUDA device (", what, ": ", cudaGetErrorName(err), ": ",
             cudaGetErrorString(err), ")",
             err == cudaErrorInsufficientDriver ? "; the NVIDIA driver is missing, or older than this CUDA runtime" : "");
    case cudaErrorMemoryAllocation:
        fail(CV_ERROR_OUT_OF_MEMORY, currentFunction(), ": out of device memory (", what, ": ", cudaGetErrorName(err), ")");
    default:
        fail(CV_ERROR_CUDA, currentFunction(), ": ", what, " failed: ", cudaGetErrorName(err), ": ", cudaGetErrorString(err));
    }
}

void requireDevice() {
    static std::atomic<bool> known{false};
    if (known.load(std::memory_order_acquire)) return;
    int count = 0;
    checkCuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (count <= 0) fail(CV_ERROR_NO_DEVICE, currentFunction(), ": no CUDA device is available");
    known.store(true, std::memory_order_release);
}

bool deviceAvailable() noexcept {
    try {
        requireDevice();
        return true;
    } catch (...) {
        return false;
    }
}

int currentDevice() {
    requireDevice();
    int device = 0;
    checkCuda(cudaGetDevice(&device), "cudaGetDevice");
    return device;
}

int deviceCount() noexcept {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

void requireDeviceIndex(int device, const char *argument) {
    requireDevice();
    const int count = deviceCount();
    if (device >= 0 && device < count) return;
    const std::string seen = count == 1 ? "1 device (index 0)" : concat(count, " devices (indices 0..", count - 1, ")");
    invalid(currentFunction(), ": ", argument, "=", device, " is not a CUDA device index: this process sees ", seen,
            "; CUDA_VISIBLE_DEVICES renumbers the visible devices from 0");
}

DeviceGuard::DeviceGuard(int device) {
    int current = 0;
    checkCuda(cudaGetDevice(&current), "cudaGetDevice");
    if (current != device) {
        checkCuda(cudaSetDevice(device), "cudaSetDevice");
        previous_ = current;
    }
}

DeviceGuard::~DeviceGuard() {
    if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

} // namespace cv
