// Microbenchmark of crop launch plans (GPU time per call, CUDA events, median of 9 batches after a warm-up, buffer
// sets rotated): launchCopy as it is ("current plan"), the warp-tile span kernel of common/warp_tile.cuh
// with 1, 2 or 4 units per lane, a cudaMemcpy3DAsync of the whole crop, and variants of the flat launch of aligned
// 16-byte blocks (the rows it can take: block size, units per thread, streaming cache hints, a grid of a few blocks
// per SM striding over the units), against a cudaMemcpyAsync of the output's bytes. The memcpy2D column is a
// cudaMemcpy2DAsync of the rows for comparison (its rows are right for one image only). Vertical flips of whole
// images (flipCode 0 of the 1- and 8-image and 224x224 sources) run the same flat variants. Not part of the build:
// bench/probes/README.md. Calls per timed batch: 5 for batches of 8 or more images, 50 below.
#include "copy.cu"
#include "probe_timing.cuh"

#include <cstdio>
#include <cstring>
using namespace cvk;

template <int U> void launchU(const ContiguousRows &rows, int64_t count, int64_t bpr, int units, int persistBlocks, cudaStream_t st) {
    const int64_t tiles = ceilDiv(bpr, int64_t(kWarpLanes) * units);
    const int64_t items = count * tiles;
    // As the library's spanPlan: blocks spread by spreadWarps (launch.cuh); persistent grids keep full blocks.
    const int warps = persistBlocks > 0 ? kBlockThreads / kWarpLanes : spreadWarps(items);
    int64_t grid = ceilDiv(items, warps);
    if (persistBlocks > 0) grid = std::min<int64_t>(grid, persistBlocks);
    spanRowsKernel<U, ContiguousRows, CopyTile><<<unsigned(grid), unsigned(warps * kWarpLanes), 0, st>>>(rows, items, tiles, units);
}

// Flat: every 16-byte block of every row is one unit (rows whose starts and lengths are all 16-aligned on both
// sides). B threads a block, U units a thread (loads first); Persist: a grid of `grid` blocks strides over the units;
// Hint: streaming cache hints (ld.global.cs / st.global.cs) instead of the read-only path and a plain store.
template <int B, int U, bool Hint> __global__ void __launch_bounds__(B) flatKernel(RowView v, int64_t bpr, int64_t total) {
    const int64_t step = int64_t(gridDim.x) * B * U;
    for (int64_t base = int64_t(blockIdx.x) * B * U + threadIdx.x; base < total; base += step) {
        uint4 x[U]; uintptr_t d[U];
#pragma unroll
        for (int j = 0; j < U; ++j) {
            const int64_t g = base + j * B;
            if (g < total) {
                int64_t col; const int64_t r = divmod(g, bpr, col);
                int64_t r0, r1, r2; rowIndex(v, r, r0, r1, r2);
                const char *s = v.src + r0 * v.srcRow[0] + r1 * v.srcRow[1] + r2 * v.srcRow[2] + col * 16;
                d[j] = reinterpret_cast<uintptr_t>(v.dst + r0 * v.dstRow[0] + r1 * v.dstRow[1] + r2 * v.dstRow[2] + col * 16);
                x[j] = Hint ? __ldcs(reinterpret_cast<const uint4 *>(s)) : load16(reinterpret_cast<uintptr_t>(s));
            }
        }
#pragma unroll
        for (int j = 0; j < U; ++j)
            if (base + j * B < total) {
                if (Hint) __stcs(reinterpret_cast<uint4 *>(d[j]), x[j]);
                else store16(d[j], x[j]);
            }
    }
}

