/* A plugin host: dlopen()s libcvcuda_c.so.1 with RTLD_LOCAL, resolves the API with dlsym, uses it and
 * dlclose()s it, 100 times; then two independent plugins load it in one process. Checks that loading starts no
 * thread, that cleanup callbacks run before dlclose, and that the last dlclose really unmaps the library (no
 * thread_local destructor or unique symbol pins it). Run under valgrind it also shows that the cycles leak nothing.
 * Needs no GPU: no call here touches a device.
 * Usage: dlopen_host LIBRARY PLUGIN_A PLUGIN_B */
#include "cvcuda_dl.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define CYCLES 100

static int threadCount(void) {
    DIR *dir = opendir("/proc/self/task");
    int n = 0;
    if (dir == NULL) return -1;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir))
        if (e->d_name[0] != '.') ++n;
    closedir(dir);
    return n;
}

/* Whether a file whose path contains `name` is mapped into this process. */
static int isMapped(const char *name) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    if (maps == NULL) return -1;
    while (!found && fgets(line, sizeof line, maps) != NULL) found = strstr(line, name) != NULL;
    fclose(maps);
    return found;
}

static void countCleanup(void *userData) { ++*(int *)userData; }

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAILED at %s:%d: %s\n", __FILE__, __LINE__, #cond);                                               \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

static int oneCycle(const char *libraryPath, int cycle, int threadsBefore) {
    CvApi api;
    CHECK(cvApiOpen(&api, libraryPath) == 0);
    CHECK(threadCount() == threadsBefore);
    CHECK(api.getVersion() == CVCUDA_C_VERSION_NUMBER);

    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = 0x7f0000200000ull + (uint64_t)cycle * 4096;
    cai.ndim = 3;
    cai.shape[0] = 4;
    cai.shape[1] = 5;
    cai.shape[2] = 3;
    cai.streamKind = CV_CAI_STREAM_NONE;
    strcpy(cai.typestr, "|u1");
    cvTensor tensor = NULL;
    CHECK(api.tensorWrap(&cai, "HWC", &tensor) == CV_SUCCESS);
    int cleanups = 0;
    CHECK(api.tensorSetCleanup(tensor, countCleanup, &cleanups) == CV_SUCCESS);
    cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
    CHECK(api.tensorExport(tensor, &exported, NULL) == CV_SUCCESS);
    CHECK(exported.data == cai.data && exported.strides[0] == 15);
    api.tensorRelease(tensor);
    CHECK(cleanups == 1);
    CHECK(api.syncAndCollect() == CV_SUCCESS);

    cai.stream = -7;
    cai.streamKind = CV_CAI_STREAM_INTEGER;
    CHECK(api.tensorWrap(&cai, "HWC", &tensor) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(api.getLastErrorMessage(), "stream=-7") != NULL);
    CHECK(strcmp(api.statusName(CV_ERROR_NO_DEVICE), "CV_ERROR_NO_DEVICE") == 0);

    cvStats stats = CV_STATS_INIT;
    CHECK(api.getStats(&stats) == CV_SUCCESS);
    CHECK(stats.liveTensors == 0);
    CHECK(threadCount() == threadsBefore);
    CHECK(cvApiClose(&api) == 0);
    CHECK(isMapped("libcvcuda_c") == 0);
    return 0;
}

typedef int (*PluginLoad)(const char *);
typedef int (*PluginUse)(uint64_t);
typedef int (*PluginUnload)(void);

typedef struct Plugin {
    void *handle;
    PluginLoad load;
    PluginUse use;
    PluginUnload unload;
} Plugin;

static int openPlugin(Plugin *p, const char *path) {
    p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (p->handle == NULL) {
        printf("dlopen(%s): %s\n", path, dlerror());
        return 1;
    }
    *(void **)(&p->load) = dlsym(p->handle, "pluginLoad");
    *(void **)(&p->use) = dlsym(p->handle, "pluginUse");
    *(void **)(&p->unload) = dlsym(p->handle, "pluginUnload");
    return p->load == NULL || p->use == NULL || p->unload == NULL;
}

static int twoPlugins(const char *libraryPath, const char *pathA, const char *pathB) {
    Plugin a, b;
    CHECK(openPlugin(&a, pathA) == 0);
    CHECK(openPlugin(&b, pathB) == 0);
    CHECK(a.load(libraryPath) == 0);
    CHECK(b.load(libraryPath) == 0);
    CHECK(a.use(0x7f0000300000ull) == 0);
    CHECK(b.use(0x7f0000400000ull) == 0);
    /* One plugin letting go must not disturb the other. */
    CHECK(a.unload() == 0);
    CHECK(isMapped("libcvcuda_c") == 1);
    CHECK(b.use(0x7f0000500000ull) == 0);
    CHECK(b.unload() == 0);
    CHECK(isMapped("libcvcuda_c") == 0);
    CHECK(dlclose(a.handle) == 0);
    CHECK(dlclose(b.handle) == 0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        printf("usage: %s LIBRARY PLUGIN_A PLUGIN_B\n", argv[0]);
        return 2;
    }
    const int threadsBefore = threadCount();
    CHECK(threadsBefore >= 1);
    CHECK(isMapped("libcvcuda_c") == 0);
    for (int cycle = 0; cycle < CYCLES; ++cycle) {
        if (oneCycle(argv[1], cycle, threadsBefore) != 0) {
            printf("cycle %d failed\n", cycle);
            return 1;
        }
    }
    printf("%d load/use/unload cycles: ok, threads %d before and after\n", CYCLES, threadsBefore);
    CHECK(twoPlugins(argv[1], argv[2], argv[3]) == 0);
    CHECK(threadCount() == threadsBefore);
    printf("two plugins in one process: ok\n");
    return 0;
}
