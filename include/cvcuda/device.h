/* cvcuda-c: CUDA devices as the library sees them. Device indices are CUDA runtime indices: 0..count-1 of the
 * devices this process sees (CUDA_VISIBLE_DEVICES renumbers them from 0). The library works on any of them: a
 * stream belongs to one device, a tensor to the device its memory is on, and an operator runs on its stream's device
 * whatever the calling thread's current device, which no library call changes (docs/distributed.md).
 * Threading: both functions may be called from any thread. */
#ifndef CVCUDA_DEVICE_H
#define CVCUDA_DEVICE_H

#include <stdint.h>
#include "export.h"
#include "status.h"

CV_EXTERN_C_BEGIN

/** Writes the number of CUDA devices this process sees to *count (cudaGetDeviceCount): 0, with CV_SUCCESS, when
 *  there is no device or no usable driver. Never blocks. Errors: CV_ERROR_INVALID_ARGUMENT (count is NULL). */
CV_API cvStatus cvDeviceGetCount(int32_t *count);

/** Writes the calling thread's current CUDA device (cudaGetDevice: the one cudaSetDevice or
 *  torch.cuda.set_device selected, 0 by default) to *device. Never blocks, creates no CUDA context.
 *  Errors: CV_ERROR_INVALID_ARGUMENT (device is NULL), CV_ERROR_NO_DEVICE. */
CV_API cvStatus cvDeviceGetCurrent(int32_t *device);

CV_EXTERN_C_END
#endif /* CVCUDA_DEVICE_H */
