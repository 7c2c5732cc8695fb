// Status codes, version, the per-thread last error and the exception firewall.
#include "cai.hpp"

#include "../../core/error.hpp"

#include "raw_enums.h"

#include <catch2/catch_test_macros.hpp>
#include <cvcuda/cvcuda.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace cvtest;

TEST_CASE("cvStatusName names every status and flags unknown values", "[status]") {
    const struct {
        cvStatus status;
        int value;
        const char *name;
    } table[] = {
        {CV_SUCCESS, 0, "CV_SUCCESS"},
        {CV_ERROR_INVALID_ARGUMENT, 1, "CV_ERROR_INVALID_ARGUMENT"},
        {CV_ERROR_NOT_SUPPORTED, 2, "CV_ERROR_NOT_SUPPORTED"},
        {CV_ERROR_OUT_OF_MEMORY, 3, "CV_ERROR_OUT_OF_MEMORY"},
        {CV_ERROR_NO_DEVICE, 4, "CV_ERROR_NO_DEVICE"},
        {CV_ERROR_CUDA, 5, "CV_ERROR_CUDA"},
        {CV_ERROR_INVALID_STATE, 6, "CV_ERROR_INVALID_STATE"},
        {CV_ERROR_INTERNAL, 7, "CV_ERROR_INTERNAL"},
        {CV_NOT_READY, 8, "CV_NOT_READY"},
        {static_cast<cvStatus>(9), 9, "CV_STATUS_UNKNOWN"},
        {CV_STATUS_FORCE_32BIT, 0x7fffffff, "CV_STATUS_UNKNOWN"},
    };
    for (const auto &row : table) {
        INFO(row.name << " = " << row.value);
        CHECK(static_cast<int>(row.status) == row.value); // codes are never renumbered
        CHECK(std::string(cvStatusName(row.status)) == row.name);
    }
    CHECK(sizeof(cvStatus) == 4);
    // Negative values are outside the C++ enum's range: passed from C (tests/capi/raw_enums.c).
    CHECK(std::string(cvtestStatusName(-1)) == "CV_STATUS_UNKNOWN");
}

TEST_CASE("version macros agree with cvGetVersion and the project version", "[status]") {
    CHECK(cvGetVersion() == CVCUDA_C_VERSION_NUMBER);
    CHECK(CVCUDA_C_VERSION_NUMBER == CVCUDA_C_VERSION_MAJOR * 10000 + CVCUDA_C_VERSION_MINOR * 100 + CVCUDA_C_VERSION_PATCH);
    const std::string macros = std::to_string(CVCUDA_C_VERSION_MAJOR) + "." + std::to_string(CVCUDA_C_VERSION_MINOR) + "." +
                               std::to_string(CVCUDA_C_VERSION_PATCH);
    CHECK(macros == CVTEST_PROJECT_VERSION);
}

TEST_CASE("cvGetLastErrorMessage is empty on a fresh thread and successes keep the last failure", "[status]") {
    std::string fresh;
    std::thread([&] { fresh = cvGetLastErrorMessage(); }).join();
    CHECK(fresh.empty());

    cvDataType dtype = CV_DTYPE_UNSPECIFIED;
    REQUIRE(cvDataTypeFromTypestr(">f4", &dtype) == CV_ERROR_INVALID_ARGUMENT);
    const std::string failure = lastError();
    CHECK(failure.rfind("cvDataTypeFromTypestr: typestr='>f4'", 0) == 0);
    REQUIRE(cvDataTypeFromTypestr("<f4", &dtype) == CV_SUCCESS);
    CHECK(lastError() == failure);
}

// Two threads fail at the same time with different messages, many times: each must read back only its own.
TEST_CASE("last-error messages of two threads do not mix", "[status]") {
    constexpr int kRounds = 2000;
    std::atomic<int> arrived{0};
    std::atomic<int> mixed{0};
    auto worker = [&](const char *typestr) {
        const std::string expected = std::string("cvDataTypeFromTypestr: typestr='") + typestr + "'";
        for (int round = 0; round < kRounds; ++round) {
            cvDataType dtype = CV_DTYPE_UNSPECIFIED;
            if (cvDataTypeFromTypestr(typestr, &dtype) != CV_ERROR_INVALID_ARGUMENT) ++mixed;
            // Both threads have failed before either reads its message.
            arrived.fetch_add(1);
            while (arrived.load() < 2 * (round + 1)) std::this_thread::yield();
            if (std::string(cvGetLastErrorMessage()).rfind(expected, 0) != 0) ++mixed;
        }
    };
    std::thread a(worker, ">f4"), b(worker, "<x8");
    a.join();
    b.join();
    CHECK(mixed.load() == 0);
}

