#include "raw_enums.h"

#include <stddef.h>

const char *cvtestStatusName(int32_t status) { return cvStatusName((cvStatus)status); }
const char *cvtestDataTypeName(int32_t dtype) { return cvDataTypeName((cvDataType)dtype); }
const char *cvtestDataTypeTypestr(int32_t dtype) { return cvDataTypeTypestr((cvDataType)dtype); }
int32_t cvtestDataTypeItemSize(int32_t dtype) { return cvDataTypeItemSize((cvDataType)dtype); }

int32_t cvtestTensorCreate(int32_t dtype) {
    const int64_t shape[2] = {2, 3};
    cvTensor t = NULL;
    const cvStatus status = cvTensorCreate(2, shape, (cvDataType)dtype, "HW", &t);
    cvTensorRelease(t);
    return (int32_t)status;
}
