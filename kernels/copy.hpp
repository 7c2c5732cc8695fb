// Strided element copies over a RowView (kernels/common/view.hpp): what crop and the general case of reformat run.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

// Enqueues dst = src over the view, elements of itemSize bytes (1, 2, 4 or 8; cudaErrorInvalidValue otherwise).
// 16-byte vectors where both sides allow them (rows.cuh). Never blocks the host.
cudaError_t launchCopy(const RowView &v, int32_t itemSize, cudaStream_t stream);

} // namespace cvk
