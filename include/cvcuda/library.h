/* cvcuda-c: process-wide counters and deferred work. */
#ifndef CVCUDA_LIBRARY_H
#define CVCUDA_LIBRARY_H

#include <stdint.h>
#include "export.h"
#include "status.h"

CV_EXTERN_C_BEGIN

/** Process-wide counters (all threads). Initialise with CV_STATS_INIT.
 *  deviceSyncs: defensive cudaDeviceSynchronize calls; eventRecords / eventWaits: cudaEventRecord /
 *  cudaStreamWaitEvent calls made for hazard tracking; kernelLaunches: operator kernels launched;
 *  liveTensors / liveStreams: tensors and streams alive now, held by a handle or by tracked GPU work (a released
 *  stream stays alive while the hazard state of memory it accessed names it; cvSyncAndCollect forgets that state);
 *  the library's own per-device streams and its pool of released streams are not counted. */
typedef struct cvStats {
    uint32_t structSize;
    uint32_t reserved0;
    uint64_t deviceSyncs;
    uint64_t eventRecords;
    uint64_t eventWaits;
    uint64_t kernelLaunches;
    int64_t liveTensors;
    int64_t liveStreams;
} cvStats;

#define CV_STATS_INIT { (uint32_t)sizeof(cvStats), 0, 0, 0, 0, 0, 0, 0 }

/** Reads the counters. Thread-safe. Errors: CV_ERROR_INVALID_ARGUMENT (NULL, structSize too small). */
CV_API cvStatus cvGetStats(cvStats *out);

/** Sets deviceSyncs, eventRecords, eventWaits and kernelLaunches to 0 (live counts are kept). Thread-safe. */
CV_API void cvResetStats(void);

/** Runs the deferred releases whose GPU work has completed (non-blocking; cudaEventQuery only). */
CV_API cvStatus cvCollect(void);

/** BLOCKS the host until all GPU work the library tracks has completed, then runs every deferred release (frees
 *  and cleanup callbacks) and forgets the hazard state of released memory (with the streams it names). Call it
 *  before dlclose() of the library, after releasing your handles.
 *  Errors: CV_ERROR_CUDA. Without a device it does nothing and succeeds. */
CV_API cvStatus cvSyncAndCollect(void);

CV_EXTERN_C_END
#endif /* CVCUDA_LIBRARY_H */
