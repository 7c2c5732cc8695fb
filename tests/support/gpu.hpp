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

// Multi-GPU gating: with fewer than `n` devices the test SKIPs with the count, unless CVCUDA_REQUIRE_MULTI_GPU=1
// (a run on a machine with several GPUs), where it FAILs. CVCUDA_REQUIRE_GPU=1 alone does not require several.
#define CVTEST_REQUIRE_GPUS(n)                                                                                          \
    do {                                                                                                                \
        CVTEST_REQUIRE_GPU();                                                                                           \
        int cvtest_count = 0;                                                                                           \
        (void)cudaGetDeviceCount(&cvtest_count);                                                                        \
        if (cvtest_count < (n)) {                                                                                       \
            const char *cvtest_multi = std::getenv("CVCUDA_REQUIRE_MULTI_GPU");                                          \
            if (cvtest_multi != nullptr && std::strcmp(cvtest_multi, "1") == 0)                                         \
                FAIL("CVCUDA_REQUIRE_MULTI_GPU=1 but this machine has " << cvtest_count << " CUDA device(s); the test needs " << (n)); \
            SKIP("needs " << (n) << " CUDA devices; this machine has " << cvtest_count);                                \
        }                                                                                                               \
    } while (0)

#define CVTEST_CUDA(call) REQUIRE((call) == cudaSuccess)
