// Flip kernels, layered thread -> warp -> device dispatch. Every kernel moves bytes: the element type only sets
// how many bytes make one element (elemSize) and one pixel (inner * elemSize).
//
// The fast paths work on rows: a row is the W pixels at one (outer1, outer0, height) index, and it is "packed" when
// its R = W * pixelBytes bytes are contiguous in memory. A horizontal flip of a packed row reverses the order of its
// pixels: dst byte j comes from src byte R - P - j + 2 (j mod P), P = pixelBytes. Byte j and its mirror form a pair,
// so one thread that reads both before writing either flips in place without races; every row kernel works on such
// pairs.
#include "flip.hpp"

#include "copy.hpp"
#include "flip_thread.cuh"

#include "common/bulk_copy.cuh"
#include "common/sm90_code.hpp"
#include "common/vector_io.cuh"

#include <vector>

#include <cstdint>
#include <initializer_list>

namespace cvk {
namespace {

using namespace flip;

constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = 8;
constexpr int kBlockThreads = kWarp * kWarpsPerBlock;
constexpr int64_t kMaxBlocks = int64_t(1) << 20; // the grid-stride loops cover any larger size
static_assert(kBlockThreads == cvk::kBlockThreads, "flipLaunchShape spreads blocks by launch.cuh's rule (spreadWarps)");

// ------------------------------------------------------------------------------------------------ thread level

// Thread level (divmod, reversePixels, rowOffsets, groupBytes): flip_thread.cuh.

// --------------------------------------------------------------------------------------------------- warp level

// The warp's work items: unit u of `units`, walked by every warp of the grid. Uniform across a warp.
struct WarpLoop {
    int64_t first, step;
    __device__ WarpLoop()
        : first((static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp),
          step(static_cast<int64_t>(gridDim.x) * blockDim.x / kWarp) {}
};

__device__ __forceinline__ int lane() { return threadIdx.x % kWarp; }

// The rows of one warp unit, [first, first + count) with count <= 32: lane j computes row first + j's offsets once,
// and any lane reads them with of(j). Every lane of the warp must call of() together.
struct WarpRows {
    int64_t src = 0, dst = 0, h = 0;
    __device__ WarpRows(const FlipParams &p, int64_t first, int count, int64_t rowsPerPlane, bool mirror) {
        if (lane() < count) {
            const RowOffsets r = rowOffsets(p, first + lane(), rowsPerPlane, mirror);
            src = r.src, dst = r.dst, h = r.h;
        }
    }
    __device__ RowOffsets of(int j) const {
        return {__shfl_sync(~0u, src, j), __shfl_sync(~0u, dst, j), __shfl_sync(~0u, h, j)};
    }
};

// How warp units cover rows of `items` work items (vectors, pairs) each, `slots` items per unit: a long row is cut
// into `segments` units; short rows share a unit, `rowsPerUnit` of them, so that lanes stay busy.
struct UnitShape {
    int64_t segments;
    int rowsPerUnit;
};
__host__ __device__ inline UnitShape unitShape(int64_t items, int slots) {
    if (items == 0 || items >= slots) return {items == 0 ? 1 : (items + slots - 1) / slots, 1};
    const int64_t rows = slots / items;
    return {1, static_cast<int>(rows < kWarp ? rows : kWarp)};
}

// A unit's place: its rows and, within each, the items [item0, item0 + n).
struct UnitPlace {
    int64_t firstRow, item0;
    int count, n;
};
__device__ __forceinline__ UnitPlace unitPlace(int64_t u, UnitShape shape, int64_t rows, int64_t items, int slots) {
    int64_t seg;
    const int64_t block = divmod(u, shape.segments, seg);
    UnitPlace up;
    up.firstRow = block * shape.rowsPerUnit;
    up.count = static_cast<int>(rows - up.firstRow < shape.rowsPerUnit ? rows - up.firstRow : shape.rowsPerUnit);
    up.item0 = seg * slots;
    up.n = static_cast<int>(items - up.item0 < slots ? items - up.item0 : slots);
    return up;
}

// A row cut into vectors of V bytes: `head` bytes before the first V-aligned dst byte, `vectors` vectors, `tail`
// bytes after them. Src and dst rows are congruent modulo V, so one cut serves both.
struct RowCut {
    int64_t head, vectors, tail;
};

constexpr int kCopySlots = kWarp * 4; // vectors per warp unit

// Rows copied whole: dst row h <- src row h or height - 1 - h. In place (vertical flip of src == dst), row pairs
// (h, height - 1 - h) swap; the middle row of an odd height stays.
template <int V, bool InPlace>
__global__ void __launch_bounds__(kBlockThreads) flipRowCopy(FlipParams p, RowCut cut, int64_t rowsPerPlane, UnitShape shape) {
    const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * rowsPerPlane;
    const int64_t units = (rows + shape.rowsPerUnit - 1) / shape.rowsPerUnit * shape.segments;
    const int l = lane();
    const WarpLoop loop;
    for (int64_t u = loop.first; u < units; u += loop.step) {
        const UnitPlace up = unitPlace(u, shape, rows, cut.vectors, kCopySlots);
        const WarpRows wr(p, up.firstRow, up.count, rowsPerPlane, !InPlace && p.flipRows);
        // All loads of the unit first, then all stores: the compiler cannot move a load above a store that may
        // alias it, and four 16-byte loads in flight per lane are what keeps the memory system busy.
        constexpr int K = kCopySlots / kWarp;
        typename Bytes<V>::type va[K], vb[K];
        char *a[K];
        char *b[K];
        const char *from[K];
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const int q = l + i * kWarp;
            const int j = up.n > 0 ? min(q / up.n, kWarp - 1) : 0;
            const RowOffsets r = wr.of(j);
            const int64_t off = cut.head + (up.item0 + q - j * up.n) * V;
            a[i] = p.dst + r.dst + off;
            b[i] = a[i] + (p.shape[kHeight] - 1 - 2 * r.h) * p.dstStrides[kHeight];
            from[i] = InPlace ? b[i] : p.src + r.src + off;
            if (q < up.count * up.n) {
                vb[i] = loadBytes<V>(from[i]);
                if (InPlace) va[i] = loadBytes<V>(a[i]);
            }
        }
#pragma unroll
        for (int i = 0; i < K; ++i) {
            if (l + i * kWarp < up.count * up.n) {
                storeBytes<V>(a[i], vb[i]);
                if (InPlace) storeBytes<V>(b[i], va[i]);
            }
        }
        if (up.item0 != 0 || (cut.head == 0 && cut.tail == 0)) continue;
        for (int j = 0; j < up.count; ++j) {
            const RowOffsets r = wr.of(j);
            const int64_t off = l < 16 ? l : cut.head + cut.vectors * V + (l - 16);
            if (!((l < 16 && l < cut.head) || (l >= 16 && l - 16 < cut.tail))) continue;
            if (InPlace) {
                char *a = p.dst + r.dst;
                char *b = a + (p.shape[kHeight] - 1 - 2 * r.h) * p.dstStrides[kHeight];
                const char va = a[off], vb = b[off];
                a[off] = vb;
                b[off] = va;
            } else {
                p.dst[r.dst + off] = p.src[r.src + off];
            }
        }
    }
}

// A 16-byte global -> shared copy that holds no register on sm_80 and newer (cp.async), so that a warp can have all
// the loads of a unit in flight at once; waitShared() waits for this thread's copies.
__device__ __forceinline__ void copyToShared(uint4 *to, const char *from) {
#if __CUDA_ARCH__ >= 800
    const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(to));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(from) : "memory");
#else
    *to = loadBytes<16>(from);
#endif
}
__device__ __forceinline__ void waitShared() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Groups of G = lcm(P, 16) bytes: whole pixels and whole 16-byte vectors at once. A warp unit moves K group pairs
// per lane: 2 (64 pairs, >= 2 KiB per warp in flight) where a lane holds its pairs in registers (V == 1), 1 (32
// pairs, 3 KiB) where the warp stages them in shared memory (V > 1). With 1, a staged launch has twice the units, each
// in flight for half as long: 0.01-0.04 x copy faster on every staged row of the flip benchmark, large or small
// (docs/perf.md). A staged unit's two spans, or a whole-row unit, take 2 * 32 * K groups of shared memory.
__host__ __device__ constexpr int pairsPerLane(int V) { return V == 1 ? 2 : 1; }
__host__ __device__ constexpr int stageVectors(int V) { return 2 * kWarp * pairsPerLane(V) * V; }
template <int P> struct GroupShape {
    static constexpr int G = groupBytes(P);
    static constexpr int V = G / 16; // vectors per group
    static constexpr int K = pairsPerLane(V);
    static_assert(G % P == 0 && G % 16 == 0 && V <= 3, "pixel size without a group shape");
};

