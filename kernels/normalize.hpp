// normalize kernels: dst = saturateCast((src - base[c]) * scale'[c] * globalScale + globalShift) elementwise, with
// scale' = scale, or 1 / sqrt(scale^2 + epsilon) when the scale is a standard deviation. Per-channel constants come
// from device float32 tensors or by value, and are staged once per block in shared memory, except by-value constants
// of at most 4 channels with a plain scale, which ride in the kernel's parameter (kernels/normalize.cu).
#pragma once

#include "common/view.hpp"

#include <cvcuda/types.h>
#include <cuda_runtime.h>

namespace cvk {

constexpr int kNormalizeMaxChannels = 256;

// src: u8, u16, s16, f16, f32; dst: f32, f16 or src's type.
bool normalizeSupported(cvDataType src, cvDataType dst);

// Per-channel (count = channels) or per-tensor (count = 1) constants: device float32 values at `device` with
// `stride` bytes between them, or `values` when device is null.
struct NormalizeConstants {
    const char *device;
    int64_t stride;
    int32_t count;
    float values[kNormalizeMaxChannels];
};

struct NormalizeParams {
    RowView view; // channel marked (channels, channelRow)
    cvDataType src, dst;
    int32_t channels;
    NormalizeConstants base, scale;
    bool scaleIsStddev;
    float globalScale, globalShift, epsilon;
};

// Whether the launch carries the constants in registers (by value, 1 to 4 channels, a plain scale) rather than
// staging them in shared memory; both give the same bits.
bool normalizeInRegisters(const NormalizeParams &p);

// Enqueues the normalization; cudaErrorInvalidValue for a dtype pair outside the table. Never blocks the host.
cudaError_t launchNormalize(const NormalizeParams &p, cudaStream_t stream);

} // namespace cvk
