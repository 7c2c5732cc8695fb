// Which normalize path a launch takes (cvk::normalizeInRegisters): pure host logic, no GPU. The register path (by-value
// constants of 1 to 4 channels with a plain scale) is what the benchmark's normalize rows take; the GPU test
// tests/python/test_normalize.py checks that both paths give the same bits.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/normalize.hpp"

namespace {

char *const kConstants = reinterpret_cast<char *>(uintptr_t(1) << 20); // never dereferenced

struct Row {
    const char *what;
    int32_t channels;
    bool baseOnDevice, scaleOnDevice, stddev;
    bool registers;
};

} // namespace

TEST_CASE("normalize: by-value constants of at most 4 channels with a plain scale ride in registers", "[normalize][dispatch]") {
    const Row rows[] = {
        {"3 channels by value", 3, false, false, false, true},
        {"1 channel by value", 1, false, false, false, true},
        {"4 channels by value", 4, false, false, false, true},
        {"5 channels by value: shared memory", 5, false, false, false, false},
        {"the scale a standard deviation: shared memory (its 1/sqrt stays on the device)", 3, false, false, true, false},
        {"base a device tensor", 3, true, false, false, false},
        {"scale a device tensor", 3, false, true, false, false},
        {"no channels", 0, false, false, false, false},
    };
    for (const Row &r : rows) {
        INFO(r.what);
        cvk::NormalizeParams p{};
        p.channels = r.channels;
        p.base.count = p.scale.count = 1;
        p.base.device = r.baseOnDevice ? kConstants : nullptr;
        p.scale.device = r.scaleOnDevice ? kConstants : nullptr;
        p.scaleIsStddev = r.stddev;
        CHECK(cvk::normalizeInRegisters(p) == r.registers);
    }
}
