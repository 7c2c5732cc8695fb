#include "firewall.hpp"

#include "../core/dtype.hpp"
#include "../core/raw_enum.hpp"

#include <cvcuda/types.h>

using namespace cv;

extern "C" {

cvStatus cvDataTypeFromTypestr(const char *typestr, cvDataType *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        *out = parseTypestr(typestr, "typestr");
    });
}

const char *cvDataTypeTypestr(cvDataType dtype) {
    const DTypeInfo *info = dtypeInfo(rawEnum(dtype));
    return info ? info->typestr : "";
}

const char *cvDataTypeName(cvDataType dtype) {
    const DTypeInfo *info = dtypeInfo(rawEnum(dtype));
    return info ? info->name : "unspecified";
}

int32_t cvDataTypeItemSize(cvDataType dtype) {
    const DTypeInfo *info = dtypeInfo(rawEnum(dtype));
    return info ? info->itemSize : 0;
}

} // extern "C"
