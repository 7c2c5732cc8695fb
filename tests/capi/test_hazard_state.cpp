// The engine's per-memory state does not grow with use: after many wrap / view / export / release cycles (fake
// addresses: wrapping and exporting ready memory make no GPU call) the region registry and the deferred cleanup queues
// hold what they held before, and every cleanup callback ran once.
#include "cai.hpp"

#include "../../core/hazards.hpp"

#include <vector>

using namespace cvtest;

namespace {

void countCall(void *calls) { ++*static_cast<int *>(calls); }

struct Row {
    const char *name;
    int tensorsPerCycle;  // wrappers of one cycle's memory
    bool overlapping;     // the wrappers view overlapping ranges (their regions merge)
    bool withCleanup;     // each wrapper gets a cleanup callback
    bool exported;        // each wrapper is exported (cvTensorExport) before its release
};

} // namespace

TEST_CASE("hazard state returns to its start after many wrap and release cycles", "[lifecycle][hazards]") {
    const Row rows[] = {
        {"one wrapper a cycle", 1, false, false, false},
        {"one wrapper with a cleanup callback, exported", 1, false, true, true},
        {"three wrappers of overlapping ranges (merged regions)", 3, true, true, false},
        {"three wrappers of disjoint ranges, exported", 3, false, false, true},
    };
    constexpr int kCycles = 1000;
    for (const Row &row : rows) {
        INFO(row.name);
        const size_t regionsBefore = cv::detail::registeredRegions();
        const size_t deferredBefore = cv::detail::deferredCleanups();
        int calls = 0;
        for (int cycle = 0; cycle < kCycles; ++cycle) {
            // Addresses move every cycle, as a caching allocator's blocks do, over a window larger than one sweep.
            const uint64_t base = kFakeData + static_cast<uint64_t>(cycle % 300) * 0x10000;
            std::vector<cvTensor> tensors;
            for (int i = 0; i < row.tensorsPerCycle; ++i) {
                const uint64_t data = base + static_cast<uint64_t>(i) * (row.overlapping ? 0x100 : 0x4000);
                cvArrayInterface cai = makeCai("|u1", {16, 32, 3}, data);
                cai.streamKind = CV_CAI_STREAM_NONE; // ready: no producer stream, no defensive sync
                cvTensor t = nullptr;
                REQUIRE(cvTensorWrap(&cai, "HWC", &t) == CV_SUCCESS);
                if (row.withCleanup) REQUIRE(cvTensorSetCleanup(t, countCall, &calls) == CV_SUCCESS);
                if (row.exported) {
                    cvArrayInterface out = CV_ARRAY_INTERFACE_INIT;
                    cvStream writer = nullptr;
                    REQUIRE(cvTensorExport(t, &out, &writer) == CV_SUCCESS);
                    REQUIRE(writer == nullptr); // nothing pending on ready memory
                }
                tensors.push_back(t);
            }
            for (cvTensor t : tensors) cvTensorRelease(t);
        }
        CHECK(cv::detail::registeredRegions() == regionsBefore);
        CHECK(cv::detail::deferredCleanups() == deferredBefore);
        CHECK(calls == (row.withCleanup ? kCycles * row.tensorsPerCycle : 0));
    }
}
