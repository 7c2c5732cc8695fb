// Views and parameters the resize CPU tests build (pure host values: the dispatch tests never dereference them, the
// block tests point them at their own buffers), and what the block tests compare against: the per-pixel sampler's
// bytes, or torchvision's floats.
#pragma once

#include "../../kernels/resize.hpp"
#include "../../kernels/resize_filters.cuh"

#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace cvtest {

inline char *const kAligned = reinterpret_cast<char *>(uintptr_t(1) << 20); // a 16-byte aligned address, never dereferenced

// A packed [n, h, w, c] view at `data` of elements of `elem` bytes, rowPad bytes after each row.
inline cvk::View4 nhwc(char *data, int64_t n, int64_t h, int64_t w, int64_t c, int64_t rowPad = 0, int64_t elem = 1) {
    const int64_t row = w * c * elem + rowPad;
    return cvk::View4{data, {n, h, w, c}, {h * row, row, c * elem, elem}};
}

// cvResize's parameters (OpenCV semantics: no torchvision mode) for src -> dst.
inline cvk::ResizeParams params(cvk::View4 src, cvk::View4 dst, int32_t interp, int32_t type = cvk::kResizeU8) {
    cvk::ResizeParams p{};
    p.src = src;
    p.dst = dst;
    p.type = type;
    p.interp = interp;
    p.torchMode = -1;
    return p;
}

// The destination byte image (`bytes` bytes from p.dst.data) with the sampler's values (samplePixel, T elements),
// every byte outside the pixels (row padding) left as poison.
template <class T, int I>
std::vector<uint8_t> samplerBytes(const cvk::ResizeParams &p, const cvk::resize::Mapping &m, size_t bytes, uint8_t poison) {
    std::vector<uint8_t> want(bytes, poison);
    const int64_t C = p.src.shape[cvk::kC];
    for (int64_t n = 0; n < p.dst.shape[cvk::kN]; ++n) {
        const cvk::resize::Plane plane{p.src.data + n * p.src.stride[cvk::kN], p.src.stride[cvk::kH], p.src.stride[cvk::kW],
                                       p.src.stride[cvk::kC]};
        for (int32_t y = 0; y < m.y.dst; ++y)
            for (int32_t x = 0; x < m.x.dst; ++x)
                cvk::resize::samplePixel<T, I>(m, plane, x, y, int32_t(C), [&](int32_t c, T v, float) {
                    const int64_t at = n * p.dst.stride[cvk::kN] + y * p.dst.stride[cvk::kH] + x * p.dst.stride[cvk::kW] + c * int64_t(sizeof(T));
                    std::memcpy(want.data() + at, &v, sizeof(T));
                });
    }
    return want;
}

// The value torchvision's antialiased resize (sampleTorch, bilinear or bicubic) gives pixel (x, y), channel c of the
// srcW x srcH image `p` (C channels) resized to rw x rh: the float before the conversion to T.
template <class T>
float tvSamplerValue(int32_t srcW, int32_t srcH, int32_t rw, int32_t rh, bool cubic, const cvk::resize::Plane &p, int32_t x, int32_t y,
                     int32_t C, int32_t c) {
    const cvk::resize::Axis ax = cvk::resize::makeAxis(srcW, rw), ay = cvk::resize::makeAxis(srcH, rh);
    float out = 0.f;
    auto emit = [&](int32_t k, T, float real) {
        if (k == c) out = real;
    };
    if (cubic)
        cvk::resize::sampleTorch<T, cvk::resize::kTvCubicAA>(ax, ay, p, x, y, C, emit);
    else
        cvk::resize::sampleTorch<T, cvk::resize::kTvLinearAA>(ax, ay, p, x, y, C, emit);
    return out;
}

