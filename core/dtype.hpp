// The one table of element types: enum value, typestr, name, item size.
#pragma once

#include <cvcuda/types.h>

#include <string>

namespace cv {

struct DTypeInfo {
    cvDataType dtype;
    const char *typestr; // canonical spelling, as exported
    const char *name;
    int32_t itemSize;
};

// nullptr for CV_DTYPE_UNSPECIFIED and values not in the enum (any int32_t, as a C caller may store; core/raw_enum.hpp).
const DTypeInfo *dtypeInfo(int32_t dtype) noexcept;

// Parses a numpy typestr. Returns CV_DTYPE_UNSPECIFIED for "<V2" (opaque; caller decides). Throws cv::Error with a
// message naming `field` and the value for anything else that is not a supported type.
cvDataType parseTypestr(const char *typestr, const char *field);

} // namespace cv
