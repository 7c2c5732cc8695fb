// convertto kernels: dst = saturateCast(src * scale + offset) elementwise (rule: kernels/common/saturate.cuh).
#pragma once

#include "common/view.hpp"

#include <cvcuda/types.h>
#include <cuda_runtime.h>

namespace cvk {

// u8, s8, u16, s16, s32, f16, bf16, f32, f64 (the same table for src and dst).
bool convertSupported(cvDataType dtype);

struct ConvertParams {
    RowView view;
    cvDataType src, dst;
    double scale, offset;
    int32_t round; // cvk::Round value (1..4)
};

// Enqueues the conversion; cudaErrorInvalidValue for a dtype or rounding mode outside the tables. Never blocks.
cudaError_t launchConvertTo(const ConvertParams &p, cudaStream_t stream);

} // namespace cvk
