// Programmatic dependent launch (PDL; CUDA C++ Programming Guide, "Programmatic Dependent Launch and
// Synchronization"; sm_90 and later): a kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may have
// its blocks dispatched while the kernel before it in the stream is still draining, and each of its threads then holds
// at waitPriorGrid() (griddepcontrol.wait) until that kernel has completed and its memory is visible. So a kernel
// launched this way must call waitPriorGrid() before its first global load or store: reads of a source the previous
// kernel writes (read after write) and writes of an output it reads (write after read) both come after the wait, and
// what it does before (index arithmetic, weights, shared memory) overlaps the previous kernel's tail and the launch's
// own latency. Only a kernel-to-kernel edge in one stream is relaxed: event waits, copies and host work before the
// launch order it fully, as without the attribute. The kernels this serves never signal early
// (griddepcontrol.launch_dependents), so a dependent of theirs starts only as their last blocks exit.
// Measured on an H200 (bench/probes/fused_candidates.cu, docs/verification/logs/probe-fused_candidates-h200.log): the
// fused ImageNet chain's pair kernel, 40 calls back to back, 26.18 -> 24.46 µs a call, also with an event recorded
// after each call (24.58).
#pragma once

#include "sm90_code.hpp"

#include <cuda_runtime.h>

#include <utility>

namespace cvk {

__device__ __forceinline__ void waitPriorGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// kernel<<<grid, block, smem, stream>>>(args...), with programmatic stream serialization allowed where `overlap` (the
// caller's sm90CodeOnDevice for the kernel's family: older code has no wait, and overlapping it would race). The
// kernel calls waitPriorGrid() before its first global access. Returns the launch's error (cudaGetLastError's).
template <class... Params, class... Args>
cudaError_t launchOverlapped(bool overlap, void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                             Args &&...args) {
    if (!overlap) {
        kernel<<<grid, block, smem, stream>>>(std::forward<Args>(args)...);
        return cudaGetLastError();
    }
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    const cudaError_t err = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
    const cudaError_t last = cudaGetLastError(); // also clears what the launch left, as the path above
    return err != cudaSuccess ? err : last;
}

} // namespace cvk
