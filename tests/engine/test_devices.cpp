// Devices: every call leaves the caller's current device as it found it (also after errors), streams belong to the
// device they were made on, tensors to the device their memory is on, and a tensor used on another device's stream
// is an error naming both. The cases that need several devices skip with the count on a one-GPU machine (and fail
// under CVCUDA_REQUIRE_MULTI_GPU=1); the one-GPU cases run every (current, target) device pair the machine has.
#include "engine_fixtures.hpp"

#include "../../capi/firewall.hpp"
#include "../../core/tensor.hpp"

#include <cvcuda/dlpack_interop.h>

#include <atomic>
#include <climits>
#include <functional>
#include <string>
#include <thread>

using namespace enginetest;

namespace {

int deviceCount() {
    int n = 0;
    CVTEST_CUDA(cudaGetDeviceCount(&n));
    return n;
}

int currentDevice() {
    int d = -1;
    CVTEST_CUDA(cudaGetDevice(&d));
    return d;
}

// The test's own device switch, for setting up buffers on a device (the library's calls are what is tested).
class OnDevice {
public:
    explicit OnDevice(int device) : previous_(currentDevice()) { CVTEST_CUDA(cudaSetDevice(device)); }
    ~OnDevice() { (void)cudaSetDevice(previous_); }
    OnDevice(const OnDevice &) = delete;
    OnDevice &operator=(const OnDevice &) = delete;

private:
    int previous_;
};

Stream streamOn(int device) {
    cvStream s = nullptr;
    CV_OK(cvStreamCreateOnDevice(device, nullptr, &s));
    return Stream(s);
}

Stream defaultStreamOf(int device) {
    cvStream s = nullptr;
    CV_OK(cvStreamWrapDefault(device, &s));
    return Stream(s);
}

int32_t deviceOf(cvTensor t) {
    int32_t d = -1;
    CV_OK(cvTensorGetDevice(t, &d));
    return d;
}

std::string lastError() { return cvGetLastErrorMessage(); }

// An owned NHWC uint8 tensor allocated on `stream`.
Tensor createOn(cvStream stream, const Shape &shape) {
    const int64_t extents[4] = {shape.n, shape.h, shape.w, shape.c};
    cvTensor t = nullptr;
    CV_OK(cvTensorCreateOnStream(stream, 4, extents, CV_DTYPE_UINT8, "NHWC", &t));
    return Tensor(t);
}

// The flip of a random image on a stream of `device`, with the source wrapped (producer `cai`) and the output
// poisoned first, compared with the CPU reference. Runs with whatever device the caller made current.
void checkFlipOn(int device, CaiStream cai, uint32_t seed) {
    constexpr Shape kShape{2, 37, 53, 3};
    const Bytes image = randomImage(kShape, seed);
    std::unique_ptr<DeviceBuffer> src, dst;
    {
        OnDevice on(device);
        src = std::make_unique<DeviceBuffer>(kShape.bytes());
        dst = std::make_unique<DeviceBuffer>(kShape.bytes());
        src->upload(image);
        dst->fill(kPoison);
    }
    Stream s = streamOn(device);
    Tensor ts = wrap(*src, kShape, cai), td = wrap(*dst, kShape, kCaiNone);
    CHECK(deviceOf(ts.get()) == device);
    CV_OK(cvFlip(s.get(), ts.get(), td.get(), -1));
    CV_OK(cvStreamSync(s.get()));
    OnDevice on(device);
    CHECK(dst->download() == cpuFlip(image, kShape, -1));
    ts.reset();
    td.reset();
    src.reset(); // freed with their own device current
    dst.reset();
}

// A DLPack managed tensor describing `buffer` (NHWC uint8) as on `device`, with a deleter that counts its calls.
struct Managed {
    DLManagedTensorVersioned managed{};
    int64_t shape[4];
    std::atomic<int> deleted{0};
    Managed(const DeviceBuffer &buffer, const Shape &s, int32_t device) : shape{s.n, s.h, s.w, s.c} {
        managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
        managed.manager_ctx = this;
        managed.deleter = [](DLManagedTensorVersioned *m) { static_cast<Managed *>(m->manager_ctx)->deleted++; };
        managed.dl_tensor.data = buffer.get();
        managed.dl_tensor.device = {kDLCUDA, device};
        managed.dl_tensor.ndim = 4;
        managed.dl_tensor.dtype = {kDLUInt, 8, 1};
        managed.dl_tensor.shape = shape;
    }
};

} // namespace

