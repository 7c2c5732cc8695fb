// A/B probe of candidate changes to the fused pass's pair kernel (kernels/resize_fused.cu, fusedPairsKernel) on the
// benchmark's ImageNet chain (bench/run.py's resize_crop_convert_reformat rows: 32x1080x1920x3 uint8 NHWC -> 256x256
// LINEAR -> crop 224 at (16, 16) -> /255, ImageNet mean/std -> float32 NCHW), timed the way the benchmark times it:
//  - every buffer set has its own source AND its own output (fused_paths.cu writes every call into one output, so
//    the previous call's output lines could still sit in L2, dirty, when the next call wrote them again: fewer
//    write-backs than the benchmark pays), FUSED_CAND_SETS sets (default 2, bench/run.py's set_count for this row);
//  - 40 calls a batch queued behind a spin kernel (the benchmark queues ~43 behind torch.cuda._sleep), so the calls
//    run back to back and the batch holds ~40 kernel boundaries; median of 9 batches (probe_timing.cuh, timeIt);
//  - FUSED_CAND_ROUNDS rounds (default 3) over all rows, forward then backward, each row's figure the median of its
//    rounds, and its difference to the baseline (the library's launchResizeFusedPairs) measured in the same round.
// Candidates (all compute the pair path's values with its own functions: pairTaps, fetchPairs / pairWordsOf +
// shiftPair, pairValues, fusedValue):
//  - "cand 32x4": the probe's copy of fusedPairsKernel (must time as the library's row: a check of the probe);
//  - PDL: the same kernel launched with programmatic stream serialization (cudaLaunchKernelEx, attribute
//    cudaLaunchAttributeProgrammaticStreamSerialization): the next call's blocks are dispatched while this call drains
//    and compute their taps, then wait (griddepcontrol.wait) before any global load or store until this grid has
//    completed and its memory is visible; "trig" also signals griddepcontrol.launch_dependents at the kernel's top
//    (the dependents launch once every block of this grid has started), without it they launch as this grid's blocks
//    exit. "+ev" rows record a CUDA event after every call (as the library's hazard engine may), to see whether the
//    overlap survives one;
//  - block shapes 32x2, 32x8, 16x16 (the reference's resizeCrop_bilinear block; Nsight Compute on a flushed L2 had
//    the probe's 16x16 per-pixel kernel at 25.25 µs against the pair kernel's 28.96, logs/ncu-fused-ours.log), 64x2;
//  - load hints: L1::no_allocate (the variant fused_paths.cu put 1.3 µs ahead and the benchmark 1.5 µs behind: with
//    outputs rotated this probe should agree with the benchmark), L2::evict_first through a createpolicy cache hint
//    (the source is read once; the output's dirty lines then stay in L2 longer);
//  - streaming (.cs, evict-first) output stores.
// Also: the library's launchResizeFused (the pair path for this shape) and staged variant 2 (H200-chosen; never
// timed on an H100), the baseline and L1::no_allocate with fused_paths.cu's single output ("1dst", to show whether
// that explains the old probe's disagreement with the benchmark), and a copy of the chain's DRAM bytes (73.4 MB read
// + 19.3 MB written, as cudaMemcpyAsync of half their sum).
// Checks (exit 1 on any mismatch): every candidate's output bit-identical to launchResizeFusedPairs' on the ImageNet
// chain with and without mean/std, unrounded (srcCast off) and float16, and on untimed odd shapes (1, 2, 4 channels,
// NHWC output, padded rows, odd crops, a crop reaching the right border, an enlargement); the PDL variants also on a
// chain of 9 back-to-back launches alternating two sources into one output (a missing wait would let an earlier
// call's late stores land after the last call's). FUSED_CAND_NCU=1 launches each timed row once on the ImageNet chain
// and exits, for Nsight Compute.
// Build and run from the repository root (~40 s to build, ~15 s to run on an H100):
//   nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 20013 -I kernels -I include -o /tmp/fused_candidates \
//     bench/probes/fused_candidates.cu kernels/resize_fused.cu kernels/resize_band.cu && /tmp/fused_candidates
#include "fused_case.cuh"
#include "probe_timing.cuh"
#include "resize.hpp"
#include "resize_fused_pairs.cuh"
#include "resize_launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace cvk;
using fusedprobe::Case;
using fusedprobe::differsFromPairs;
using fusedprobe::differingValues;
using fusedprobe::dstBytesOf;
using fusedprobe::paramsOf;

