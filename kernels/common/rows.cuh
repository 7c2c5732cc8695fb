// Block and device level: the elementwise row engine of the memory-bound operators. A RowView (view.hpp) is walked
// row by row; along a row the work is cut into units of V elements that an operator functor converts:
//     struct Op { static constexpr bool kChannel = ...; __device__ Out operator()(In v, int channel) const; };
// (`channel` is the element's channel index (RowView::channels, channelRow), kept incrementally along a row: one
// 32-bit division per row, none per element; it is 0 when kChannel is false). An Op may have `__device__ void
// prepare()`, which every thread of a block calls once before any element (e.g. to stage per-channel constants in
// shared memory; it may __syncthreads()).
// - Vector path (both rows contiguous, every row start aligned): V = 16 / max(sizeof(In), sizeof(Out)), so a unit is
//   one 16-byte vector on the wider side and a 2/4/8/16-byte word on the narrower one.
// - Strided path: V = 1, elements through the view's strides.
// A thread takes U (1..kRowUnits, chosen per launch) units of a block tile: unit j of thread x is tile unit
// j * blockDim.x + x, so every load and store instruction of a warp covers one contiguous run (coalesced on both
// sides), and all U loads are issued before the first use (64 bytes in flight per thread on the wider side with
// U = 4). In place (dst == src, same strides) is exact: a thread reads its elements before writing them.
#pragma once

#include "launch.cuh"
#include "vector_io.cuh"
#include "view.hpp"

#include <type_traits>
#include <utility>

namespace cvk {

template <class In, class Out> __host__ __device__ constexpr int rowVectorElems() {
    return 16 / (sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out));
}

// Units per thread at most. Larger U keeps more bytes in flight; a launch too small to fill the GPU with that many
// takes fewer (rowUnitsPerThread), so that it still spreads over every multiprocessor. A thread holds at most 16 elements:
// more made ptxas spill (u8 -> u8 convertto at 64 elements spilled 188 bytes under the 64-register cap, and so did a
// u8 copy, whose 64 one-byte elements took 348 bytes of spills; copies of contiguous rows take warp_tile.cuh instead).
constexpr int kRowUnits = 4;
template <int V> __host__ __device__ constexpr int rowMaxUnits() { return V <= 16 / kRowUnits ? kRowUnits : V >= 16 ? 1 : 16 / V; }

// The most units per thread (at most maxUnits) whose threads still fill the GPU once (kResidentThreads). A rule of
// four fills took U = 1 for one 1080x1920x3 image, where U = 4 ran u8 -> f32 in 14.1 µs against 19.3 and a
// per-channel f32 multiply-add in 19.0 against 25.8 (H200, bench/probes/rows_units.cu; both with the idle block rows
// rowLaunch now avoids).
inline int rowUnitsPerThread(int64_t unitsPerRow, int64_t rows, int maxUnits) {
    const int64_t total = unitsPerRow * rows;
    for (int u = maxUnits; u > 1; u /= 2)
        if (total / u >= kResidentThreads) return u;
    return 1;
}

// Whether the vector path applies to a view with these element sizes (host arithmetic): packed rows, and every row
// start aligned to the side's word (V * element size, at most 16 bytes).
inline bool rowsVectorizable(const RowView &v, int64_t inSize, int64_t outSize) {
    if (v.srcInner != inSize || v.dstInner != outSize) return false;
    const int64_t elems = 16 / (inSize > outSize ? inSize : outSize);
    const int64_t sa = elems * inSize, da = elems * outSize;
    bool ok = alignedTo(reinterpret_cast<int64_t>(v.src), sa) && alignedTo(reinterpret_cast<int64_t>(v.dst), da);
    for (int i = 0; i < kRowDims; ++i)
        if (v.rows[i] > 1) ok = ok && alignedTo(v.srcRow[i], sa) && alignedTo(v.dstRow[i], da);
    return ok;
}

template <class Op, class = void> struct HasPrepare : std::false_type {};
template <class Op> struct HasPrepare<Op, std::void_t<decltype(std::declval<Op &>().prepare())>> : std::true_type {};

// The block's part of the walk, for kernels that wrap it (e.g. with __grid_constant__ parameters an Op points into).
// `unitsPerThread` is the launch's U (rowUnitsPerThread); the grid's x extent covers ceil(units / (U * blockDim.x)).
// Row r's index in the view's row dims (dims of extent 1 need no division, e.g. a crop of one image batch).
__device__ __forceinline__ void rowIndex(const RowView &v, int64_t r, int64_t &r0, int64_t &r1, int64_t &r2) {
    r0 = 0, r1 = 0, r2 = r;
    if (v.rows[0] * v.rows[1] > 1) {
        const int64_t t = divmod(r, v.rows[2], r2);
        r0 = divmod(t, v.rows[1], r1);
    }
}