// The flat launch's variants: name, and a launcher over (view, blocks per row, total units, SM count, stream).
struct FlatVariant {
    char name[48];
    void (*launch)(const RowView &, int64_t, int64_t, int, cudaStream_t);
};
template <int B, int U, bool Hint, int PerSM>
void launchFlat(const RowView &v, int64_t bpr, int64_t total, int sms, cudaStream_t st) {
    int64_t grid = ceilDiv(total, int64_t(B) * U);
    if (PerSM > 0) grid = std::min<int64_t>(grid, int64_t(sms) * PerSM);
    flatKernel<B, U, Hint><<<unsigned(grid), B, 0, st>>>(v, bpr, total);
}
template <int B, int U, bool Hint, int PerSM> FlatVariant flatVariant() {
    FlatVariant f{};
    std::snprintf(f.name, sizeof f.name, "flat B%d U%d%s%s", B, U, Hint ? " cs" : "", PerSM ? " persist" : "");
    if (PerSM) std::snprintf(f.name + std::strlen(f.name), sizeof f.name - std::strlen(f.name), " %d/SM", PerSM);
    f.launch = &launchFlat<B, U, Hint, PerSM>;
    return f;
}
const FlatVariant kFlat[] = {
    flatVariant<256, 2, false, 0>(),  flatVariant<256, 1, false, 0>(),  flatVariant<256, 4, false, 0>(),
    flatVariant<128, 2, false, 0>(),  flatVariant<512, 2, false, 0>(),  flatVariant<128, 1, false, 0>(),
    flatVariant<512, 1, false, 0>(),  flatVariant<256, 2, true, 0>(),   flatVariant<256, 1, true, 0>(),
    flatVariant<256, 4, true, 0>(),   flatVariant<256, 2, false, 8>(),  flatVariant<256, 4, false, 8>(),
    flatVariant<512, 2, false, 4>(),  flatVariant<256, 2, true, 8>(),   flatVariant<1024, 1, false, 0>(),
    flatVariant<1024, 2, false, 0>(),
};

