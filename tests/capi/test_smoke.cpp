#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

TEST_CASE("version matches the header") { CHECK(cvGetVersion() == CV_VERSION_NUMBER); }