namespace {

using resize::Mapping;
using resize::PairLoad;
using resize::PairTaps;
using resize::PairWords;
using resize::PixelPair;

enum LoadHint { kLdg = 0, kNoAllocate = 1, kEvictFirst = 2 };

// One aligned source word with the load hint: __ldg (the library's loadWord), ld.global.nc.L1::no_allocate, or
// ld.global.nc with an L2::evict_first cache policy.
template <int Hint> __device__ __forceinline__ uint32_t hintWord(const uint8_t *p, uint64_t policy) {
    uint32_t v;
    if constexpr (Hint == kLdg) {
        v = __ldg(reinterpret_cast<const unsigned int *>(p));
    } else if constexpr (Hint == kNoAllocate) {
        asm volatile("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(p));
    } else {
        asm volatile("ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(policy));
    }
    return v;
}

// resize::loadPairWords with the hint.
template <int C, int Hint> __device__ __forceinline__ PairLoad hintPairWords(const uint8_t *row, const PairWords &w, uint64_t policy) {
    constexpr int kMaxWords = (3 + 2 * C + 3) / 4;
    const uint8_t *p = row + w.first;
    PairLoad l{hintWord<Hint>(p, policy), w.words > 1 ? hintWord<Hint>(p + 4, policy) : 0u, 0u};
    if constexpr (kMaxWords > 2)
        if (w.words > 2) l.c = hintWord<Hint>(p + 8, policy);
    return l;
}

// The pair kernel (fusedPairsKernel) in BX x BY blocks, one pixel of one image a thread, with a load hint, plain or
// streaming stores (CS), and Pdl: 0 none, 1 griddepcontrol.wait before the first global access, 2 also
// griddepcontrol.launch_dependents first thing. With Hint == kLdg the fetch is resize::fetchPairs itself, so
// "cand 32x4" is the library's kernel.
template <bool Half, int C, int BX, int BY, int Hint, bool CS, int Pdl>
__global__ void __launch_bounds__(BX *BY) candKernel(FusedParams p, Mapping m) {
    if constexpr (Pdl == 2) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    const int32_t x = static_cast<int32_t>(blockIdx.x) * BX + static_cast<int32_t>(threadIdx.x);
    const int32_t y = static_cast<int32_t>(blockIdx.y) * BY + static_cast<int32_t>(threadIdx.y);
    if (x >= p.dst.shape[kW] || y >= p.dst.shape[kH]) return;
    const int64_t n = blockIdx.z;
    const PairTaps tx = resize::pairTaps(m.x, x + p.cropX), ty = resize::pairTaps(m.y, y + p.cropY);
    const int64_t rowBytes = int64_t(m.x.src) * C;
    const char *image = p.src.data + n * p.src.stride[kN];
    const auto *row0 = reinterpret_cast<const uint8_t *>(image + ty.i0 * p.src.stride[kH]);
    const auto *row1 = reinterpret_cast<const uint8_t *>(image + ty.i1 * p.src.stride[kH]);
    char *out = p.dst.data + n * p.dst.stride[kN] + int64_t(y) * p.dst.stride[kH] + int64_t(x) * p.dst.stride[kW];
    PixelPair r0, r1;
    if constexpr (Hint == kLdg) {
        if constexpr (Pdl != 0) asm volatile("griddepcontrol.wait;" ::: "memory");
        resize::fetchPairs<C>(row0, row1, rowBytes, tx.i0, tx.i1, r0, r1);
    } else {
        uint64_t policy = 0;
        if constexpr (Hint == kEvictFirst) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
        const PairWords w0 = resize::pairWordsOf<C>(row0, rowBytes, tx.i0, tx.i1), w1 = resize::pairWordsOf<C>(row1, rowBytes, tx.i0, tx.i1);
        if constexpr (Pdl != 0) asm volatile("griddepcontrol.wait;" ::: "memory");
        if (w0.words == 0 || w1.words == 0) {
            r0 = resize::fetchPair<C>(row0, rowBytes, tx.i0, tx.i1);
            r1 = resize::fetchPair<C>(row1, rowBytes, tx.i0, tx.i1);
        } else {
            const PairLoad l0 = hintPairWords<C, Hint>(row0, w0, policy), l1 = hintPairWords<C, Hint>(row1, w1, policy);
            r0 = resize::shiftPair(l0, w0);
            r1 = resize::shiftPair(l1, w1);
        }
    }
    float v[C];
    resize::pairValues<C>(r0, r1, tx, ty, p.srcCast, v);
#pragma unroll
    for (int o = 0; o < C; ++o) {
        char *to = out + o * p.dst.stride[kC];
        const float q = resize::fusedValue(p, o, p.reverseChannels ? v[C - 1 - o] : v[o]);
        if constexpr (!CS) {
            resize::storeOut<Half>(to, q);
        } else if constexpr (Half) {
            __stcs(reinterpret_cast<__half *>(to), __float2half_rn(q));
        } else {
            __stcs(reinterpret_cast<float *>(to), q);
        }
    }
}

using CandKernel = void (*)(FusedParams, Mapping);

template <int BX, int BY, int Hint, bool CS, int Pdl> CandKernel candKernelOf(const FusedParams &q) {
    const CandKernel table[2][4] = {
        {&candKernel<false, 1, BX, BY, Hint, CS, Pdl>, &candKernel<false, 2, BX, BY, Hint, CS, Pdl>, &candKernel<false, 3, BX, BY, Hint, CS, Pdl>,
         &candKernel<false, 4, BX, BY, Hint, CS, Pdl>},
        {&candKernel<true, 1, BX, BY, Hint, CS, Pdl>, &candKernel<true, 2, BX, BY, Hint, CS, Pdl>, &candKernel<true, 3, BX, BY, Hint, CS, Pdl>,
         &candKernel<true, 4, BX, BY, Hint, CS, Pdl>},
    };
    return table[q.halfOut][q.src.shape[kC] - 1];
}

// One launch over the whole crop (the probe's shapes fit one grid); Pdl > 0 through cudaLaunchKernelEx with
// programmatic stream serialization allowed.
template <int BX, int BY, int Hint, bool CS, int Pdl> void launchCand(const FusedParams &q, cudaStream_t st) {
    const int64_t gy = (q.dst.shape[kH] + BY - 1) / BY;
    if (gy > 65535 || q.dst.shape[kN] > 65535) {
        std::printf("launchCand: grid too large\n");
        std::exit(1);
    }
    const dim3 grid(unsigned((q.dst.shape[kW] + BX - 1) / BX), unsigned(gy), unsigned(q.dst.shape[kN])), block(BX, BY);
    const Mapping m = resize::mappingOf(q.src, q.resizeH, q.resizeW, q.interp);
    const CandKernel k = candKernelOf<BX, BY, Hint, CS, Pdl>(q);
    if constexpr (Pdl == 0) {
        k<<<grid, block, 0, st>>>(q, m);
        CK(cudaGetLastError());
    } else {
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = grid;
        cfg.blockDim = block;
        cfg.dynamicSmemBytes = 0;
        cfg.stream = st;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        CK(cudaLaunchKernelEx(&cfg, k, q, m));
    }
}


struct Variant {
    std::string name;
    std::function<void(const FusedParams &, cudaStream_t)> run;
    bool candidate = true; // a kernel of this file (checked on the odd shapes too)
    bool pdl = false;      // also checked on the back-to-back chain
};

cudaEvent_t gAfterCall = nullptr; // the "+ev" rows' event, recorded after every call

template <class F> std::function<void(const FusedParams &, cudaStream_t)> withEvent(F f) {
    return [f](const FusedParams &q, cudaStream_t st) {
        f(q, st);
        CK(cudaEventRecord(gAfterCall, st));
    };
}

std::vector<Variant> variants() {
    std::vector<Variant> v;
    v.push_back({"lib pairs (baseline)", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFusedPairs(q, s)); }, false});
    v.push_back({"lib launchResizeFused", [](const FusedParams &q, cudaStream_t s) { CK(launchResizeFused(q, s)); }, false});
    v.push_back({"lib staged2", [](const FusedParams &q, cudaStream_t s) {
                     FusedStagedShape shape{};
                     if (!planFusedStaged(q, shape, 2)) {
                         CK(launchResizeFusedPairs(q, s)); // shapes the staged path does not take (odd checks only)
                         return;
                     }
                     CK(launchResizeFusedStaged(q, shape, s));
                 },
                 false});
    v.push_back({"cand 32x4 (main's copy)", &launchCand<32, 4, kLdg, false, 0>});
    v.push_back({"cand 32x4 PDL", &launchCand<32, 4, kLdg, false, 1>, true, true});
    v.push_back({"cand 32x4 PDL trig", &launchCand<32, 4, kLdg, false, 2>, true, true});
    v.push_back({"cand 32x4 +ev", withEvent(&launchCand<32, 4, kLdg, false, 0>)});
    v.push_back({"cand 32x4 PDL trig +ev", withEvent(&launchCand<32, 4, kLdg, false, 2>), true, true});
    v.push_back({"cand 32x2", &launchCand<32, 2, kLdg, false, 0>});
    v.push_back({"cand 32x8", &launchCand<32, 8, kLdg, false, 0>});
    v.push_back({"cand 16x16", &launchCand<16, 16, kLdg, false, 0>});
    v.push_back({"cand 64x2", &launchCand<64, 2, kLdg, false, 0>});
    v.push_back({"cand 16x16 PDL trig", &launchCand<16, 16, kLdg, false, 2>, true, true});
    v.push_back({"cand 32x4 L1:no_alloc", &launchCand<32, 4, kNoAllocate, false, 0>});
    v.push_back({"cand 32x4 L2:evict_first", &launchCand<32, 4, kEvictFirst, false, 0>});
    v.push_back({"cand 32x4 cs stores", &launchCand<32, 4, kLdg, true, 0>});
    v.push_back({"cand 32x4 L2:ef PDL trig", &launchCand<32, 4, kEvictFirst, false, 2>, true, true});
    return v;
}

// A PDL variant's chain: 9 launches back to back into one output, sources alternating, the last from `last`; its
// output must be the pair path's of `last`.
int64_t chainMismatches(const Variant &v, const FusedParams &first, const FusedParams &last, char *dstRef, char *dstVar, cudaStream_t st) {
    const size_t bytes = dstBytesOf(last);
    const int64_t elem = last.halfOut ? 2 : 4;
    FusedParams a = first, b = last, r = last;
    a.dst.data = b.dst.data = dstVar;
    r.dst.data = dstRef;
    CK(launchResizeFusedPairs(r, st));
    CK(cudaMemsetAsync(dstVar, 0x22, bytes, st));
    for (int i = 0; i < 9; ++i) v.run(i % 2 == 0 ? b : a, st);
    CK(cudaStreamSynchronize(st));
    return differingValues(dstRef, dstVar, bytes, elem);
}

// The DRAM bytes the chain must move: each crop row's two source rows over the 64-byte chunks its taps touch (Nsight
// Compute: 73.42 MB read on H100 and H200), plus the output.
size_t chainBytes(const FusedParams &p) {
    const Mapping m = resize::mappingOf(p.src, p.resizeH, p.resizeW, p.interp);
    const int64_t c = p.src.shape[kC];
    const int64_t lo = int64_t(resize::pairTaps(m.x, p.cropX).i0) * c;
    const resize::PairTaps last = resize::pairTaps(m.x, p.cropX + int32_t(p.dst.shape[kW]) - 1);
    const int64_t hi = (int64_t(last.i1) + 1) * c;
    const int64_t segment = ((hi + 63) / 64 - lo / 64) * 64;
    int64_t rows = 0;
    for (int32_t y = 0; y < p.dst.shape[kH]; ++y) {
        const resize::PairTaps t = resize::pairTaps(m.y, y + p.cropY);
        rows += t.i0 == t.i1 ? 1 : 2;
    }
    return size_t(p.src.shape[kN] * rows * segment) + dstBytesOf(p);
}

int envInt(const char *name, int fallback, int lo, int hi) {
    const char *s = std::getenv(name);
    return s ? std::max(lo, std::min(hi, std::atoi(s))) : fallback;
}

float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

} // namespace