// Middle of a row between the last two pairs of groups: fewer than 2G bytes that mirror onto themselves.
template <int P> __device__ __forceinline__ void flipMiddle(const char *s, char *d, int64_t bytes, bool inPlace) {
    for (int64_t t = lane(); t < bytes; t += kWarp) {
        const int64_t m = bytes - P - t + 2 * (t % P);
        if (!inPlace) {
            d[t] = s[m];
        } else if (t < m) {
            const char vt = d[t], vm = d[m];
            d[t] = vm;
            d[m] = vt;
        }
    }
}

// Horizontal flip of packed, 16-byte aligned rows whose length is a multiple of 16 bytes. Group pair k of a row is
// (a, b) = (k G, R - G - k G) in bytes: dst[a] <- reverse(src[b]), dst[b] <- reverse(src[a]). Every load and store is
// a 16-byte vector; for G = 48 the warp copies its two spans into shared memory (cp.async) so that global accesses stay contiguous
// across lanes (lane i touches vector i) while each lane permutes whole groups. A unit's slots hold `n` pairs of each
// of its rows, row after row.
template <int P>
__global__ void __launch_bounds__(kBlockThreads, 4) flipColumnGroups(FlipParams p, int64_t rowBytes, UnitShape shape) {
    using Shape = GroupShape<P>;
    constexpr int G = Shape::G, V = Shape::V, K = Shape::K, slots = kWarp * K;
    __shared__ uint4 stage[V == 1 ? 1 : kWarpsPerBlock][2][V == 1 ? 1 : slots * V]; // 24 KiB for V == 3
    const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight];
    const int64_t units = (rows + shape.rowsPerUnit - 1) / shape.rowsPerUnit * shape.segments;
    const int64_t pairs = rowBytes / (2 * G);
    const WarpLoop loop;
    const int l = lane();
    for (int64_t u = loop.first; u < units; u += loop.step) {
        const UnitPlace up = unitPlace(u, shape, rows, pairs, slots);
        const WarpRows wr(p, up.firstRow, up.count, p.shape[kHeight], p.flipRows);
        const int used = up.count * up.n;
        if constexpr (V == 1) {
            uint32_t front[K][4], back[K][4];
            RowOffsets r[K];
            int64_t k[K];
#pragma unroll
            for (int i = 0; i < K; ++i) {
                const int q = l + i * kWarp;
                const int j = up.n > 0 ? min(q / up.n, kWarp - 1) : 0;
                r[i] = wr.of(j);
                k[i] = up.item0 + q - j * up.n;
                if (q < used) {
                    const uint4 f = loadBytes<16>(p.src + r[i].src + k[i] * G), b = loadBytes<16>(p.src + r[i].src + rowBytes - G - k[i] * G);
                    front[i][0] = f.x, front[i][1] = f.y, front[i][2] = f.z, front[i][3] = f.w;
                    back[i][0] = b.x, back[i][1] = b.y, back[i][2] = b.z, back[i][3] = b.w;
                }
            }
#pragma unroll
            for (int i = 0; i < K; ++i) {
                if (l + i * kWarp < used) {
                    uint32_t f[4], b[4];
                    reversePixels<P, G>(back[i], f);
                    reversePixels<P, G>(front[i], b);
                    storeBytes<16>(p.dst + r[i].dst + k[i] * G, make_uint4(f[0], f[1], f[2], f[3]));
                    storeBytes<16>(p.dst + r[i].dst + rowBytes - G - k[i] * G, make_uint4(b[0], b[1], b[2], b[3]));
                }
            }
        } else {
            constexpr int spanVectors = slots * V;
            uint4(&front)[spanVectors] = stage[threadIdx.x / kWarp][0];
            uint4(&back)[spanVectors] = stage[threadIdx.x / kWarp][1];
            const int rowVectors = up.n * V; // per row of the unit, in each span
            const int64_t frontStart = up.item0 * G, backStart = rowBytes - (up.item0 + up.n) * G;
#pragma unroll
            for (int i = l; i < spanVectors; i += kWarp) {
                const int j = rowVectors > 0 ? min(i / rowVectors, kWarp - 1) : 0;
                const RowOffsets r = wr.of(j);
                if (i < used * V) {
                    const int64_t w = 16 * (i - j * rowVectors);
                    copyToShared(&front[i], p.src + r.src + frontStart + w);
                    copyToShared(&back[i], p.src + r.src + backStart + w);
                }
            }
            waitShared();
            __syncwarp();
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int q = l + k * kWarp;
                if (q >= used) continue;
                const int j = q / up.n, mb = j * up.n + (up.n - 1 - (q - j * up.n)); // the pair's back group, mirrored
                uint32_t x[G / 4], rf[G / 4], rb[G / 4];
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint4 y = front[V * q + v];
                    x[4 * v] = y.x, x[4 * v + 1] = y.y, x[4 * v + 2] = y.z, x[4 * v + 3] = y.w;
                }
                reversePixels<P, G>(x, rb);
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint4 y = back[V * mb + v];
                    x[4 * v] = y.x, x[4 * v + 1] = y.y, x[4 * v + 2] = y.z, x[4 * v + 3] = y.w;
                }
                reversePixels<P, G>(x, rf);
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    front[V * q + v] = make_uint4(rf[4 * v], rf[4 * v + 1], rf[4 * v + 2], rf[4 * v + 3]);
                    back[V * mb + v] = make_uint4(rb[4 * v], rb[4 * v + 1], rb[4 * v + 2], rb[4 * v + 3]);
                }
            }
            __syncwarp();
