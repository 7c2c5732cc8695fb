#include "dlpack.hpp"

#include "cuda_check.hpp"
#include "dtype.hpp"
#include "error.hpp"
#include "hazards.hpp"
#include "raw_enum.hpp"
#include "stream.hpp"
#include "tensor.hpp"

#include <cstring>
#include <memory>

namespace cv {
namespace {

// DLPack type (code, bits) <-> cvDataType, lanes always 1: the one table both directions read.
struct DLType {
    cvDataType dtype;
    uint8_t code;
    uint8_t bits;
};
constexpr DLType kDLTypes[] = {
    {CV_DTYPE_BOOL, kDLBool, 8},         {CV_DTYPE_UINT8, kDLUInt, 8},         {CV_DTYPE_INT8, kDLInt, 8},
    {CV_DTYPE_UINT16, kDLUInt, 16},      {CV_DTYPE_INT16, kDLInt, 16},         {CV_DTYPE_UINT32, kDLUInt, 32},
    {CV_DTYPE_INT32, kDLInt, 32},        {CV_DTYPE_UINT64, kDLUInt, 64},       {CV_DTYPE_INT64, kDLInt, 64},
    {CV_DTYPE_FLOAT16, kDLFloat, 16},    {CV_DTYPE_BFLOAT16, kDLBfloat, 16},   {CV_DTYPE_FLOAT32, kDLFloat, 32},
    {CV_DTYPE_FLOAT64, kDLFloat, 64},    {CV_DTYPE_COMPLEX64, kDLComplex, 64}, {CV_DTYPE_COMPLEX128, kDLComplex, 128},
};

const DLType &dlTypeOf(cvDataType dtype) {
    for (const DLType &t : kDLTypes)
        if (t.dtype == dtype) return t;
    fail(CV_ERROR_INTERNAL, currentFunction(), ": dtype ", static_cast<int>(dtype), " has no DLPack type");
}

// What the managed tensor handed out points to: its shape and strides arrays, the tensor whose memory it shows (the
// original, or the copy), and the consumer stream whose queued work the release is ordered after.
struct ExportContext {
    DLManagedTensorVersioned managed{};
    int64_t shape[CV_MAX_DIMS] = {};
    int64_t strides[CV_MAX_DIMS] = {}; // elements
    Ref<Tensor> tensor;
    Ref<Stream> consumer;
};

void deleteExport(DLManagedTensorVersioned *self) noexcept {
    if (self == nullptr) return;
    std::unique_ptr<ExportContext> ctx(static_cast<ExportContext *>(self->manager_ctx));
    try {
        if (ctx->consumer) hazards::addConsumer(*ctx->tensor, ctx->consumer);
    } catch (...) {
        // A deleter cannot report errors; the release is then ordered after the library's own tracked work only.
    }
}

// Copy for CV_DLPACK_EXPORT_COPY: the tensor's byte extent moved into new memory written on `consumer`, so the copy
// keeps the original's strides. Returns the copy's buffer; `data` receives the address of its element 0.
Ref<Tensor> copyExtent(const Ref<Tensor> &tensor, const Ref<Stream> &consumer, uint64_t &data) {
    const TensorDesc &d = tensor->desc();
    const int64_t bytes = d.extentHi - d.extentLo;
    Ref<Tensor> buffer = Tensor::create(1, &bytes, CV_DTYPE_UINT8, nullptr, consumer);
    data = buffer->desc().data - static_cast<uint64_t>(d.extentLo);
    if (bytes > 0)
        hazards::submit(consumer, {{tensor.get(), false, "tensor"}, {buffer.get(), true, "the copy"}}, [&] {
            checkCuda(cudaMemcpyAsync(reinterpret_cast<void *>(buffer->desc().data),
                                      reinterpret_cast<const void *>(d.addressLo()), static_cast<size_t>(bytes),
                                      cudaMemcpyDeviceToDevice, consumer->handle()),
                      "cudaMemcpyAsync");
        });
    return buffer;
}

void callDeleter(void *managed) {
    auto *m = static_cast<DLManagedTensorVersioned *>(managed);
    if (m->deleter != nullptr) m->deleter(m);
}

} // namespace

DLManagedTensorVersioned *exportDLPack(const Ref<Tensor> &tensor, const Ref<Stream> &consumer, uint32_t flags) {
    if ((flags & ~uint32_t(CV_DLPACK_EXPORT_NO_SYNC | CV_DLPACK_EXPORT_COPY)) != 0)
        invalid(currentFunction(), ": flags=0x", std::hex, flags, std::dec, " has bits that are not cvDLPackExportFlags");
    const bool copy = (flags & CV_DLPACK_EXPORT_COPY) != 0;
    const bool noSync = (flags & CV_DLPACK_EXPORT_NO_SYNC) != 0;
    if (!consumer && (copy || !noSync))
        invalid(currentFunction(), ": consumer is NULL; only an export with CV_DLPACK_EXPORT_NO_SYNC and without a copy "
                "may omit it");
    const TensorDesc &d = tensor->desc();
    auto ctx = std::make_unique<ExportContext>();
    uint64_t data = d.data;
    bool readonly = d.readonly;
    if (copy) {
        ctx->tensor = copyExtent(tensor, consumer, data);
        readonly = false;
    } else {
        if (consumer) hazards::orderConsumer(*tensor, consumer, !d.readonly, !noSync);
        ctx->tensor = tensor;
    }
    const int device = hazards::deviceOf(*tensor);
    ctx->consumer = consumer;
    for (int i = 0; i < d.ndim; ++i) {
        ctx->shape[i] = d.shape[i];
        // A size-1 dimension may carry any byte stride (see cvArrayInterface); its element stride is then 1.
        ctx->strides[i] = d.strides[i] % d.itemSize == 0 ? d.strides[i] / d.itemSize : 1;
    }
    const DLType &type = dlTypeOf(d.dtype);
    DLManagedTensorVersioned &m = ctx->managed;
    m.version.major = DLPACK_MAJOR_VERSION;
    m.version.minor = DLPACK_MINOR_VERSION;
    m.manager_ctx = ctx.get();
    m.deleter = deleteExport;
    m.flags = (readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) | (copy ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
    m.dl_tensor.data = reinterpret_cast<void *>(data);
    m.dl_tensor.device = DLDevice{kDLCUDA, device};
    m.dl_tensor.ndim = d.ndim;
    m.dl_tensor.dtype = DLDataType{type.code, type.bits, 1};
    m.dl_tensor.shape = ctx->shape;
    m.dl_tensor.strides = ctx->strides;
    m.dl_tensor.byte_offset = 0;
    return &ctx.release()->managed;
}

cvArrayInterface dlpackToArrayInterface(const DLManagedTensorVersioned *managed) {
    if (managed->version.major != DLPACK_MAJOR_VERSION)
        invalid(currentFunction(), ": managed->version=", managed->version.major, ".", managed->version.minor,
                " has another major version than this library's DLPack ", DLPACK_MAJOR_VERSION, " (its layout differs)");
    const DLTensor &t = managed->dl_tensor;
    const int32_t deviceType = rawEnum(t.device.device_type); // a producer may store any int (core/raw_enum.hpp)
    if (deviceType != kDLCUDA && deviceType != kDLCUDAManaged)
        invalid(currentFunction(), ": dl_tensor.device.device_type=", deviceType,
                deviceType == kDLCPU ? " (kDLCPU, host memory)" : "",
                " is not CUDA memory (kDLCUDA=2 or kDLCUDAManaged=13); move the array to the GPU first");
    if (t.dtype.lanes != 1)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": dl_tensor.dtype.lanes=", t.dtype.lanes,
             " is a vector type; only lanes=1 is supported");
    const DLType *type = nullptr;
    for (const DLType &entry : kDLTypes)
        if (entry.code == t.dtype.code && entry.bits == t.dtype.bits) type = &entry;
    if (type == nullptr)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": dl_tensor.dtype=(code ", static_cast<int>(t.dtype.code), ", bits ",
             static_cast<int>(t.dtype.bits), ") is not a supported type (bool, (u)int8..64, float16/32/64, bfloat16, "
             "complex64/128)");
    if (t.ndim < 0 || t.ndim > CV_MAX_DIMS)
        invalid(currentFunction(), ": dl_tensor.ndim=", t.ndim, " is outside 0..", CV_MAX_DIMS);
    if (t.ndim > 0 && t.shape == nullptr) invalid(currentFunction(), ": dl_tensor.shape is NULL with ndim=", t.ndim);
    const DTypeInfo *info = dtypeInfo(type->dtype);
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.version = 3;
    if (__builtin_add_overflow(reinterpret_cast<uint64_t>(t.data), t.byte_offset, &cai.data))
        invalid(currentFunction(), ": dl_tensor.data + byte_offset=", t.byte_offset, " overflows the address space");
    cai.readonly = (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY) ? 1 : 0;
    cai.ndim = t.ndim;
    for (int i = 0; i < t.ndim; ++i) cai.shape[i] = t.shape[i];
    cai.hasStrides = t.strides != nullptr ? 1 : 0;
    for (int i = 0; i < t.ndim && t.strides != nullptr; ++i)
        if (__builtin_mul_overflow(t.strides[i], static_cast<int64_t>(info->itemSize), &cai.strides[i]))
            invalid(currentFunction(), ": dl_tensor.strides[", i, "]=", t.strides[i], " elements overflows 64-bit byte strides");
    std::strncpy(cai.typestr, info->typestr, sizeof(cai.typestr) - 1);
    cai.dtype = type->dtype;
    cai.streamKind = CV_CAI_STREAM_NONE; // the producer stream is the caller's `producer`, applied after the wrap
    return cai;
}

Ref<Tensor> wrapDLPack(DLManagedTensorVersioned *managed, const char *layout, const Ref<Stream> &producer) {
    const cvArrayInterface cai = dlpackToArrayInterface(managed);
    Ref<Tensor> t = Tensor::wrap(&cai, layout);
    // Checked after the validation, which needs no GPU (and so no stream): bad input is reported as such everywhere.
    if (!producer) invalid(currentFunction(), ": producer is NULL");
    // DLPack's contract puts the producer stream on the array's device; another device's stream would order nothing.
    const DLDevice &device = managed->dl_tensor.device;
    if (device.device_type == kDLCUDA && t->desc().numel > 0 && device.device_id != producer->device())
        invalid(currentFunction(), ": dl_tensor.device.device_id=", device.device_id, " but producer is a stream of device ",
                producer->device(), " (DLPack's producer stream is on the array's device); pass a stream of device ",
                device.device_id);
    if (t->desc().numel > 0) hazards::addProducer(*t, producer, !producer->owned());
    t->setCleanup(callDeleter, managed); // last: from here on the tensor owns `managed`
    return t;
}

} // namespace cv
