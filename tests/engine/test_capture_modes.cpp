// CUDA graph capture in both capture modes (global, as torch.cuda.graph uses by default, and thread-local): wrapping
// the capturing stream and tensors, operators, allocation and DLPack export inside the capture make no call that is
// illegal there; what cannot be captured fails with CV_ERROR_INVALID_STATE and leaves the capture valid; replays
// with new input each time are correct.
#include "engine_fixtures.hpp"

#include <string>

using namespace enginetest;

namespace {

struct Mode {
    const char *name;
    cudaStreamCaptureMode mode;
};
constexpr Mode kModes[] = {{"global", cudaStreamCaptureModeGlobal}, {"thread-local", cudaStreamCaptureModeThreadLocal}};

cvTensor createOn(cvStream stream, const Shape &s) {
    const int64_t shape[4] = {s.n, s.h, s.w, s.c};
    cvTensor t = nullptr;
    CV_OK(cvTensorCreateOnStream(stream, 4, shape, CV_DTYPE_UINT8, "NHWC", &t));
    return t;
}

} // namespace

TEST_CASE("graph capture, both modes: wrap, operate, allocate, export inside the capture; replays are correct",
          "[gpu][engine][graph][capture-modes]") {
    CVTEST_REQUIRE_GPU();
    constexpr Shape kShape{2, 29, 45, 3};
    for (const Mode &mode : kModes) {
        INFO("capture mode: " << mode.name);
        DeviceBuffer src(kShape.bytes()), dst(kShape.bytes()), unknownBuffer(kShape.bytes());
        src.upload(randomImage(kShape, 5));
        dst.fill(kPoison);
        SideStream side; // the framework's capture stream
        Stream warm = createStream(); // kernels loaded before the capture, as any first use outside it would
        Tensor unknown = wrap(unknownBuffer, kShape, kCaiV2);
        cvResetStats();

        CVTEST_CUDA(cudaStreamBeginCapture(side.get(), mode.mode));
        cvStream captured = nullptr;
        const cvStatus wrapped = cvStreamWrap(side.get(), &captured);
        Stream s(captured);
        INFO("cvStreamWrap: " << cvGetLastErrorMessage());
        CHECK(wrapped == CV_SUCCESS);
        cvStatus flipRows = CV_ERROR_INTERNAL, flipCols = CV_ERROR_INTERNAL, exported = CV_ERROR_INTERNAL;
        cvStatus refusedFlip = CV_SUCCESS, refusedExport = CV_SUCCESS, producerWrap = CV_ERROR_INTERNAL;
        if (wrapped == CV_SUCCESS) {
            Tensor in = wrap(src, kShape, kCaiOptOut), out = wrap(dst, kShape, kCaiOptOut);
            // An allocation inside the capture (a graph memory node), released inside it (a graph free node).
            Tensor tmp(createOn(s.get(), kShape));
            flipRows = cvFlip(s.get(), in.get(), tmp.get(), 0);
            flipCols = cvFlip(s.get(), tmp.get(), out.get(), 1);
            tmp.reset();
            // A wrapper that names the capturing stream as its producer.
            cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
            cai.data = reinterpret_cast<uint64_t>(dst.get());
            cai.ndim = 1;
            cai.shape[0] = static_cast<int64_t>(kShape.bytes());
            std::snprintf(cai.typestr, sizeof(cai.typestr), "|u1");
            cai.streamKind = CV_CAI_STREAM_INTEGER;
            cai.stream = static_cast<int64_t>(reinterpret_cast<intptr_t>(side.get()));
            cvTensor fromProducer = nullptr;
            producerWrap = cvTensorWrap(&cai, nullptr, &fromProducer);
            cvTensorRelease(fromProducer);
            // A DLPack export to a consumer on the capturing stream, and its deleter, inside the capture.
            DLManagedTensorVersioned *managed = nullptr;
            exported = cvTensorExportDLPack(out.get(), s.get(), CV_DLPACK_EXPORT_DEFAULT, &managed);
            if (managed != nullptr) managed->deleter(managed);
            // What would need a device sync is refused before any CUDA call.
            refusedFlip = cvFlip(s.get(), unknown.get(), out.get(), 1);
            const std::string flipMessage = cvGetLastErrorMessage();
            refusedExport = cvTensorExportDLPack(unknown.get(), s.get(), CV_DLPACK_EXPORT_DEFAULT, &managed);
            INFO("refused: " << flipMessage << " / " << cvGetLastErrorMessage());
            CHECK(flipMessage.find("CUDA graph") != std::string::npos);
        }
        cudaGraph_t graph = nullptr;
        const cudaError_t ended = cudaStreamEndCapture(side.get(), &graph);
        CHECK(flipRows == CV_SUCCESS);
        CHECK(flipCols == CV_SUCCESS);
        CHECK(producerWrap == CV_SUCCESS);
        CHECK(exported == CV_SUCCESS);
        CHECK(refusedFlip == CV_ERROR_INVALID_STATE);
        CHECK(refusedExport == CV_ERROR_INVALID_STATE);
        REQUIRE(ended == cudaSuccess); // nothing the library did invalidated the capture
        CHECK(stats().deviceSyncs == 0);

        cudaGraphExec_t exec = nullptr;
        CVTEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
        for (uint32_t replay = 0; replay < 3; ++replay) {
            INFO("replay " << replay);
            const Bytes input = randomImage(kShape, 100 + replay);
            src.upload(input);
            dst.fill(kPoison);
            CVTEST_CUDA(cudaGraphLaunch(exec, side.get()));
            CVTEST_CUDA(cudaStreamSynchronize(side.get()));
            CHECK(dst.download() == cpuFlip(input, kShape, -1));
        }
        CVTEST_CUDA(cudaGraphExecDestroy(exec));
        CVTEST_CUDA(cudaGraphDestroy(graph));
        CV_OK(cvSyncAndCollect());
    }
}
