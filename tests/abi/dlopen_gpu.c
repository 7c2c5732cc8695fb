/* The plugin host on a GPU machine: loading the library and wrapping a buffer leave CUDA's primary context
 * inactive (no CUDA work at load or wrap); GPU work still in flight when the host lets go is drained by
 * cvSyncAndCollect before dlclose (cleanup callbacks run, nothing stays alive), and the library can be loaded again.
 * Exits 77 (skipped) without a GPU. The driver API (libcuda.so.1) is loaded at run time, so the program starts on a
 * machine without a driver.
 * Usage: dlopen_gpu LIBRARY */
#include "cvcuda_dl.h"

#include <string.h>

#define SKIPPED 77

typedef int (*CuInit)(unsigned int);
typedef int (*CuDeviceGetCount)(int *);
typedef int (*CuDevicePrimaryCtxGetState)(int, unsigned int *, int *);

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAILED at %s:%d: %s\n", __FILE__, __LINE__, #cond);                                               \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

#define CHECK_CV(api, call)                                                                                            \
    do {                                                                                                               \
        const cvStatus cvtestStatus = (call);                                                                          \
        if (cvtestStatus != CV_SUCCESS) {                                                                              \
            printf("FAILED at %s:%d: %s: %s\n", __FILE__, __LINE__, #call, (api).getLastErrorMessage());               \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

static void countCleanup(void *userData) { ++*(int *)userData; }

/* Creates tensors, queues flips on them through a wrapped view with a cleanup callback, releases every handle while
 * the work is still queued, and drains it with cvSyncAndCollect. */
static int workInFlight(CvApi *api) {
    const int64_t shape[3] = {2160, 3840, 4};
    cvStream stream = NULL;
    cvTensor src = NULL, dst = NULL, view = NULL;
    CHECK_CV(*api, api->streamCreate(&stream));
    CHECK_CV(*api, api->tensorCreate(3, shape, CV_DTYPE_UINT8, "HWC", &src));
    CHECK_CV(*api, api->tensorCreate(3, shape, CV_DTYPE_UINT8, "HWC", &dst));
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    CHECK_CV(*api, api->tensorExport(src, &cai, NULL));
    CHECK_CV(*api, api->tensorWrap(&cai, "HWC", &view));
    int cleanups = 0;
    CHECK_CV(*api, api->tensorSetCleanup(view, countCleanup, &cleanups));
    for (int i = 0; i < 50; ++i) {
        CHECK_CV(*api, api->flip(stream, view, dst, i % 3 - 1));
        CHECK_CV(*api, api->flip(stream, dst, src, 1));
    }
    api->tensorRelease(view);
    api->tensorRelease(src);
    api->tensorRelease(dst);
    api->streamRelease(stream);
    CHECK_CV(*api, api->syncAndCollect());
    CHECK(cleanups == 1);
    cvStats stats = CV_STATS_INIT;
    CHECK_CV(*api, api->getStats(&stats));
    CHECK(stats.liveTensors == 0);
    CHECK(stats.kernelLaunches >= 100);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        printf("usage: %s LIBRARY\n", argv[0]);
        return 2;
    }
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == NULL) {
        printf("SKIP: no CUDA driver (%s)\n", dlerror());
        return SKIPPED;
    }
    CuInit cuInit = (CuInit)dlsym(driver, "cuInit");
    CuDeviceGetCount cuDeviceGetCount = (CuDeviceGetCount)dlsym(driver, "cuDeviceGetCount");
    CuDevicePrimaryCtxGetState getState = (CuDevicePrimaryCtxGetState)dlsym(driver, "cuDevicePrimaryCtxGetState");
    CHECK(cuInit != NULL && cuDeviceGetCount != NULL && getState != NULL);
    int devices = 0;
    if (cuInit(0) != 0 || cuDeviceGetCount(&devices) != 0 || devices == 0) {
        printf("SKIP: no usable CUDA device\n");
        return SKIPPED;
    }
    unsigned int flags = 0;
    int active = -1;

    CvApi api;
    CHECK(cvApiOpen(&api, argv[1]) == 0);
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = 0x7f0000100000ull;
    cai.ndim = 2;
    cai.shape[0] = 2;
    cai.shape[1] = 3;
    strcpy(cai.typestr, "|u1");
    cvTensor wrapped = NULL;
    CHECK_CV(api, api.tensorWrap(&cai, "HW", &wrapped));
    api.tensorRelease(wrapped);
    CHECK(getState(0, &flags, &active) == 0);
    CHECK(active == 0); /* dlopen and a wrap did no CUDA work */
    printf("primary context inactive after dlopen and a wrap: ok\n");

    for (int cycle = 0; cycle < 2; ++cycle) {
        if (cycle > 0) CHECK(cvApiOpen(&api, argv[1]) == 0);
        CHECK(workInFlight(&api) == 0);
        CHECK(cvApiClose(&api) == 0);
        printf("cycle %d: work in flight drained by cvSyncAndCollect, then dlclose: ok\n", cycle);
    }
    dlclose(driver);
    return 0;
}
