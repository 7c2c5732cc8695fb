// cvResize's periodic NEAREST path for uint8 NEAREST and NEAREST_FLOOR downscales whose horizontal ratio is one of the
// periodic LINEAR path's fractions (resize_linear.cuh, kLinearPeriods: 3 source pixels for every 2 destination
// pixels, or 2 for 1): the source column of destination column d is then (d / Q) * P + first(d % Q), so a thread that
// owns PX consecutive destination pixels of one row (a multiple of Q) finds every destination byte at a source byte
// position known at compile time. No shared memory, no index table: the thread loads the whole words of its source
// span straight from global memory (16- or 8-byte loads where the source row is that aligned), gathers each
// destination word with one or two byte permutes at compile-time selectors, and stores its PX * C bytes as 16-, 8- or
// 4-byte words (bytes where the destination row is not aligned or the group is the row's partial last one, whose
// source bytes are then read one by one: its whole words could lie past the row). Each destination row's source
// row is the sampler's (bandSourceIndex), once per thread, not per pixel; a source row the vertical factor skips
// is never read. The tiled kernels (NearestTile) run the same gather on spans a block stages in shared memory with
// 16-byte loads that are contiguous across each warp, and store through shared memory the same way.
//
// The host (planResizeNearest, resize_nearest.cu) checks every destination column's source index against the
// period, so the compiled positions are the per-pixel sampler's bytes for every shape it takes. The per-thread work
// (and each phase of a tiled block) is a __host__ __device__ function, so the CPU tests run the whole grid against
// samplePixel.
#pragma once

#include "common/register_bytes.cuh"
#include "common/span.cuh"
#include "resize_band.cuh"
#include "resize_linear.cuh"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace cvk::resize {

#define CVK_NN_HD __host__ __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CVK_NN_UNROLL _Pragma("unroll")
#else
#define CVK_NN_UNROLL
#endif

// Source column of phase r (0 <= r < q) of period (q, p) in its period: NEAREST (kNearest, OpenCV
// INTER_NEAREST_EXACT) floor((r + 0.5) * p / q), NEAREST_FLOOR floor(r * p / q). The exact values of the sampler's
// index functions (resize_filters.cuh) for an exact ratio: the plan checks every column against them (no tie of
// nearestExact falls on these ratios, and nearestFloor's double product agrees), so it takes only what is exact.
CVK_NN_HD constexpr int32_t nearestPeriodFirst(int32_t interp, int32_t q, int32_t p, int32_t r) {
    return interp == kNearest ? ((2 * r + 1) * p) / (2 * q) : (r * p) / q;
}

