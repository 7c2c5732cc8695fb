// Element copies over a RowView (kernels/common/view.hpp): what crop and the general case of reformat run.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

// Whether launchCopy moves the view's rows as contiguous byte spans (the elements of a row adjacent on both sides),
// in aligned 16-byte vectors whatever the alignment of either side; otherwise element by element.
bool copyRowsContiguous(const RowView &v, int32_t itemSize);
// Whether those rows are also whole 16-byte blocks starting on 16-byte boundaries on both sides (data and every row
// stride), which launchCopy moves as one flat launch of aligned 16-byte blocks.
bool copyRowsAligned(const RowView &v, int32_t itemSize);

// Enqueues dst = src over the view, elements of itemSize bytes (1, 2, 4 or 8; cudaErrorInvalidValue otherwise for
// rows that are not contiguous). Never blocks the host.
cudaError_t launchCopy(const RowView &v, int32_t itemSize, cudaStream_t stream);

// Loads launchCopy's flat and span kernels on the current device (see preloadFlipKernels for why: flip's AlignedRows
// path launches the flat one). The element-by-element path's kernels load at their first launch.
cudaError_t preloadCopyKernels();

} // namespace cvk
