#include "op_common.hpp"

#include "../dtype.hpp"
#include "../error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace cv::ops {

std::string shapeString(const TensorDesc &d) {
    std::string s = "(";
    for (int i = 0; i < d.ndim; ++i) s += concat(i ? ", " : "", d.shape[i]);
    return s + (d.ndim == 1 ? ",)" : ")");
}

const char *dtypeName(cvDataType dtype) {
    const DTypeInfo *info = dtypeInfo(dtype);
    return info ? info->name : "unspecified";
}

Image imageOf(const TensorDesc &d, const char *arg, const char *accepted) {
    if (d.layout.empty())
        invalid(currentFunction(), ": ", arg, " has no layout; give one of ", accepted, " when wrapping it");
    bool found = false;
    for (const char *p = accepted; *p;) {
        const char *e = std::strchr(p, ',');
        const size_t len = e ? static_cast<size_t>(e - p) : std::strlen(p);
        if (d.layout.size() == len && d.layout.compare(0, len, p, len) == 0) found = true;
        p += len + (e ? 1 : 0);
    }
    if (!found)
        invalid(currentFunction(), ": ", arg, " layout '", d.layout, "' (shape ", shapeString(d), ") is not one of ",
                accepted);
    Image im;
    im.layout = d.layout;
    const char labels[4] = {'N', 'H', 'W', 'C'};
    int64_t *extent[4] = {&im.n, &im.h, &im.w, &im.c};
    im.view.data = reinterpret_cast<char *>(d.data);
    for (int k = 0; k < 4; ++k) {
        const int i = d.layoutIndex(labels[k]);
        *extent[k] = i < 0 ? 1 : d.shape[i];
        im.view.shape[k] = *extent[k];
        im.view.stride[k] = i < 0 ? 0 : d.strides[i];
    }
    im.planar = d.layoutIndex('C') < d.layoutIndex('H');
    return im;
}

bool selfOverlapping(const TensorDesc &d) {
    std::vector<std::pair<int64_t, int64_t>> dims; // |stride|, shape
    for (int i = 0; i < d.ndim; ++i)
        if (d.shape[i] > 1) dims.push_back({std::llabs(d.strides[i]), d.shape[i]});
    std::sort(dims.begin(), dims.end());
    int64_t span = d.itemSize; // bytes covered by the inner dimensions
    for (const auto &[stride, n] : dims) {
        if (stride < span) return true;
        span = stride * (n - 1) + span;
    }
    return false;
}

void requireWritable(const TensorDesc &d, const char *arg) {
    if (d.readonly) invalid(currentFunction(), ": ", arg, " is readonly (the CAI producer marked data readonly)");
    if (selfOverlapping(d))
        invalid(currentFunction(), ": ", arg, " has elements that overlap each other (e.g. a zero stride)");
}

Overlap overlapOf(const TensorDesc &s, const TensorDesc &d) {
    if (s.numel == 0 || d.numel == 0) return Overlap::None;
    if (!(s.addressLo() < d.addressHi() && d.addressLo() < s.addressHi())) return Overlap::None;
    const bool same = s.data == d.data && s.itemSize == d.itemSize && s.ndim == d.ndim &&
                      std::equal(s.strides, s.strides + s.ndim, d.strides) &&
                      std::equal(s.shape, s.shape + s.ndim, d.shape);
    return same ? Overlap::Same : Overlap::Partial;
}

void requireNoOverlap(const TensorDesc &s, const TensorDesc &d, bool inPlaceExact) {
    switch (overlapOf(s, d)) {
    case Overlap::None: return;
    case Overlap::Same:
        if (inPlaceExact) return;
        invalid(currentFunction(), ": src and dst are the same memory; this operator cannot work in place here "
                                   "(give a separate dst)");
    case Overlap::Partial:
        invalid(currentFunction(), ": src and dst memory overlap partially",
                inPlaceExact ? " (only dst == src, in place, is supported)" : " (they must not overlap)");
    }
}

void requireDType(const TensorDesc &d, const char *arg, bool supported, const char *supportedList) {
    if (!supported)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": ", arg, " dtype ", dtypeName(d.dtype),
             " is not supported (supported: ", supportedList, ")");
}

void requireSameImageShape(const Image &a, const TensorDesc &ad, const char *aArg, const Image &b, const TensorDesc &bd,
                           const char *bArg) {
    if (a.n != b.n || a.h != b.h || a.w != b.w || a.c != b.c)
        invalid(currentFunction(), ": ", aArg, " shape ", shapeString(ad), " (", a.layout, ") and ", bArg, " shape ",
                shapeString(bd), " (", b.layout, ") differ in N, H, W or C (they must be equal)");
}

} // namespace cv::ops