// The path's kernels (bench/probes/resize_nearest_variants.cu times every one): destination pixels per thread by
// channel count (1, 3, 4: linearChannelRow), threads per block, and how a block moves its bytes:
//   per thread  each thread loads the words of its own source span and stores its own destination bytes, so a warp's
//               load instruction touches 32 spans 48 to 192 bytes apart (about one L1 wavefront per thread);
//   tiled       a block stages the spans of its `threads` groups in shared memory with 16-byte loads that are
//               contiguous across the warp, gathers each group from there, and (stageOut) stores its destination
//               bytes the same way: every global access a whole aligned 16-byte vector, a warp's instruction 512
//               contiguous bytes but where a row ends. Needs 16-byte aligned rows on both sides and whole groups in
//               every row (planResizeNearest takes variant 0 where they are not);
//   streaming   ld.global.cs / st.global.cs (common/span.cuh): the source and destination are touched once.
// Pixels per thread are multiples of every Q of kLinearPeriods with whole destination words, and for the tiled
// kernels whole 16-byte source spans and destination vectors per group at both periods.
//   pipelined   tiled, staged stores, a grid of the blocks that fit at once, each walking tiles and fetching the next
//               one's vectors into registers while it gathers and stores the current one.
struct NearestVariant {
    int pixels[3];
    int threads;
    bool tiled, stageOut, streaming, pipelined;
};
constexpr int kNearestVariantCount = 9;
constexpr NearestVariant kNearestVariants[kNearestVariantCount] = {
    {{16, 16, 4}, 256, false, false, false, false}, // 0: per thread (main's kernel since the path exists)
    {{32, 32, 8}, 256, false, false, false, false}, // 1: twice the pixels per thread
    {{16, 16, 4}, 256, false, false, true, false},  // 2: 0 with streaming loads and stores
    {{32, 32, 8}, 128, true, true, false, false},   // 3: tiled, staged stores
    {{32, 32, 8}, 128, true, true, true, false},    // 4: 3 with streaming loads and stores
    {{32, 32, 8}, 128, true, false, true, false},   // 5: tiled loads, each thread storing its own group (streaming)
    {{32, 32, 8}, 64, true, true, true, false},     // 6: 4 with half the threads a block
    {{32, 32, 8}, 128, true, true, true, true},     // 7: 4 pipelined
    {{32, 32, 8}, 128, true, true, false, true},    // 8: 3 pipelined
};
// The variant launchResize takes, per channel row (1, 3, 4 channels), from bench/probes/resize_nearest_variants.cu on
// an H200 (GPU µs per call of 32 x 1080x1920, variants 0 / 4 / 7, outputs byte-identical; the band path before them):
// NEAREST 3 channels -> 720x1280 69.2 / 61.7 / 61.7 (76.0), NEAREST_FLOOR 70.0 / 61.7 / 60.9, -> 540x960 51.7 /
// 50.6 / 41.3; 1 channel -> 720x1280 21.2 / 21.1 / 21.5; 4 channels 71.9 / 72.4 / 79.6: the pipelined tiles (7) for
// 3 channels, the per-thread kernel (0) for 1 (within 0.4 µs of every variant) and 4.
constexpr int32_t kNearestVariantOf[3] = {0, 7, 0};

template <int I, int C, int Q, int P, int PX> struct NearestGeometry {
    static_assert(P > Q && P <= 2 * Q, "a downscale by more than 1 and at most 2 across");
    static_assert(PX % Q == 0, "whole periods per thread");
    static constexpr int kInterp = I, kChannels = C, kPixels = PX;
    static constexpr int kSrcStride = PX / Q * P * C; // source bytes from one thread's span to the next
    static constexpr int kOutBytes = PX * C;
    static_assert(kSrcStride % 4 == 0 && kOutBytes % 4 == 0, "whole words per thread");
    // the source byte of destination byte k of the group (from the group's first source byte)
    CVK_NN_HD static constexpr int srcByte(int k) {
        return ((k / C / Q) * P + nearestPeriodFirst(I, Q, P, (k / C) % Q)) * C + k % C;
    }
    // the widest load that divides a thread's span (every span then starts as aligned as its row) and the words of
    // the span loaded: up to the last one a byte is read from, rounded up to whole loads
    static constexpr int kLoad = kSrcStride % 16 == 0 ? 16 : kSrcStride % 8 == 0 ? 8 : 4;
    static constexpr int kWords = ((srcByte(kOutBytes - 1) + kLoad) / kLoad) * (kLoad / 4);
    static_assert(kWords * 4 <= kSrcStride, "a full group's loads lie inside its span");
};