#pragma unroll
            for (int i = l; i < spanVectors; i += kWarp) {
                const int j = rowVectors > 0 ? min(i / rowVectors, kWarp - 1) : 0;
                const RowOffsets r = wr.of(j);
                if (i < used * V) {
                    const int64_t w = 16 * (i - j * rowVectors);
                    storeBytes<16>(p.dst + r.dst + frontStart + w, front[i]);
                    storeBytes<16>(p.dst + r.dst + backStart + w, back[i]);
                }
            }
            __syncwarp(); // the next unit overwrites the stage
        }
        const int64_t m0 = pairs * G;
        if (up.item0 != 0 || rowBytes == 2 * m0) continue;
        for (int j = 0; j < up.count; ++j) {
            const RowOffsets r = wr.of(j);
            flipMiddle<P>(p.src + r.src + m0, p.dst + r.dst + m0, rowBytes - 2 * m0, p.inPlace);
        }
    }
}

// Whole-row unit u of a launch over runs of rowsPerUnit rows (blocksPerPlane runs a plane, the last one shorter): its
// destination rows [h0, h0 + count) of plane (o1, o0), read from the same rows or (FlipRows) from rows
// [height - h0 - count, height - h0); rows follow each other at rowBytes on both sides.
struct RowUnit {
    const char *src;
    char *dst;
    int count;
};
template <bool FlipRows>
__device__ __forceinline__ RowUnit rowUnitAt(const FlipParams &p, int64_t rowBytes, int rowsPerUnit, int64_t blocksPerPlane, int64_t u) {
    int64_t block, o0;
    const int64_t plane = divmod(u, blocksPerPlane, block);
    const int64_t o1 = divmod(plane, p.shape[kOuter0], o0);
    const int64_t height = p.shape[kHeight], h0 = block * rowsPerUnit;
    RowUnit r;
    r.count = static_cast<int>(height - h0 < rowsPerUnit ? height - h0 : rowsPerUnit);
    r.src = p.src + o1 * p.srcStrides[kOuter1] + o0 * p.srcStrides[kOuter0] + (FlipRows ? height - h0 - r.count : h0) * rowBytes;
    r.dst = p.dst + o1 * p.dstStrides[kOuter1] + o0 * p.dstStrides[kOuter0] + h0 * rowBytes;
    return r;
}

