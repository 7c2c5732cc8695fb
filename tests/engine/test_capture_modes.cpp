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

// No REQUIRE inside a capture: a test that stopped there would leave the thread capturing for the next tests.
cvStatus createOn(cvStream stream, const Shape &s, Tensor &out) {
    const int64_t shape[4] = {s.n, s.h, s.w, s.c};
    cvTensor t = nullptr;
    const cvStatus status = cvTensorCreateOnStream(stream, 4, shape, CV_DTYPE_UINT8, "NHWC", &t);
    out.reset(t);
    return status;
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
        cvStatus created = CV_ERROR_INTERNAL, flipRows = CV_ERROR_INTERNAL, flipCols = CV_ERROR_INTERNAL;
        cvStatus exported = CV_ERROR_INTERNAL;
        std::string messages;
        cvStatus refusedFlip = CV_SUCCESS, refusedExport = CV_SUCCESS, producerWrap = CV_ERROR_INTERNAL;
        if (wrapped == CV_SUCCESS) {
            Tensor in = wrap(src, kShape, kCaiOptOut), out = wrap(dst, kShape, kCaiOptOut);
            // An allocation inside the capture (a graph memory node), released inside it (a graph free node).
            Tensor tmp;
            created = createOn(s.get(), kShape, tmp);
            if (created != CV_SUCCESS) messages += std::string(cvGetLastErrorMessage()) + "\n";
            flipRows = cvFlip(s.get(), in.get(), tmp.get(), 0);
            flipCols = cvFlip(s.get(), tmp.get(), out.get(), 1);
            if (flipCols != CV_SUCCESS) messages += std::string(cvGetLastErrorMessage()) + "\n";
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
            if (exported != CV_SUCCESS) messages += std::string(cvGetLastErrorMessage()) + "\n";
            if (managed != nullptr) managed->deleter(managed);
            // What would need a device sync is refused before any CUDA call.
            refusedFlip = cvFlip(s.get(), unknown.get(), out.get(), 1);
            const std::string flipMessage = cvGetLastErrorMessage();
            refusedExport = cvTensorExportDLPack(unknown.get(), s.get(), CV_DLPACK_EXPORT_DEFAULT, &managed);
            messages += flipMessage + "\n" + cvGetLastErrorMessage() + "\n";
            CHECK(flipMessage.find("CUDA graph") != std::string::npos);
        }
        cudaGraph_t graph = nullptr;
        const cudaError_t ended = cudaStreamEndCapture(side.get(), &graph);
        INFO("messages:\n" << messages);
        CHECK(created == CV_SUCCESS);
        CHECK(flipRows == CV_SUCCESS);
        CHECK(flipCols == CV_SUCCESS);
        CHECK(producerWrap == CV_SUCCESS);
        CHECK(exported == CV_SUCCESS);
        CHECK(refusedFlip == CV_ERROR_INVALID_STATE);
        CHECK(refusedExport == CV_ERROR_INVALID_STATE);
        CHECK(ended == cudaSuccess); // nothing the library did invalidated the capture
        if (ended != cudaSuccess || graph == nullptr) {
            (void)cudaGetLastError();
            continue;
        }
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