// Destination word K of a group from its source words w: the four bytes come from at most three consecutive words
// (the source bytes increase with the destination bytes, and four of them span at most 2 * C + 2 bytes across a
// phase gap): one permute of the first two words, and a second that brings in the third word's bytes.
template <class Geo, int K> CVK_NN_HD uint32_t nearestWord(const uint32_t (&w)[Geo::kWords]) {
    constexpr int s0 = Geo::srcByte(4 * K), s1 = Geo::srcByte(4 * K + 1), s2 = Geo::srcByte(4 * K + 2), s3 = Geo::srcByte(4 * K + 3);
    constexpr int a = s0 >> 2, last = s3 >> 2;
    static_assert(last - a <= 2, "four destination bytes from at most three source words");
    constexpr int b = a + 1 < Geo::kWords ? a + 1 : a; // the pair's second word (any word when unused)
    // selector of destination byte n: from the pair (w[a], w[b]) when its word is a or a + 1, else 0 (replaced below)
    constexpr uint32_t pair = uint32_t((s0 >> 2) - a <= 1 ? s0 - 4 * a : 0) | uint32_t((s1 >> 2) - a <= 1 ? s1 - 4 * a : 0) << 4 |
                              uint32_t((s2 >> 2) - a <= 1 ? s2 - 4 * a : 0) << 8 | uint32_t((s3 >> 2) - a <= 1 ? s3 - 4 * a : 0) << 12;
    const uint32_t t = bytePerm(w[a], w[b], pair);
    if constexpr (last - a <= 1) {
        return t;
    } else {
        constexpr int c = a + 2;
        // byte n: t's byte n (selector n), or byte s - 4c of w[c] (selector 4 + s - 4c)
        constexpr uint32_t third = uint32_t((s0 >> 2) == c ? 4 + s0 - 4 * c : 0) | uint32_t((s1 >> 2) == c ? 4 + s1 - 4 * c : 1) << 4 |
                                   uint32_t((s2 >> 2) == c ? 4 + s2 - 4 * c : 2) << 8 | uint32_t((s3 >> 2) == c ? 4 + s3 - 4 * c : 3) << 12;
        return bytePerm(t, w[c], third);
    }
}

template <class Geo, size_t... K>
CVK_NN_HD void nearestWords(const uint32_t (&w)[Geo::kWords], uint32_t (&o)[Geo::kOutBytes / 4], std::index_sequence<K...>) {
    ((o[K] = nearestWord<Geo, int(K)>(w)), ...);
}

// The first source and destination byte of item i (group g of destination row `row` of the batch, row = n * dstH + dy:
// PX destination pixels from column g * PX; groups = the groups per destination row) and the bytes of its
// destination row from its first byte on.
template <class Geo> struct GroupAt {
    const uint8_t *src;
    uint8_t *out;
    int32_t left;
};
template <class Geo> CVK_NN_HD GroupAt<Geo> nearestGroupAt(const ResizeParams &p, const Mapping &m, int32_t groups, int32_t i) {
    const int32_t row = i / groups, g = i - row * groups;
    const int32_t n = row / m.y.dst, dy = row - n * m.y.dst;
    const int32_t sy = bandSourceIndex(m.y, m.tiesY, Geo::kInterp, dy);
    GroupAt<Geo> a;
    a.src = reinterpret_cast<const uint8_t *>(p.src.data + int64_t(n) * p.src.stride[kN] + int64_t(sy) * p.src.stride[kH]) +
            int64_t(g) * Geo::kSrcStride;
    a.out = reinterpret_cast<uint8_t *>(p.dst.data + int64_t(n) * p.dst.stride[kN] + int64_t(dy) * p.dst.stride[kH]) +
            int64_t(g) * Geo::kOutBytes;
    a.left = (m.x.dst - g * Geo::kPixels) * Geo::kChannels;
    return a;
}

template <bool Streaming> CVK_NN_HD uint4 nearestLoad16(const void *a) {
    if constexpr (Streaming) return load16Streaming(reinterpret_cast<uintptr_t>(a));
    else return load16(reinterpret_cast<uintptr_t>(a));
}
template <bool Streaming> CVK_NN_HD void nearestStore16(void *a, uint4 v) {
    if constexpr (Streaming) store16Streaming(reinterpret_cast<uintptr_t>(a), v);
    else reinterpret_cast<uint4 *>(a)[0] = v;
}