// The group pairs of a span of `count` whole rows staged in shared memory (rowVectors 16-byte vectors a row, whole
// groups of G = groupBytes(P) bytes), pairs first, first + stride, ...: each row's pixels reversed (each row's group
// k with its group groups - 1 - k), or FlipRows the whole span's (group k with group count * groups - 1 - k: the rows
// mirrored in order and each mirrored). Both groups of a pair are read before either is written (they are one
// group in the middle of an odd count).
template <int P, bool FlipRows> __device__ __forceinline__ void reverseSpanGroups(uint4 *span, int count, int rowVectors, int first, int stride) {
    constexpr int G = GroupShape<P>::G, V = GroupShape<P>::V;
    const int groups = rowVectors / V, halfGroups = (groups + 1) / 2;
    const int total = FlipRows ? count * groups : groups, half = FlipRows ? (total + 1) / 2 : halfGroups;
    for (int q = first; q < (FlipRows ? half : count * halfGroups); q += stride) {
        const int j = FlipRows ? 0 : static_cast<int>(static_cast<unsigned>(q) / static_cast<unsigned>(halfGroups)), k = q - j * half;
        uint4 *front = &span[j * rowVectors + k * V], *back = &span[j * rowVectors + (total - 1 - k) * V];
        uint32_t x[G / 4], y[G / 4], r[G / 4];
#pragma unroll
        for (int v = 0; v < V; ++v) {
            const uint4 f = front[v], b = back[v];
            x[4 * v] = f.x, x[4 * v + 1] = f.y, x[4 * v + 2] = f.z, x[4 * v + 3] = f.w;
            y[4 * v] = b.x, y[4 * v + 1] = b.y, y[4 * v + 2] = b.z, y[4 * v + 3] = b.w;
        }
        reversePixels<P, G>(y, r);
#pragma unroll
        for (int v = 0; v < V; ++v) front[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
        reversePixels<P, G>(x, r);
#pragma unroll
        for (int v = 0; v < V; ++v) back[v] = make_uint4(r[4 * v], r[4 * v + 1], r[4 * v + 2], r[4 * v + 3]);
    }
}

// The whole-row units of flipColumnRows (below), staged by bulk copies (sm_90 on: common/bulk_copy.cuh) instead of a
// warp's cp.async: a block of kBulkThreads threads owns kBulkStages stages of shared memory, each one unit of up to
// rowsPerUnit rows (one contiguous span). Thread 0 loads a unit with one bulk copy that completes on the stage's
// mbarrier; the block waits on it, reverses the span's group pairs in place (reverseSpanGroups), fences (its writes
// before the async proxy's reads) and meets at a barrier; thread 0 stores the span with one bulk store, then refills
// the stage of the previous unit with the block's unit kBulkStages units on, once that stage's store has read it
// (at most this unit's store still reading). Blocks are persistent (one wave), units strided by the grid. In place
// is race-free: a unit's span is read whole before it is written, and units are disjoint.
// On an H200 (bench/probes/flip_rows_units.cu, logs/probe-flip_rows_bulk.log, its runs 2 and 3): 256x224x224x3 uint8
// flipCode 1 in 22.28 / 22.16 µs against 22.55 / 22.38 for flipColumnRows, -1 in 22.16 / 22.00 against 22.65 /
// 22.49 (copy 21.24 / 21.10); 6 rows a unit and 6 stages were faster at -1 only, 12-24 rows a unit or 256 threads slower.
constexpr int kBulkThreads = 128;
constexpr int kBulkStages = 4;
// Blocks an SM at most: the probe's kernel ran 8 (64 registers a thread); the library's flipCode -1 instantiation
// needs 56 and fit 9, which took 22.79-22.83 µs against the probe's 22.15-22.30 (logs/probe-flip_rows_bulk-blocks.log).
constexpr int kBulkBlocksPerSM = 8;
constexpr int64_t kBulkUnitBytes = 8 * 224 * 3; // rows a unit: as many as fit (at least 2: planFlipKernel's condition)
template <int P, bool FlipRows> __global__ void __launch_bounds__(kBulkThreads) flipRowsBulk(FlipParams p, int64_t rowBytes, int rowsPerUnit) {
#if __CUDA_ARCH__ >= 900
    extern __shared__ uint4 bulkStage[];
    const int unitVectors = static_cast<int>(rowsPerUnit * rowBytes / 16);
    uint64_t *full = reinterpret_cast<uint64_t *>(bulkStage + kBulkStages * unitVectors);
    const int64_t blocksPerPlane = (p.shape[kHeight] + rowsPerUnit - 1) / rowsPerUnit;
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * blocksPerPlane;
    const int rowVectors = static_cast<int>(rowBytes / 16);
    const int tid = static_cast<int>(threadIdx.x);
    const int64_t step = gridDim.x;
    const auto unitAt = [&](int64_t u) { return rowUnitAt<FlipRows>(p, rowBytes, rowsPerUnit, blocksPerPlane, u); };
    const auto load = [&](int stage, int64_t u) {
        const RowUnit r = unitAt(u);
        bulkCopy(reinterpret_cast<uint8_t *>(bulkStage + stage * unitVectors), reinterpret_cast<const uint8_t *>(r.src),
                 static_cast<uint32_t>(r.count * rowBytes), full + stage);
    };
    if (tid == 0) {
        for (int k = 0; k < kBulkStages; ++k) bulkBarrierInit(full + k);
        bulkBarrierInitFence();
        for (int k = 0; k < kBulkStages && blockIdx.x + k * step < units; ++k) load(k, blockIdx.x + k * step);
    }
    __syncthreads();
    int k = 0;
    uint32_t phase = 0;
    for (int64_t u = blockIdx.x; u < units; u += step) {
        const RowUnit r = unitAt(u);
        uint4 *span = bulkStage + k * unitVectors;
        bulkWait(full + k, phase);
        reverseSpanGroups<P, FlipRows>(span, r.count, rowVectors, tid, kBulkThreads);
        bulkProxyFence();
        __syncthreads();
        if (tid == 0) {
            bulkStore(r.dst, span, static_cast<uint32_t>(r.count * rowBytes));
            bulkStoreCommit();
            const int64_t refill = u - step + kBulkStages * step; // the previous unit's successor in its stage
            if (u >= blockIdx.x + step && refill < units) {
                bulkStoreWaitRead<1>(); // the previous unit's store has read its stage
                load(k == 0 ? kBulkStages - 1 : k - 1, refill);
            }
        }
        if (++k == kBulkStages) k = 0, phase ^= 1u;
    }
    if (tid == 0) bulkStoreWait<0>(); // the stores read shared memory until they complete
#else
    __trap(); // launched only where flipBulkDevice(): the bulk copies and their mbarriers are sm_90 instructions
#endif
}

// Horizontal flip of short packed rows that follow each other in memory (row stride R = rowBytes on both sides; R a
// multiple of 16, rows 16-byte aligned). A warp unit is a run of up to `rowsPerUnit` whole rows of one plane: one
// contiguous span, copied into the warp's stage (cp.async), reversed there group pair by group pair (the middle group
// of an odd count mirrors onto itself), and written back as one span. Every lane touches consecutive vectors of one
// span, so no 32-byte sector is fetched twice, as it is where a row's front and back halves are separate spans that
// meet inside a sector. In place is race-free: a unit reads all of its rows before it writes any.
// FlipRows (flipCode -1, never in place): unit rows [h0, h0 + count) come from the plane's rows [h - h0 - count,
// h - h0), one span that, reversed whole (group k with group count * groups - 1 - k), is those rows mirrored in order
// and each mirrored. On an H200 (bench/probes/flip_rows_units.cu, logs/probe-flip_rows_units.log) 256x224x224x3 uint8
// in 22.63 µs against 23.39 with the rows merged into one long row per image (flipColumnGroups; copy 21.29).
template <int P, bool FlipRows>
__global__ void __launch_bounds__(kBlockThreads, 4) flipColumnRows(FlipParams p, int64_t rowBytes, int rowsPerUnit) {
    constexpr int spanVectors = stageVectors(GroupShape<P>::V);
    __shared__ uint4 stage[kWarpsPerBlock][spanVectors]; // 16 KiB for V == 1, 24 KiB for V == 3
    uint4(&span)[spanVectors] = stage[threadIdx.x / kWarp];
    const int64_t blocksPerPlane = (p.shape[kHeight] + rowsPerUnit - 1) / rowsPerUnit;
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * blocksPerPlane;
    const int rowVectors = static_cast<int>(rowBytes / 16);
    const WarpLoop loop;
    const int l = lane();
    for (int64_t u = loop.first; u < units; u += loop.step) {
        const RowUnit unit = rowUnitAt<FlipRows>(p, rowBytes, rowsPerUnit, blocksPerPlane, u);
        const char *s = unit.src;
        char *d = unit.dst;
        const int count = unit.count, vectors = count * rowVectors;
#pragma unroll 4
        for (int i = l; i < spanVectors; i += kWarp)
            if (i < vectors) copyToShared(&span[i], s + 16 * int64_t(i));
        waitShared();
        __syncwarp();
        reverseSpanGroups<P, FlipRows>(span, count, rowVectors, l, kWarp);
        __syncwarp();
#pragma unroll 4
        for (int i = l; i < spanVectors; i += kWarp)
            if (i < vectors) storeBytes<16>(d + 16 * int64_t(i), span[i]);
        __syncwarp(); // the next unit overwrites the stage
    }
}

constexpr int kUnitsPerLane = 4;

// Horizontal flip of packed rows of any pixel size and alignment: each lane moves U-byte pieces (U divides the pixel
// size and every row's alignment). In place, the lane holding the lower piece of a pair swaps both.
template <int U> __global__ void __launch_bounds__(kBlockThreads) flipColumnUnits(FlipParams p, int64_t rowBytes, int64_t pixelBytes, int64_t segments) {
    const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight];
    const int64_t units = rows * segments, pieces = rowBytes / U;
    const int64_t segPieces = int64_t(kWarp) * kUnitsPerLane;
    const WarpLoop loop;
    for (int64_t u = loop.first; u < units; u += loop.step) {
        int64_t seg;
        const int64_t row = divmod(u, segments, seg);
        const RowOffsets r = rowOffsets(p, row, p.shape[kHeight], p.flipRows);
        const char *s = p.src + r.src;
        char *d = p.dst + r.dst;
        const int64_t end = (seg + 1) * segPieces < pieces ? (seg + 1) * segPieces : pieces;
        for (int64_t i = seg * segPieces + lane(); i < end; i += kWarp) {
            const int64_t t = i * U;
            int64_t within;
            divmod(t, pixelBytes, within);
            const int64_t m = rowBytes - pixelBytes - t + 2 * within;
            if (!p.inPlace) {
                storeBytes<U>(d + t, loadBytes<U>(s + m));
            } else if (t < m) {
                const auto vt = loadBytes<U>(d + t), vm = loadBytes<U>(d + m);
                storeBytes<U>(d + t, vm);
                storeBytes<U>(d + m, vt);
            }
        }
    }
}