template <class In, class Out, int V, bool Vector, class Op>
__device__ __forceinline__ void rowsBody(const RowView &v, Op op, int unitsPerThread) {
    constexpr int kMaxU = rowMaxUnits<V>();
    if constexpr (HasPrepare<Op>::value) op.prepare();
    const bool channelInner = Op::kChannel && v.channelRow < 0 && v.channels > 1;
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    const int64_t full = v.inner / V; // whole units of a row; a partial last one goes element by element
    const int64_t units = ceilDiv(v.inner, V);
    const int64_t tile = static_cast<int64_t>(blockDim.x) * unitsPerThread;
    const int64_t srcStep = Vector ? V * int64_t(sizeof(In)) : v.srcInner, dstStep = Vector ? V * int64_t(sizeof(Out)) : v.dstInner;
    // Channel advance from unit j to unit j + 1 of a thread (blockDim.x * V elements), modulo channels.
    const int chStep = channelInner ? static_cast<int>((static_cast<int64_t>(blockDim.x) * V) % v.channels) : 0;
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        int64_t r0, r1, r2;
        rowIndex(v, r, r0, r1, r2);
        int64_t rowChannel = 0;
        if (Op::kChannel && v.channelRow >= 0) divmod(v.channelRow == 2 ? r2 : v.channelRow == 1 ? r1 : r0, v.channels, rowChannel);
        const char *s = v.src + r0 * v.srcRow[0] + r1 * v.srcRow[1] + r2 * v.srcRow[2];
        char *d = v.dst + r0 * v.dstRow[0] + r1 * v.dstRow[1] + r2 * v.dstRow[2];
        for (int64_t q0 = static_cast<int64_t>(blockIdx.x) * tile + threadIdx.x; q0 < units;
             q0 += static_cast<int64_t>(gridDim.x) * tile) {
            In in[kMaxU][V];
            const char *sq = s + q0 * srcStep;
            const int64_t sStride = static_cast<int64_t>(blockDim.x) * srcStep;
#pragma unroll
            for (int j = 0; j < kMaxU; ++j) {
                const int64_t q = q0 + j * static_cast<int64_t>(blockDim.x);
                if (j < unitsPerThread && q < full) VecIO<In, V, Vector>::load(sq + j * sStride, in[j]);
            }
            int c = static_cast<int>(rowChannel);
            if (channelInner) {
                int64_t c0;
                divmod(q0 * V, v.channels, c0);
                c = static_cast<int>(c0);
            }
#pragma unroll
            for (int j = 0; j < kMaxU; ++j) {
                const int64_t q = q0 + j * static_cast<int64_t>(blockDim.x);
                if (j >= unitsPerThread || q >= units) break;
                int ck = c;
                if (q < full) {
                    Out out[V];
#pragma unroll
                    for (int k = 0; k < V; ++k) {
                        out[k] = op(in[j][k], ck);
                        if (channelInner && ++ck == v.channels) ck = 0;
                    }
                    VecIO<Out, V, Vector>::store(d + q * dstStep, out);
                } else { // the row's partial last unit (vector path only)
                    for (int64_t i = q * V; i < v.inner; ++i) {
                        const In x = *reinterpret_cast<const In *>(s + i * v.srcInner);
                        *reinterpret_cast<Out *>(d + i * v.dstInner) = op(x, ck);
                        if (channelInner && ++ck == v.channels) ck = 0;
                    }
                }
                if (channelInner && (c += chStep) >= v.channels) c -= v.channels;
            }
        }
    }
}

template <class In, class Out, int V, bool Vector, class Op>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) rowsKernel(RowView v, Op op, int unitsPerThread) {
    rowsBody<In, Out, V, Vector>(v, op, unitsPerThread);
}

// The launch of a row walk: the shape, U, and which path.
struct RowPlan {
    RowLaunch launch;
    int unitsPerThread;
    bool vector;
};
template <class In, class Out, class Op> RowPlan rowPlan(const RowView &v) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    RowPlan p;
    p.vector = rowsVectorizable(v, sizeof(In), sizeof(Out));
    const int64_t units = p.vector ? ceilDiv(v.inner, rowVectorElems<In, Out>()) : v.inner;
    p.unitsPerThread = rowUnitsPerThread(units, rows, p.vector ? rowMaxUnits<rowVectorElems<In, Out>()>() : rowMaxUnits<1>());
    p.launch = rowLaunch(ceilDiv(units, p.unitsPerThread), rows);
    return p;
}

// Enqueues op over the view on `stream` element by element through the strides (the strided path alone, for callers
// that take another kernel where the vector path would apply); returns the launch status (never blocks the host).
template <class In, class Out, class Op> cudaError_t launchRowsStrided(const RowView &v, const Op &op, cudaStream_t stream) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    if (rows == 0 || v.inner == 0) return cudaSuccess;
    const int u = rowUnitsPerThread(v.inner, rows, rowMaxUnits<1>());
    const RowLaunch l = rowLaunch(ceilDiv(v.inner, u), rows);
    rowsKernel<In, Out, 1, false><<<l.grid, l.block, 0, stream>>>(v, op, u);
    return cudaGetLastError();
}

// Enqueues op over the view on `stream`; returns the launch status (never blocks the host).
template <class In, class Out, class Op> cudaError_t launchRows(const RowView &v, const Op &op, cudaStream_t stream) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    if (rows == 0 || v.inner == 0) return cudaSuccess;
    const RowPlan p = rowPlan<In, Out, Op>(v);
    if (!p.vector) return launchRowsStrided<In, Out>(v, op, stream);
    rowsKernel<In, Out, rowVectorElems<In, Out>(), true><<<p.launch.grid, p.launch.block, 0, stream>>>(v, op, p.unitsPerThread);
    return cudaGetLastError();
}

// The identity functor: a strided copy of elements (crop and layout changes whose rows are not contiguous).
template <class T> struct CopyOp {
    static constexpr bool kChannel = false;
    __device__ __forceinline__ T operator()(T v, int) const { return v; }
};

} // namespace cvk
