// First-use checks of wrapped memory (device memory, which device, extent inside one allocation: docs/streams.md).
#pragma once

#include "tensor_desc.hpp"

namespace cv {

// Throws CV_ERROR_INVALID_ARGUMENT when the tensor's byte extent is not device (or managed) memory lying inside a
// single allocation. Returns the device that owns the memory.
int checkDeviceMemory(const TensorDesc &desc);

} // namespace cv
