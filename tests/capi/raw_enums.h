/* Calls with enum arguments outside the enums' values, made from C, where storing any int in an enum is defined
 * (in C++ it is not). The library must read such arguments as the int32_t they are. */
#ifndef CVTEST_RAW_ENUMS_H
#define CVTEST_RAW_ENUMS_H

#include <cvcuda/cvcuda.h>

#ifdef __cplusplus
extern "C" {
#endif

const char *cvtestStatusName(int32_t status);
const char *cvtestDataTypeName(int32_t dtype);
const char *cvtestDataTypeTypestr(int32_t dtype);
int32_t cvtestDataTypeItemSize(int32_t dtype);
int32_t cvtestTensorCreate(int32_t dtype); /* a 2x3 tensor of that dtype; returns the cvStatus */

#ifdef __cplusplus
}
#endif
#endif
