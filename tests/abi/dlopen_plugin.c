/* A "plugin" of a plugin host: it loads libcvcuda_c on its own (RTLD_LOCAL), unaware of any other user in the
 * process. Built twice (dlopen_plugin_a, dlopen_plugin_b) so that one process holds two independent users. */
#include "cvcuda_dl.h"

#include <string.h>

static CvApi gApi;

/* Loads the library; 0 on success. */
__attribute__((visibility("default"))) int pluginLoad(const char *libraryPath) { return cvApiOpen(&gApi, libraryPath); }

/* Uses the library: version, a wrap and its description, and a failing call with its message. 0 on success. */
__attribute__((visibility("default"))) int pluginUse(uint64_t data) {
    if (gApi.getVersion() != CVCUDA_C_VERSION_NUMBER) {
        printf("%s: version %u, header %u\n", PLUGIN_NAME, gApi.getVersion(), CVCUDA_C_VERSION_NUMBER);
        return 1;
    }
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = data;
    cai.ndim = 2;
    cai.shape[0] = 4;
    cai.shape[1] = 8;
    cai.streamKind = CV_CAI_STREAM_NONE;
    strcpy(cai.typestr, "<f4");
    cvTensor tensor = NULL;
    if (gApi.tensorWrap(&cai, "HW", &tensor) != CV_SUCCESS) {
        printf("%s: wrap failed: %s\n", PLUGIN_NAME, gApi.getLastErrorMessage());
        return 1;
    }
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    const cvStatus status = gApi.tensorGetInfo(tensor, &info);
    gApi.tensorRelease(tensor);
    if (status != CV_SUCCESS || info.data != data || info.strides[0] != 32) {
        printf("%s: unexpected description\n", PLUGIN_NAME);
        return 1;
    }
    strcpy(cai.typestr, PLUGIN_TYPESTR);
    if (gApi.tensorWrap(&cai, "HW", &tensor) != CV_ERROR_INVALID_ARGUMENT ||
        strstr(gApi.getLastErrorMessage(), PLUGIN_TYPESTR) == NULL) {
        printf("%s: expected a rejection naming %s, got '%s'\n", PLUGIN_NAME, PLUGIN_TYPESTR, gApi.getLastErrorMessage());
        return 1;
    }
    return 0;
}

__attribute__((visibility("default"))) int pluginUnload(void) { return cvApiClose(&gApi); }
