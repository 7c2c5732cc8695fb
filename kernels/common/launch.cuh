// Device level: launch shapes shared by the memory-bound kernels. Blocks of at most kBlockThreads threads: the row
// walks' are shaped (x: thread-units along a row) x (y: rows) so that short rows do not leave most of a block idle,
// with 2-D grids that every kernel loops grid-stride in both directions, so any size fits in a capped grid; launches
// of one-warp work units take fewer warps a block while they are small (spreadWarps).
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace cvk {

constexpr int kBlockThreads = 256;
// Blocks per multiprocessor the register-heavy streaming kernels are compiled for (__launch_bounds__): caps them at
// 64 registers, so that without the cap ptxas neither spills nor drops below half occupancy (1024 threads, which
// with 48-64 bytes in flight per thread keeps 48-64 KiB per multiprocessor in flight).
constexpr int kMinBlocks = 4;
// Threads an H200 keeps resident (132 multiprocessors x 2048 threads): a kernel that could move several units per
// thread does so only while its threads still fill the GPU once, so that smaller launches still reach every
// multiprocessor (no device query, which would cost host time per launch).
constexpr int64_t kResidentThreads = int64_t(132) * 2048;
constexpr int64_t kMaxGridX = int64_t(1) << 20;
constexpr int64_t kMaxGridY = 65535;
// Blocks a launch of few one-warp work units is spread over before its blocks get more warps (spreadWarps): a small
// image then reaches more multiprocessors, each with a shorter block to finish. On the H200 the flip of 1x224x224x3
// took 2.28 µs a call in 64-thread blocks against 2.60 in 256-thread ones
// (docs/verification/logs/probe-flip_plans-aligned.log).
constexpr int64_t kWarpSpreadBlocks = 128;

// Warps per block for a launch of `warpUnits` one-warp work units: kBlockThreads / 32, halved (down to 1) while the
// launch would have fewer than kWarpSpreadBlocks blocks.
inline int spreadWarps(int64_t warpUnits) {
    int warps = kBlockThreads / 32;
    while (warps > 1 && warpUnits < int64_t(warps) * kWarpSpreadBlocks) warps /= 2;
    return warps;
}

__host__ __device__ constexpr int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// q = a / b, rem = a % b for a >= 0, b > 0: 32-bit division (several times cheaper than 64-bit) when both fit. Host
// too: the CPU tests run kernels' per-thread index arithmetic (kernels/flip_thread.cuh).
__host__ __device__ __forceinline__ int64_t divmod(int64_t a, int64_t b, int64_t &rem) {
    if (((static_cast<uint64_t>(a) | static_cast<uint64_t>(b)) >> 32) == 0) {
        const uint32_t q = static_cast<uint32_t>(a) / static_cast<uint32_t>(b);
        rem = static_cast<uint32_t>(a) - q * static_cast<uint32_t>(b);
        return q;
    }
    const int64_t q = a / b;
    rem = a - q * b;
    return q;
}

struct RowLaunch {
    dim3 grid, block;
};

// `units` thread-units per row, `rows` rows. The block's x extent (32..256) is the one that launches the fewest
// threads in all (ties: the wider one), counting both the idle threads of a row's last block and the block rows past
// the last row; the rest of the block takes further rows. Counting only the first chose 64 x 4 blocks for one row of
// 388800 units, three quarters of them idle (a 1080x1920x3 float32 normalize at 0.58x copy speed, H200,
// bench/probes/rows_units.cu).
inline RowLaunch rowLaunch(int64_t units, int64_t rows) {
    int bx = kBlockThreads;
    int64_t best = -1;
    for (int w = kBlockThreads; w >= 32; w /= 2) {
        const int64_t cover = ceilDiv(units, w) * w * (ceilDiv(rows, kBlockThreads / w) * (kBlockThreads / w));
        if (best < 0 || cover < best) best = cover, bx = w;
    }
    const int by = kBlockThreads / bx;
    const int64_t gx = ceilDiv(units, bx), gy = ceilDiv(rows, by);
    RowLaunch l;
    l.block = dim3(bx, by);
    l.grid = dim3(static_cast<unsigned>(gx < kMaxGridX ? (gx > 0 ? gx : 1) : kMaxGridX),
                  static_cast<unsigned>(gy < kMaxGridY ? (gy > 0 ? gy : 1) : kMaxGridY));
    return l;
}

} // namespace cvk
