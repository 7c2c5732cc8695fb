#include "firewall.hpp"

#include "../core/cuda_check.hpp"

#include <cvcuda/device.h>

using namespace cv;

extern "C" {

cvStatus cvDeviceGetCount(int32_t *count) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(count, "count");
        *count = deviceCount();
    });
}

cvStatus cvDeviceGetCurrent(int32_t *device) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(device, "device");
        *device = currentDevice();
    });
}

} // extern "C"
