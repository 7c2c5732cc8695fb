#include "device_memory.hpp"

#include "cuda_check.hpp"
#include "error.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

namespace cv {
namespace {

using GetAddressRange = CUresult (*)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);

// cuMemGetAddressRange through the runtime's driver entry point, so the library needs no link against libcuda.
GetAddressRange addressRangeFn() {
    static GetAddressRange fn = [] {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult result{};
        if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault, &result) != cudaSuccess ||
            result != cudaDriverEntryPointSuccess) {
            (void)cudaGetLastError();
            p = nullptr;
        }
        return reinterpret_cast<GetAddressRange>(p);
    }();
    return fn;
}

} // namespace

int checkDeviceMemory(const TensorDesc &d) {
    const uint64_t lo = d.addressLo(), hi = d.addressHi();
    cudaPointerAttributes attr{};
    checkCuda(cudaPointerGetAttributes(&attr, reinterpret_cast<const void *>(lo)), "cudaPointerGetAttributes");
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
        invalid(currentFunction(), ": data=0x", std::hex, d.data, std::dec, " is ",
                attr.type == cudaMemoryTypeHost ? "host memory" : "not CUDA device memory",
                "; move the array to the GPU first (e.g. torch's .cuda())");
    // The allocation is looked up with its own device current, whatever the caller's (its context owns it).
    DeviceGuard guard(attr.type == cudaMemoryTypeDevice ? attr.device : currentDevice());
    if (GetAddressRange range = addressRangeFn()) {
        CUdeviceptr base = 0;
        size_t size = 0;
        if (range(&base, &size, static_cast<CUdeviceptr>(lo)) == CUDA_SUCCESS && hi > base + size)
            invalid(currentFunction(), ": the tensor's bytes [0x", std::hex, lo, ", 0x", hi, ") run past the end of its allocation [0x",
                    base, ", 0x", base + size, std::dec, ") (shape or strides too large for the buffer)");
    }
    return attr.device;
}

} // namespace cv