// The fused pass's parameters for torchvision's antialiased resize (bilinear or bicubic) of src to rh x rw and its
// oh x ow crop at (x0, y0), into a float32 NCHW output never dereferenced: what planTvFusedTile plans and tvJobOf
// (resize_tv_tile.cuh) makes the tiles' job of.
inline cvk::FusedParams tvFusedParams(const cvk::View4 &src, int32_t rh, int32_t rw, int32_t x0, int32_t y0, int32_t oh, int32_t ow, bool cubic) {
    const int64_t n = src.shape[cvk::kN], c = src.shape[cvk::kC], plane = int64_t(oh) * ow * 4;
    cvk::FusedParams q{};
    q.src = src;
    q.dst = cvk::View4{kAligned, {n, oh, ow, c}, {c * plane, int64_t(ow) * 4, 4, plane}};
    q.resizeH = rh;
    q.resizeW = rw;
    q.cropX = x0;
    q.cropY = y0;
    q.interp = -1;
    q.torchMode = cubic ? cvk::resize::kTvCubicAA : cvk::resize::kTvLinearAA;
    return q;
}

// A block test's output against the sampler's bytes: store[shift, shift + want.size()) equals `want` (the first 5
// differences reported with their row of rowBytes), and every other byte of the store still holds `poison`.
inline void checkAgainstSampler(const uint8_t *store, size_t storeBytes, int64_t shift, const std::vector<uint8_t> &want,
                                int64_t rowBytes, const char *path, uint8_t poison) {
    int64_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        const uint8_t got = store[size_t(shift) + i];
        if (got != want[i] && mismatches++ < 5)
            FAIL_CHECK("byte " << i << " (row " << int64_t(i) / rowBytes << "): " << path << " " << int(got) << ", sampler " << int(want[i]));
    }
    for (int64_t i = 0; i < shift; ++i) CHECK(store[size_t(i)] == poison);
    for (size_t i = size_t(shift) + want.size(); i < storeBytes; ++i) CHECK(store[i] == poison);
    CHECK(mismatches == 0);
}

// A block test's uint8 images: a random source of [n, h, w, c] (rows srcPad bytes longer) srcShift bytes past a
// 16-byte aligned address, and a poisoned destination store holding [n, oh, ow, c] (rows dstPad bytes longer)
// dstShift bytes in; `p` is cvResize's parameters between them (the kernels under test write through p.dst). Not
// copyable: `p` points into the stores.
struct BlockImages {
    std::vector<int4> srcStore, dstStore;
    int64_t dstRow, dstShift;
    cvk::ResizeParams p;
    BlockImages(int64_t n, int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t srcPad, int64_t dstPad, int64_t srcShift,
                int64_t dstShift_, int32_t interp, std::mt19937 &rng, uint8_t poison)
        : dstRow(ow * c + dstPad), dstShift(dstShift_) {
        const size_t srcBytes = size_t(n * h * (w * c + srcPad));
        srcStore.resize((srcBytes + size_t(srcShift)) / 16 + 1);
        auto *srcData = reinterpret_cast<uint8_t *>(srcStore.data()) + srcShift;
        for (size_t i = 0; i < srcBytes; ++i) srcData[i] = static_cast<uint8_t>(rng());
        dstStore.resize(size_t(n * oh * dstRow + dstShift) / 16 + 1);
        std::memset(dstStore.data(), poison, dstStore.size() * 16);
        p = params(nhwc(reinterpret_cast<char *>(srcData), n, h, w, c, srcPad),
                   nhwc(reinterpret_cast<char *>(dstStore.data()) + dstShift, n, oh, ow, c, dstPad), interp);
    }
    BlockImages(const BlockImages &) = delete;
    BlockImages &operator=(const BlockImages &) = delete;
    // The destination image's bytes, padding included (what samplerBytes fills).
    size_t outBytes() const { return size_t(p.dst.shape[cvk::kN] * p.dst.shape[cvk::kH] * dstRow); }
    // checkAgainstSampler over the whole destination store.
    void check(const std::vector<uint8_t> &want, const char *path, uint8_t poison) const {
        checkAgainstSampler(reinterpret_cast<const uint8_t *>(dstStore.data()), dstStore.size() * 16, dstShift, want, dstRow, path, poison);
    }
};

} // namespace cvtest