namespace {

// Installs a fault hook for one scope (the hook is process-wide; the tests are single-threaded here).
struct FaultHookScope {
    explicit FaultHookScope(cv::detail::FaultHook hook) { cv::detail::setFaultHook(hook); }
    ~FaultHookScope() { cv::detail::setFaultHook(nullptr); }
};

struct EntryPoint {
    const char *name;
    std::function<cvStatus()> call;
};

// Every entry point that returns a cvStatus, called with arguments that would otherwise succeed or fail cleanly.
std::vector<EntryPoint> entryPoints(cvTensor tensor) {
    static cvArrayInterface cai = makeCai("|u1", {2, 3});
    static cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
    static cvTensorInfo info = CV_TENSOR_INFO_INIT;
    static cvStats stats = CV_STATS_INIT;
    static cvTensor out = nullptr;
    static cvStream stream = nullptr;
    static void *handle = nullptr;
    static cvDataType dtype = CV_DTYPE_UNSPECIFIED;
    static const int64_t shape[2] = {2, 3};
    return {
        {"cvDataTypeFromTypestr", [] { return cvDataTypeFromTypestr("|u1", &dtype); }},
        {"cvTensorWrap", [] { return cvTensorWrap(&cai, "HW", &out); }},
        {"cvTensorCreate", [] { return cvTensorCreate(2, shape, CV_DTYPE_UINT8, "HW", &out); }},
        {"cvTensorSetCleanup", [tensor] { return cvTensorSetCleanup(tensor, [](void *) {}, nullptr); }},
        {"cvTensorExport", [tensor] { return cvTensorExport(tensor, &exported, nullptr); }},
        {"cvTensorGetInfo", [tensor] { return cvTensorGetInfo(tensor, &info); }},
        {"cvStreamCreate", [] { return cvStreamCreate(&stream); }},
        {"cvStreamWrap", [] { return cvStreamWrap(nullptr, &stream); }},
        {"cvStreamGetHandle", [] { return cvStreamGetHandle(nullptr, &handle); }},
        {"cvStreamSync", [] { return cvStreamSync(nullptr); }},
        {"cvFlip", [tensor] { return cvFlip(nullptr, tensor, tensor, 0); }},
        {"cvGetStats", [] { return cvGetStats(&stats); }},
        {"cvCollect", [] { return cvCollect(); }},
        {"cvSyncAndCollect", [] { return cvSyncAndCollect(); }},
    };
}

} // namespace

TEST_CASE("the firewall turns std::bad_alloc into CV_ERROR_OUT_OF_MEMORY at every entry point", "[status][firewall]") {
    TensorRef t;
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    REQUIRE(cvTensorWrap(&cai, "HW", &t.t) == CV_SUCCESS);
    const std::vector<EntryPoint> calls = entryPoints(t.t);
    REQUIRE(calls.size() == 14);
    FaultHookScope hook([](const char *) { throw std::bad_alloc(); });
    for (const EntryPoint &entry : calls) {
        INFO(entry.name);
        CHECK(entry.call() == CV_ERROR_OUT_OF_MEMORY);
        CHECK(lastError() == std::string(entry.name) + ": out of host memory");
    }
}

TEST_CASE("the firewall turns other exceptions into CV_ERROR_INTERNAL", "[status][firewall]") {
    TensorRef t;
    cvArrayInterface cai = makeCai("|u1", {2, 3});
    REQUIRE(cvTensorWrap(&cai, "HW", &t.t) == CV_SUCCESS);
    const std::vector<EntryPoint> calls = entryPoints(t.t);
    SECTION("a std::exception keeps its what()") {
        FaultHookScope hook([](const char *) { throw std::logic_error("injected fault"); });
        for (const EntryPoint &entry : calls) {
            INFO(entry.name);
            CHECK(entry.call() == CV_ERROR_INTERNAL);
            CHECK(lastError() == std::string(entry.name) + ": internal error: injected fault");
        }
    }
    SECTION("a non-standard exception") {
        FaultHookScope hook([](const char *) { throw 42; });
        for (const EntryPoint &entry : calls) {
            INFO(entry.name);
            CHECK(entry.call() == CV_ERROR_INTERNAL);
            CHECK(lastError() == std::string(entry.name) + ": internal error: unknown exception");
        }
    }
    SECTION("a message longer than the buffer is truncated, not overflowed") {
        FaultHookScope hook([](const char *) { throw std::runtime_error(std::string(5000, 'x')); });
        CHECK(cvGetStats(nullptr) == CV_ERROR_INTERNAL);
        const std::string message = lastError();
        CHECK(message.rfind("cvGetStats: internal error: xxxx", 0) == 0);
        CHECK(message.size() == 1023);
        CHECK(message.substr(message.size() - 4) == "x...");
    }
    SECTION("the hook sees only the function it targets, and the call then proceeds") {
        FaultHookScope hook([](const char *function) {
            if (std::strcmp(function, "cvTensorWrap") == 0) throw std::bad_alloc();
        });
        TensorRef other;
        CHECK(cvTensorWrap(&cai, "HW", &other.t) == CV_ERROR_OUT_OF_MEMORY);
        CHECK(other.t == nullptr);
        cvTensorInfo info = CV_TENSOR_INFO_INIT;
        CHECK(cvTensorGetInfo(t.t, &info) == CV_SUCCESS);
        CHECK(info.ndim == 2);
    }
}
