#include "image_view.hpp"

#include "../error.hpp"

namespace cv {

std::string shapeString(const TensorDesc &d) {
    std::string s = "(";
    for (int i = 0; i < d.ndim; ++i) s += concat(i ? ", " : "", d.shape[i]);
    return s + (d.ndim == 1 ? ",)" : ")");
}

ImageView imageView(const TensorDesc &d, const char *name) {
    if (d.layout != "HWC" && d.layout != "NHWC")
        invalid(currentFunction(), ": ", name, " layout '", d.layout, "' (rank ", d.ndim,
                ") is not supported (HWC or NHWC)");
    const int o = d.ndim == 4 ? 1 : 0;
    ImageView v;
    v.n = o ? d.shape[0] : 1;
    v.strides[0] = o ? d.strides[0] : 0;
    v.h = d.shape[o];
    v.w = d.shape[o + 1];
    v.c = d.shape[o + 2];
    v.strides[1] = d.strides[o];
    v.strides[2] = d.strides[o + 1];
    v.strides[3] = d.strides[o + 2];
    return v;
}

bool overlaps(const TensorDesc &a, const TensorDesc &b) {
    return a.numel > 0 && b.numel > 0 && a.addressLo() < b.addressHi() && b.addressLo() < a.addressHi();
}

} // namespace cv
