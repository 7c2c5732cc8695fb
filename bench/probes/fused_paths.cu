// Microbenchmark of the fused pass (cvResizeCropConvertReformat) on the ImageNet chain and its neighbours: uint8 NHWC
// -> resize LINEAR -> crop -> /255 (ImageNet mean/std or none) -> float NCHW (GPU time per call, CUDA events, median
// of 9 batches of 5 calls after a warm-up, 4 source buffer sets rotated so that L2 holds none of them). Rows: the
// general kernel (launchResizeFusedGeneral: the per-pixel sampler), the pair path (launchResizeFusedPairs: main's
// path for these shapes before the staged path, the baseline), launchResizeFused as built, and every variant of the
// staged path (planFusedStaged; "n/a" where it does not take the shape). copy_us: a D2D cudaMemcpyAsync moving the
// traffic of reading the needed source bytes once and writing the output once ((source bytes read + output bytes) / 2
// copied; the source bytes read: the 2 source rows of every crop row, whole, an upper bound of the sectors the taps
// touch). mismatches: output values whose bits differ from the pair path's (both poisoned differently first); any
// mismatch, in a timed case or in the untimed odd shapes after them, exits 1.
#include "probe_timing.cuh"
#include "resize.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace cvk;

namespace {

constexpr int kSets = 4;

struct Case {
    const char *name;
    int64_t n, h, w, c;       // source
    int32_t resize, crop, at; // square resize, square crop at (at, at)
    bool srcCast, halfOut, normalize, nchw;
    int32_t cropW = 0, cropH = 0, atX = -1; // untimed odd shapes: a non-square crop
    int64_t rowPad = 0;                     // bytes after each source row
};

FusedParams paramsOf(const Case &c, const uint8_t *src, char *dst) {
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

struct Variant {
    std::string name;
    std::function<void(const FusedParams &, cudaStream_t)> run; // empty: does not take the case
};

std::vector<Variant> variantsOf(const FusedParams &p) {
    std::vector<Variant> v;
    v.push_back({"general", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedGeneral(q, s)); }});
    v.push_back({"pairs(main)", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedPairs(q, s)); }});
    v.push_back({"launchResizeFused", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFused(q, s)); }});
    for (int32_t i = 0; i < fusedStagedVariantCount(); ++i) {
        FusedStagedShape shape{};
        char name[64];
        if (!planFusedStaged(p, shape, i)) {
            std::snprintf(name, sizeof name, "staged%d", i);
            v.push_back({name, {}});
            continue;
        }
        std::snprintf(name, sizeof name, "staged%d(%dx%d,r%d,p%d)", i, shape.bx, shape.by, shape.rows, shape.pixels);
        v.push_back({name, [shape](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedStaged(q, shape, s)); }});
    }
    return v;
}

// Output values (elem bytes each) whose bits differ between the variant's and the pair path's output.
int64_t mismatchesOf(const Variant &v, const FusedParams &p, size_t dstBytes, int64_t elem, char *dstRef, char *dstVar,
                     std::vector<unsigned char> &ref, cudaStream_t st) {
    FusedParams q = p, r = p;
    q.dst.data = dstVar;
    r.dst.data = dstRef;
    CK(cudaMemsetAsync(dstRef, 0x11, dstBytes, st));
    CK(cudaMemsetAsync(dstVar, 0x22, dstBytes, st));
    CK(launchResizeFusedPairs(r, st));
    v.run(q, st);
    CK(cudaStreamSynchronize(st));
    std::vector<unsigned char> got(dstBytes);
    ref.resize(dstBytes);
    CK(cudaMemcpy(ref.data(), dstRef, dstBytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got.data(), dstVar, dstBytes, cudaMemcpyDeviceToHost));
    int64_t bad = 0;
    for (size_t i = 0; i < dstBytes; i += size_t(elem)) bad += std::memcmp(&ref[i], &got[i], size_t(elem)) != 0;
    return bad;
}

} // namespace