int main() {
    struct Case { int n, h, w, x, y, cw, ch; };
    Case cases[] = {{32, 1080, 1920, 320, 180, 1280, 720}, {8, 1080, 1920, 320, 180, 1280, 720}, {1, 1080, 1920, 320, 180, 1280, 720},
                    {1, 224, 224, 37, 37, 149, 149}, {32, 1080, 1920, 321, 180, 1280, 720}, {1, 224, 224, 0, 0, 224, 224}};
    cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    int dev; cudaGetDevice(&dev); int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int occ4 = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ4, spanRowsKernel<4, ContiguousRows, CopyTile>, kBlockThreads, 0);
    printf("SMs %d, resident blocks/SM of the 4-unit kernel %d\n", sms, occ4);
    for (const Case &c : cases) {
        const int C = 3;
        const size_t srcBytes = size_t(c.n) * c.h * c.w * C, dstBytes = size_t(c.n) * c.ch * c.cw * C;
        // Enough buffer sets that a rotation moves 512 MB (at most 64): L2 (60 MiB) holds no call's source.
        const int NB = int(std::min<size_t>(64, std::max<size_t>(4, (size_t(512) << 20) / (srcBytes + dstBytes) + 1)));
        std::vector<char *> src(NB), dst(NB);
        for (int i = 0; i < NB; ++i) { cudaMalloc(&src[i], srcBytes); cudaMalloc(&dst[i], dstBytes); cudaMemset(src[i], i + 1, srcBytes); }
        auto viewOf = [&](int i, RowView &v) {
            View4 s{src[i] + (size_t(c.y) * c.w + c.x) * C, {c.n, c.ch, c.cw, C}, {int64_t(c.h) * c.w * C, int64_t(c.w) * C, C, 1}};
            View4 d{dst[i], {c.n, c.ch, c.cw, C}, {int64_t(c.ch) * c.cw * C, int64_t(c.cw) * C, C, 1}};
            collapseImages(s, d, false, DimOrder::Keep, v);
        };
        RowView v0; viewOf(0, v0);
        const int64_t count = v0.rows[0] * v0.rows[1] * v0.rows[2], bytes = v0.inner;
        bool aligned = aligned16(reinterpret_cast<int64_t>(v0.dst));
        for (int i = 0; i < kRowDims; ++i) if (v0.rows[i] > 1) aligned = aligned && aligned16(v0.dstRow[i]);
        const int64_t bpr = spanBlocksPerRow(bytes, aligned);
        const SpanPlan p = spanPlan(count, bpr);
        printf("case %dx%dx%dx3 -> %dx%d at (%d,%d): rows %lld bytes %lld blocksPerRow %lld plan units %d grid %u, MB %.1f\n", c.n, c.h, c.w,
               c.ch, c.cw, c.x, c.y, (long long)count, (long long)bytes, (long long)bpr, p.units, p.grid, 2.0 * dstBytes / 1e6);
        const int reps = c.n >= 8 ? 5 : 50;
        float tCopy = timeIt([&](int i) { cudaMemcpyAsync(dst[i % NB], src[i % NB], dstBytes, cudaMemcpyDeviceToDevice, st); }, st, reps);
        float t2d = timeIt([&](int i) {
            cudaMemcpy2DAsync(dst[i % NB], size_t(c.cw) * C, src[i % NB] + (size_t(c.y) * c.w + c.x) * C, size_t(c.w) * C, size_t(c.cw) * C,
                              size_t(c.n) * c.ch, cudaMemcpyDeviceToDevice, st); }, st, reps); // only right for n == 1 (probe timing)
        float tPlan = timeIt([&](int i) { RowView v; viewOf(i % NB, v); launchCopy(v, 1, st); }, st, reps);
        printf("  copy %.2f  memcpy2D(rows) %.2f  current plan %.2f\n", tCopy, t2d, tPlan);
        for (int persist : {0}) {
            for (int u : {1, 2, 4}) {
                float t = timeIt([&](int i) {
                    RowView v; viewOf(i % NB, v); ContiguousRows r{v, bytes};
                    launchU<4>(r, count, bpr, u, persist, st); }, st, reps);
                printf("  units %d grid %s: %.2f\n", u, persist ? (persist == sms * 8 ? "persist 8/SM" : "persist 16/SM") : "all items", t);
            }
        }
        if (bytes % 16 == 0 && (c.x * 3) % 16 == 0) {
            const int64_t total = count * (bytes / 16);
            float t3d = timeIt([&](int i) {
                cudaMemcpy3DParms m{};
                m.srcPtr = make_cudaPitchedPtr(src[i % NB], size_t(c.w) * C, size_t(c.w) * C, size_t(c.h));
                m.srcPos = make_cudaPos(size_t(c.x) * C, size_t(c.y), 0);
                m.dstPtr = make_cudaPitchedPtr(dst[i % NB], size_t(c.cw) * C, size_t(c.cw) * C, size_t(c.ch));
                m.extent = make_cudaExtent(size_t(c.cw) * C, size_t(c.ch), size_t(c.n));
                m.kind = cudaMemcpyDeviceToDevice;
                CK(cudaMemcpy3DAsync(&m, st)); }, st, reps);
            printf("  memcpy3D (the whole crop): %.2f\n", t3d);
            for (const FlatVariant &f : kFlat) {
                float t = timeIt([&](int i) { RowView v; viewOf(i % NB, v); f.launch(v, bytes / 16, total, sms, st); }, st, reps);
                printf("  %-28s %.2f\n", f.name, t);
            }
        }
        if ((c.x == 320 && c.n <= 8) || c.cw == 224) { // a vertical flip of the whole source (flipCode 0), as flat blocks and as spans
            // Source i rotates over the sets; the flipped copy goes to a source-sized buffer of its own per set.
            std::vector<char *> fdst(NB);
            for (int i = 0; i < NB; ++i) cudaMalloc(&fdst[i], srcBytes);
            auto flipView = [&](int i) {
                View4 fs{src[i % NB] + (size_t(c.h) - 1) * c.w * C, {c.n, c.h, c.w, C}, {int64_t(c.h) * c.w * C, -int64_t(c.w) * C, C, 1}};
                View4 fd{fdst[i % NB], {c.n, c.h, c.w, C}, {int64_t(c.h) * c.w * C, int64_t(c.w) * C, C, 1}};
                RowView fv;
                collapseImages(fs, fd, false, DimOrder::Keep, fv);
                return fv;
            };
            const RowView fv = flipView(0);
            const int64_t frows = fv.rows[0] * fv.rows[1] * fv.rows[2], fbpr = fv.inner / 16;
            float tf = timeIt([&](int i) { launchCopy(flipView(i), 1, st); }, st, reps);
            float ts = timeIt([&](int i) { launchU<4>(ContiguousRows{flipView(i), fv.inner}, frows, fbpr, spanPlan(frows, fbpr).units, 0, st); }, st, reps);
            float tc = timeIt([&](int i) { cudaMemcpyAsync(fdst[i % NB], src[i % NB], srcBytes, cudaMemcpyDeviceToDevice, st); }, st, reps);
            printf("  flipCode 0 of %dx%dx%dx3 (%.1f MB): launchCopy (flat: %d) %.2f  spans %.2f  copy %.2f\n", c.n, c.h, c.w,
                   2.0 * srcBytes / 1e6, int(copyRowsAligned(fv, 1)), tf, ts, tc);
            for (const FlatVariant &f : kFlat) {
                float t = timeIt([&](int i) { f.launch(flipView(i), fbpr, frows * fbpr, sms, st); }, st, reps);
                printf("    flipCode 0 %-28s %.2f\n", f.name, t);
            }
            for (char *p : fdst) cudaFree(p);
        }
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) printf("  CUDA error %s\n", cudaGetErrorString(e));
        for (int i = 0; i < NB; ++i) { cudaFree(src[i]); cudaFree(dst[i]); }
    }
}
