/* Flips an image on the GPU with the C API of libcvcuda_c and the CUDA runtime, and checks the result on the CPU.
 *
 * Build (installed library):  cc flip.c $(pkg-config --cflags --libs cvcuda_c) -lcudart   (plus CUDA's -I/-L)
 *                       or :  cmake with find_package(cvcuda_c), see CMakeLists.txt.
 * Exit status: 0 when every flip matched, 1 on a failure, 77 when no CUDA device is usable. */
#include <cvcuda/cvcuda.h>

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEIGHT = 480, WIDTH = 640, CHANNELS = 3, NO_GPU = 77 };

#define CHECK_CV(call)                                                                                                 \
    do {                                                                                                               \
        const cvStatus status_ = (call);                                                                               \
        if (status_ != CV_SUCCESS) {                                                                                   \
            fprintf(stderr, "%s failed: %s: %s\n", #call, cvStatusName(status_), cvGetLastErrorMessage());            \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

#define CHECK_CUDA(call)                                                                                               \
    do {                                                                                                               \
        const cudaError_t err_ = (call);                                                                               \
        if (err_ != cudaSuccess) {                                                                                     \
            fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));                                      \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

/* Describes a packed HWC uint8 image in device memory as a CUDA Array Interface. The producer (cudaMemcpy on the
 * legacy default stream, already complete) has nothing pending: stream None. */
static cvArrayInterface describe(void *device) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = (uint64_t)(uintptr_t)device;
    cai.ndim = 3;
    cai.shape[0] = HEIGHT;
    cai.shape[1] = WIDTH;
    cai.shape[2] = CHANNELS;
    strcpy(cai.typestr, "|u1");
    cai.streamKind = CV_CAI_STREAM_NONE;
    return cai;
}

/* The flip as OpenCV defines it: flipCode 0 rows, > 0 columns, < 0 both. */
static unsigned char expected(const unsigned char *src, int y, int x, int c, int flipCode) {
    const int sy = flipCode <= 0 ? HEIGHT - 1 - y : y;
    const int sx = flipCode != 0 ? WIDTH - 1 - x : x;
    return src[((size_t)sy * WIDTH + sx) * CHANNELS + c];
}

int main(void) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "no usable CUDA device: nothing to flip\n");
        return NO_GPU;
    }
    if (cvGetVersion() != CVCUDA_C_VERSION_NUMBER) {
        fprintf(stderr, "library version %u, header %u\n", cvGetVersion(), CVCUDA_C_VERSION_NUMBER);
        return 1;
    }
    const size_t bytes = (size_t)HEIGHT * WIDTH * CHANNELS;
    unsigned char *host = malloc(bytes), *result = malloc(bytes);
    if (host == NULL || result == NULL) return 1;
    unsigned state = 12345u;
    for (size_t i = 0; i < bytes; ++i) {
        state = state * 1664525u + 1013904223u;
        host[i] = (unsigned char)(state >> 24);
    }
    void *srcMemory = NULL, *dstMemory = NULL;
    CHECK_CUDA(cudaMalloc(&srcMemory, bytes));
    CHECK_CUDA(cudaMalloc(&dstMemory, bytes));
    CHECK_CUDA(cudaMemcpy(srcMemory, host, bytes, cudaMemcpyHostToDevice));

    cvStream stream = NULL;
    CHECK_CV(cvStreamCreate(&stream));
    const cvArrayInterface srcCai = describe(srcMemory), dstCai = describe(dstMemory);
    cvTensor src = NULL, dst = NULL;
    CHECK_CV(cvTensorWrap(&srcCai, "HWC", &src));
    CHECK_CV(cvTensorWrap(&dstCai, "HWC", &dst));

    const int flipCodes[] = {0, 1, -1};
    int mismatches = 0;
    for (int k = 0; k < 3; ++k) {
        /* Poison dst so that a flip that writes nothing cannot pass. */
        CHECK_CUDA(cudaMemset(dstMemory, 0xA5, bytes));
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CV(cvFlip(stream, src, dst, flipCodes[k]));
        CHECK_CV(cvStreamSync(stream));
        CHECK_CUDA(cudaMemcpy(result, dstMemory, bytes, cudaMemcpyDeviceToHost));
        for (int y = 0; y < HEIGHT; ++y)
            for (int x = 0; x < WIDTH; ++x)
                for (int c = 0; c < CHANNELS; ++c)
                    mismatches += result[((size_t)y * WIDTH + x) * CHANNELS + c] != expected(host, y, x, c, flipCodes[k]);
        printf("flipCode %2d: %s\n", flipCodes[k], mismatches == 0 ? "matches the CPU reference" : "MISMATCH");
    }

    cvTensorRelease(src);
    cvTensorRelease(dst);
    cvStreamRelease(stream);
    /* The wrapped memory is ours: free it only after the library is done with it. */
    CHECK_CV(cvSyncAndCollect());
    CHECK_CUDA(cudaFree(srcMemory));
    CHECK_CUDA(cudaFree(dstMemory));
    free(host);
    free(result);
    return mismatches == 0 ? 0 : 1;
}
