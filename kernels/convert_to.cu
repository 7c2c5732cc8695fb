#include "convert_to.hpp"

#include "common/dispatch.cuh"
#include "common/rows.cuh"
#include "common/saturate.cuh"

namespace cvk {
namespace {

template <class In, class Out, Round R> struct ConvertOp {
    using W = WorkType<In, Out>;
    static constexpr bool kChannel = false;
    W scale, offset;
    __device__ __forceinline__ Out operator()(In v, int) const {
        return saturateCast<Out, R>(fma(Traits<In>::template toWork<W>(v), scale, offset));
    }
};

template <class In, class Out, Round R> cudaError_t launchOne(const ConvertParams &p, cudaStream_t stream) {
    using Op = ConvertOp<In, Out, R>;
    using W = typename Op::W;
    return launchRows<In, Out>(p.view, Op{static_cast<W>(p.scale), static_cast<W>(p.offset)}, stream);
}

} // namespace

bool convertSupported(cvDataType dtype) {
    return visitArithmetic(dtype, [](auto) {});
}

cudaError_t launchConvertTo(const ConvertParams &p, cudaStream_t stream) {
    cudaError_t status = cudaErrorInvalidValue;
    visitArithmetic(p.src, [&](auto inTag) {
        visitArithmetic(p.dst, [&](auto outTag) {
            using In = typename decltype(inTag)::type;
            using Out = typename decltype(outTag)::type;
            if constexpr (Traits<Out>::kFloat) {
                status = launchOne<In, Out, Round::Nearest>(p, stream); // rounding does not apply
            } else {
                switch (static_cast<Round>(p.round)) {
                case Round::Nearest: status = launchOne<In, Out, Round::Nearest>(p, stream); break;
                case Round::Truncate: status = launchOne<In, Out, Round::Truncate>(p, stream); break;
                case Round::NearestWrap: status = launchOne<In, Out, Round::NearestWrap>(p, stream); break;
                case Round::TruncateWrap: status = launchOne<In, Out, Round::TruncateWrap>(p, stream); break;
                }
            }
        });
    });
    return status;
}

} // namespace cvk
