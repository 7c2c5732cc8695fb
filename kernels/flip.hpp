// Flip kernels and their dispatch. Knows nothing of handles or streams beyond cudaStream_t.
#pragma once

#include "common/view.hpp"

#include <cuda_runtime.h>
#include <cstdint>

namespace cvk {

// A flip over a canonical 5-d view [outer1, outer0, height, width, inner] of src and dst (same shape).
// Strides are in BYTES, multiples of elemSize; src strides may be negative or zero. dst == src with equal strides
// means in place (the caller has rejected every other overlap and any self-overlapping dst).
struct FlipParams {
    const char *src;
    char *dst;
    int64_t shape[5];      // elements per dimension, all > 0
    int64_t srcStrides[5]; // bytes
    int64_t dstStrides[5]; // bytes
    int32_t elemSize;      // 1, 2, 4, 8 or 16 (complex128)
    bool flipRows;         // y -> height-1-y  (flipCode == 0 or < 0)
    bool flipCols;         // x -> width-1-x   (flipCode > 0 or < 0)
    bool inPlace;
};

enum { kOuter1 = 0, kOuter0 = 1, kHeight = 2, kWidth = 3, kInner = 4 };

// The kernel that launchFlip picks for a FlipParams (exposed so CPU tests can check the dispatch).
enum class FlipPath {
    Nothing,      // in place with nothing to move (e.g. a 1x1 image)
    RowCopy,      // rows copied whole (vertical flip or plain copy), vectors of `unitBytes`
    AlignedRows,  // the same rows as one flat launch of aligned 16-byte blocks (copy.hpp's launchCopy), not in place
    ColumnGroups, // horizontal flip of packed rows, 16-byte vectors, pixels reversed in registers
    ColumnRows,   // horizontal flip of short packed rows that follow each other: runs of whole rows, 16-byte vectors;
                  // also flips both ways of such rows (params.flipRows: each run's span reversed whole)
    ColumnFlat,   // the rows of ColumnGroups, not in place, one `unitBytes` item (a pixel group or 16 bytes) per thread
    ColumnUnits,  // horizontal flip of packed rows, one `unitBytes` piece of a pixel per thread
    Generic,      // one element per thread, any strides
};

struct FlipPlan {
    FlipPath path;
    int32_t unitBytes;  // RowCopy / ColumnUnits: bytes one thread moves at a time (1, 2, 4, 8 or 16); ColumnFlat:
                        // bytes of one thread's item, 16 or the pixel group's size (flip_thread.cuh, groupBytes)
    int64_t pixelBytes; // ColumnGroups / ColumnRows / ColumnUnits: bytes of one pixel (inner * elemSize)
    FlipParams params;  // the normalised view the kernel runs on (flips folded into negative src strides, rows merged)
    RowView rows;       // AlignedRows: the rows launchCopy moves (flipRowView of params)
};

// Horizontal flips of packed, 16-byte aligned rows of whole pixel groups (the ColumnGroups / ColumnRows rows) that are
// not in place and move fewer than this many bytes take the flat path: one small item per thread, so that one image
// spreads over every SM (a 1x224x224x3 uint8 flip is 56 warp units on the staged whole-row path, 3136 threads of
// one 48-byte group each here). Larger flips stay on the warp-unit paths, measured at 0.94-0.96 of a copy at
// 32x1080x1920x3 and 256x224x224x3 uint8 (the flat path is slower there); bench/probes/flip_plans.cu times both on every benchmark row
// but flips both ways of short rows past this size (planFlipKernel gives those whole-row units whatever its flatMaxBytes), so this is the one number to
// change from its figures (0: the warp-unit paths everywhere).
constexpr int64_t kFlipFlatMaxBytes = int64_t(32) << 20;
// A flat launch of fewer pixel groups than this gives each thread one 16-byte vector of a group instead of the whole
// group (three times the threads for 48-byte groups). 0: a group a thread everywhere, which bench/probes/flip_plans.cu
// measured on an H200 at least as fast on every small flip (µs per call, 3-channel uint8, group / vector items:
// 1x224x224 flipCode 1 2.41 / 2.42, -1 2.52 / 2.63; 1x1080x1920 flipCode 1 5.80 / 6.87, -1 5.61 / 6.86; a copy of the
// same bytes 1.88 and 8.02; main's warp-unit paths before it 2.63, 3.87, 7.11, 7.09).
constexpr int64_t kFlipFlatVectorMaxGroups = 0;

// Chooses the kernel and normalises the view; pure host arithmetic, no CUDA call. flatMaxBytes: kFlipFlatMaxBytes's
// role (the probe and the CPU tests pass others).
FlipPlan planFlipKernel(const FlipParams &p, int64_t flatMaxBytes = kFlipFlatMaxBytes);

// The rows of a RowCopy plan's view (not in place) as launchCopy's RowView: dst row h <- src row h, or height - 1 - h
// under a row flip (a negative src row stride). Pure host arithmetic.
RowView flipRowView(const FlipParams &p);

// Grid and block size of a flip launch of `warpUnits` warp work items (at least one block). Every flip kernel keeps
// its state per warp (registers, its warp's slice of shared memory, __syncwarp only), so any whole number of warps per
// block computes the same result. A large launch gets blocks of 8 warps. A small one (a 1x224x224x3 image: 56 units,
// which would be 7 blocks on 7 SMs) gets blocks of 4, 2 or 1 warps, so that its units spread over up to 128 SMs
// (about the SM count of the largest GPUs; no device query, which would cost host time per launch) and each SM's
// load/store path carries less of the one round trip such a flip is.
struct FlipLaunchShape {
    unsigned grid, block; // blocks, threads per block (a multiple of 32, at most 256)
};
FlipLaunchShape flipLaunchShape(int64_t warpUnits);

// Loads every flip kernel on the current device (cudaFuncGetAttributes). With CUDA's lazy module loading a kernel
// is otherwise loaded at its first launch, which may wait for all work on the device: a host sync hidden in the
// first operation. Call it where the library may block: stream creation, first allocation.
cudaError_t preloadFlipKernels();

// Enqueues the flip on `stream`; returns the launch status (never blocks the host). Counts no statistics;
// *launched (when given) says whether a kernel was launched (nothing is, e.g., for an in-place flip of one pixel).
cudaError_t launchFlip(const FlipParams &p, cudaStream_t stream, bool *launched = nullptr);

// Enqueues a plan of planFlipKernel (launchFlip's second half; the probe launches plans with other choices).
cudaError_t launchFlipPlan(const FlipPlan &plan, cudaStream_t stream);

} // namespace cvk
