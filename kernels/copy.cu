#include "copy.hpp"

#include "common/dispatch.cuh"
#include "common/rows.cuh"

namespace cvk {

cudaError_t launchCopy(const RowView &v, int32_t itemSize, cudaStream_t stream) {
    cudaError_t status = cudaErrorInvalidValue;
    visitBySize(itemSize, [&](auto tag) {
        using T = typename decltype(tag)::type;
        status = launchRows<T, T>(v, CopyOp<T>{}, stream);
    });
    return status;
}

} // namespace cvk
