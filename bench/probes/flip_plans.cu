// Microbenchmark of flip plans on single images and the benchmark's batches (GPU time per call, CUDA events, median of
// 9 batches of calls queued back to back behind a spin kernel, so launch and tail time count and host time does not;
// 4 buffer sets rotated): launchFlip as the
// library builds it ("as built"), main's warp-unit paths (planFlipKernel with the flat path off), the flat path with
// one 16-byte vector or one pixel group per thread, and the same per-thread work (flip_thread.cuh, flipFlatItem)
// under other launch shapes (fixed block sizes, two items a thread), against a cudaMemcpyAsync of the same bytes.
// Every variant's output is compared byte for byte with main's path, and main's path with a CPU mirror; odd shapes,
// other pixel sizes, pitched rows and 1x1 images are checked untimed. Exit 1 on any mismatch. Not part of the build:
// bench/probes/README.md.
#include "copy.hpp"
#include "flip.hpp"
#include "flip_thread.cuh"
#include "probe_timing.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace cvk;

namespace {

// The flat path's per-thread work under a fixed block of B threads, U items a thread (block-strided).
template <int P, int ItemBytes, int B, int U> __global__ void __launch_bounds__(B) flatShaped(FlipParams p, int64_t rowBytes, int64_t items) {
    for (int64_t base = int64_t(blockIdx.x) * B * U + threadIdx.x; base < items; base += int64_t(gridDim.x) * B * U) {
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (base + u * B < items) flip::flipFlatItem<P, ItemBytes>(p, rowBytes, base + u * B);
    }
}

template <int P, int ItemBytes, int B, int U> void launchShaped(const FlipPlan &plan, cudaStream_t st) {
    const FlipParams &p = plan.params;
    const int64_t rowBytes = p.shape[kWidth] * P;
    const int64_t items = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight] * (rowBytes / ItemBytes);
    const int64_t grid = std::min<int64_t>((items + B * U - 1) / (B * U), int64_t(1) << 20);
    flatShaped<P, ItemBytes, B, U><<<unsigned(grid), B, 0, st>>>(p, rowBytes, items);
}

struct Shape {
    int64_t n, h, w, c;
    int elemSize, flipCode;
    int64_t srcPad; // bytes after each src row
    bool timed;
};

FlipParams nhwc(const Shape &s, const char *src, char *dst) {
    FlipParams p{};
    p.src = src;
    p.dst = dst;
    const int64_t row = s.w * s.c * s.elemSize, srow = row + s.srcPad;
    const int64_t shape[5] = {1, s.n, s.h, s.w, s.c};
    const int64_t ds[5] = {s.n * s.h * row, s.h * row, row, s.c * s.elemSize, s.elemSize};
    const int64_t ss[5] = {s.n * s.h * srow, s.h * srow, srow, s.c * s.elemSize, s.elemSize};
    for (int i = 0; i < 5; ++i) p.shape[i] = shape[i], p.dstStrides[i] = ds[i], p.srcStrides[i] = ss[i];
    p.elemSize = s.elemSize;
    p.flipRows = s.flipCode <= 0;
    p.flipCols = s.flipCode != 0;
    return p;
}

// The expected dst of a flip of packed-pixel rows (src rows pitched by srcPad).
std::vector<uint8_t> cpuFlip(const Shape &s, const std::vector<uint8_t> &src) {
    const int64_t P = s.c * s.elemSize, row = s.w * P, srow = row + s.srcPad;
    std::vector<uint8_t> out(size_t(s.n * s.h * row));
    for (int64_t i = 0; i < s.n; ++i)
        for (int64_t y = 0; y < s.h; ++y) {
            const int64_t sy = s.flipCode <= 0 ? s.h - 1 - y : y;
            const uint8_t *sr = src.data() + (i * s.h + sy) * srow;
            uint8_t *dr = out.data() + (i * s.h + y) * row;
            for (int64_t x = 0; x < s.w; ++x) {
                const int64_t sx = s.flipCode != 0 ? s.w - 1 - x : x;
                std::memcpy(dr + x * P, sr + sx * P, size_t(P));
            }
        }
    return out;
}

enum class Kind { AsBuilt, Main, FlatVector, FlatGroup, Shaped, RowCopy };
struct Variant {
    const char *name;
    Kind kind;
    void (*shaped)(const FlipPlan &, cudaStream_t); // Kind::Shaped, for 3-byte pixels only
};

