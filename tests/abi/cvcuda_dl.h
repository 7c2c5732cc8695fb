/* The C API resolved at run time with dlsym, as a plugin host does it: no link against libcvcuda_c. */
#ifndef CVTEST_CVCUDA_DL_H
#define CVTEST_CVCUDA_DL_H

#include <cvcuda/cvcuda.h>

#include <dlfcn.h>
#include <stdio.h>

typedef struct CvApi {
    void *library;
    uint32_t (*getVersion)(void);
    const char *(*getLastErrorMessage)(void);
    const char *(*statusName)(cvStatus);
    cvStatus (*tensorWrap)(const cvArrayInterface *, const char *, cvTensor *);
    cvStatus (*tensorSetCleanup)(cvTensor, cvCleanupFn, void *);
    cvStatus (*tensorGetInfo)(cvTensor, cvTensorInfo *);
    cvStatus (*tensorExport)(cvTensor, cvArrayInterface *, cvStream *);
    cvStatus (*tensorCreate)(int32_t, const int64_t *, cvDataType, const char *, cvTensor *);
    void (*tensorRelease)(cvTensor);
    cvStatus (*streamCreate)(cvStream *);
    cvStatus (*streamSync)(cvStream);
    void (*streamRelease)(cvStream);
    cvStatus (*flip)(cvStream, cvTensor, cvTensor, int32_t);
    cvStatus (*getStats)(cvStats *);
    cvStatus (*syncAndCollect)(void);
} CvApi;

/* dlopen()s the library with RTLD_LOCAL and resolves every entry; returns 0, or -1 with a message on stdout. */
static int cvApiOpen(CvApi *api, const char *path) {
    api->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (api->library == NULL) {
        printf("dlopen(%s) failed: %s\n", path, dlerror());
        return -1;
    }
#define CVTEST_RESOLVE(field, symbol)                                                                                  \
    do {                                                                                                               \
        *(void **)(&api->field) = dlsym(api->library, symbol);                                                         \
        if (api->field == NULL) {                                                                                      \
            printf("dlsym(%s) failed: %s\n", symbol, dlerror());                                                       \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)
    CVTEST_RESOLVE(getVersion, "cvGetVersion");
    CVTEST_RESOLVE(getLastErrorMessage, "cvGetLastErrorMessage");
    CVTEST_RESOLVE(statusName, "cvStatusName");
    CVTEST_RESOLVE(tensorWrap, "cvTensorWrap");
    CVTEST_RESOLVE(tensorSetCleanup, "cvTensorSetCleanup");
    CVTEST_RESOLVE(tensorGetInfo, "cvTensorGetInfo");
    CVTEST_RESOLVE(tensorExport, "cvTensorExport");
    CVTEST_RESOLVE(tensorCreate, "cvTensorCreate");
    CVTEST_RESOLVE(tensorRelease, "cvTensorRelease");
    CVTEST_RESOLVE(streamCreate, "cvStreamCreate");
    CVTEST_RESOLVE(streamSync, "cvStreamSync");
    CVTEST_RESOLVE(streamRelease, "cvStreamRelease");
    CVTEST_RESOLVE(flip, "cvFlip");
    CVTEST_RESOLVE(getStats, "cvGetStats");
    CVTEST_RESOLVE(syncAndCollect, "cvSyncAndCollect");
#undef CVTEST_RESOLVE
    return 0;
}

static int cvApiClose(CvApi *api) {
    const int rc = dlclose(api->library);
    api->library = NULL;
    if (rc != 0) printf("dlclose failed: %s\n", dlerror());
    return rc;
}

#endif
