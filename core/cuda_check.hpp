// CUDA runtime errors as cv::Error, and the "is there a device at all" check.
#pragma once

#include <cuda_runtime.h>

namespace cv {

// Throws cv::Error when err != cudaSuccess: CV_ERROR_NO_DEVICE for "no device/driver", CV_ERROR_OUT_OF_MEMORY for
// allocation failures, CV_ERROR_CUDA otherwise. `what` names the CUDA call. Clears CUDA's sticky last error.
void checkCuda(cudaError_t err, const char *what);

// Throws CV_ERROR_NO_DEVICE unless at least one CUDA device is usable.
void requireDevice();

// The same check without throwing.
bool deviceAvailable() noexcept;

// The calling thread's current device (requires a device).
int currentDevice();

// Sets the calling thread's device for the guard's lifetime when it differs (cheap when it does not).
class DeviceGuard {
public:
    explicit DeviceGuard(int device);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard &) = delete;
    DeviceGuard &operator=(const DeviceGuard &) = delete;

private:
    int previous_ = -1;
};

} // namespace cv
