#include "firewall.hpp"

#include "../core/hazards.hpp"
#include "../core/stats.hpp"

#include <cvcuda/library.h>

using namespace cv;

extern "C" {

cvStatus cvGetStats(cvStats *out) {
    return capi::guarded(__func__, [&] {
        capi::requireStruct(out, "out");
        const Stats &s = stats();
        cvStats r = CV_STATS_INIT;
        r.deviceSyncs = s.deviceSyncs.load();
        r.eventRecords = s.eventRecords.load();
        r.eventWaits = s.eventWaits.load();
        r.kernelLaunches = s.kernelLaunches.load();
        r.liveTensors = s.liveTensors.load();
        r.liveStreams = s.liveStreams.load();
        *out = r;
    });
}

void cvResetStats(void) {
    Stats &s = stats();
    s.deviceSyncs = 0;
    s.eventRecords = 0;
    s.eventWaits = 0;
    s.kernelLaunches = 0;
}

cvStatus cvCollect(void) {
    return capi::guarded(__func__, [] { hazards::collect(false); });
}

cvStatus cvSyncAndCollect(void) {
    return capi::guarded(__func__, [] { hazards::collect(true); });
}

} // extern "C"
