// Microbenchmark of the fused pass (cvResizeCropConvertReformat) on the ImageNet chain: 32x1080x1920x3 uint8 NHWC
// -> resize 256x256 LINEAR -> crop 224x224 at (16, 16) -> /255, ImageNet mean/std -> float NCHW (GPU time per batch,
// CUDA events, median of 9 batches of 5 calls after a warm-up, two source buffers alternated). OLD = the general
// kernel (launchResizeFusedGeneral: the per-pixel sampler, 8 x 32 threads of 4 pixels each), NEW = launchResizeFused
// (the pair path of resize_fused_pairs.cuh for these shapes). copy_us: a D2D cudaMemcpyAsync moving the traffic of
// reading the needed source bytes once and writing the output once ((source bytes read + output bytes) / 2 copied;
// the source bytes read: the 2 source rows of every crop row, whole, an upper bound of the sectors the taps touch).
// differing: output values whose bits differ between OLD and NEW (both poisoned differently first).
#include "probe_timing.cuh"
#include "resize.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cvk;

int main() {
    const int64_t N = 32, H = 1080, W = 1920, C = 3, R = 256, CROP = 224, AT = 16;
    const size_t srcBytes = size_t(N * H * W * C);
    uint8_t *src[2];
    for (auto &s : src) CK(cudaMalloc(&s, srcBytes));
    fillRandom<<<1024, 256>>>(src[0], srcBytes, 1);
    fillRandom<<<1024, 256>>>(src[1], srcBytes, 77);
    CK(cudaGetLastError());

    struct Case {
        const char *name;
        bool srcCast, halfOut;
    };
    const Case cases[] = {{"imagenet_f32_nchw_srccast", true, false}, {"imagenet_f32_nchw_unrounded", false, false}, {"imagenet_f16_nchw_srccast", true, true}};
    const size_t maxDst = size_t(N * C * CROP * CROP * 4);
    char *dstOld, *dstNew;
    CK(cudaMalloc(&dstOld, maxDst));
    CK(cudaMalloc(&dstNew, maxDst));
    // The source rows the crop's taps read: two per crop row (1080 / 256 > 2: no row is shared), whole rows.
    const size_t readBytes = size_t(N * 2 * CROP * W * C);
    const size_t copyBytes = (readBytes + maxDst) / 2;
    char *copyA, *copyB;
    CK(cudaMalloc(&copyA, copyBytes));
    CK(cudaMalloc(&copyB, copyBytes));
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

    std::printf("%-30s %9s %9s %9s %10s\n", "case", "old_us", "new_us", "copy_us", "differing");
    for (const Case &c : cases) {
        const int64_t elem = c.halfOut ? 2 : 4;
        const size_t dstBytes = size_t(N * C * CROP * CROP * elem);
        FusedParams ps[2];
        for (int i = 0; i < 2; ++i) {
            FusedParams &p = ps[i];
            p = FusedParams{};
            p.src = View4{reinterpret_cast<char *>(src[i]), {N, H, W, C}, {H * W * C, W * C, C, 1}};
            p.dst = View4{dstNew, {N, CROP, CROP, C}, {C * CROP * CROP * elem, CROP * elem, elem, CROP * CROP * elem}};
            p.resizeH = p.resizeW = int32_t(R);
            p.cropX = p.cropY = int32_t(AT);
            p.interp = resize::kLinear;
            p.torchMode = -1;
            p.srcCast = c.srcCast;
            p.reverseChannels = false;
            p.halfOut = c.halfOut;
            p.scale = 1.f / 255;
            p.offset = 0.f;
            const float mean[3] = {0.485f, 0.456f, 0.406f}, stddev[3] = {0.229f, 0.224f, 0.225f};
            for (int k = 0; k < 3; ++k) p.mean[k] = mean[k], p.stddev[k] = stddev[k];
        }
        if (!fusedPairsTake(ps[0])) std::printf("%-30s note: launchResizeFused does not take the pair path here\n", c.name);
        auto runNew = [&](int i) { CK(launchResizeFused(ps[i & 1], st)); };
        auto runOld = [&](int i) {
            FusedParams q = ps[i & 1];
            q.dst.data = dstOld;
            CK(launchResizeFusedGeneral(q, st));
        };
        auto runCopy = [&](int i) { CK(cudaMemcpyAsync(i & 1 ? copyB : copyA, src[i & 1], copyBytes, cudaMemcpyDeviceToDevice, st)); };
        const float tOld = timeIt(runOld, st), tNew = timeIt(runNew, st), tCopy = timeIt(runCopy, st);
        CK(cudaMemsetAsync(dstOld, 0x11, dstBytes, st));
        CK(cudaMemsetAsync(dstNew, 0x22, dstBytes, st));
        runOld(0);
        runNew(0);
        CK(cudaStreamSynchronize(st));
        std::vector<unsigned char> a(dstBytes), b(dstBytes);
        CK(cudaMemcpy(a.data(), dstOld, dstBytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), dstNew, dstBytes, cudaMemcpyDeviceToHost));
        int64_t differing = 0;
        for (size_t i = 0; i < dstBytes; i += size_t(elem)) differing += std::memcmp(&a[i], &b[i], size_t(elem)) != 0;
        std::printf("%-30s %9.1f %9.1f %9.1f %10lld\n", c.name, tOld, tNew, tCopy, (long long)differing);
    }
    CK(cudaStreamDestroy(st));
    return 0;
}
