#include "firewall.hpp"

#include "../core/dtype.hpp"
#include "../core/hazards.hpp"
#include "../core/raw_enum.hpp"
#include "../core/stream.hpp"
#include "../core/tensor.hpp"

#include <cvcuda/tensor.h>

#include <cstring>

using namespace cv;

extern "C" {

cvStatus cvTensorWrap(const cvArrayInterface *cai, const char *layout, cvTensor *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        *out = capi::newHandle<cvTensor>(Tensor::wrap(cai, layout));
    });
}

cvStatus cvTensorCreate(int32_t ndim, const int64_t *shape, cvDataType dtype, const char *layout, cvTensor *out) {
    return capi::guarded(__func__, [&] {
        capi::requireOut(out, "out");
        *out = capi::newHandle<cvTensor>(Tensor::create(ndim, shape, rawEnum(dtype), layout));
    });
}

cvStatus cvTensorCreateOnStream(cvStream stream, int32_t ndim, const int64_t *shape, cvDataType dtype, const char *layout,
                                cvTensor *out) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        capi::requireOut(out, "out");
        *out = capi::newHandle<cvTensor>(Tensor::create(ndim, shape, rawEnum(dtype), layout, s));
    });
}

cvStatus cvTensorCreateLike(cvStream stream, cvTensor like, cvTensor *out) {
    return capi::guarded(__func__, [&] {
        Ref<Stream> s(&capi::deref<Stream>(stream, "stream"));
        const Tensor &model = capi::deref<Tensor>(like, "like");
        capi::requireOut(out, "out");
        *out = capi::newHandle<cvTensor>(Tensor::create(contiguousLike(model.desc()), s));
    });
}

void cvTensorRetain(cvTensor tensor) {
    capi::retainHandle<Tensor>(tensor);
}

void cvTensorRelease(cvTensor tensor) {
    capi::releaseHandle<Tensor>(tensor);
}

cvStatus cvTensorSetCleanup(cvTensor tensor, cvCleanupFn fn, void *userData) {
    return capi::guarded(__func__, [&] { capi::deref<Tensor>(tensor, "tensor").setCleanup(fn, userData); });
}

cvStatus cvTensorExport(cvTensor tensor, cvArrayInterface *out, cvStream *writerStream) {
    return capi::guarded(__func__, [&] {
        Tensor &t = capi::deref<Tensor>(tensor, "tensor");
        capi::requireStruct(out, "out");
        if (writerStream != nullptr) *writerStream = nullptr;
        const TensorDesc &d = t.desc();
        Ref<Stream> writer = hazards::exportStream(t);
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cai.version = 3;
        cai.data = d.data;
        cai.readonly = d.readonly ? 1 : 0;
        cai.ndim = d.ndim;
        std::memcpy(cai.shape, d.shape, sizeof(cai.shape));
        std::memcpy(cai.strides, d.strides, sizeof(cai.strides));
        cai.hasStrides = 1;
        std::strncpy(cai.typestr, dtypeInfo(d.dtype)->typestr, sizeof(cai.typestr) - 1);
        cai.dtype = d.dtype;
        cai.streamKind = writer ? CV_CAI_STREAM_INTEGER : CV_CAI_STREAM_NONE;
        cai.stream = writer ? static_cast<int64_t>(reinterpret_cast<intptr_t>(writer->handle())) : 0;
        cvStream writerHandle = writerStream != nullptr && writer ? capi::newHandle<cvStream>(std::move(writer)) : nullptr;
        *out = cai;
        if (writerStream != nullptr) *writerStream = writerHandle;
    });
}

cvStatus cvTensorGetInfo(cvTensor tensor, cvTensorInfo *out) {
    return capi::guarded(__func__, [&] {
        const Tensor &t = capi::deref<Tensor>(tensor, "tensor");
        capi::requireStruct(out, "out");
        const TensorDesc &d = t.desc();
        cvTensorInfo info = CV_TENSOR_INFO_INIT;
        info.ndim = d.ndim;
        std::memcpy(info.shape, d.shape, sizeof(info.shape));
        std::memcpy(info.strides, d.strides, sizeof(info.strides));
        info.data = d.data;
        info.dtype = d.dtype;
        info.readonly = d.readonly ? 1 : 0;
        info.ownsMemory = t.ownsMemory() ? 1 : 0;
        std::memcpy(info.layout, d.layout.c_str(), d.layout.size() + 1);
        *out = info;
    });
}

} // extern "C"