// The flat horizontal path: one item (a G-byte group or one 16-byte vector of it, flip_thread.cuh) per thread,
// over a plain grid-stride loop, so that a small image spreads over every SM instead of a few dozen warp units.
template <int P, int ItemBytes>
__global__ void __launch_bounds__(kBlockThreads) flipColumnFlat(FlipParams p, int64_t rowBytes, int64_t items) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < items; i += int64_t(gridDim.x) * blockDim.x)
        flipFlatItem<P, ItemBytes>(p, rowBytes, i);
}

struct Index5 {
    int64_t i[5];
};

// Any strides: one thread per element. In place, only the first element of each mirrored pair swaps both.
template <int E> __global__ void __launch_bounds__(kBlockThreads) flipGeneric(FlipParams p, int64_t total) {
    const int64_t h = p.shape[kHeight], w = p.shape[kWidth];
    for (int64_t linear = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; linear < total;
         linear += int64_t(gridDim.x) * blockDim.x) {
        Index5 di;
        int64_t rest = linear;
        for (int dim = 4; dim >= 0; --dim) rest = divmod(rest, p.shape[dim], di.i[dim]);
        Index5 si = di;
        if (p.flipRows) si.i[kHeight] = h - 1 - di.i[kHeight];
        if (p.flipCols) si.i[kWidth] = w - 1 - di.i[kWidth];
        int64_t dOff = 0, sOff = 0, mOff = 0;
        for (int dim = 0; dim < 5; ++dim) {
            dOff += di.i[dim] * p.dstStrides[dim];
            sOff += si.i[dim] * p.srcStrides[dim];
            mOff += si.i[dim] * p.dstStrides[dim];
        }
        if (p.inPlace) {
            const int64_t a = di.i[kHeight] * w + di.i[kWidth], b = si.i[kHeight] * w + si.i[kWidth];
            if (a >= b) continue;
            const auto va = loadBytes<E>(p.dst + dOff), vb = loadBytes<E>(p.dst + mOff);
            storeBytes<E>(p.dst + dOff, vb);
            storeBytes<E>(p.dst + mOff, va);
        } else {
            storeBytes<E>(p.dst + dOff, loadBytes<E>(p.src + sOff));
        }
    }
}

// ------------------------------------------------------------------------------------------------- device level

// Largest power of two up to 16 that divides every value.
int commonAlignment(std::initializer_list<int64_t> values) {
    int a = 16;
    for (int64_t v : values)
        while (a > 1 && v % a != 0) a /= 2;
    return a;
}

// Largest power of two up to 16 that divides both addresses and every stride that places a row (outer1, outer0,
// height), ignoring dimensions of extent 1.
int rowAlignment(const FlipParams &p, int64_t srcAddress, int64_t dstAddress) {
    int a = commonAlignment({srcAddress, dstAddress});
    for (int dim : {kOuter1, kOuter0, kHeight})
        if (p.shape[dim] > 1) a = commonAlignment({a, p.srcStrides[dim], p.dstStrides[dim]});
    return a;
}

bool packedRows(const FlipParams &p, const int64_t *strides) {
    const int64_t pixel = p.shape[kInner] * p.elemSize;
    return (p.shape[kInner] == 1 || strides[kInner] == p.elemSize) && (p.shape[kWidth] == 1 || strides[kWidth] == pixel);
}

bool isGroupPixel(int64_t P) {
    switch (P) {
    case 1: case 2: case 3: case 4: case 6: case 8: case 12: case 16: case 24: case 48: return true;
    default: return false;
    }
}

template <int V> cudaError_t launchRowCopy(const FlipParams &p, cudaStream_t stream) {
    const int64_t rowBytes = p.shape[kWidth] * p.shape[kInner] * p.elemSize;
    const int64_t misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.dst) % V);
    RowCut cut;
    cut.head = misalign == 0 ? 0 : (V - misalign < rowBytes ? V - misalign : rowBytes);
    cut.vectors = (rowBytes - cut.head) / V;
    cut.tail = rowBytes - cut.head - cut.vectors * V;
    const int64_t rowsPerPlane = p.inPlace ? p.shape[kHeight] / 2 : p.shape[kHeight];
    const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * rowsPerPlane;
    if (rows == 0) return cudaSuccess;
    const UnitShape shape = unitShape(cut.vectors, kCopySlots);
    const FlipLaunchShape g = flipLaunchShape(ceilDiv(rows, shape.rowsPerUnit) * shape.segments);
    if (p.inPlace) flipRowCopy<V, true><<<g.grid, g.block, 0, stream>>>(p, cut, rowsPerPlane, shape);
    else flipRowCopy<V, false><<<g.grid, g.block, 0, stream>>>(p, cut, rowsPerPlane, shape);
    return cudaGetLastError();
}

