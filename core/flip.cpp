#include "flip.hpp"

#include "cuda_check.hpp"
#include "dtype.hpp"
#include "error.hpp"
#include "hazards.hpp"
#include "stats.hpp"
#include "stream.hpp"
#include "tensor.hpp"

#include "ops/op_common.hpp"

#include "../kernels/flip.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace cv {
namespace {

using ops::selfOverlapping;
using ops::shapeString;

// A dimension of the canonical view: its extent and its byte strides in src and dst.
struct Dim {
    int64_t n, s, d;
};

// Merges adjacent dims (outer first) that address memory as one, and drops size-1 dims; keeps at least one.
std::vector<Dim> collapse(const std::vector<Dim> &dims) {
    std::vector<Dim> out;
    for (const Dim &x : dims) {
        if (x.n == 1) continue;
        if (!out.empty() && out.back().s == x.s * x.n && out.back().d == x.d * x.n) {
            out.back() = {out.back().n * x.n, x.s, x.d};
            continue;
        }
        out.push_back(x);
    }
    if (out.empty()) out.push_back({1, 0, 0});
    return out;
}

} // namespace

bool planFlip(const Tensor &src, const Tensor &dst, int32_t flipCode, cvk::FlipParams &p) {
    const TensorDesc &s = src.desc(), &d = dst.desc();
    const bool sameShape = s.ndim == d.ndim && std::equal(s.shape, s.shape + s.ndim, d.shape);
    if (!sameShape)
        invalid(currentFunction(), ": src shape ", shapeString(s), " and dst shape ", shapeString(d), " differ (they must be equal)");
    if (s.dtype != d.dtype)
        invalid(currentFunction(), ": src dtype ", dtypeInfo(s.dtype)->name, " and dst dtype ", dtypeInfo(d.dtype)->name,
                " differ (they must be equal)");
    if (!s.layout.empty() && !d.layout.empty() && s.layout != d.layout)
        invalid(currentFunction(), ": src layout '", s.layout, "' and dst layout '", d.layout, "' differ");
    const std::string &layout = s.layout.empty() ? d.layout : s.layout;
    if (layout.empty())
        invalid(currentFunction(), ": src has no layout; give one with H and W labels (e.g. \"NHWC\") when wrapping it");
    const int h = static_cast<int>(layout.find('H')), w = static_cast<int>(layout.find('W'));
    if (h < 0 || w < 0)
        invalid(currentFunction(), ": layout '", layout, "' has no ", h < 0 ? "H" : "W", " label (flip needs H and W)");
    if (w != h + 1)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": layout '", layout, "' does not have W right after H");
    if (d.readonly) invalid(currentFunction(), ": dst is readonly (the CAI producer marked data readonly)");
    if (selfOverlapping(d)) invalid(currentFunction(), ": dst has elements that overlap each other (e.g. a zero stride)");
    if (s.numel == 0) return false;

    const bool inPlace = s.data == d.data && std::equal(s.strides, s.strides + s.ndim, d.strides);
    if (!inPlace && s.addressLo() < d.addressHi() && d.addressLo() < s.addressHi())
        invalid(currentFunction(), ": src and dst memory overlap partially (only dst == src, in place, is supported)");

    std::vector<Dim> outer, inner;
    for (int i = 0; i < h; ++i) outer.push_back({s.shape[i], s.strides[i], d.strides[i]});
    for (int i = w + 1; i < s.ndim; ++i) inner.push_back({s.shape[i], s.strides[i], d.strides[i]});
    outer = collapse(outer);
    inner = collapse(inner);
    if (outer.size() > 2 || inner.size() > 1)
        fail(CV_ERROR_NOT_SUPPORTED, currentFunction(), ": the strides of the dimensions around H and W of layout '", layout,
             "' cannot be reduced to the kernel's view (at most two outer and one inner dimension)");
    if (outer.size() == 1) outer.insert(outer.begin(), Dim{1, 0, 0});
    const Dim dims[5] = {outer[0], outer[1], {s.shape[h], s.strides[h], d.strides[h]}, {s.shape[w], s.strides[w], d.strides[w]}, inner[0]};
    p = {};
    p.src = reinterpret_cast<const char *>(s.data);
    p.dst = reinterpret_cast<char *>(d.data);
    for (int i = 0; i < 5; ++i) {
        p.shape[i] = dims[i].n;
        p.srcStrides[i] = dims[i].s;
        p.dstStrides[i] = dims[i].d;
    }
    p.elemSize = s.itemSize;
    p.flipRows = flipCode <= 0;
    p.flipCols = flipCode != 0;
    p.inPlace = inPlace;
    return true;
}

void flip(const Ref<Stream> &stream, Tensor &src, Tensor &dst, int32_t flipCode) {
    cvk::FlipParams p;
    if (!planFlip(src, dst, flipCode, p)) return;
    hazards::submit(stream, {{&src, false, "src"}, {&dst, true, "dst"}}, [&] {
        bool launched = false;
        checkCuda(cvk::launchFlip(p, stream->handle(), &launched), "flip kernel launch");
        if (launched) count(stats().kernelLaunches);
    });
}

} // namespace cv