int main() {
    const int sets = envInt("FUSED_CAND_SETS", 2, 1, 8), rounds = envInt("FUSED_CAND_ROUNDS", 3, 1, 9);
    const int calls = envInt("FUSED_CAND_CALLS", 40, 5, 200);
    const bool ncu = std::getenv("FUSED_CAND_NCU") != nullptr;
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device %s, %d SMs, L2 %d MiB; %d buffer sets, %d calls a batch, %d rounds\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20, sets, calls, rounds);

    const Case chain = {"imagenet_f32_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, false, true, true};
    const size_t srcBytes = size_t(chain.n * chain.h * chain.w * chain.c) + 64 * 1024; // + room for the odd shapes' padding
    const size_t dstBytes = size_t(chain.n * chain.c * chain.crop * chain.crop * 4);
    std::vector<uint8_t *> src(sets);
    std::vector<char *> dst(sets);
    for (int i = 0; i < sets; ++i) {
        CK(cudaMalloc(&src[i], srcBytes));
        CK(cudaMalloc(&dst[i], dstBytes));
        fillRandom<<<1024, 256>>>(src[i], srcBytes, 1 + 76 * uint64_t(i));
    }
    uint8_t *src2 = nullptr; // a second source for the chains when sets == 1
    if (sets == 1) {
        CK(cudaMalloc(&src2, srcBytes));
        fillRandom<<<1024, 256>>>(src2, srcBytes, 77);
    }
    char *dstRef, *dstVar;
    CK(cudaMalloc(&dstRef, dstBytes));
    CK(cudaMalloc(&dstVar, dstBytes));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&gAfterCall, cudaEventDisableTiming));

    std::vector<FusedParams> ps(sets), one(sets);
    for (int i = 0; i < sets; ++i) {
        ps[i] = paramsOf(chain, src[i], dst[i]);
        one[i] = paramsOf(chain, src[i], dst[0]); // fused_paths.cu's way: one output for every set
    }
    const std::vector<Variant> vs = variants();

    if (ncu) { // one launch of each row on the chain, for Nsight Compute
        for (const Variant &v : vs) v.run(ps[0], st);
        CK(cudaStreamSynchronize(st));
        return 0;
    }

    bool failed = false;
    // Bit-identity on the timed chain and its neighbours, before any timing.
    const Case checked[] = {
        chain,
        {"imagenet_f32_nchw_plain", 32, 1080, 1920, 3, 256, 224, 16, true, false, false, true},
        {"imagenet_f32_nchw_unrounded", 32, 1080, 1920, 3, 256, 224, 16, false, false, true, true},
        {"imagenet_f16_nchw_norm", 32, 1080, 1920, 3, 256, 224, 16, true, true, true, true},
    };
    const Case odd[] = {
        {"odd_crop_221x223_at_17x15", 3, 1080, 1920, 3, 256, 0, 15, true, false, true, true, 223, 221, 17},
        {"odd_nhwc_out", 3, 1080, 1920, 3, 256, 224, 16, true, false, true, false},
        {"odd_1ch_101x160_pad16", 5, 101, 160, 1, 70, 0, 5, false, false, true, true, 41, 50, 3, 16},
        {"odd_2ch_97x200_f16", 4, 97, 200, 2, 64, 0, 2, true, true, true, true, 37, 61, 9, 0},
        {"odd_4ch_enlarge_40x56", 2, 40, 56, 4, 100, 0, 1, true, false, false, true, 90, 97, 4, 0},
        {"odd_3ch_right_border", 2, 300, 480, 3, 128, 0, 0, true, false, true, true, 128, 128, 0, 0},
    };
    std::printf("%-30s %-28s %10s\n", "check", "variant", "mismatches");
    for (const Case &c : checked)
        for (const Variant &v : vs) {
            const int64_t bad = differsFromPairs(v.run, paramsOf(c, src[0], dstVar), dstRef, dstVar, st);
            failed |= bad != 0;
            std::printf("%-30s %-28s %10lld\n", c.name, v.name.c_str(), (long long)bad);
        }
    for (const Case &c : odd)
        for (const Variant &v : vs) {
            if (!v.candidate) continue;
            const int64_t bad = differsFromPairs(v.run, paramsOf(c, src[0], dstVar), dstRef, dstVar, st);
            failed |= bad != 0;
            std::printf("%-30s %-28s %10lld\n", c.name, v.name.c_str(), (long long)bad);
        }
    for (const Variant &v : vs) {
        if (!v.pdl) continue;
        const FusedParams a = paramsOf(chain, src[0], dstVar), b = paramsOf(chain, sets > 1 ? src[1] : src2, dstVar);
        const int64_t bad = chainMismatches(v, a, b, dstRef, dstVar, st);
        failed |= bad != 0;
        std::printf("%-30s %-28s %10lld\n", "pdl_chain_9_launches", v.name.c_str(), (long long)bad);
    }

    // Timing rows: every variant with each set's own output, then two with one output for every set.
    struct Row {
        std::string name;
        std::function<void(const FusedParams &, cudaStream_t)> run;
        const std::vector<FusedParams> *params;
    };
    std::vector<Row> rows;
    for (const Variant &v : vs) rows.push_back({v.name, v.run, &ps});
    rows.push_back({"lib pairs 1dst", vs[0].run, &one});
    for (const Variant &v : vs)
        if (v.name == "cand 32x4 L1:no_alloc") rows.push_back({v.name + " 1dst", v.run, &one});

    // The copy: half of the chain's DRAM bytes copied (read and written), sources rotated, two destinations.
    const size_t moved = chainBytes(ps[0]), copyBytes = moved / 2;
    char *copyTo[2];
    for (auto &c : copyTo) CK(cudaMalloc(&c, copyBytes));
    const uint64_t spinNs = 8000; // per call: the host's enqueue of ~40 launches stays ahead of the GPU
    std::vector<float> copyUs;
    std::vector<std::vector<float>> us(rows.size()), delta(rows.size());
    for (int r = 0; r < rounds; ++r) {
        copyUs.push_back(timeIt([&](int i) { CK(cudaMemcpyAsync(copyTo[i & 1], src[i % sets], copyBytes, cudaMemcpyDeviceToDevice, st)); }, st, calls,
                                spinNs));
        std::vector<float> t(rows.size());
        for (size_t k = 0; k < rows.size(); ++k) {
            const size_t j = r % 2 == 0 ? k : rows.size() - 1 - k;
            const Row &row = rows[j];
            t[j] = timeIt([&](int i) { row.run((*row.params)[i % sets], st); }, st, calls, spinNs);
        }
        for (size_t j = 0; j < rows.size(); ++j) us[j].push_back(t[j]), delta[j].push_back(t[j] - t[0]);
    }
    const float tCopy = median(copyUs);
    std::printf("\n%s: %.2f MB of DRAM traffic (source chunks read + output written)\n", chain.name, moved / 1e6);
    std::printf("%-30s %9s %9s %9s %8s   %s\n", "row", "us", "vs_base", "GB/s", "x_copy", "rounds (us)");
    std::printf("%-30s %9.2f %9s %9.0f %8.3f   ", "copy (half the bytes)", tCopy, "-", moved / (tCopy * 1e3), 1.0);
    for (float x : copyUs) std::printf("%.2f ", x);
    std::printf("\n");
    for (size_t j = 0; j < rows.size(); ++j) {
        const float t = median(us[j]);
        std::printf("%-30s %9.2f %+9.2f %9.0f %8.3f   ", rows[j].name.c_str(), t, median(delta[j]), moved / (t * 1e3), t / tCopy);
        for (float x : us[j]) std::printf("%.2f ", x);
        std::printf("\n");
    }
    CK(cudaEventDestroy(gAfterCall));
    CK(cudaStreamDestroy(st));
    if (failed) std::printf("FAILED: some variant's output differs from the pair path's\n");
    return failed ? 1 : 0;
}
