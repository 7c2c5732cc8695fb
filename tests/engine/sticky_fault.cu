// A kernel fault (an illegal address in a kernel that is not the library's) poisons the CUDA context for good. What
// the library must do then: every later call fails with CV_ERROR_CUDA and a message naming the CUDA error, releases
// and collection neither crash nor hang, nothing prints. Its own process, because the context cannot be recovered.
// Exit 0: passed; 1: failed; 77: skipped (no GPU; with CVCUDA_REQUIRE_GPU=1 that is a failure).
#include <cvcuda/cvcuda.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

__global__ void writeThroughBadPointer(int *p) { *p = 1; }

int failures = 0;

void expectCudaError(const char *what, cvStatus status) {
    const char *message = cvGetLastErrorMessage();
    const bool ok = status == CV_ERROR_CUDA && std::strstr(message, "cudaErrorIllegalAddress") != nullptr;
    std::printf("%s %s: %s: %s\n", ok ? "ok  " : "FAIL", what, cvStatusName(status), message);
    if (!ok) ++failures;
}

} // namespace

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        const char *required = std::getenv("CVCUDA_REQUIRE_GPU");
        std::printf("no CUDA device%s\n", required && std::strcmp(required, "1") == 0 ? " but CVCUDA_REQUIRE_GPU=1" : ": skipped");
        return required && std::strcmp(required, "1") == 0 ? 1 : 77;
    }
    cvStream stream = nullptr;
    if (cvStreamCreate(&stream) != CV_SUCCESS) return 1;
    const int64_t shape[4] = {1, 8, 8, 3};
    cvTensor src = nullptr, dst = nullptr;
    if (cvTensorCreateOnStream(stream, 4, shape, CV_DTYPE_UINT8, "NHWC", &src) != CV_SUCCESS ||
        cvTensorCreateOnStream(stream, 4, shape, CV_DTYPE_UINT8, "NHWC", &dst) != CV_SUCCESS)
        return 1;
    if (cvFlip(stream, src, dst, 1) != CV_SUCCESS) return 1;
    if (cvStreamSync(stream) != CV_SUCCESS) return 1;

    cudaStream_t raw = nullptr;
    cvStreamGetHandle(stream, reinterpret_cast<void **>(&raw));
    writeThroughBadPointer<<<1, 1, 0, raw>>>(reinterpret_cast<int *>(8));
    (void)cudaDeviceSynchronize(); // the fault is now sticky

    expectCudaError("cvFlip after a kernel fault", cvFlip(stream, src, dst, 0));
    expectCudaError("cvStreamSync after a kernel fault", cvStreamSync(stream));
    cvTensorRelease(src);
    cvTensorRelease(dst);
    cvStreamRelease(stream);
    const cvStatus collected = cvSyncAndCollect();
    std::printf("%s cvSyncAndCollect after a kernel fault returns (%s)\n", collected != CV_SUCCESS ? "ok  " : "FAIL",
                cvStatusName(collected));
    if (collected == CV_SUCCESS) ++failures;
    std::printf("%d passed, %d failed\n", 3 - failures, failures);
    return failures == 0 ? 0 : 1;
}
