#include "firewall.hpp"

#include "../core/raw_enum.hpp"

#include <cvcuda/status.h>
#include <cvcuda/version.h>

extern "C" {

const char *cvStatusName(cvStatus status) {
    switch (cv::rawEnum(status)) {
    case CV_SUCCESS: return "CV_SUCCESS";
    case CV_ERROR_INVALID_ARGUMENT: return "CV_ERROR_INVALID_ARGUMENT";
    case CV_ERROR_NOT_SUPPORTED: return "CV_ERROR_NOT_SUPPORTED";
    case CV_ERROR_OUT_OF_MEMORY: return "CV_ERROR_OUT_OF_MEMORY";
    case CV_ERROR_NO_DEVICE: return "CV_ERROR_NO_DEVICE";
    case CV_ERROR_CUDA: return "CV_ERROR_CUDA";
    case CV_ERROR_INVALID_STATE: return "CV_ERROR_INVALID_STATE";
    case CV_ERROR_INTERNAL: return "CV_ERROR_INTERNAL";
    case CV_NOT_READY: return "CV_NOT_READY";
    default: return "CV_STATUS_UNKNOWN";
    }
}

const char *cvGetLastErrorMessage(void) { return cv::detail::lastError(); }

uint32_t cvGetVersion(void) { return CVCUDA_C_VERSION_NUMBER; }

} // extern "C"
