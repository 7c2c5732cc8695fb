// Host time per call of the C API's hot path against the raw CUDA calls it is made of, so that the library's own
// cost (validation, hazard tracking) can be told apart from the driver's (launch, event record, allocation).
// Prints a table: median over batches of host wall time per call, with the stream synchronised between batches.
#include <cvcuda/cvcuda.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

__global__ void emptyKernel() {}

struct Big { char bytes[160]; }; // about the size of the flip kernels' parameters
__global__ void bigParamKernel(Big) {}

double usPerCall(const std::function<void()> &call, cudaStream_t stream) {
    constexpr int kBatch = 200, kBatches = 25;
    for (int i = 0; i < 300; ++i) call();
    cudaStreamSynchronize(stream);
    std::vector<double> samples;
    for (int b = 0; b < kBatches; ++b) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kBatch; ++i) call();
        const auto t1 = std::chrono::steady_clock::now();
        cudaStreamSynchronize(stream);
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kBatch);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

#define CHECK_OK(call)                                                                                                  \
    do {                                                                                                                \
        if ((call) != CV_SUCCESS) {                                                                                     \
            std::printf("host_overhead: %s\n", cvGetLastErrorMessage());                                              \
            return 1;                                                                                                   \
        }                                                                                                               \
    } while (0)

} // namespace

int main() {
    cvStream s = nullptr;
    CHECK_OK(cvStreamCreate(&s));
    void *handle = nullptr;
    CHECK_OK(cvStreamGetHandle(s, &handle));
    cudaStream_t stream = static_cast<cudaStream_t>(handle);
    const int64_t shape[] = {1, 224, 224, 3};
    cvTensor src = nullptr, dst = nullptr;
    CHECK_OK(cvTensorCreateOnStream(s, 4, shape, CV_DTYPE_UINT8, "NHWC", &src));
    CHECK_OK(cvTensorCreateOnStream(s, 4, shape, CV_DTYPE_UINT8, "NHWC", &dst));
    cudaEvent_t event;
    cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    Big big{};
    cvTensorInfo info{};
    info.structSize = sizeof(info);
    CHECK_OK(cvTensorGetInfo(src, &info));
    void *raw = reinterpret_cast<void *>(info.data);
    // A wrapper of src's memory as a binding makes one from a CAI dict, used as flip's source or not.
    auto wrapRelease = [&](cvCaiStreamKind kind, bool use) {
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cai.version = kind == CV_CAI_STREAM_ABSENT ? 2 : 3;
        cai.data = info.data;
        cai.ndim = 4;
        for (int i = 0; i < 4; ++i) cai.shape[i] = shape[i];
        cai.streamKind = kind;
        std::snprintf(cai.typestr, sizeof(cai.typestr), "|u1");
        cvTensor w = nullptr;
        cvTensorWrap(&cai, "NHWC", &w);
        if (use) cvFlip(s, w, dst, 1);
        cvTensorRelease(w);
    };

    struct Row { const char *name; std::function<void()> call; };
    const Row rows[] = {
        {"raw: empty kernel launch", [&] { emptyKernel<<<1, 32, 0, stream>>>(); }},
        {"raw: kernel launch, 160-byte parameters", [&] { bigParamKernel<<<1, 32, 0, stream>>>(big); }},
        {"raw: cudaEventRecord", [&] { cudaEventRecord(event, stream); }},
        {"raw: cudaEventQuery", [&] { (void)cudaEventQuery(event); }},
        {"raw: cudaStreamWaitEvent", [&] { cudaStreamWaitEvent(stream, event, 0); }},
        {"raw: cudaMallocAsync + cudaFreeAsync (150 KB)", [&] {
             void *p = nullptr;
             cudaMallocFromPoolAsync(&p, 150528, pool, stream);
             cudaFreeAsync(p, stream);
         }},
        {"raw: cudaGetDevice", [&] { int d; cudaGetDevice(&d); }},
        {"raw: cudaStreamIsCapturing", [&] {
             cudaStreamCaptureStatus c;
             cudaStreamIsCapturing(stream, &c);
         }},
        {"raw: cudaPointerGetAttributes", [&] {
             cudaPointerAttributes a;
             cudaPointerGetAttributes(&a, raw);
         }},
        {"raw: cudaDeviceSynchronize, GPU idle", [&] { cudaDeviceSynchronize(); }},
        {"cvStreamCreate + cvStreamRelease (pooled, known idle)", [&] {
             cvStream t = nullptr;
             cvStreamCreate(&t);
             cvStreamRelease(t);
         }},
        {"cvTensorWrap (CAI, producer ready) + cvTensorRelease", [&] { wrapRelease(CV_CAI_STREAM_NONE, false); }},
        {"cvTensorWrap (CAI, producer ready) + cvFlip + cvTensorRelease", [&] { wrapRelease(CV_CAI_STREAM_NONE, true); }},
        {"cvTensorWrap (CAI v2, producer unknown) + cvFlip (defensive sync) + cvTensorRelease", [&] {
             wrapRelease(CV_CAI_STREAM_ABSENT, true);
         }},
        {"cvFlip (src, dst exist), 1x224x224x3 u8", [&] { cvFlip(s, src, dst, 1); }},
        {"cvTensorCreateOnStream + cvTensorRelease", [&] {
             cvTensor t = nullptr;
             cvTensorCreateOnStream(s, 4, shape, CV_DTYPE_UINT8, "NHWC", &t);
             cvTensorRelease(t);
         }},
        {"cvTensorCreateOnStream + cvFlip + cvTensorRelease", [&] {
             cvTensor t = nullptr;
             cvTensorCreateOnStream(s, 4, shape, CV_DTYPE_UINT8, "NHWC", &t);
             cvFlip(s, src, t, 1);
             cvTensorRelease(t);
         }},
    };
    std::printf("| call | host us/call |\n|---|---|\n");
    for (const Row &row : rows) std::printf("| %s | %.2f |\n", row.name, usPerCall(row.call, stream));
    cvTensorRelease(src);
    cvTensorRelease(dst);
    cvStreamRelease(s);
    return 0;
}
