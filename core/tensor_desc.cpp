#include "tensor_desc.hpp"

#include "dtype.hpp"
#include "error.hpp"
#include "layout.hpp"
#include "raw_enum.hpp"

#include <cstring>

namespace cv {
namespace {

void checkRank(int32_t ndim, const char *field) {
    if (ndim < 0 || ndim > CV_MAX_DIMS)
        invalid(currentFunction(), ": ", field, "=", ndim, " is outside 0..", CV_MAX_DIMS);
}

void checkShape(const TensorDesc &d, const char *field) {
    for (int i = 0; i < d.ndim; ++i)
        if (d.shape[i] < 0) invalid(currentFunction(), ": ", field, "[", i, "]=", d.shape[i], " is negative");
}

bool hasZeroExtent(const TensorDesc &d) noexcept {
    for (int i = 0; i < d.ndim; ++i)
        if (d.shape[i] == 0) return true;
    return false;
}

// C-contiguous strides in bytes. A zero extent counts as 1, as PyTorch does, so that an empty tensor still gets the
// strides of its non-empty dimensions. Throws when a stride, or the byte size of a non-empty tensor, overflows int64
// (an empty tensor has byte size 0 whatever the product of its other extents).
void setContiguousStrides(TensorDesc &d, const char *field) {
    const bool empty = hasZeroExtent(d);
    int64_t stride = d.itemSize;
    for (int i = d.ndim - 1; i >= 0; --i) {
        d.strides[i] = stride;
        if (__builtin_mul_overflow(stride, d.shape[i] > 0 ? d.shape[i] : 1, &stride)) {
            if (empty && i == 0) break;
            invalid(currentFunction(), ": ", field, "[", i, "]=", d.shape[i],
                    " makes the C-contiguous byte ", i == 0 ? "size" : "strides", " overflow 64-bit arithmetic");
        }
    }
}

// numel and the byte extent; negative strides move the start of the extent (CAI: data points at index 0).
void computeExtent(TensorDesc &d, const char *field) {
    // A zero extent anywhere makes the count 0, whichever order the other extents come in.
    int64_t numel = hasZeroExtent(d) ? 0 : 1;
    for (int i = 0; i < d.ndim && numel != 0; ++i)
        if (__builtin_mul_overflow(numel, d.shape[i], &numel))
            invalid(currentFunction(), ": ", field, "[", i, "]=", d.shape[i], " makes the element count overflow 64-bit arithmetic");
    d.numel = numel;
    d.extentLo = d.extentHi = 0;
    if (numel == 0) return;
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < d.ndim; ++i) {
        int64_t span = 0;
        if (__builtin_mul_overflow(d.strides[i], d.shape[i] - 1, &span) ||
            (span >= 0 ? __builtin_add_overflow(hi, span, &hi) : __builtin_add_overflow(lo, span, &lo)))
            invalid(currentFunction(), ": shape[", i, "]=", d.shape[i], " x strides[", i, "]=", d.strides[i],
                    " overflows 64-bit byte offsets");
    }
    if (__builtin_add_overflow(hi, static_cast<int64_t>(d.itemSize), &hi))
        invalid(currentFunction(), ": the extent overflows 64-bit byte offsets");
    d.extentLo = lo;
    d.extentHi = hi;
}

} // namespace

int TensorDesc::layoutIndex(char label) const noexcept {
    const auto pos = layout.find(label);
    return pos == std::string::npos ? -1 : static_cast<int>(pos);
}

