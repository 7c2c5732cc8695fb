// The device API's argument checks and its behaviour without a device (no GPU needed): cvDeviceGetCount,
// cvDeviceGetCurrent, cvStreamCreateOnDevice, cvStreamWrapDefault, cvStreamGetDevice. The GPU behaviour (device
// guards, per-device resources, mismatch errors) is in tests/engine/test_devices.cpp.
#include "cai.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <string>

using namespace cvtest;

TEST_CASE("device API: NULL out-parameters are invalid arguments, checked before the device", "[capi]") {
    struct Row {
        const char *name;
        cvStatus (*call)();
        const char *message;
    };
    const Row rows[] = {
        {"cvDeviceGetCount", [] { return cvDeviceGetCount(nullptr); }, "cvDeviceGetCount: count is NULL"},
        {"cvDeviceGetCurrent", [] { return cvDeviceGetCurrent(nullptr); }, "cvDeviceGetCurrent: device is NULL"},
        {"cvStreamCreateOnDevice", [] { return cvStreamCreateOnDevice(0, nullptr, nullptr); },
         "cvStreamCreateOnDevice: out is NULL"},
        {"cvStreamCreateOnDevice (bad device too)", [] { return cvStreamCreateOnDevice(-1, nullptr, nullptr); },
         "cvStreamCreateOnDevice: out is NULL"},
        {"cvStreamWrapDefault", [] { return cvStreamWrapDefault(0, nullptr); }, "cvStreamWrapDefault: out is NULL"},
        {"cvStreamGetDevice (stream)", [] { int32_t d = 0; return cvStreamGetDevice(nullptr, &d); },
         "cvStreamGetDevice: stream is NULL"},
    };
    for (const Row &row : rows) {
        INFO(row.name);
        CHECK(row.call() == CV_ERROR_INVALID_ARGUMENT);
        CHECK(lastError() == row.message);
    }
}

TEST_CASE("without a device, cvDeviceGetCount says 0 and the rest say no device", "[nodevice]") {
    if (libraryHasDevice()) SKIP("a CUDA device is visible; the 'capi-no-device' test run (CUDA_VISIBLE_DEVICES=) covers this");
    int32_t count = -1;
    CHECK(cvDeviceGetCount(&count) == CV_SUCCESS);
    CHECK(count == 0);
    int32_t device = -7;
    CHECK(cvDeviceGetCurrent(&device) == CV_ERROR_NO_DEVICE);
    CHECK(lastError().rfind("cvDeviceGetCurrent: no ", 0) == 0);
    CHECK(device == -7);
    // The device index is judged only once there are devices to compare it with.
    for (int32_t index : {0, 1, 5, -1}) {
        INFO("device " << index);
        cvStream s = nullptr;
        void *handle = &s;
        CHECK(cvStreamCreateOnDevice(index, &handle, &s) == CV_ERROR_NO_DEVICE);
        CHECK(lastError().rfind("cvStreamCreateOnDevice: no ", 0) == 0);
        CHECK(s == nullptr);
        CHECK(handle == &s); // untouched on failure
        CHECK(cvStreamWrapDefault(index, &s) == CV_ERROR_NO_DEVICE);
        CHECK(lastError().rfind("cvStreamWrapDefault: no ", 0) == 0);
        CHECK(s == nullptr);
    }
}