const Variant kVariants[] = {
    {"launchFlip as built", Kind::AsBuilt, nullptr},
    {"main: warp units", Kind::Main, nullptr},
    {"row copy kernel", Kind::RowCopy, nullptr},
    {"flat, 16-byte items", Kind::FlatVector, nullptr},
    {"flat, group items", Kind::FlatGroup, nullptr},
    {"flat 16B items, B256 U1", Kind::Shaped, &launchShaped<3, 16, 256, 1>},
    {"flat 16B items, B128 U1", Kind::Shaped, &launchShaped<3, 16, 128, 1>},
    {"flat 16B items, B64 U1", Kind::Shaped, &launchShaped<3, 16, 64, 1>},
    {"flat 16B items, B256 U2", Kind::Shaped, &launchShaped<3, 16, 256, 2>},
    {"flat group items, B256 U1", Kind::Shaped, &launchShaped<3, 48, 256, 1>},
    {"flat group items, B128 U1", Kind::Shaped, &launchShaped<3, 48, 128, 1>},
    {"flat group items, B64 U1", Kind::Shaped, &launchShaped<3, 48, 64, 1>},
    {"flat group items, B256 U2", Kind::Shaped, &launchShaped<3, 48, 256, 2>},
};

const char *pathName(FlipPath p) {
    switch (p) {
    case FlipPath::Nothing: return "Nothing";
    case FlipPath::RowCopy: return "RowCopy";
    case FlipPath::AlignedRows: return "AlignedRows";
    case FlipPath::ColumnGroups: return "ColumnGroups";
    case FlipPath::ColumnRows: return "ColumnRows";
    case FlipPath::ColumnFlat: return "ColumnFlat";
    case FlipPath::ColumnUnits: return "ColumnUnits";
    case FlipPath::Generic: return "Generic";
    }
    return "?";
}

// The plan a variant launches, or false where it does not apply to the case.
bool variantPlan(const Variant &v, const FlipParams &p, FlipPlan &plan) {
    switch (v.kind) {
    case Kind::AsBuilt: plan = planFlipKernel(p); return true;
    case Kind::Main: plan = planFlipKernel(p, 0); return true;
    case Kind::RowCopy: // an aligned vertical flip on the row copy kernel, which took those over 32 MiB before
        plan = planFlipKernel(p);
        if (p.flipCols || plan.path != FlipPath::AlignedRows) return false;
        plan.path = FlipPath::RowCopy; // plan.unitBytes is the row copy's vector size, set before AlignedRows
        return true;
    default: break;
    }
    plan = planFlipKernel(p, INT64_MAX);
    if (plan.path != FlipPath::ColumnFlat) return false;
    const int G = flip::groupBytes(int(plan.pixelBytes));
    switch (v.kind) {
    case Kind::FlatVector: plan.unitBytes = 16; return G != 16; // for 16-byte groups both are the group
    case Kind::FlatGroup: plan.unitBytes = G; return true;
    default: return plan.pixelBytes == 3;
    }
}

// launchFlip as built is called as the library calls it (planning included) on the original view.
void launchVariant(const Variant &v, const FlipParams &p, const FlipPlan &plan, cudaStream_t st) {
    if (v.kind == Kind::AsBuilt) CK(launchFlip(p, st));
    else if (v.kind == Kind::Shaped) v.shaped(plan, st);
    else CK(launchFlipPlan(plan, st));
}

} // namespace

