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

// The number of CUDA devices this process sees (CUDA_VISIBLE_DEVICES applies), 0 without a device or driver.
int deviceCount() noexcept;

// Throws CV_ERROR_INVALID_ARGUMENT naming `argument`, the value and the devices there are unless `device` is one of
// them (CV_ERROR_NO_DEVICE when there is none). No device is made current.
void requireDeviceIndex(int device, const char *argument);

// Puts the calling thread in cudaStreamCaptureModeRelaxed for the guard's lifetime. While any thread captures a
// stream in cudaStreamCaptureModeGlobal (torch.cuda.graph's default), "potentially unsafe" calls such as
// cudaEventQuery, cudaMemPoolCreate, cudaStreamCreate or a lazy module load would fail and invalidate that capture;
// in relaxed mode this thread may make them. Only for calls that cannot conflict with a capture: never on a
// capturing stream, never on an event recorded inside one (the library records none there).
class RelaxedCaptureMode {
public:
    RelaxedCaptureMode() noexcept : exchanged_(cudaThreadExchangeStreamCaptureMode(&mode_) == cudaSuccess) {}
    ~RelaxedCaptureMode() {
        if (exchanged_) (void)cudaThreadExchangeStreamCaptureMode(&mode_);
    }
    RelaxedCaptureMode(const RelaxedCaptureMode &) = delete;
    RelaxedCaptureMode &operator=(const RelaxedCaptureMode &) = delete;

private:
    cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
    bool exchanged_;
};

// Sets the calling thread's device for the guard's lifetime when it differs, and restores the previous one when the
// guard goes, also while an exception unwinds: a call never changes its caller's current device. When the device is
// already current it costs one cudaGetDevice (a thread-local read) and sets nothing.
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
