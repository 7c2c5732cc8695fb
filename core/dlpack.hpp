// DLPack in both directions (cvTensorExportDLPack, cvTensorWrapDLPack): the managed tensor the library hands out, and
// the wrapping of a foreign one. DLPack strides are in elements; TensorDesc strides are in bytes.
#pragma once

#include "ref.hpp"

#include <cvcuda/dlpack_interop.h>

namespace cv {

class Stream;
class Tensor;

// A new managed tensor for `consumer` (null only with CV_DLPACK_EXPORT_NO_SYNC); owned by the caller, who calls its
// deleter once. Orders `consumer` after the pending accesses (see cvTensorExportDLPack).
DLManagedTensorVersioned *exportDLPack(const Ref<Tensor> &tensor, const Ref<Stream> &consumer, uint32_t flags);

// Validates `managed` (no GPU call) and describes it as the CAI the wrapper is built from.
cvArrayInterface dlpackToArrayInterface(const DLManagedTensorVersioned *managed);

// Wraps `managed` as written on `producer` (null: rejected after the validation); on success the tensor owns it and calls its deleter once.
Ref<Tensor> wrapDLPack(DLManagedTensorVersioned *managed, const char *layout, const Ref<Stream> &producer);

} // namespace cv