int main() {
    const size_t setBytes = size_t(32) * 1080 * 1920 * 4 + 64 * 1024; // the largest source, plus row padding
    uint8_t *src[kSets];
    for (int i = 0; i < kSets; ++i) {
        CK(cudaMalloc(&src[i], setBytes));
        fillRandom<<<1024, 256>>>(src[i], setBytes, 1 + 76 * uint64_t(i));
    }
    CK(cudaGetLastError());
    const size_t maxDst = size_t(64) * 4 * 224 * 224 * 4;
    char *dstRef, *dstVar;
    CK(cudaMalloc(&dstRef, maxDst));
    CK(cudaMalloc(&dstVar, maxDst));
    const size_t maxCopy = setBytes;
    char *copyTo[2];
    for (auto &c : copyTo) CK(cudaMalloc(&c, maxCopy));
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    const Case timed[] = {
        {"imagenet_f32_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, false, true, true},
        {"imagenet_f32_nchw_plain", 32, 1080, 1920, 3, 256, 224, 16, true, false, false, true},
        {"imagenet_f32_nchw_unrounded", 32, 1080, 1920, 3, 256, 224, 16, false, false, true, true},
        {"imagenet_f16_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, true, true, true},
        {"64x720x1280x3_f32_nchw_norm", 64, 720, 1280, 3, 256, 224, 16, true, false, true, true},
        {"32x480x640x3_f32_nchw_norm", 32, 480, 640, 3, 256, 224, 16, true, false, true, true},
        {"16x1080x1920x4_f32_nchw_norm", 16, 1080, 1920, 4, 256, 224, 16, true, false, true, true},
    };
    // Untimed shapes for the checks: crops not a multiple of the rows or pixels per block, NHWC output (scalar
    // stores), 1 and 2 channels, padded rows, a crop reaching the right border (no staged variant takes it).
    Case odd[] = {
        {"odd_crop_221x223_at_17x15", 3, 1080, 1920, 3, 256, 0, 15, true, false, true, true, 223, 221, 17},
        {"odd_nhwc_out", 3, 1080, 1920, 3, 256, 224, 16, true, false, true, false},
        {"odd_1ch_101x160_pad16", 5, 101, 160, 1, 70, 0, 5, false, false, true, true, 41, 50, 3, 16},
        {"odd_2ch_97x200_f16", 4, 97, 200, 2, 64, 0, 2, true, true, true, true, 37, 61, 9, 0},
        {"odd_4ch_enlarge_40x56", 2, 40, 56, 4, 100, 0, 1, true, false, false, true, 90, 97, 4, 0},
        {"odd_3ch_right_border", 2, 300, 480, 3, 128, 0, 0, true, false, true, true, 128, 128, 0, 0},
    };

    bool failed = false;
    std::vector<unsigned char> ref;
    std::printf("%-30s %-24s %9s %8s %10s\n", "case", "variant", "us", "x_copy", "mismatches");
    for (const Case &c : timed) {
        const int64_t elem = c.halfOut ? 2 : 4;
        const size_t dstBytes = size_t(c.n * c.c * c.crop * c.crop * elem);
        FusedParams ps[kSets];
        for (int i = 0; i < kSets; ++i) ps[i] = paramsOf(c, src[i], dstVar);
        // The source rows the crop's taps read: two per crop row, whole (an upper bound where rows are shared).
        const size_t readBytes = size_t(c.n * 2 * c.crop * c.w * c.c), copyBytes = std::min(maxCopy, (readBytes + dstBytes) / 2);
        const float tCopy = timeIt([&](int i) { CK(cudaMemcpyAsync(copyTo[i & 1], src[i % kSets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st);
        std::printf("%-30s %-24s %9.1f %8.2f %10s\n", c.name, "copy", tCopy, 1.0, "-");
        for (const Variant &v : variantsOf(ps[0])) {
            if (!v.run) {
                std::printf("%-30s %-24s %9s %8s %10s\n", c.name, v.name.c_str(), "n/a", "-", "-");
                continue;
            }
            const float t = timeIt([&](int i) { v.run(ps[i % kSets], st); }, st);
            const int64_t bad = mismatchesOf(v, ps[0], dstBytes, elem, dstRef, dstVar, ref, st);
            failed |= bad != 0;
            std::printf("%-30s %-24s %9.1f %8.2f %10lld\n", c.name, v.name.c_str(), t, t / tCopy, (long long)bad);
        }
    }
    for (const Case &c : odd) {
        const int64_t elem = c.halfOut ? 2 : 4;
        const FusedParams p = paramsOf(c, src[0], dstVar);
        const size_t dstBytes = size_t(p.dst.shape[kN] * p.dst.stride[kN]);
        for (const Variant &v : variantsOf(p)) {
            if (!v.run) {
                std::printf("%-30s %-24s %9s %8s %10s\n", c.name, v.name.c_str(), "n/a", "-", "-");
                continue;
            }
            const int64_t bad = mismatchesOf(v, p, dstBytes, elem, dstRef, dstVar, ref, st);
            failed |= bad != 0;
            std::printf("%-30s %-24s %9s %8s %10lld\n", c.name, v.name.c_str(), "-", "-", (long long)bad);
        }
    }
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("FAILED: some variant's output differs from the pair path's\n");
    return failed ? 1 : 0;
}
