// CUDA graph capture: the defensive device sync an unknown-producer wrapper needs cannot happen while its stream is
// captured, so the library refuses with a clear error, leaves the capture intact and the stream usable.
#include "engine_fixtures.hpp"

#include <string>

using namespace enginetest;

TEST_CASE("an unknown-producer wrapper used during graph capture: CV_ERROR_INVALID_STATE, capture intact, stream usable",
          "[gpu][engine][graph]") {
    CVTEST_REQUIRE_GPU();
    constexpr Shape kShape{1, 32, 48, 3};
    DeviceBuffer src(kShape.bytes()), dst(kShape.bytes());
    const Bytes data = randomImage(kShape, 81);
    src.upload(data);
    dst.fill(kPoison);
    Stream stream = createStream();
    Tensor unknown = wrap(src, kShape, kCaiV2), out = wrap(dst, kShape, kCaiNone);
    const cudaStream_t handle = handleOf(stream.get());

    cvResetStats();
    // Global mode, as torch.cuda.graph uses by default: the strictest about what other CUDA calls may do meanwhile.
    CVTEST_CUDA(cudaStreamBeginCapture(handle, cudaStreamCaptureModeGlobal));
    const cvStatus status = cvFlip(stream.get(), unknown.get(), out.get(), -1);
    const std::string message = cvGetLastErrorMessage();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(handle, &graph);
    if (graph != nullptr) CVTEST_CUDA(cudaGraphDestroy(graph));

    INFO("message: " << message);
    CHECK(status == CV_ERROR_INVALID_STATE);
    CHECK(message.find("cvFlip") == 0);
    CHECK(message.find("CUDA graph") != std::string::npos);
    CHECK(message.find("-1") != std::string::npos); // says how to avoid it
    CHECK(stats().deviceSyncs == 0);
    CHECK(ended == cudaSuccess); // the library did nothing that invalidated the capture

    CV_OK(cvFlip(stream.get(), unknown.get(), out.get(), -1));
    CV_OK(cvStreamSync(stream.get()));
    CHECK(stats().deviceSyncs == 1);
    CHECK(dst.download() == cpuFlip(data, kShape, -1));
}