// The per-thread kernels' item i (one thread each).
template <int I, int C, int Q, int P, int PX, bool Streaming = false>
CVK_NN_HD void nearestGroup(const ResizeParams &p, const Mapping &m, int32_t groups, int32_t i) {
    using Geo = NearestGeometry<I, C, Q, P, PX>;
    const GroupAt<Geo> at = nearestGroupAt<Geo>(p, m, groups, i);
    const uint8_t *src = at.src;
    uint8_t *out = at.out;
    const int32_t left = at.left;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
    if (left < Geo::kOutBytes) { // the row's partial last group: its bytes one by one
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kOutBytes; ++k)
            if (k < left) out[k] = src[Geo::srcByte(k)];
        return;
    }
    // 16- or 8-byte loads where the row allows (the benchmark's rows): a warp's loads are 32 spans of 48 to 192
    // bytes apart, so each load instruction costs L1 about one wavefront per thread whatever its width
    uint32_t w[Geo::kWords];
    if (Geo::kLoad == 16 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords / 4; ++k) {
            const uint4 v = nearestLoad16<Streaming>(src + 16 * k);
            w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
        }
    } else if (Geo::kLoad >= 8 && (reinterpret_cast<uintptr_t>(src) & 7) == 0) {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords / 2; ++k) {
            uint2 v;
#ifdef __CUDA_ARCH__
            v = Streaming ? __ldcs(reinterpret_cast<const uint2 *>(src) + k) : reinterpret_cast<const uint2 *>(src)[k];
#else
            v = reinterpret_cast<const uint2 *>(src)[k];
#endif
            w[2 * k] = v.x, w[2 * k + 1] = v.y;
        }
    } else {
        CVK_NN_UNROLL
        for (int k = 0; k < Geo::kWords; ++k) w[k] = reinterpret_cast<const uint32_t *>(src)[k];
    }
    uint32_t o[Geo::kOutBytes / 4];
    nearestWords<Geo>(w, o, std::make_index_sequence<Geo::kOutBytes / 4>{});
    if ((addr & 3) != 0) {
        CVK_NN_UNROLL // constant indices: the words stay in registers
        for (int k = 0; k < Geo::kOutBytes; ++k) out[k] = static_cast<uint8_t>(o[k >> 2] >> (8 * (k & 3)));
        return;
    }
    if constexpr (Geo::kOutBytes % 16 == 0) {
        if ((addr & 15) == 0) {
            CVK_NN_UNROLL
            for (int k = 0; k < Geo::kOutBytes / 16; ++k) nearestStore16<Streaming>(out + 16 * k, uint4{o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]});
            return;
        }
    }
    if constexpr (Geo::kOutBytes % 8 == 0) {
        if ((addr & 7) == 0) {
            CVK_NN_UNROLL
            for (int k = 0; k < Geo::kOutBytes / 8; ++k) reinterpret_cast<uint2 *>(out)[k] = uint2{o[2 * k], o[2 * k + 1]};
            return;
        }
    }
    CVK_NN_UNROLL
    for (int k = 0; k < Geo::kOutBytes / 4; ++k) reinterpret_cast<uint32_t *>(out)[k] = o[k];
}

// The tiled kernels: a tile is T items from `first` (first = tile * T), valid = min(T, items - first) of them, group
// j of it item first + j, every one a whole group (the plan's condition) with 16-byte aligned spans. Phases with a
// barrier between them (the CPU tests run each phase over all threads of a block in turn): the groups' addresses
// (into address set a), the spans' 16-byte vectors fetched into registers and put in shared memory (vector k of the
// tile, group k / kIn, by thread k % T: a warp's loads contiguous within a span and from span to span of one row),
// the gather of each thread's group, and the destination vectors (vector k by thread k % T) where the block stages
// its output. A pipelined block walks tiles blockIdx.x, + gridDim.x, ... and fetches its next tile while it gathers
// and stores the current one: three address sets, so a tile's addresses outlive the next tile's being written.
template <class G, int T, bool StageOut, bool Streaming, int Sets> struct NearestTile {
    using Geo = G;
    static constexpr int kThreads = T, kSets = Sets;
    static constexpr bool kStageOut = StageOut, kStreaming = Streaming;
    static_assert(Geo::kSrcStride % 16 == 0 && Geo::kOutBytes % 16 == 0, "whole 16-byte vectors per group");
    static_assert(Geo::kWords * 4 <= Geo::kSrcStride, "a group's words inside its staged span");
    static constexpr int kIn = Geo::kSrcStride / 16, kOut = Geo::kOutBytes / 16;
    const uint8_t *src[Sets][T]; // group j's first source byte
    uint8_t *out[Sets][T];       // and destination byte
    uint4 in[T * kIn];           // the groups' source spans, one after the other
    uint4 staged[StageOut ? T * kOut : 1];
};

