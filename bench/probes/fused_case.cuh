// The fused pass's probe cases (fused_paths.cu, fused_candidates.cu): a source shape, the square resize and crop of
// the benchmark's ImageNet chain or an odd shape, and the FusedParams of that chain (scale 1/255, offset 0, ImageNet
// mean/std or none), over packed NHWC uint8 sources with optional row padding.
#pragma once

#include "probe_timing.cuh"
#include "resize.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace fusedprobe {

using cvk::FusedParams;
using cvk::View4;
namespace resize = cvk::resize;

struct Case {
    const char *name;
    int64_t n, h, w, c;       // source
    int32_t resize, crop, at; // square resize, square crop at (at, at)
    bool srcCast, halfOut, normalize, nchw;
    int32_t cropW = 0, cropH = 0, atX = -1; // odd shapes: a non-square crop
    int64_t rowPad = 0;                     // bytes after each source row
};

inline FusedParams paramsOf(const Case &c, const uint8_t *src, char *dst) {
    const int64_t elem = c.halfOut ? 2 : 4, cw = c.cropW ? c.cropW : c.crop, ch = c.cropH ? c.cropH : c.crop;
    const int64_t row = c.w * c.c + c.rowPad;
    FusedParams p{};
    p.src = View4{const_cast<char *>(reinterpret_cast<const char *>(src)), {c.n, c.h, c.w, c.c}, {c.h * row, row, c.c, 1}};
    if (c.nchw)
        p.dst = View4{dst, {c.n, ch, cw, c.c}, {c.c * ch * cw * elem, cw * elem, elem, ch * cw * elem}};
    else
        p.dst = View4{dst, {c.n, ch, cw, c.c}, {ch * cw * c.c * elem, cw * c.c * elem, c.c * elem, elem}};
    p.resizeH = p.resizeW = c.resize;
    p.cropX = c.atX >= 0 ? c.atX : c.at;
    p.cropY = c.at;
    p.interp = resize::kLinear;
    p.torchMode = -1;
    p.srcCast = c.srcCast;
    p.reverseChannels = false;
    p.halfOut = c.halfOut;
    p.scale = 1.f / 255;
    p.offset = 0.f;
    const float mean[4] = {0.485f, 0.456f, 0.406f, 0.5f}, stddev[4] = {0.229f, 0.224f, 0.225f, 0.25f};
    for (int k = 0; k < 4; ++k) p.mean[k] = c.normalize ? mean[k] : 0.f, p.stddev[k] = c.normalize ? stddev[k] : 1.f;
    return p;
}

// Output values (`elem` bytes each) whose bits differ between the device buffers `dstRef` and `dstVar` of `bytes`
// bytes (after the caller's work on them completed).
inline int64_t differingValues(const char *dstRef, const char *dstVar, size_t bytes, int64_t elem) {
    std::vector<unsigned char> ref(bytes), got(bytes);
    CK(cudaMemcpy(ref.data(), dstRef, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got.data(), dstVar, bytes, cudaMemcpyDeviceToHost));
    int64_t bad = 0;
    for (size_t i = 0; i < bytes; i += size_t(elem)) bad += std::memcmp(&ref[i], &got[i], size_t(elem)) != 0;
    return bad;
}

// The bytes of p's (packed) output.
inline size_t dstBytesOf(const FusedParams &p) { return size_t(p.dst.shape[cvk::kN] * p.dst.stride[cvk::kN]); }

// Output values whose bits differ between run(p with its output in dstVar, st)'s and the pair path's
// (launchResizeFusedPairs into dstRef), each buffer poisoned differently first.
template <class Run> int64_t differsFromPairs(Run &&run, const FusedParams &p, char *dstRef, char *dstVar, cudaStream_t st) {
    const size_t bytes = dstBytesOf(p);
    FusedParams q = p, r = p;
    q.dst.data = dstVar;
    r.dst.data = dstRef;
    CK(cudaMemsetAsync(dstRef, 0x11, bytes, st));
    CK(cudaMemsetAsync(dstVar, 0x22, bytes, st));
    CK(cvk::launchResizeFusedPairs(r, st));
    run(q, st);
    CK(cudaStreamSynchronize(st));
    return differingValues(dstRef, dstVar, bytes, p.halfOut ? 2 : 4);
}

} // namespace fusedprobe
