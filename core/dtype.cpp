#include "dtype.hpp"

#include "error.hpp"

#include <cstring>

namespace cv {
namespace {

constexpr DTypeInfo kDTypes[] = {
    {CV_DTYPE_BOOL, "|b1", "bool", 1},          {CV_DTYPE_UINT8, "|u1", "uint8", 1},
    {CV_DTYPE_INT8, "|i1", "int8", 1},          {CV_DTYPE_UINT16, "<u2", "uint16", 2},
    {CV_DTYPE_INT16, "<i2", "int16", 2},        {CV_DTYPE_UINT32, "<u4", "uint32", 4},
    {CV_DTYPE_INT32, "<i4", "int32", 4},        {CV_DTYPE_UINT64, "<u8", "uint64", 8},
    {CV_DTYPE_INT64, "<i8", "int64", 8},        {CV_DTYPE_FLOAT16, "<f2", "float16", 2},
    {CV_DTYPE_BFLOAT16, "<V2", "bfloat16", 2},  {CV_DTYPE_FLOAT32, "<f4", "float32", 4},
    {CV_DTYPE_FLOAT64, "<f8", "float64", 8},    {CV_DTYPE_COMPLEX64, "<c8", "complex64", 8},
    {CV_DTYPE_COMPLEX128, "<c16", "complex128", 16},
};

} // namespace

const DTypeInfo *dtypeInfo(int32_t dtype) noexcept {
    for (const auto &info : kDTypes)
        if (info.dtype == dtype) return &info;
    return nullptr;
}

cvDataType parseTypestr(const char *typestr, const char *field) {
    if (typestr == nullptr) invalid(currentFunction(), ": ", field, " is NULL");
    const size_t len = std::strlen(typestr);
    const std::string quoted = concat("'", typestr, "'");
    if (len < 2) invalid(currentFunction(), ": ", field, "=", quoted, " is malformed (expected <byteorder><kind><size>, e.g. '|u1')");
    const char order = typestr[0], kind = typestr[1];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        invalid(currentFunction(), ": ", field, "=", quoted, " has an unknown byte order '", order, "' (expected <, >, | or =)");
    if (len == 2) invalid(currentFunction(), ": ", field, "=", quoted, " is sizeless (no item size after the kind)");
    for (size_t i = 2; i < len; ++i)
        if (typestr[i] < '0' || typestr[i] > '9')
            invalid(currentFunction(), ": ", field, "=", quoted, " is malformed (the size must be decimal digits)");
    if (len > 4) invalid(currentFunction(), ": ", field, "=", quoted, " has an unsupported size");
    const int size = std::atoi(typestr + 2);
    if (size == 0) invalid(currentFunction(), ": ", field, "=", quoted, " is sizeless (size 0)");
    if (order == '>' && size > 1)
        invalid(currentFunction(), ": ", field, "=", quoted, " is big-endian; only little-endian or native byte order is supported");
    switch (kind) {
    case 'c':
        for (const auto &info : kDTypes)
            if (info.typestr[1] == kind && info.itemSize == size) return info.dtype;
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": ", field, "=", quoted,
             " is a complex type of an unsupported size (complex64 '<c8' and complex128 '<c16' are supported)");
    case 'V':
        if (size == 2) return CV_DTYPE_UNSPECIFIED;
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": ", field, "=", quoted,
             " is an opaque type; only '<V2' with an explicit 2-byte dtype (bfloat16) is supported");
    case 'M': case 'm': case 'O': case 'S': case 'U':
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": ", field, "=", quoted, " is a kind ('", kind, "') that is unsupported");
    case 'b': case 'u': case 'i': case 'f': {
        for (const auto &info : kDTypes)
            if (info.typestr[1] == kind && info.itemSize == size) return info.dtype;
        invalid(currentFunction(), ": ", field, "=", quoted, " has no supported type of kind '", kind, "' with ", size, " bytes");
    }
    default:
        invalid(currentFunction(), ": ", field, "=", quoted, " has an unknown kind '", kind, "'");
    }
}

} // namespace cv
