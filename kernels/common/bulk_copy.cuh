// One-dimensional bulk copies (cp.async.bulk, sm_90) from global to shared memory that complete on an mbarrier:
// the pieces a warp-streamed kernel needs to have one lane copy a whole span of a row in one instruction, and every
// lane wait for it. A barrier is initialised for one arrival (the issuing lane's arrive.expect_tx) plus the bytes its
// copies bring; each use completes one phase, so a ring slot's waiter passes the parity of its use count.
// Global and shared addresses and sizes of a bulk copy are multiples of 16 bytes.
#pragma once

#include <cstdint>

namespace cvk {

#if defined(__CUDACC__)
// The instructions exist from sm_90 on; older targets compile these to nothing (their kernels trap instead).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CVK_BULK_ASM(...) asm volatile(__VA_ARGS__)
#else
#define CVK_BULK_ASM(...) ((void)0)
#endif
__device__ __forceinline__ void bulkBarrierInit(uint64_t *bar) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(bar));
    CVK_BULK_ASM("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(a) : "memory");
}
__device__ __forceinline__ void bulkBarrierInitFence() { CVK_BULK_ASM("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
__device__ __forceinline__ void bulkProxyFence() { CVK_BULK_ASM("fence.proxy.async.shared::cta;\n" ::: "memory"); }
// One lane: bytes [from, from + bytes) of global memory to slot, completing on bar (bytes may be 0: the arrive alone).
__device__ __forceinline__ void bulkCopy(uint8_t *slot, const uint8_t *from, uint32_t bytes, uint64_t *bar) {
    const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(bar)), d = static_cast<unsigned>(__cvta_generic_to_shared(slot));
    CVK_BULK_ASM("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(bytes) : "memory");
    if (bytes > 0)
        CVK_BULK_ASM("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(d), "l"(from), "r"(bytes),
                     "r"(b)
                     : "memory");
}
__device__ __forceinline__ void bulkWait(uint64_t *bar, uint32_t phase) {
    const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(bar));
    CVK_BULK_ASM("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}\n" ::"r"(b), "r"(phase) : "memory");
}

// The other direction: bytes [slot, slot + bytes) of shared memory to global memory `to`, in this thread's current
// bulk group (bulkStoreCommit closes it). The threads that wrote the slot run bulkProxyFence, then a barrier, before
// one issues the copy; the slot is written again only after bulkStoreWaitRead<N> (at most N of this thread's groups
// still reading shared memory).
__device__ __forceinline__ void bulkStore(char *to, const void *slot, uint32_t bytes) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(slot));
    CVK_BULK_ASM("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(to), "r"(s), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulkStoreCommit() { CVK_BULK_ASM("cp.async.bulk.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void bulkStoreWaitRead() { CVK_BULK_ASM("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory"); }
template <int N> __device__ __forceinline__ void bulkStoreWait() { CVK_BULK_ASM("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory"); }

#undef CVK_BULK_ASM
#endif

} // namespace cvk
