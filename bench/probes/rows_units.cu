// Microbenchmark of the row engine's units per thread (common/rows.cuh, rowUnitsPerThread) on launches that fill the
// H200 between one and four times over, where the engine takes U = 1 today: a u8 -> f32 scale (convertto's shape)
// and a per-channel f32 -> f32 multiply-add (normalize's shape) over packed 1, 2 and 8 x 1080x1920x3 images, with
// U forced to 1, 2 and 4, against a cudaMemcpyAsync of (source + output bytes) / 2. Buffer sets are rotated until
// a rotation moves at least 512 MB, so L2 (60 MiB) holds none of a call's source. Outputs of every U are compared
// with U = 1's (exit 1 on a mismatch). Not part of the build: bench/probes/README.md.
#include "common/rows.cuh"
#include "probe_timing.cuh"

#include <algorithm>
#include <cstdio>
#include <cstring>
using namespace cvk;

struct ScaleOp { // u8 -> f32, x / 255
    static constexpr bool kChannel = false;
    __device__ __forceinline__ float operator()(uint8_t v, int) const { return float(v) * (1.f / 255.f); }
};
struct ChannelOp { // f32 -> f32, (x - base[c]) * mul[c]
    static constexpr bool kChannel = true;
    __device__ __forceinline__ float operator()(float v, int c) const {
        const float base = c == 0 ? 0.485f : c == 1 ? 0.456f : 0.406f, mul = c == 0 ? 4.37f : c == 1 ? 4.46f : 4.44f;
        return (v - base) * mul;
    }
};

template <class In, class Out, class Op> void runCase(const char *name, int n, Op op, cudaStream_t st, int &bad) {
    const int64_t elems = int64_t(n) * 1080 * 1920 * 3;
    const size_t inBytes = elems * sizeof(In), outBytes = elems * sizeof(Out);
    const int NB = int(std::min<int64_t>(64, std::max<int64_t>(4, (int64_t(512) << 20) / int64_t(inBytes + outBytes) + 1)));
    std::vector<char *> src(NB), dst(NB);
    for (int i = 0; i < NB; ++i) {
        CK(cudaMalloc(&src[i], inBytes));
        CK(cudaMalloc(&dst[i], outBytes));
        if (sizeof(In) == 4) CK(cudaMemset(src[i], 0x3e + i, inBytes)); // finite floats (0x3e3e3e3e = 0.186)
        else fillRandom<<<1024, 256>>>(reinterpret_cast<uint8_t *>(src[i]), inBytes, i + 1);
    }
    auto view = [&](int i) {
        RowView v{};
        v.src = src[i % NB];
        v.dst = dst[i % NB];
        v.rows[0] = v.rows[1] = v.rows[2] = 1;
        v.inner = elems;
        v.srcInner = sizeof(In);
        v.dstInner = sizeof(Out);
        v.channels = 3;
        v.channelRow = -1;
        return v;
    };
    constexpr int V = rowVectorElems<In, Out>();
    const int64_t units = ceilDiv(elems, V);
    const int reps = n >= 8 ? 5 : 40;
    const size_t copyBytes = (inBytes + outBytes) / 2; // <= outBytes: copied between two output buffers
    const float tCopy = timeIt([&](int i) { cudaMemcpyAsync(dst[i % NB], dst[(i + 1) % NB], copyBytes, cudaMemcpyDeviceToDevice, st); }, st, reps);
    std::vector<char> ref(outBytes), got(outBytes);
    printf("%s, %d x 1080x1920x3: %lld units of %d elements, engine's U today %d, copy %.2f µs, %d buffer sets\n", name, n,
           (long long)units, V, rowUnitsPerThread(units, 1, rowMaxUnits<V>()), tCopy, NB);
    for (int u : {1, 2, 4}) {
        const RowLaunch l = rowLaunch(ceilDiv(units, u), 1);
        const float t = timeIt([&](int i) { rowsKernel<In, Out, V, true><<<l.grid, l.block, 0, st>>>(view(i), op, u); }, st, reps);
        CK(cudaMemset(dst[0], 0xff, outBytes));
        rowsKernel<In, Out, V, true><<<l.grid, l.block, 0, st>>>(view(0), op, u);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(u == 1 ? ref.data() : got.data(), dst[0], outBytes, cudaMemcpyDeviceToHost));
        const bool same = u == 1 || std::memcmp(ref.data(), got.data(), outBytes) == 0;
        bad += !same;
        printf("  U %d: grid %u x %u, %.2f µs (copy / this %.2f)%s\n", u, l.grid.x, l.grid.y, t, tCopy / t, same ? "" : "  MISMATCH");
    }
    for (int i = 0; i < NB; ++i) { cudaFree(src[i]); cudaFree(dst[i]); }
}

int main() {
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int bad = 0;
    for (int n : {1, 2, 8}) {
        runCase<uint8_t, float>("convertto u8 -> f32", n, ScaleOp{}, st, bad);
        runCase<float, float>("normalize f32 per channel", n, ChannelOp{}, st, bad);
    }
    printf("mismatches: %d\n", bad);
    return bad ? 1 : 0;
}
