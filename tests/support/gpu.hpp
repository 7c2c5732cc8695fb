// GPU gating for Catch2 tests: without a device a GPU test SKIPs with a visible reason, unless
// CVCUDA_REQUIRE_GPU=1 (scripts/gpu-check.sh), where a missing GPU FAILs the test.
#pragma once

#include <catch2/catch_test_macros.hpp>
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace cvtest {

inline bool gpuRequired() {
    const char *v = std::getenv("CVCUDA_REQUIRE_GPU");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

// Empty when a device is usable, else why not.
inline std::string noGpuReason() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return std::string("no CUDA device: ") + cudaGetErrorName(err);
    }
    return count > 0 ? std::string() : std::string("no CUDA device: 0 devices");
}

} // namespace cvtest

#define CVTEST_REQUIRE_GPU()                                                                                            \
    do {                                                                                                                \
        const std::string cvtest_reason = ::cvtest::noGpuReason();                                                      \
        if (!cvtest_reason.empty()) {                                                                                   \
            if (::cvtest::gpuRequired()) FAIL("CVCUDA_REQUIRE_GPU=1 but " << cvtest_reason);                          \
            SKIP(cvtest_reason);                                                                                        \
        }                                                                                                               \
    } while (0)

#define CVTEST_CUDA(call) REQUIRE((call) == cudaSuccess)