TEST_CASE("devices: no call changes the caller's current device, on success or on error", "[gpu][engine][devices]") {
    CVTEST_REQUIRE_GPU();
    const int n = deviceCount();
    constexpr Shape kShape{1, 19, 23, 3};
    constexpr Shape kOther{1, 19, 22, 3};
    for (int target = 0; target < n; ++target) {
        // The buffers and streams of `target`, made once; each call below is made with every device current.
        std::unique_ptr<DeviceBuffer> a, b, c;
        {
            OnDevice on(target);
            a = std::make_unique<DeviceBuffer>(kShape.bytes());
            b = std::make_unique<DeviceBuffer>(kShape.bytes());
            c = std::make_unique<DeviceBuffer>(kOther.bytes());
            a->upload(randomImage(kShape, 11));
        }
        Stream s = streamOn(target), d = defaultStreamOf(target);
        struct Row {
            const char *name;
            cvStatus expected;
            std::function<cvStatus()> call;
        };
        const Row rows[] = {
            {"cvStreamCreateOnDevice(target)", CV_SUCCESS,
             [&] { cvStream x = nullptr; const cvStatus st = cvStreamCreateOnDevice(target, nullptr, &x); cvStreamRelease(x); return st; }},
            {"cvStreamCreateOnDevice(count)", CV_ERROR_INVALID_ARGUMENT,
             [&] { cvStream x = nullptr; return cvStreamCreateOnDevice(n, nullptr, &x); }},
            {"cvStreamCreateOnDevice(-1)", CV_ERROR_INVALID_ARGUMENT,
             [&] { cvStream x = nullptr; return cvStreamCreateOnDevice(-1, nullptr, &x); }},
            {"cvStreamWrapDefault(count)", CV_ERROR_INVALID_ARGUMENT,
             [&] { cvStream x = nullptr; return cvStreamWrapDefault(n, &x); }},
            {"cvTensorCreateOnStream", CV_SUCCESS,
             [&] { Tensor t = createOn(s.get(), kShape); return deviceOf(t.get()) == target ? CV_SUCCESS : CV_ERROR_INTERNAL; }},
            {"cvFlip", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone), y = wrap(*b, kShape, kCaiNone);
                 return cvFlip(s.get(), x.get(), y.get(), 1);
             }},
            {"cvFlip of an unknown producer (defensive sync)", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiV2), y = wrap(*b, kShape, kCaiNone);
                 return cvFlip(s.get(), x.get(), y.get(), 0);
             }},
            {"cvFlip on the default stream", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone), y = wrap(*b, kShape, kCaiNone);
                 return cvFlip(d.get(), x.get(), y.get(), 1);
             }},
            {"cvFlip with a shape mismatch", CV_ERROR_INVALID_ARGUMENT, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone), y = wrap(*c, kOther, kCaiNone);
                 return cvFlip(s.get(), x.get(), y.get(), 1);
             }},
            {"cvStreamSync", CV_SUCCESS, [&] { return cvStreamSync(s.get()); }},
            {"cvStreamWaitStream", CV_SUCCESS, [&] { return cvStreamWaitStream(s.get(), d.get()); }},
            {"cvTensorExport after a write", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone), y = wrap(*b, kShape, kCaiNone);
                 CV_OK(cvFlip(s.get(), x.get(), y.get(), 1));
                 cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
                 cvStream writer = nullptr;
                 const cvStatus st = cvTensorExport(y.get(), &cai, &writer);
                 cvStreamRelease(writer);
                 return st;
             }},
            {"cvTensorExportDLPack (and its deleter)", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone);
                 DLManagedTensorVersioned *m = nullptr;
                 const cvStatus st = cvTensorExportDLPack(x.get(), s.get(), 0, &m);
                 if (m != nullptr) m->deleter(m);
                 return st;
             }},
            {"cvTensorExportDLPack with a copy", CV_SUCCESS, [&] {
                 Tensor x = wrap(*a, kShape, kCaiNone);
                 DLManagedTensorVersioned *m = nullptr;
                 const cvStatus st = cvTensorExportDLPack(x.get(), s.get(), CV_DLPACK_EXPORT_COPY, &m);
                 if (m != nullptr) m->deleter(m);
                 return st;
             }},
            {"cvTensorWrapDLPack with another device_id than the producer's", CV_ERROR_INVALID_ARGUMENT, [&] {
                 Managed managed(*a, kShape, n);
                 cvTensor t = nullptr;
                 return cvTensorWrapDLPack(&managed.managed, "NHWC", s.get(), &t);
             }},
            {"cvTensorGetDevice", CV_SUCCESS,
             [&] { Tensor x = wrap(*a, kShape, kCaiNone); return deviceOf(x.get()) == target ? CV_SUCCESS : CV_ERROR_INTERNAL; }},
            {"cvTensorAddConsumer", CV_SUCCESS,
             [&] { Tensor x = wrap(*a, kShape, kCaiNone); return cvTensorAddConsumer(x.get(), s.get()); }},
            {"cvSyncAndCollect", CV_SUCCESS, [&] { return cvSyncAndCollect(); }},
        };
        for (int current = 0; current < n; ++current) {
            for (const Row &row : rows) {
                INFO(row.name << ", target device " << target << ", current device " << current);
                OnDevice on(current);
                const cvStatus status = row.call();
                INFO(cvStatusName(status) << ": " << lastError());
                CHECK(status == row.expected);
                CHECK(currentDevice() == current);
            }
        }
        CV_OK(cvStreamSync(s.get()));
        OnDevice on(target); // the buffers are freed with their own device current
        a.reset();
        b.reset();
        c.reset();
    }
}