int main() {
    const Shape shapes[] = {
        {1, 224, 224, 3, 1, 1, 0, true},    {1, 224, 224, 3, 1, 0, 0, true},    {1, 224, 224, 3, 1, -1, 0, true},
        {1, 1080, 1920, 3, 1, 1, 0, true},  {1, 1080, 1920, 3, 1, 0, 0, true},  {1, 1080, 1920, 3, 1, -1, 0, true},
        {256, 224, 224, 3, 1, 1, 0, true},  {32, 1080, 1920, 3, 1, 1, 0, true}, {32, 1080, 1920, 3, 1, -1, 0, true},
        {256, 224, 224, 3, 1, 0, 0, true},  {256, 224, 224, 3, 1, -1, 0, true}, {32, 1080, 1920, 3, 1, 0, 0, true},
        // Untimed: odd sizes, other pixel sizes (1, 2, 4, 6, 8, 12, 16, 24, 48 bytes), pitched src rows, 1x1.
        {1, 223, 221, 3, 1, 1, 0, false},   {1, 223, 221, 3, 1, -1, 0, false},  {1, 1, 1, 3, 1, 1, 0, false},
        {1, 1, 1, 3, 1, -1, 0, false},      {1, 1, 16, 3, 1, 1, 0, false},      {3, 7, 16, 3, 1, -1, 0, false},
        {1, 224, 224, 4, 1, 1, 0, false},   {1, 224, 224, 4, 1, -1, 0, false},  {1, 224, 224, 3, 2, 1, 0, false},
        {1, 224, 224, 3, 2, -1, 0, false},  {2, 37, 64, 1, 1, 1, 0, false},     {2, 37, 64, 1, 2, 1, 0, false},
        {2, 37, 64, 2, 4, 1, 0, false},     {2, 37, 64, 3, 4, 1, 0, false},     {2, 37, 64, 4, 4, 1, 0, false},
        {2, 37, 64, 3, 8, 1, 0, false},     {2, 37, 64, 3, 16, 1, 0, false},    {2, 37, 64, 3, 16, -1, 0, false},
        {4, 33, 224, 3, 1, 1, 32, false},   {4, 33, 224, 3, 1, -1, 32, false},  {4, 33, 224, 3, 1, 0, 32, false},
        {2, 300, 1920, 3, 1, 1, 0, false},  {1, 1, 32768, 3, 1, 1, 0, false},
    };
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int64_t failures = 0;
    std::printf("%-34s %-26s %-13s %10s %8s %10s\n", "case", "variant", "path", "us/call", "x copy", "mismatches");
    for (const Shape &s : shapes) {
        const int64_t P = s.c * s.elemSize;
        const int64_t srcBytes = s.n * s.h * (s.w * P + s.srcPad), dstBytes = s.n * s.h * s.w * P;
        const int sets = s.timed ? 4 : 1;
        std::vector<char *> src(sets), dst(sets);
        for (int i = 0; i < sets; ++i) {
            CK(cudaMalloc(&src[i], size_t(srcBytes) + 16));
            CK(cudaMalloc(&dst[i], size_t(dstBytes) + 16));
            CK(cudaMemset(src[i], 0x5A, size_t(srcBytes) + 16));
            fillRandom<<<1024, 256, 0, st>>>(reinterpret_cast<uint8_t *>(src[i]), size_t(srcBytes), 1234 + i);
            CK(cudaGetLastError());
        }
        std::vector<uint8_t> hostSrc(static_cast<size_t>(srcBytes)), baseline(static_cast<size_t>(dstBytes)), got(static_cast<size_t>(dstBytes));
        CK(cudaMemcpyAsync(hostSrc.data(), src[0], size_t(srcBytes), cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        char name[64];
        std::snprintf(name, sizeof name, "%lldx%lldx%lldx%lld e%d fc%d%s", (long long)s.n, (long long)s.h, (long long)s.w,
                      (long long)s.c, s.elemSize, s.flipCode, s.srcPad ? " pitched" : "");
        float copyUs = 0;
        const int calls = dstBytes < (int64_t(8) << 20) ? 200 : dstBytes < (int64_t(64) << 20) ? 40 : 8;
        if (s.timed) {
            copyUs = timeIt([&](int i) { CK(cudaMemcpyAsync(dst[i % 4], src[i % 4], size_t(dstBytes), cudaMemcpyDeviceToDevice, st)); }, st, calls, 8000);
            std::printf("%-34s %-26s %-13s %10.2f %8.2f %10s\n", name, "cudaMemcpyAsync", "-", copyUs, 1.0, "-");
        }
        for (const Variant &v : kVariants) {
            FlipPlan plan;
            const FlipParams p0 = nhwc(s, src[0], dst[0]);
            if (!variantPlan(v, p0, plan)) continue;
            CK(cudaMemsetAsync(dst[0], 0xA5, size_t(dstBytes), st));
            launchVariant(v, p0, plan, st);
            CK(cudaGetLastError());
            CK(cudaMemcpyAsync(got.data(), dst[0], size_t(dstBytes), cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
            // launchFlip as built and main's path against the CPU mirror; every other variant against main's bytes.
            const bool cpu = v.kind == Kind::AsBuilt || v.kind == Kind::Main;
            const std::vector<uint8_t> expected = cpu ? cpuFlip(s, hostSrc) : baseline;
            int64_t bad = 0;
            for (size_t i = 0; i < got.size(); ++i) bad += expected[i] != got[i];
            if (v.kind == Kind::Main) baseline = got;
            failures += bad;
            if (!s.timed) {
                std::printf("%-34s %-26s %-13s %10s %8s %10lld\n", name, v.name, pathName(plan.path), "-", "-", (long long)bad);
                continue;
            }
            std::vector<FlipParams> params(4);
            std::vector<FlipPlan> plans(4);
            for (int i = 0; i < 4; ++i) params[i] = nhwc(s, src[i], dst[i]), variantPlan(v, params[i], plans[i]);
            const float us = timeIt([&](int i) { launchVariant(v, params[i % 4], plans[i % 4], st); }, st, calls, 8000);
            CK(cudaGetLastError());
            std::printf("%-34s %-26s %-13s %10.2f %8.2f %10lld\n", name, v.name, pathName(plan.path), us, us / copyUs, (long long)bad);
        }
        for (int i = 0; i < sets; ++i) {
            CK(cudaFree(src[i]));
            CK(cudaFree(dst[i]));
        }
    }
    std::printf("%s: %lld mismatched bytes in all\n", failures ? "FAIL" : "OK", (long long)failures);
    return failures ? 1 : 0;
}
