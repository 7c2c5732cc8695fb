// A "busy producer": a kernel that spins on the GPU for a while, then writes a buffer. Used by ordering tests to
// make races visible (a missing barrier lets a consumer read the buffer before the write lands).
#pragma once

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

namespace cvtest {

// Enqueues on `stream`: spin for `nanoseconds` (GPU global timer), then set every byte of buf[0, bytes) to `value`.
cudaError_t launchBusyFill(cudaStream_t stream, uint64_t nanoseconds, void *buf, size_t bytes, uint8_t value);

// Enqueues on `stream`: spin for `nanoseconds`, nothing else.
cudaError_t launchSpin(cudaStream_t stream, uint64_t nanoseconds);

} // namespace cvtest
