// Block and device level: the elementwise row engine of the memory-bound operators. A RowView (view.hpp) is walked
// row by row; along a row each thread converts K elements with an operator functor
//     struct Op { static constexpr bool kChannel = ...; __device__ Out operator()(In v, int channel) const; };
// (`channel` is the element's channel index (RowView::channels, channelRow), kept incrementally along a row: no
// division per element; it is 0 when kChannel is false). An Op may have `__device__ void prepare()`, which every
// thread of a block calls once before any element (e.g. to stage per-channel constants in shared memory; it may
// __syncthreads()). When both rows are contiguous and every row start is 16-byte aligned, a thread moves
// K = 16 / min(sizeof(In), sizeof(Out)) elements as whole 16-byte vectors on both sides; otherwise one element per
// thread with the view's strides (still coalesced for contiguous rows). In place (dst == src, same strides) is exact:
// each thread reads its elements before writing them.
#pragma once

#include "launch.cuh"
#include "vector_io.cuh"
#include "view.hpp"

#include <type_traits>
#include <utility>

namespace cvk {

template <class In, class Out> __host__ __device__ constexpr int rowVectorElems() {
    return 16 / (sizeof(In) < sizeof(Out) ? sizeof(In) : sizeof(Out));
}

// Whether the vector path applies to a view with these element sizes (host arithmetic).
inline bool rowsVectorizable(const RowView &v, int64_t inSize, int64_t outSize) {
    if (v.srcInner != inSize || v.dstInner != outSize) return false;
    bool ok = aligned16(reinterpret_cast<int64_t>(v.src)) && aligned16(reinterpret_cast<int64_t>(v.dst));
    for (int i = 0; i < kRowDims; ++i)
        if (v.rows[i] > 1) ok = ok && aligned16(v.srcRow[i]) && aligned16(v.dstRow[i]);
    return ok;
}

template <class Op, class = void> struct HasPrepare : std::false_type {};
template <class Op> struct HasPrepare<Op, std::void_t<decltype(std::declval<Op &>().prepare())>> : std::true_type {};

// The block's part of the walk, for kernels that wrap it (e.g. with __grid_constant__ parameters an Op points into).
template <class In, class Out, int K, bool Vector, class Op> __device__ __forceinline__ void rowsBody(const RowView &v, Op op) {
    if constexpr (HasPrepare<Op>::value) op.prepare();
    const bool channelInner = v.channelRow < 0 && v.channels > 1;
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    const int64_t units = ceilDiv(v.inner, K);
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; r < rows;
         r += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        int64_t r0 = 0, r1 = 0, r2 = r; // row dims of extent 1 need no division (e.g. a crop of one image batch)
        if (v.rows[0] * v.rows[1] > 1) {
            const int64_t t = divmod(r, v.rows[2], r2);
            r0 = divmod(t, v.rows[1], r1);
        }
        int64_t rowChannel = 0;
        if (Op::kChannel && v.channelRow >= 0) divmod(v.channelRow == 2 ? r2 : v.channelRow == 1 ? r1 : r0, v.channels, rowChannel);
        const char *s = v.src + r0 * v.srcRow[0] + r1 * v.srcRow[1] + r2 * v.srcRow[2];
        char *d = v.dst + r0 * v.dstRow[0] + r1 * v.dstRow[1] + r2 * v.dstRow[2];
        for (int64_t q = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < units;
             q += static_cast<int64_t>(gridDim.x) * blockDim.x) {
            const int64_t i0 = q * K;
            int64_t c0 = 0;
            if (Op::kChannel && channelInner) divmod(i0, v.channels, c0);
            int c = static_cast<int>(Op::kChannel && channelInner ? c0 : rowChannel);
            if constexpr (Vector) {
                if (i0 + K <= v.inner) {
                    In in[K];
                    Out out[K];
                    VecIO<In, K, true>::load(s + i0 * static_cast<int64_t>(sizeof(In)), in);
#pragma unroll
                    for (int k = 0; k < K; ++k) {
                        out[k] = op(in[k], c);
                        if (Op::kChannel && channelInner && ++c == v.channels) c = 0;
                    }
                    VecIO<Out, K, true>::store(d + i0 * static_cast<int64_t>(sizeof(Out)), out);
                    continue;
                }
            }
            {
                const int64_t n = v.inner - i0 < K ? v.inner - i0 : K;
                for (int64_t k = 0; k < n; ++k) {
                    const In x = *reinterpret_cast<const In *>(s + (i0 + k) * v.srcInner);
                    *reinterpret_cast<Out *>(d + (i0 + k) * v.dstInner) = op(x, c);
                    if (Op::kChannel && channelInner && ++c == v.channels) c = 0;
                }
            }
        }
    }
}

template <class In, class Out, int K, bool Vector, class Op>
__global__ void __launch_bounds__(kBlockThreads) rowsKernel(RowView v, Op op) {
    rowsBody<In, Out, K, Vector>(v, op);
}

// Enqueues op over the view on `stream`; returns the launch status (never blocks the host).
template <class In, class Out, class Op> cudaError_t launchRows(const RowView &v, const Op &op, cudaStream_t stream) {
    const int64_t rows = v.rows[0] * v.rows[1] * v.rows[2];
    if (rows == 0 || v.inner == 0) return cudaSuccess;
    if (rowsVectorizable(v, sizeof(In), sizeof(Out))) {
        constexpr int K = rowVectorElems<In, Out>();
        const RowLaunch l = rowLaunch(ceilDiv(v.inner, K), rows);
        rowsKernel<In, Out, K, true><<<l.grid, l.block, 0, stream>>>(v, op);
    } else {
        const RowLaunch l = rowLaunch(v.inner, rows);
        rowsKernel<In, Out, 1, false><<<l.grid, l.block, 0, stream>>>(v, op);
    }
    return cudaGetLastError();
}

// The identity functor: a strided copy of elements (crop, layout changes that cannot use a tiled transpose).
template <class T> struct CopyOp {
    static constexpr bool kChannel = false;
    __device__ __forceinline__ T operator()(T v, int) const { return v; }
};

} // namespace cvk
