// libFuzzer target (scripts/sanitizers.sh builds it with clang++ -fsanitize=fuzzer,address,undefined): arbitrary
// bytes as a cvArrayInterface and a layout through cvTensorWrap; an accepted tensor is described (cvTensorGetInfo),
// exported (cvTensorExport) and wrapped again, and both descriptions must agree. A refusal must carry a message that
// names the function. Anything else (a crash, a sanitizer report, a disagreement) stops the fuzzer.
//
// Input: [layout length L: 1 byte; 0xff = NULL layout][L layout bytes, L <= 15][the struct's bytes, zero-padded].
// The struct may claim a structSize up to the bytes given (a caller passes a longer struct that long).
#include <cvcuda/cvcuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void stop(const char *what) {
    std::fprintf(stderr, "fuzz_tensor_wrap: %s (last error: %s)\n", what, cvGetLastErrorMessage());
    std::abort();
}

void requireMessage(const char *function) {
    if (std::strncmp(cvGetLastErrorMessage(), function, std::strlen(function)) != 0) stop("refusal without the function's name");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const size_t layoutLength = data[0] == 0xff ? 0 : data[0] % 16;
    if (size < 1 + layoutLength) return 0;
    char layout[16] = {};
    std::memcpy(layout, data + 1, layoutLength);
    const char *layoutArg = data[0] == 0xff ? nullptr : layout;
    const uint8_t *bytes = data + 1 + layoutLength;
    const size_t count = size - 1 - layoutLength;

    // The struct lives in a buffer as long as it claims to be (bounded by the input), so every byte the library may
    // read belongs to the caller.
    std::vector<uint8_t> buffer(count > sizeof(cvArrayInterface) ? count : sizeof(cvArrayInterface), 0);
    std::memcpy(buffer.data(), bytes, count);
    uint32_t structSize = 0;
    std::memcpy(&structSize, buffer.data(), sizeof(structSize));
    if (structSize > buffer.size()) {
        structSize = static_cast<uint32_t>(buffer.size());
        std::memcpy(buffer.data(), &structSize, sizeof(structSize));
    }
    const auto *cai = reinterpret_cast<const cvArrayInterface *>(buffer.data());

    cvTensor t = nullptr;
    const cvStatus status = cvTensorWrap(cai, layoutArg, &t);
    if (status != CV_SUCCESS) {
        if (t != nullptr) stop("a refused wrap returned a handle");
        requireMessage("cvTensorWrap: ");
        return 0;
    }
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    if (cvTensorGetInfo(t, &info) != CV_SUCCESS) stop("cvTensorGetInfo failed on a fresh tensor");
    cvArrayInterface exported = CV_ARRAY_INTERFACE_INIT;
    cvStream writer = nullptr;
    const cvStatus exportStatus = cvTensorExport(t, &exported, &writer);
    if (exportStatus == CV_SUCCESS) {
        cvTensor again = nullptr;
        if (cvTensorWrap(&exported, layoutArg, &again) != CV_SUCCESS) stop("the export of an accepted tensor is refused");
        cvTensorInfo againInfo = CV_TENSOR_INFO_INIT;
        if (cvTensorGetInfo(again, &againInfo) != CV_SUCCESS) stop("cvTensorGetInfo failed on the re-wrap");
        if (std::memcmp(&info, &againInfo, sizeof(info)) != 0) stop("export + wrap describes another tensor");
        cvTensorRelease(again);
        cvStreamRelease(writer);
    } else {
        // An unknown producer owes a device sync at export: without a device that is the only acceptable failure.
        if (exportStatus != CV_ERROR_NO_DEVICE && exportStatus != CV_ERROR_CUDA) stop("unexpected export status");
        requireMessage("cvTensorExport: ");
    }
    cvTensorRelease(t);
    if (cvTensorGetInfo(t, &info) != CV_ERROR_INVALID_ARGUMENT) stop("a released handle is still accepted");
    return 0;
}