WrapRequest validateArrayInterface(const cvArrayInterface *cai, const char *layout) {
    if (cai == nullptr) invalid(currentFunction(), ": cai is NULL");
    if (cai->structSize < sizeof(cvArrayInterface))
        invalid(currentFunction(), ": cai->structSize=", cai->structSize, " is smaller than sizeof(cvArrayInterface)=",
                sizeof(cvArrayInterface), " (initialise with CV_ARRAY_INTERFACE_INIT)");
    // A caller built against a newer header may pass a longer struct; its appended fields must be at their
    // zero default, which means "not used", for this older library to honour the call.
    if (cai->structSize > sizeof(cvArrayInterface)) {
        const auto *bytes = reinterpret_cast<const unsigned char *>(cai);
        for (uint32_t i = sizeof(cvArrayInterface); i < cai->structSize; ++i)
            if (bytes[i] != 0)
                invalid(currentFunction(), ": cai->structSize=", cai->structSize, " is larger than this library's ",
                        sizeof(cvArrayInterface), " and byte ", i, " of the newer fields is not 0 (a newer feature this library lacks)");
    }
    if (cai->version != 2 && cai->version != 3)
        invalid(currentFunction(), ": version=", cai->version, " is not a supported CUDA Array Interface version (2 or 3)");
    if (cai->reserved0 != 0) invalid(currentFunction(), ": reserved0=", cai->reserved0, " must be 0");

    WrapRequest req;
    TensorDesc &d = req.desc;
    checkRank(cai->ndim, "ndim");
    d.ndim = cai->ndim;
    std::memcpy(d.shape, cai->shape, sizeof(d.shape));
    checkShape(d, "shape");

    if (strnlen(cai->typestr, sizeof(cai->typestr)) == sizeof(cai->typestr))
        invalid(currentFunction(), ": typestr is not NUL-terminated within ", sizeof(cai->typestr), " bytes");
    const cvDataType fromTypestr = parseTypestr(cai->typestr, "typestr");
    const int32_t dtype = rawEnum(cai->dtype);
    if (dtype != CV_DTYPE_UNSPECIFIED) {
        const DTypeInfo *info = dtypeInfo(dtype);
        if (info == nullptr) invalid(currentFunction(), ": dtype=", dtype, " is not a cvDataType");
        if (fromTypestr != CV_DTYPE_UNSPECIFIED && fromTypestr != info->dtype)
            invalid(currentFunction(), ": dtype=", info->name, " contradicts typestr='", cai->typestr, "' (",
                    dtypeInfo(fromTypestr)->name, "); set dtype only for types the typestr cannot express, such as '<V2'");
        const int typestrSize = std::atoi(cai->typestr + 2);
        if (info->itemSize != typestrSize)
            invalid(currentFunction(), ": dtype=", info->name, " has itemsize ", info->itemSize, " but typestr='", cai->typestr,
                    "' has ", typestrSize);
        d.dtype = info->dtype;
    } else if (fromTypestr == CV_DTYPE_UNSPECIFIED) {
        invalid(currentFunction(), ": typestr='", cai->typestr,
                "' is an opaque 2-byte type; set dtype (e.g. CV_DTYPE_BFLOAT16) to say which");
    } else {
        d.dtype = fromTypestr;
    }
    d.itemSize = dtypeInfo(d.dtype)->itemSize;

    if (cai->hasStrides) {
        for (int i = 0; i < d.ndim; ++i) {
            d.strides[i] = cai->strides[i];
            // The stride of a size-1 dimension never moves to another element, and producers leave any value there.
            if (d.shape[i] != 1 && d.strides[i] % d.itemSize != 0)
                invalid(currentFunction(), ": strides[", i, "]=", d.strides[i], " is not a multiple of itemsize ", d.itemSize);
        }
    } else {
        setContiguousStrides(d, "shape");
    }
    computeExtent(d, "shape");

    d.data = cai->data;
    d.readonly = cai->readonly != 0;
    if (d.numel > 0 && d.data == 0)
        invalid(currentFunction(), ": data=0 (NULL) but the tensor has ", d.numel, " elements (only empty tensors may have data 0)");
    if (d.numel > 0 && d.data % static_cast<uint64_t>(d.itemSize) != 0)
        invalid(currentFunction(), ": data=0x", std::hex, d.data, std::dec, " is not aligned to itemsize ", d.itemSize,
                " (elements must start at multiples of their size)");
    if (d.numel > 0) {
        uint64_t end = 0;
        if ((d.extentLo < 0 && d.data < 0 - static_cast<uint64_t>(d.extentLo)) ||
            __builtin_add_overflow(d.data, static_cast<uint64_t>(d.extentHi), &end))
            invalid(currentFunction(), ": data=0x", std::hex, d.data, std::dec, " with these strides reaches outside the address space");
    }
    d.layout = parseLayout(layout, d.ndim, "layout");

    const int32_t streamKind = rawEnum(cai->streamKind);
    switch (streamKind) {
    case CV_CAI_STREAM_ABSENT: req.producer = Producer::Unknown; break;
    case CV_CAI_STREAM_NONE: req.producer = Producer::Ready; break;
    case CV_CAI_STREAM_INTEGER:
        if (cai->stream == -1) req.producer = Producer::Ready;
        else if (cai->stream < -1)
            invalid(currentFunction(), ": stream=", cai->stream, " is negative (only -1, the opt-out, is allowed)");
        else if (cai->stream <= 2) req.producer = Producer::Unknown;
        else {
            req.producer = Producer::Stream;
            req.producerStream = cai->stream;
        }
        break;
    default:
        invalid(currentFunction(), ": streamKind=", streamKind, " is not a cvCaiStreamKind");
    }
    return req;
}

TensorDesc contiguousDesc(int32_t ndim, const int64_t *shape, int32_t dtype, const char *layout) {
    TensorDesc d;
    checkRank(ndim, "ndim");
    if (ndim > 0 && shape == nullptr) invalid(currentFunction(), ": shape is NULL");
    d.ndim = ndim;
    for (int i = 0; i < ndim; ++i) d.shape[i] = shape[i];
    checkShape(d, "shape");
    const DTypeInfo *info = dtypeInfo(dtype);
    if (info == nullptr) invalid(currentFunction(), ": dtype=", dtype, " is not a cvDataType");
    d.dtype = info->dtype;
    d.itemSize = info->itemSize;
    setContiguousStrides(d, "shape");
    computeExtent(d, "shape");
    d.layout = parseLayout(layout, ndim, "layout");
    return d;
}

TensorDesc contiguousLike(const TensorDesc &like) {
    TensorDesc d;
    d.ndim = like.ndim;
    for (int i = 0; i < like.ndim; ++i) d.shape[i] = like.shape[i];
    d.dtype = like.dtype;
    d.itemSize = like.itemSize;
    d.layout = like.layout;
    setContiguousStrides(d, "like's shape");
    computeExtent(d, "like's shape");
    return d;
}

} // namespace cv