CVK_NN_HD int32_t nearestTileValid(int32_t items, int32_t first, int32_t threads) { return items - first < threads ? items - first : threads; }

template <class Tile>
CVK_NN_HD void nearestTileAddresses(const ResizeParams &p, const Mapping &m, int32_t groups, int32_t first, int32_t valid, int t, Tile &s, int a) {
    if (t >= valid) return;
    const auto at = nearestGroupAt<typename Tile::Geo>(p, m, groups, first + t);
    s.src[a][t] = at.src;
    s.out[a][t] = at.out;
}

// Every load of the thread, into v, before any shared store.
template <class Tile> CVK_NN_HD void nearestTileFetch(int32_t valid, int t, const Tile &s, int a, uint4 (&v)[Tile::kIn]) {
    constexpr int T = Tile::kThreads, kIn = Tile::kIn;
    CVK_NN_UNROLL
    for (int r = 0; r < kIn; ++r) {
        const int k = t + T * r, j = k / kIn;
        if (j < valid) v[r] = nearestLoad16<Tile::kStreaming>(s.src[a][j] + 16 * (k - j * kIn));
    }
}

template <class Tile> CVK_NN_HD void nearestTilePut(int32_t valid, int t, Tile &s, const uint4 (&v)[Tile::kIn]) {
    constexpr int T = Tile::kThreads, kIn = Tile::kIn;
    CVK_NN_UNROLL
    for (int r = 0; r < kIn; ++r) {
        const int k = t + T * r;
        if (k / kIn < valid) s.in[k] = v[r];
    }
}

template <class Tile> CVK_NN_HD void nearestTileGather(int32_t valid, int t, Tile &s, int a) {
    using Geo = typename Tile::Geo;
    if (t >= valid) return;
    uint32_t w[Geo::kWords];
    CVK_NN_UNROLL
    for (int k = 0; k < Geo::kWords / 4; ++k) {
        const uint4 v = s.in[t * Tile::kIn + k];
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
    }
    uint32_t o[Geo::kOutBytes / 4];
    nearestWords<Geo>(w, o, std::make_index_sequence<Geo::kOutBytes / 4>{});
    CVK_NN_UNROLL
    for (int k = 0; k < Tile::kOut; ++k) {
        const uint4 v{o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]};
        if constexpr (Tile::kStageOut) s.staged[t * Tile::kOut + k] = v;
        else nearestStore16<Tile::kStreaming>(s.out[a][t] + 16 * k, v);
    }
}

template <class Tile> CVK_NN_HD void nearestTileStore(int32_t valid, int t, const Tile &s, int a) {
    static_assert(Tile::kStageOut, "only a staged tile stores from shared memory");
    constexpr int T = Tile::kThreads, kOut = Tile::kOut;
    CVK_NN_UNROLL
    for (int r = 0; r < kOut; ++r) {
        const int k = t + T * r, j = k / kOut;
        if (j < valid) nearestStore16<Tile::kStreaming>(s.out[a][j] + 16 * (k - j * kOut), s.staged[k]);
    }
}

#undef CVK_NN_HD
#undef CVK_NN_UNROLL

} // namespace cvk::resize