template <int P> cudaError_t launchColumnGroups(const FlipParams &p, cudaStream_t stream) {
    const int64_t rowBytes = p.shape[kWidth] * P;
    const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight];
    const UnitShape shape = unitShape(rowBytes / (2 * GroupShape<P>::G), kWarp * GroupShape<P>::K);
    const FlipLaunchShape g = flipLaunchShape(ceilDiv(rows, shape.rowsPerUnit) * shape.segments);
    flipColumnGroups<P><<<g.grid, g.block, 0, stream>>>(p, rowBytes, shape);
    return cudaGetLastError();
}

// Whether flipRowsBulk runs here (its sm_90 code).
bool flipBulkDevice() {
    static Sm90CodeCache known;
    return sm90CodeOnDevice(reinterpret_cast<const void *>(&flipRowsBulk<1, false>), known);
}

// flipRowsBulk: units of kBulkUnitBytes at most, one wave of blocks (at most kBulkBlocksPerSM an SM). The
// occupancy query costs about a microsecond of host time a launch; this path takes flips of 32 MiB and more, and
// in-place ones.
template <int P> cudaError_t launchRowsBulk(const FlipParams &p, int64_t rowBytes, cudaStream_t stream) {
    const int rows = static_cast<int>(kBulkUnitBytes / rowBytes > 2 ? kBulkUnitBytes / rowBytes : 2);
    const int smem = kBulkStages * (rows * static_cast<int>(rowBytes) + 8);
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * ceilDiv(p.shape[kHeight], rows);
    int device = 0, sms = 0, perSm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const auto kernel = p.flipRows ? &flipRowsBulk<P, true> : &flipRowsBulk<P, false>;
    if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kBulkThreads, smem);
    if (err != cudaSuccess) return err;
    const int64_t wave = int64_t(sms) * (perSm < 1 ? 1 : perSm > kBulkBlocksPerSM ? kBulkBlocksPerSM : perSm);
    kernel<<<static_cast<unsigned>(units < wave ? units : wave), kBulkThreads, smem, stream>>>(p, rowBytes, rows);
    return cudaGetLastError();
}

// The whole-row kernel takes as many rows per unit as its stage holds (at least two: planFlipKernel's condition);
// from sm_90 on, flipRowsBulk.
template <int P> cudaError_t launchColumnRows(const FlipParams &p, cudaStream_t stream) {
    const int64_t rowBytes = p.shape[kWidth] * P;
    if (flipBulkDevice()) return launchRowsBulk<P>(p, rowBytes, stream);
    const int rows = static_cast<int>(stageVectors(GroupShape<P>::V) / (rowBytes / 16));
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * ceilDiv(p.shape[kHeight], rows);
    const FlipLaunchShape g = flipLaunchShape(units);
    if (p.flipRows) flipColumnRows<P, true><<<g.grid, g.block, 0, stream>>>(p, rowBytes, rows);
    else flipColumnRows<P, false><<<g.grid, g.block, 0, stream>>>(p, rowBytes, rows);
    return cudaGetLastError();
}

template <int P> cudaError_t launchColumnFlat(int itemBytes, const FlipParams &p, cudaStream_t stream) {
    constexpr int G = groupBytes(P);
    if (itemBytes != G && itemBytes != 16) return cudaErrorInvalidValue;
    const int64_t rowBytes = p.shape[kWidth] * P;
    const int64_t items = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight] * (rowBytes / itemBytes);
    const FlipLaunchShape g = flipLaunchShape(ceilDiv(items, kWarp)); // a warp of items stands for a warp unit
    if (itemBytes == G) flipColumnFlat<P, G><<<g.grid, g.block, 0, stream>>>(p, rowBytes, items);
    else flipColumnFlat<P, 16><<<g.grid, g.block, 0, stream>>>(p, rowBytes, items);
    return cudaGetLastError();
}

template <int P> cudaError_t launchGroupsOf(bool wholeRows, const FlipParams &p, cudaStream_t stream) {
    return wholeRows ? launchColumnRows<P>(p, stream) : launchColumnGroups<P>(p, stream);
}

template <int U> cudaError_t launchColumnUnits(const FlipParams &p, int64_t pixelBytes, cudaStream_t stream) {
    const int64_t rowBytes = p.shape[kWidth] * pixelBytes;
    const int64_t segments = ceilDiv(rowBytes / U, int64_t(kWarp) * kUnitsPerLane);
    const int64_t units = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight] * segments;
    const FlipLaunchShape g = flipLaunchShape(units);
    flipColumnUnits<U><<<g.grid, g.block, 0, stream>>>(p, rowBytes, pixelBytes, segments);
    return cudaGetLastError();
}

template <int E> cudaError_t launchGeneric(const FlipParams &p, cudaStream_t stream) {
    int64_t total = 1;
    for (int64_t s : p.shape) total *= s;
    const FlipLaunchShape g = flipLaunchShape(ceilDiv(total, kWarp)); // a warp of elements stands for a warp unit
    flipGeneric<E><<<g.grid, g.block, 0, stream>>>(p, total);
    return cudaGetLastError();
}

