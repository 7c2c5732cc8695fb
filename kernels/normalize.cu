#include "normalize.hpp"

#include "common/dispatch.cuh"
#include "common/rows.cuh"
#include "common/saturate.cuh"

#include <type_traits>

namespace cvk {
namespace {

template <class T> constexpr bool normalizeSource() {
    return std::is_same<T, uint8_t>::value || std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value ||
           std::is_same<T, __half>::value || std::is_same<T, float>::value;
}
template <class In, class Out> constexpr bool normalizePair() {
    return normalizeSource<In>() &&
           (std::is_same<Out, float>::value || std::is_same<Out, __half>::value || std::is_same<Out, In>::value);
}

// Host too: the register path reads by-value constants on the host (registerOp).
__host__ __device__ __forceinline__ float constantAt(const NormalizeConstants &k, int c) {
    const int i = k.count == 1 ? 0 : c;
    return k.device ? *reinterpret_cast<const float *>(k.device + i * k.stride) : k.values[i];
}

// One element, the same expression on both paths (so they give the same bits).
template <class In, class Out> __device__ __forceinline__ Out normalizeValue(In v, float base, float mul, float shift) {
    return saturateCast<Out, Round::Nearest>(fmaf(Traits<In>::template toWork<float>(v) - base, mul, shift));
}

// The per-channel subtrahend and factor (scale' * globalScale), staged in shared memory by prepare().
template <class In, class Out> struct NormalizeOp {
    static constexpr bool kChannel = true;
    const NormalizeParams *params; // the kernel's __grid_constant__ parameter: read in place, never copied
    const float *base = nullptr, *mul = nullptr;
    float shift = 0.f;
    __device__ void prepare() {
        __shared__ float sBase[kNormalizeMaxChannels], sMul[kNormalizeMaxChannels];
        const NormalizeParams &p = *params;
        const int tid = threadIdx.y * blockDim.x + threadIdx.x;
        for (int c = tid; c < p.channels; c += blockDim.x * blockDim.y) {
            float s = constantAt(p.scale, c);
            if (p.scaleIsStddev) s = 1.0f / sqrtf(s * s + p.epsilon);
            sBase[c] = constantAt(p.base, c);
            sMul[c] = s * p.globalScale;
        }
        __syncthreads();
        base = sBase;
        mul = sMul;
        shift = p.globalShift;
    }
    __device__ __forceinline__ Out operator()(In v, int c) const { return normalizeValue<In, Out>(v, base[c], mul[c], shift); }
};

// Up to 4 channels of by-value constants with a plain scale: the subtrahends and factors ride in the kernel's
// parameter and are picked per element by selects in registers, with no prepare() (no shared memory, no barrier
// before the first load) and a parameter of about 160 bytes (the view and 9 floats) instead of NormalizeParams' 2 KiB of value arrays.
// The factor is the same single multiply prepare() makes, so both paths give the same bits (unless the calling host
// thread flushes denormals, for a factor below about 1.2e-38).
constexpr int kNormalizeRegisterChannels = 4;
template <class In, class Out> struct NormalizeRegisterOp {
    static constexpr bool kChannel = true;
    float base[kNormalizeRegisterChannels], mul[kNormalizeRegisterChannels];
    float shift;
    __device__ __forceinline__ static float pick(const float (&a)[kNormalizeRegisterChannels], int c) {
        return c == 0 ? a[0] : c == 1 ? a[1] : c == 2 ? a[2] : a[3];
    }
    __device__ __forceinline__ Out operator()(In v, int c) const {
        return normalizeValue<In, Out>(v, pick(base, c), pick(mul, c), shift);
    }
};

template <class In, class Out> NormalizeRegisterOp<In, Out> registerOp(const NormalizeParams &p) {
    NormalizeRegisterOp<In, Out> op{};
    for (int c = 0; c < p.channels; ++c) {
        op.base[c] = constantAt(p.base, c);
        op.mul[c] = constantAt(p.scale, c) * p.globalScale; // as prepare(): one rounding
    }
    op.shift = p.globalShift;
    return op;
}

template <class In, class Out, bool Vector>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) normalizeKernel(const __grid_constant__ NormalizeParams p, int unitsPerThread) {
    rowsBody<In, Out, Vector ? rowVectorElems<In, Out>() : 1, Vector>(p.view, NormalizeOp<In, Out>{&p}, unitsPerThread);
}

} // namespace

bool normalizeInRegisters(const NormalizeParams &p) {
    return !p.scaleIsStddev && p.channels >= 1 && p.channels <= kNormalizeRegisterChannels && p.base.device == nullptr &&
           p.scale.device == nullptr;
}

bool normalizeSupported(cvDataType src, cvDataType dst) {
    bool ok = false;
    visitArithmetic(src, [&](auto i) {
        visitArithmetic(dst, [&](auto o) {
            ok = normalizePair<typename decltype(i)::type, typename decltype(o)::type>();
        });
    });
    return ok;
}

cudaError_t launchNormalize(const NormalizeParams &p, cudaStream_t stream) {
    cudaError_t status = cudaErrorInvalidValue;
    visitArithmetic(p.src, [&](auto inTag) {
        visitArithmetic(p.dst, [&](auto outTag) {
            using In = typename decltype(inTag)::type;
            using Out = typename decltype(outTag)::type;
            if constexpr (normalizePair<In, Out>()) {
                const RowView &v = p.view;
                if (v.rows[0] * v.rows[1] * v.rows[2] == 0 || v.inner == 0) {
                    status = cudaSuccess;
                } else if (normalizeInRegisters(p)) {
                    status = launchRows<In, Out>(v, registerOp<In, Out>(p), stream);
                } else {
                    const RowPlan plan = rowPlan<In, Out, NormalizeOp<In, Out>>(v);
                    if (plan.vector)
                        normalizeKernel<In, Out, true><<<plan.launch.grid, plan.launch.block, 0, stream>>>(p, plan.unitsPerThread);
                    else
                        normalizeKernel<In, Out, false><<<plan.launch.grid, plan.launch.block, 0, stream>>>(p, plan.unitsPerThread);
                    status = cudaGetLastError();
                }
            }
        });
    });
    return status;
}

} // namespace cvk