TEST_CASE("devices: an index this process has no device for names the value and the device count",
          "[gpu][engine][devices]") {
    CVTEST_REQUIRE_GPU();
    const int n = deviceCount();
    const std::string seen = n == 1 ? "1 device (index 0)" : std::to_string(n) + " devices (indices 0.." + std::to_string(n - 1) + ")";
    for (int32_t bad : {n, n + 4, -1, INT32_MAX, INT32_MIN}) {
        INFO("device " << bad);
        cvStream s = nullptr;
        void *handle = &s;
        CHECK(cvStreamCreateOnDevice(bad, &handle, &s) == CV_ERROR_INVALID_ARGUMENT);
        CHECK(lastError() == "cvStreamCreateOnDevice: device=" + std::to_string(bad) +
                                 " is not a CUDA device index: this process sees " + seen +
                                 "; CUDA_VISIBLE_DEVICES renumbers the visible devices from 0");
        CHECK(s == nullptr);
        CHECK(handle == &s);
        CHECK(cvStreamWrapDefault(bad, &s) == CV_ERROR_INVALID_ARGUMENT);
        CHECK(lastError().rfind("cvStreamWrapDefault: device=" + std::to_string(bad) + " is not a CUDA device index", 0) == 0);
    }
    int32_t count = 0, current = -1;
    CV_OK(cvDeviceGetCount(&count));
    CHECK(count == n);
    CV_OK(cvDeviceGetCurrent(&current));
    CHECK(current == currentDevice());
}

TEST_CASE("devices: a stream knows its device, whether created, adopted or the default one", "[gpu][engine][devices]") {
    CVTEST_REQUIRE_GPU();
    const int n = deviceCount();
    for (int device = 0; device < n; ++device) {
        INFO("device " << device);
        int32_t d = -1;
        void *handle = nullptr;
        cvStream s = nullptr;
        CV_OK(cvStreamCreateOnDevice(device, &handle, &s));
        Stream created(s);
        CV_OK(cvStreamGetDevice(created.get(), &d));
        CHECK(d == device);
        int streamDevice = -1;
        CVTEST_CUDA(cudaStreamGetDevice(static_cast<cudaStream_t>(handle), &streamDevice));
        CHECK(streamDevice == device);
        CV_OK(cvStreamGetDevice(defaultStreamOf(device).get(), &d));
        CHECK(d == device);
        {
            OnDevice on(device);
            SideStream side; // a foreign stream of `device`, adopted below with another device current
            OnDevice other((device + 1) % n);
            CV_OK(cvStreamGetDevice(wrapStream(side.get()).get(), &d));
            CHECK(d == device);
            CV_OK(cvStreamGetDevice(wrapStream(nullptr).get(), &d)); // NULL: the current device's default stream
            CHECK(d == (device + 1) % n);
        }
    }
}

