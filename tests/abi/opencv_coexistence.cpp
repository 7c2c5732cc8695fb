// This library's headers next to OpenCV 4's in one C++ translation unit: no macro or name may clash (OpenCV owns
// CV_VERSION_*, CV_MAX_DIM, CV_8U ...), compiled with warnings as errors by check_opencv_headers.py.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <cvcuda/cvcuda.h>
#include <cvcuda/cvcuda.hpp>

// Both version macros, each with its own meaning.
static_assert(CV_VERSION_MAJOR >= 4, "OpenCV 4's macro");
static_assert(CVCUDA_C_VERSION_NUMBER == CVCUDA_C_VERSION_MAJOR * 10000 + CVCUDA_C_VERSION_MINOR * 100 + CVCUDA_C_VERSION_PATCH,
              "this library's macro");

int main() {
    cv::Mat flipped;
    cvDataType dtype = CV_DTYPE_UINT8;
    return (dtype == CV_DTYPE_UINT8 && flipped.empty() && cv::INTER_LINEAR == 1) ? 0 : 1;
}
