// Which kernels the device runs: the AREA warp kernel (kernels/resize_area_warp.cuh, sm_90 bulk copies) is taken
// exactly where the code CUDA picked for the device was built for sm_90 or later. The build's architectures come from
// Meson (CVTEST_GPU_ARCHS: "all" or a list such as "75,90"); the device runs sm_90 code when it is sm_90 or later and
// the build has code for an architecture from 90 up to its own (SASS of that architecture or PTX that JIT-compiles to
// it). Else it runs older PTX, in which the warp kernel traps, and launchResize must keep the block kernel.
#include "engine_fixtures.hpp"

#include "../../kernels/resize.hpp"

#include <sstream>
#include <string>

namespace {

#ifndef CVTEST_GPU_ARCHS
#error "tests/engine/meson.build passes the build's GPU architectures as CVTEST_GPU_ARCHS"
#endif

// Whether a device of compute capability cc (major * 10 + minor) runs code built for sm_90 or later.
bool runsSm90Code(const std::string &archs, int cc) {
    if (cc < 90) return false;
    if (archs == "all") return true;
    std::stringstream list(archs);
    for (std::string item; std::getline(list, item, ',');) {
        const int a = std::stoi(item);
        if (a >= 90 && a <= cc) return true;
    }
    return false;
}

} // namespace

TEST_CASE("resizeBulkCopyDevice: true exactly where the device runs code built for sm_90 or later", "[gpu][engine][kernels]") {
    CVTEST_REQUIRE_GPU();
    int device = 0, major = 0, minor = 0;
    CVTEST_CUDA(cudaGetDevice(&device));
    CVTEST_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CVTEST_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    const std::string archs = CVTEST_GPU_ARCHS;
    INFO("build architectures " << archs << ", device compute capability " << major << "." << minor);
    CHECK(cvk::resizeBulkCopyDevice() == runsSm90Code(archs, 10 * major + minor));
}