TEST_CASE("devices: a tensor used on another device's stream is an error naming both, before any work",
          "[gpu][engine][devices]") {
    CVTEST_REQUIRE_GPU();
    // One GPU has no second device, so the tensor's device is set by hand (the first-use check then trusts it): the
    // check and its message are the same as for real memory of another device (the two-GPU case below).
    constexpr Shape kShape{1, 8, 12, 3};
    DeviceBuffer src(kShape.bytes()), dst(kShape.bytes());
    src.upload(randomImage(kShape, 3));
    dst.fill(kPoison);
    Stream s = streamOn(0);
    Tensor ts = wrap(src, kShape, kCaiNone), td = wrap(dst, kShape, kCaiNone);
    cv::Tensor *forged = &cv::capi::deref<cv::Tensor>(ts.get(), "src"); // handles are not pointers (capi/handle_table.hpp)
    forged->device = 7;
    forged->checked.store(true);
    const int before = currentDevice();
    CHECK(cvFlip(s.get(), ts.get(), td.get(), 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvFlip: src is on device 7 (where its memory is) but the stream is on device 0; use a stream "
                         "of device 7 (cvStreamCreateOnDevice), or a tensor on device 0");
    DLManagedTensorVersioned *m = nullptr;
    CHECK(cvTensorExportDLPack(ts.get(), s.get(), 0, &m) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().rfind("cvTensorExportDLPack: tensor is on device 7", 0) == 0);
    CHECK(m == nullptr);
    CHECK(cvTensorAddConsumer(ts.get(), s.get()) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().rfind("cvTensorAddConsumer: tensor is on device 7", 0) == 0);
    CHECK(currentDevice() == before);
    CV_OK(cvStreamSync(s.get()));
    CHECK(dst.download() == Bytes(kShape.bytes(), kPoison)); // nothing was launched
    forged->device = 0;

    // Through DLPack on one GPU for real: the managed tensor says device 1 and the producer stream is device 0's.
    Managed managed(src, kShape, 1);
    cvTensor t = nullptr;
    CHECK(cvTensorWrapDLPack(&managed.managed, "NHWC", s.get(), &t) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError() == "cvTensorWrapDLPack: dl_tensor.device.device_id=1 but producer is a stream of device 0 "
                         "(DLPack's producer stream is on the array's device); pass a stream of device 1");
    CHECK(t == nullptr);
    CHECK(managed.deleted == 0); // ownership stays with the caller on failure
}

TEST_CASE("two GPUs: tensors on device 1 while device 0 is current, flipped on a stream of device 1",
          "[gpu][engine][devices][multi-gpu]") {
    CVTEST_REQUIRE_GPUS(2);
    OnDevice current(0);
    for (const CaiStream &cai : {kCaiNone, kCaiV2}) {
        INFO("CAI version " << cai.version);
        checkFlipOn(1, cai, 21);
        CHECK(currentDevice() == 0);
    }
    // Owned memory follows its stream's device, and the allocation pool is that device's.
    constexpr Shape kShape{1, 4, 4, 1};
    Stream s1 = streamOn(1);
    Tensor t = createOn(s1.get(), kShape);
    cvTensorInfo info = CV_TENSOR_INFO_INIT;
    CV_OK(cvTensorGetInfo(t.get(), &info));
    cudaPointerAttributes attr{};
    CVTEST_CUDA(cudaPointerGetAttributes(&attr, reinterpret_cast<void *>(info.data)));
    CHECK(attr.device == 1);
    CHECK(deviceOf(t.get()) == 1);
    CHECK(currentDevice() == 0);
}

TEST_CASE("two GPUs: device-mismatch with real devices names both", "[gpu][engine][devices][multi-gpu]") {
    CVTEST_REQUIRE_GPUS(2);
    OnDevice current(0);
    constexpr Shape kShape{1, 8, 8, 3};
    std::unique_ptr<DeviceBuffer> src1, dst1;
    {
        OnDevice on(1);
        src1 = std::make_unique<DeviceBuffer>(kShape.bytes());
        dst1 = std::make_unique<DeviceBuffer>(kShape.bytes());
        src1->upload(randomImage(kShape, 4));
        dst1->fill(kPoison);
    }
    DeviceBuffer dst0(kShape.bytes());
    Stream s0 = streamOn(0), s1 = streamOn(1);
    Tensor ts = wrap(*src1, kShape, kCaiNone), td1 = wrap(*dst1, kShape, kCaiNone), td0 = wrap(dst0, kShape, kCaiNone);
    CHECK(cvFlip(s0.get(), ts.get(), td0.get(), 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().rfind("cvFlip: src is on device 1 (where its memory is) but the stream is on device 0", 0) == 0);
    CHECK(cvFlip(s1.get(), ts.get(), td0.get(), 1) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(lastError().rfind("cvFlip: dst is on device 0 (where its memory is) but the stream is on device 1", 0) == 0);
    CHECK(cvStreamWaitStream(s0.get(), s1.get()) == CV_ERROR_INVALID_ARGUMENT);
    CHECK(currentDevice() == 0);
    CV_OK(cvStreamSync(s1.get()));
    OnDevice on(1);
    CHECK(dst1->download() == Bytes(kShape.bytes(), kPoison));
    ts.reset();
    td1.reset();
    src1.reset();
    dst1.reset();
}

TEST_CASE("two GPUs: flips on both devices at once from two threads, each with the other device current",
          "[gpu][engine][devices][multi-gpu]") {
    CVTEST_REQUIRE_GPUS(2);
    std::atomic<int> wrong{0}, failed{0};
    // No Catch2 assertion in the workers (they are not thread-safe): failures are counted and checked after.
    auto worker = [&](int device) {
        constexpr Shape kShape{3, 61, 47, 3};
        void *src = nullptr, *dst = nullptr;
        cvStream s = nullptr;
        if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&src, kShape.bytes()) != cudaSuccess ||
            cudaMalloc(&dst, kShape.bytes()) != cudaSuccess || cudaSetDevice(1 - device) != cudaSuccess ||
            cvStreamCreateOnDevice(device, nullptr, &s) != CV_SUCCESS) {
            failed++;
            return;
        }
        for (uint32_t i = 0; i < 40; ++i) {
            const Bytes image = randomImage(kShape, 100 * static_cast<uint32_t>(device) + i);
            Bytes out(kShape.bytes());
            const int32_t code = static_cast<int32_t>(i % 3) - 1;
            cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
            cai.version = 3;
            cai.ndim = 4;
            const int64_t extents[4] = {kShape.n, kShape.h, kShape.w, kShape.c};
            for (int k = 0; k < 4; ++k) cai.shape[k] = extents[k];
            cai.typestr[0] = '|';
            cai.typestr[1] = 'u';
            cai.typestr[2] = '1';
            cai.streamKind = CV_CAI_STREAM_NONE; // ready: the synchronous copies below finished
            cvTensor ts = nullptr, td = nullptr;
            cai.data = reinterpret_cast<uint64_t>(src);
            const bool ok = cudaMemcpy(src, image.data(), kShape.bytes(), cudaMemcpyHostToDevice) == cudaSuccess &&
                            cudaMemcpy(dst, Bytes(kShape.bytes(), kPoison).data(), kShape.bytes(), cudaMemcpyHostToDevice) == cudaSuccess &&
                            cvTensorWrap(&cai, "NHWC", &ts) == CV_SUCCESS &&
                            (cai.data = reinterpret_cast<uint64_t>(dst), cvTensorWrap(&cai, "NHWC", &td) == CV_SUCCESS) &&
                            cvFlip(s, ts, td, code) == CV_SUCCESS && cvStreamSync(s) == CV_SUCCESS &&
                            cudaMemcpy(out.data(), dst, kShape.bytes(), cudaMemcpyDeviceToHost) == cudaSuccess;
            cvTensorRelease(ts);
            cvTensorRelease(td);
            int now = -1;
            if (!ok || cudaGetDevice(&now) != cudaSuccess || now != 1 - device) failed++;
            else if (out != cpuFlip(image, kShape, code)) wrong++;
        }
        cvStreamRelease(s);
        (void)cudaSetDevice(device);
        (void)cudaFree(src);
        (void)cudaFree(dst);
    };
    std::thread t0(worker, 0), t1(worker, 1);
    t0.join();
    t1.join();
    CHECK(failed == 0);
    CHECK(wrong == 0);
}

TEST_CASE("two GPUs: a tensor of device 1 released while device 0 is current keeps its cleanup after the work",
          "[gpu][engine][devices][multi-gpu]") {
    CVTEST_REQUIRE_GPUS(2);
    // The release reserves an event of device 1 with device 0 current: made on device 0, it could not be recorded
    // on device 1's stream, and the cleanup would run while the stream is still busy.
    OnDevice current(0);
    Stream s1 = streamOn(1);
    static std::atomic<int> cleaned{0};
    cleaned = 0;
    constexpr Shape kShape{1, 16, 16, 1};
    Tensor t = createOn(s1.get(), kShape);
    CV_OK(cvTensorSetCleanup(t.get(), [](void *) { cleaned++; }, nullptr));
    cudaStream_t h = handleOf(s1.get());
    {
        OnDevice on(1);
        CVTEST_CUDA(cvtest::launchSpin(h, kBusyProducer));
    }
    t.reset();
    CV_OK(cvCollect());
    CHECK(busy(h));
    CHECK(cleaned == 0);
    CV_OK(cvStreamSync(s1.get()));
    CV_OK(cvCollect());
    CHECK(cleaned == 1);
    CHECK(currentDevice() == 0);
}