cudaError_t launchRowCopyOf(int unitBytes, const FlipParams &p, cudaStream_t stream) {
    switch (unitBytes) {
    case 1: return launchRowCopy<1>(p, stream);
    case 2: return launchRowCopy<2>(p, stream);
    case 4: return launchRowCopy<4>(p, stream);
    case 8: return launchRowCopy<8>(p, stream);
    case 16: return launchRowCopy<16>(p, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t launchColumnUnitsOf(int unitBytes, const FlipParams &p, int64_t pixelBytes, cudaStream_t stream) {
    switch (unitBytes) {
    case 1: return launchColumnUnits<1>(p, pixelBytes, stream);
    case 2: return launchColumnUnits<2>(p, pixelBytes, stream);
    case 4: return launchColumnUnits<4>(p, pixelBytes, stream);
    case 8: return launchColumnUnits<8>(p, pixelBytes, stream);
    case 16: return launchColumnUnits<16>(p, pixelBytes, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t launchGenericOf(int elemSize, const FlipParams &p, cudaStream_t stream) {
    switch (elemSize) {
    case 1: return launchGeneric<1>(p, stream);
    case 2: return launchGeneric<2>(p, stream);
    case 4: return launchGeneric<4>(p, stream);
    case 8: return launchGeneric<8>(p, stream);
    case 16: return launchGeneric<16>(p, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t launchGroups(bool wholeRows, int64_t P, const FlipParams &p, cudaStream_t stream) {
    switch (P) {
    case 1: return launchGroupsOf<1>(wholeRows, p, stream);
    case 2: return launchGroupsOf<2>(wholeRows, p, stream);
    case 3: return launchGroupsOf<3>(wholeRows, p, stream);
    case 4: return launchGroupsOf<4>(wholeRows, p, stream);
    case 6: return launchGroupsOf<6>(wholeRows, p, stream);
    case 8: return launchGroupsOf<8>(wholeRows, p, stream);
    case 12: return launchGroupsOf<12>(wholeRows, p, stream);
    case 16: return launchGroupsOf<16>(wholeRows, p, stream);
    case 24: return launchGroupsOf<24>(wholeRows, p, stream);
    case 48: return launchGroupsOf<48>(wholeRows, p, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t launchFlat(int64_t P, int itemBytes, const FlipParams &p, cudaStream_t stream) {
    switch (P) {
    case 1: return launchColumnFlat<1>(itemBytes, p, stream);
    case 2: return launchColumnFlat<2>(itemBytes, p, stream);
    case 3: return launchColumnFlat<3>(itemBytes, p, stream);
    case 4: return launchColumnFlat<4>(itemBytes, p, stream);
    case 6: return launchColumnFlat<6>(itemBytes, p, stream);
    case 8: return launchColumnFlat<8>(itemBytes, p, stream);
    case 12: return launchColumnFlat<12>(itemBytes, p, stream);
    case 16: return launchColumnFlat<16>(itemBytes, p, stream);
    case 24: return launchColumnFlat<24>(itemBytes, p, stream);
    case 48: return launchColumnFlat<48>(itemBytes, p, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

namespace {

template <int... Vs> void listRowCopy(std::vector<const void *> &out) {
    (out.push_back(reinterpret_cast<const void *>(&flipRowCopy<Vs, true>)), ...);
    (out.push_back(reinterpret_cast<const void *>(&flipRowCopy<Vs, false>)), ...);
}
template <int... Ps> void listColumnGroups(std::vector<const void *> &out) {
    (out.push_back(reinterpret_cast<const void *>(&flipColumnGroups<Ps>)), ...);
    (out.push_back(reinterpret_cast<const void *>(&flipColumnRows<Ps, false>)), ...);
    (out.push_back(reinterpret_cast<const void *>(&flipColumnRows<Ps, true>)), ...);
    (out.push_back(reinterpret_cast<const void *>(&flipRowsBulk<Ps, false>)), ...);
    (out.push_back(reinterpret_cast<const void *>(&flipRowsBulk<Ps, true>)), ...);
}
template <int... Ps> void listColumnFlat(std::vector<const void *> &out) {
    (out.push_back(reinterpret_cast<const void *>(&flipColumnFlat<Ps, groupBytes(Ps)>)), ...);
    ((groupBytes(Ps) != 16 ? out.push_back(reinterpret_cast<const void *>(&flipColumnFlat<Ps, 16>)) : void()), ...);
}
template <int... Us> void listColumnUnits(std::vector<const void *> &out) {
    (out.push_back(reinterpret_cast<const void *>(&flipColumnUnits<Us>)), ...);
}
template <int... Es> void listGeneric(std::vector<const void *> &out) {
    (out.push_back(reinterpret_cast<const void *>(&flipGeneric<Es>)), ...);
}

} // namespace

FlipLaunchShape flipLaunchShape(int64_t warpUnits) {
    const int warps = spreadWarps(warpUnits);
    const int64_t blocks = ceilDiv(warpUnits > 0 ? warpUnits : 1, warps);
    return {static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), static_cast<unsigned>(warps * kWarp)};
}

cudaError_t preloadFlipKernels() {
    // The same instantiations as the dispatch below launches (AlignedRows' kernel: preloadCopyKernels, copy.hpp).
    std::vector<const void *> kernels;
    listRowCopy<1, 2, 4, 8, 16>(kernels);
    listColumnGroups<1, 2, 3, 4, 6, 8, 12, 16, 24, 48>(kernels);
    listColumnFlat<1, 2, 3, 4, 6, 8, 12, 16, 24, 48>(kernels);
    listColumnUnits<1, 2, 4, 8, 16>(kernels);
    listGeneric<1, 2, 4, 8, 16>(kernels);
    for (const void *kernel : kernels) {
        cudaFuncAttributes attributes;
        const cudaError_t err = cudaFuncGetAttributes(&attributes, kernel);
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}

FlipPlan planFlipKernel(const FlipParams &in, int64_t flatMaxBytes) {
    FlipPlan plan{};
    FlipParams &p = plan.params;
    p = in;
    // A flip along an extent of 1 moves nothing.
    if (p.shape[kHeight] == 1) p.flipRows = false;
    if (p.shape[kWidth] == 1) p.flipCols = false;
    if (p.inPlace && !p.flipRows && !p.flipCols) {
        plan.path = FlipPath::Nothing;
        return plan;
    }
    // Flipping a src view that runs backwards along H or W is reading it forwards (dst strides are untouched, so in
    // place, where src and dst strides must stay equal, keeps them).
    if (!p.inPlace) {
        for (int dim : {kHeight, kWidth}) {
            if (p.srcStrides[dim] >= 0) continue;
            p.src += (p.shape[dim] - 1) * p.srcStrides[dim];
            p.srcStrides[dim] = -p.srcStrides[dim];
            bool &flip = dim == kHeight ? p.flipRows : p.flipCols;
            flip = !flip;
        }
    }
    const int64_t pixel = p.shape[kInner] * p.elemSize;
    plan.pixelBytes = pixel;
    if (!packedRows(p, p.srcStrides) || !packedRows(p, p.dstStrides)) {
        plan.path = FlipPath::Generic;
        plan.unitBytes = p.elemSize;
        return plan;
    }
    const int64_t rowBytes = p.shape[kWidth] * pixel;
    const int64_t src = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.src));
    const int64_t dst = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.dst));
    const int64_t allRows = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight];
    // Whether rows of 16-byte vectors of whole pixel groups, aligned, fit a warp's stage two at a time (whole-row units).
    const auto wholeRowUnits = [&](int64_t bytes) {
        const int64_t stageBytes = isGroupPixel(pixel) ? 16 * int64_t(stageVectors(groupBytes(static_cast<int>(pixel)) / 16)) : 0;
        return isGroupPixel(pixel) && rowAlignment(p, src, dst) == 16 && bytes % 16 == 0 && 2 * bytes <= stageBytes;
    };
    if (p.flipRows && p.flipCols && p.srcStrides[kHeight] == rowBytes && p.dstStrides[kHeight] == rowBytes) {
        // Short rows past the flat path's default sizes: whole-row units whose span is reversed whole
        // (flipColumnRows' FlipRows), the rows left as they are (each image one plane). The default, not
        // flatMaxBytes, so that a flat plan keeps the view of the warp-unit plan of the same flip.
        if (!p.inPlace && p.shape[kHeight] > 1 && wholeRowUnits(rowBytes) && allRows * rowBytes >= kFlipFlatMaxBytes) {
            plan.path = FlipPath::ColumnRows;
            plan.unitBytes = 16;
            return plan;
        }
        // Else flipping both ways over rows that follow each other is reversing one long row.
        p.shape[kWidth] *= p.shape[kHeight];
        p.shape[kHeight] = 1;
        p.srcStrides[kHeight] = p.dstStrides[kHeight] = p.shape[kWidth] * pixel; // one merged row
        p.flipRows = false;
    }
    if (!p.flipCols) {
        plan.path = FlipPath::RowCopy;
        plan.unitBytes = rowAlignment(p, src - dst, 0);
        // Rows of whole aligned 16-byte blocks go as launchCopy's flat launch, at every size: on an H200
        // (bench/probes/flip_plans.cu, logs/probe-flip_plans-aligned.log) 256x224x224x3 uint8 in 21.81 µs against this
        // kernel's 23.15 (copy 21.52), 32x1080x1920x3 in 97.66 against 97.98 (copy 95.97); 1x1080x1920x3 in 4.85
        // against 7.1 (bench/probes/crop_plans.cu).
        if (!p.inPlace) {
            plan.rows = flipRowView(p);
            if (copyRowsAligned(plan.rows, 1)) plan.path = FlipPath::AlignedRows;
        }
        return plan;
    }
    if (p.inPlace && p.flipRows) { // four-way swaps across rows: left to the generic kernel
        plan.path = FlipPath::Generic;
        plan.unitBytes = p.elemSize;
        return plan;
    }
    // Rows that follow each other across images (and outer1) form one plane, so that whole-row units span images.
    // Not under a row flip, which mirrors rows within each image.
    for (int dim : {kOuter0, kOuter1}) {
        const int64_t h = p.shape[kHeight];
        const bool chains = p.shape[dim] == 1 ||
                            (p.srcStrides[dim] == h * p.srcStrides[kHeight] && p.dstStrides[dim] == h * p.dstStrides[kHeight]);
        if (p.flipRows || !chains) break;
        p.shape[kHeight] *= p.shape[dim];
        p.shape[dim] = 1;
    }
    const int64_t fullRowBytes = p.shape[kWidth] * pixel;
    if (isGroupPixel(pixel) && rowAlignment(p, src, dst) == 16 && fullRowBytes % 16 == 0) {
        plan.unitBytes = 16;
        // Whole-row units when rows follow each other and two fit in a warp's stage.
        const bool follow =
            p.shape[kHeight] > 1 && p.srcStrides[kHeight] == fullRowBytes && p.dstStrides[kHeight] == fullRowBytes;
        plan.path = follow && wholeRowUnits(fullRowBytes) ? FlipPath::ColumnRows : FlipPath::ColumnGroups;
        const int64_t rows = p.shape[kOuter1] * p.shape[kOuter0] * p.shape[kHeight];
        if (!p.inPlace && rows * fullRowBytes < flatMaxBytes) {
            const int G = groupBytes(static_cast<int>(pixel));
            plan.path = FlipPath::ColumnFlat;
            plan.unitBytes = rows * (fullRowBytes / G) < kFlipFlatVectorMaxGroups ? 16 : G;
        }
        return plan;
    }
    plan.path = FlipPath::ColumnUnits;
    plan.unitBytes = commonAlignment({pixel, int64_t(rowAlignment(p, src, dst))});
    return plan;
}

RowView flipRowView(const FlipParams &p) {
    const int64_t rowBytes = p.shape[kWidth] * p.shape[kInner] * p.elemSize;
    const int64_t h = p.shape[kHeight], sh = p.srcStrides[kHeight];
    const PairDim dims[4] = {{p.shape[kOuter1], p.srcStrides[kOuter1], p.dstStrides[kOuter1], false},
                             {p.shape[kOuter0], p.srcStrides[kOuter0], p.dstStrides[kOuter0], false},
                             {h, p.flipRows ? -sh : sh, p.dstStrides[kHeight], false},
                             {rowBytes, 1, 1, false}};
    RowView v{};
    collapseRows(dims, 4, DimOrder::Keep, p.flipRows ? p.src + (h - 1) * sh : p.src, p.dst, v); // 4 dims always fit
    return v;
}

cudaError_t launchFlipPlan(const FlipPlan &plan, cudaStream_t stream) {
    switch (plan.path) {
    case FlipPath::Nothing: return cudaSuccess;
    case FlipPath::RowCopy: return launchRowCopyOf(plan.unitBytes, plan.params, stream);
    case FlipPath::AlignedRows: return launchCopy(plan.rows, 1, stream);
    case FlipPath::ColumnGroups: return launchGroups(false, plan.pixelBytes, plan.params, stream);
    case FlipPath::ColumnRows: return launchGroups(true, plan.pixelBytes, plan.params, stream);
    case FlipPath::ColumnFlat: return launchFlat(plan.pixelBytes, plan.unitBytes, plan.params, stream);
    case FlipPath::ColumnUnits: return launchColumnUnitsOf(plan.unitBytes, plan.params, plan.pixelBytes, stream);
    case FlipPath::Generic: return launchGenericOf(plan.unitBytes, plan.params, stream);
    }
    return cudaErrorInvalidValue;
}

cudaError_t launchFlip(const FlipParams &in, cudaStream_t stream, bool *launched) {
    if (launched != nullptr) *launched = false;
    if (in.elemSize != 1 && in.elemSize != 2 && in.elemSize != 4 && in.elemSize != 8 && in.elemSize != 16)
        return cudaErrorInvalidValue;
    const FlipPlan plan = planFlipKernel(in);
    if (launched != nullptr) *launched = plan.path != FlipPath::Nothing;
    return launchFlipPlan(plan, stream);
}

} // namespace cvk
