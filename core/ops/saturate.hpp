// Host conversion of an operator's scalar parameter (a border value) to an element type, as OpenCV's saturate_cast.
#pragma once

#include <cvcuda/types.h>

namespace cv {

// Writes `value` converted to `dtype` into out (itemsize bytes): integers round half to even and clamp to the type's
// range (NaN -> 0), bool is value != 0, floating types round to nearest.
void saturateToBytes(double value, cvDataType dtype, unsigned char *out);

} // namespace cv
