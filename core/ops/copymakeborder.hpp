// The copymakeborder operator (cvCopyMakeBorder): validation, conversion of the border value, ordering.
#pragma once

#include "../ref.hpp"

#include <cvcuda/copymakeborder.h>

namespace cvk { struct CopyMakeBorderParams; }

namespace cv {

class Stream;
class Tensor;

void copyMakeBorder(const Ref<Stream> &stream, Tensor &src, Tensor &dst, const cvCopyMakeBorderParams &params);

// Validation and kernel parameters without enqueuing anything (exposed for CPU tests). False when dst is empty.
bool planCopyMakeBorder(const Tensor &src, const Tensor &dst, const cvCopyMakeBorderParams &params,
                        cvk::CopyMakeBorderParams &out);

} // namespace cv
