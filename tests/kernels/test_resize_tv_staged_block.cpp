// The staged tv kernel's block (tvStagedBlock, resize_tv_tile.cuh: the body tvStagedKernel runs) whole on the CPU,
// through an emulated block (block_emulator.hpp): every block of a grid, for jobs whose blocks take several planes
// (the two stages across planes), several tile rows (the grid's y stride) and image slots (its z stride), in each of
// the four emulations (copies landing when issued or at the wait that covers them; threads ascending or descending
// between barriers); every output value once, equal to sampleTorch's. Negative controls: the same body with a barrier
// or a wait broken must give wrong values where the emulation can see it.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/resize_tv_tile.cuh"
#include "block_emulator.hpp"
#include "guarded_bytes.hpp"
#include "resize_views.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cvk::resize;
using cvtest::BlockPlace;
using cvtest::CopyLanding;
using cvtest::EmulatedBlock;
using cvtest::ThreadOrder;

namespace {

// What the negative controls break in the body's primitives.
enum class Break {
    Nothing,
    BarrierAtTileStart,      // the one ending the previous tile's reads of the row weights and stages
    BarrierAfterHorizontal,  // the one ending the reads of a stage and the buffer's writes
    BarrierBeforeHorizontal, // the one making a plane's copies visible and ending the previous plane's reads
    WaitOneGroupShort,       // wait<2> for wait<1>: plane q's copies not complete when it is summed
    LastWaitLeftOut,         // no wait<0>: the last plane's copies never waited for
    ZeroingUndone,           // the buffer elements tvZeroBuffer zeroed poisoned again (NaN) before the first barrier
    WholeChunks,             // every chunk copied as 16 bytes, also past the row's end
};

// The source rows a copy may read: row r of every plane is [src + r * pitch, + width) (planes h * pitch apart).
struct SourceRows {
    const uint8_t *src;
    int64_t pitch, width, bytes;
};

// A thread of the emulated block as tvStagedBlock sees it: counts the copies that read outside their row (into
// `overreads`), and breaks `what`. A block of P planes passes 1 + 2P barriers a tile: the tile's first, then a pair a
// plane (before and after its horizontal phase). `buffer`: the block's horizontal buffer, `bufferFloats` long
// (ZeroingUndone).
class StagedThread {
public:
    StagedThread(EmulatedBlock::Thread &t, Break what, int64_t planes, const SourceRows &rows, int64_t &overreads, float *buffer,
                 int32_t bufferFloats)
        : t_(t), what_(what), perTile_(1 + 2 * planes), rows_(rows), overreads_(overreads), buffer_(buffer), bufferFloats_(bufferFloats) {}
    int tid() const { return t_.tid(); }
    unsigned x() const { return t_.x(); }
    unsigned y() const { return t_.y(); }
    unsigned z() const { return t_.z(); }
    unsigned gy() const { return t_.gy(); }
    unsigned gz() const { return t_.gz(); }
    void sync() {
        if (syncs_ == 0 && what_ == Break::ZeroingUndone) // tvZeroBuffer's elements of this thread, as it strides them
            for (int32_t k = t_.tid(); k < bufferFloats_; k += kTvThreads) buffer_[k] = std::numeric_limits<float>::quiet_NaN();
        const int64_t i = syncs_++ % perTile_;
        if (i == 0 && what_ == Break::BarrierAtTileStart) return;
        if (i > 0 && i % 2 == 0 && what_ == Break::BarrierAfterHorizontal) return;
        if (i % 2 == 1 && what_ == Break::BarrierBeforeHorizontal) return;
        t_.sync();
    }
    void copy16(uint8_t *to, const uint8_t *from, int32_t bytes) {
        if (what_ == Break::WholeChunks && bytes > 0) bytes = 16;
        // as integers: `from` outside the source is what this looks for
        const int64_t at = int64_t(reinterpret_cast<uintptr_t>(from)) - int64_t(reinterpret_cast<uintptr_t>(rows_.src));
        if (bytes > 0 && (at < 0 || at + bytes > rows_.bytes || at % rows_.pitch + bytes > rows_.width)) ++overreads_;
        t_.copy16(to, from, bytes);
    }
    void commit() { t_.commit(); }
    template <int Pending> void wait() {
        if (what_ == Break::WaitOneGroupShort && Pending == 1)
            t_.wait<2>();
        else if (what_ != Break::LastWaitLeftOut || Pending != 0)
            t_.wait<Pending>();
    }
    void waitPriorGrid() { t_.waitPriorGrid(); }

private:
    EmulatedBlock::Thread &t_;
    Break what_;
    int64_t perTile_, syncs_ = 0;
    const SourceRows &rows_;
    int64_t &overreads_;
    float *buffer_;
    int32_t bufferFloats_;
};

struct StagedRow {
    const char *what;
    int32_t n, c, h, w, pitch; // source: n images of c planes of h rows of w bytes, rows `pitch` bytes apart (16k)
    int32_t rh, rw;            // resized image
    int32_t x0, y0, oh, ow;    // the part computed
    bool cubic;
    unsigned gy, gz;           // the grid's y and z extents (the kernel's grid-stride over tile rows and image slots)
};

struct Outcome {
    int64_t wrong = 0, missing = 0, twice = 0, outside = 0, overreads = 0;
    std::vector<std::string> faults;
    std::string first; // the first wrong value
};

// Runs every block of the row's grid with the body's primitives broken as `what`, the copies landing and threads
// ordered as given, and compares the outputs with sampleTorch.
Outcome runGrid(const StagedRow &r, CopyLanding landing, ThreadOrder order, Break what) {
    constexpr int K = kTvTaps[0];
    const int64_t planeBytes = int64_t(r.h) * r.pitch, count = int64_t(r.n) * r.c * planeBytes;
    cvtest::GuardedBytes src{size_t(count)}; // the last row's bytes end at the guard page: a read past them faults
    std::mt19937 rng(uint32_t(r.h * 131 + r.w));
    auto *bytes = reinterpret_cast<uint8_t *>(src.data());
    for (int64_t i = 0; i < count; ++i) bytes[i] = static_cast<uint8_t>(rng());
    REQUIRE(reinterpret_cast<uintptr_t>(bytes) % 16 == 0);
    // planar [n, h, w, c] view (NCHW): strides in bytes
    const cvk::View4 sv{src.data(), {r.n, r.h, r.w, r.c}, {r.c * planeBytes, r.pitch, 1, planeBytes}};

    const cvk::FusedParams q = cvtest::tvFusedParams(sv, r.rh, r.rw, r.x0, r.y0, r.oh, r.ow, r.cubic);
    cvk::TvTileShape s{};
    REQUIRE(cvk::planTvFusedTile(q, s));
    REQUIRE(s.taps == 0);
    REQUIRE(s.stagePitch > 0); // the staged kernel's job
    const TvJob j = tvJobOf(q);
    const SourceRows rows{bytes, r.pitch, r.w, count};

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const size_t outCount = size_t(r.n) * r.c * r.oh * r.ow;
    std::vector<float> out(outCount, nan);
    std::vector<int> writes(outCount, 0);
    const unsigned tilesX = unsigned((r.ow + kTvTileW - 1) / kTvTileW);
    Outcome o;
    for (unsigned z = 0; z < r.gz; ++z)
        for (unsigned y = 0; y < r.gy; ++y)
            for (unsigned x = 0; x < tilesX; ++x) {
                cvtest::GuardedBytes smemBytes{size_t(s.smemBytes)}; // the block's dynamic shared memory, nothing past it
                // poison: the buffers NaN (a sum over a row the body did not write, or did not zero, is NaN), the stages
                // 0xA5 bytes
                std::memset(smemBytes.data(), 0xFF, size_t(s.stageOffset));
                std::memset(smemBytes.data() + s.stageOffset, 0xA5, size_t(s.smemBytes - s.stageOffset));
                auto *smem = reinterpret_cast<uint8_t *>(smemBytes.data());
                REQUIRE(reinterpret_cast<uintptr_t>(smem) % 16 == 0);
                EmulatedBlock block(kTvThreads, BlockPlace{x, y, z, r.gy, r.gz}, landing, order, smem + s.stageOffset,
                                    smem + s.stageOffset + 2 * s.maxRows * s.stagePitch);
                const int64_t planes = tvBlockPlanes(r.n, r.c, z, r.gz);
                block.run([&](EmulatedBlock::Thread &t) {
                    StagedThread st(t, what, planes, rows, o.overreads, reinterpret_cast<float *>(smem), (s.maxRows + s.padRows) * kTvTileW);
                    tvStagedBlock<K, kTvStagedRowBatch>(j, sv, s, smem, st, [&](int64_t n, int32_t c, int32_t ox, int32_t oy, float v) {
                        if (n < 0 || n >= r.n || c < 0 || c >= r.c || oy < 0 || oy >= r.oh || ox < 0 || ox >= r.ow) {
                            ++o.outside;
                            return;
                        }
                        const size_t at = ((size_t(n) * r.c + size_t(c)) * r.oh + size_t(oy)) * r.ow + size_t(ox);
                        out[at] = v;
                        ++writes[at];
                    });
                });
                for (const std::string &f : block.faults()) o.faults.push_back(f);
            }
    for (int32_t n = 0; n < r.n; ++n)
        for (int32_t c = 0; c < r.c; ++c) {
            const Plane whole{src.data() + n * sv.stride[cvk::kN], sv.stride[cvk::kH], sv.stride[cvk::kW], sv.stride[cvk::kC]};
            for (int32_t oy = 0; oy < r.oh; ++oy)
                for (int32_t ox = 0; ox < r.ow; ++ox) {
                    const size_t at = ((size_t(n) * r.c + size_t(c)) * r.oh + size_t(oy)) * r.ow + size_t(ox);
                    o.missing += writes[at] == 0 ? 1 : 0;
                    o.twice += writes[at] > 1 ? 1 : 0;
                    const float want = cvtest::tvSamplerValue<uint8_t>(r.w, r.h, r.rw, r.rh, r.cubic, whole, r.x0 + ox, r.y0 + oy, r.c, c);
                    if (writes[at] == 1 && out[at] != want && o.wrong++ == 0)
                        o.first = "n " + std::to_string(n) + " c " + std::to_string(c) + " y " + std::to_string(oy) + " x " + std::to_string(ox) +
                                  ": block " + std::to_string(out[at]) + ", sampler " + std::to_string(want);
                }
        }
    return o;
}

const std::vector<StagedRow> kRows = {
    {"2 images x 3 planes in one block (6 planes through the two stages), 4.2x down", 2, 3, 135, 241, 256, 32, 57, 0, 0, 32, 57, false, 1, 1},
    {"3 images in 2 image slots (images 0, 2 and 1), 4 tile rows with the grid's y of 3 (rows 0, 3 and 1 and 2)", 3, 2, 270, 100, 112, 100, 40, 0, 0, 100, 40,
     false, 3, 2},
    {"crop at the bottom right: both tiles' spans have a chunk of 1 byte of the row's 97 (the rest zeros, not read)", 2, 3, 96, 97, 112, 32, 53, 20, 20, 12, 33, false,
     1, 1},
    {"bicubic 2x down (windows of up to 7 taps)", 1, 3, 64, 96, 96, 32, 48, 0, 0, 32, 48, true, 1, 1},
    {"enlarging with antialias (windows of 2 taps), one plane a block", 2, 1, 10, 32, 32, 31, 47, 0, 0, 31, 47, false, 1, 2},
};

constexpr CopyLanding kLandings[] = {CopyLanding::AtIssue, CopyLanding::AtWait};
constexpr ThreadOrder kOrders[] = {ThreadOrder::Ascending, ThreadOrder::Descending};

std::string emulation(CopyLanding landing, ThreadOrder order) {
    return std::string(landing == CopyLanding::AtIssue ? "copies land when issued" : "copies land at their wait") +
           (order == ThreadOrder::Ascending ? ", threads ascending" : ", threads descending");
}

} // namespace

TEST_CASE("staged tv block, emulated: every output once, equal to sampleTorch, in every emulation", "[resize][tv][cpu]") {
    for (const StagedRow &r : kRows)
        for (CopyLanding landing : kLandings)
            for (ThreadOrder order : kOrders) {
                INFO(r.what << "; " << emulation(landing, order));
                const Outcome o = runGrid(r, landing, order, Break::Nothing);
                for (const std::string &f : o.faults) FAIL_CHECK(f);
                CHECK(o.missing == 0);
                CHECK(o.twice == 0);
                CHECK(o.outside == 0);
                CHECK(o.overreads == 0);
                INFO(o.first);
                CHECK(o.wrong == 0);
            }
}

TEST_CASE("staged tv block, emulated, negative controls: a barrier or a wait taken out gives wrong values", "[resize][tv][cpu]") {
    // Where each break shows (wrong values in the emulations marked, right ones elsewhere): a wait short only where
    // copies land at their wait (landing at issue, every copy is complete before any wait); the tile's first barrier
    // where a block takes two tiles and a thread that runs before the others overwrites the row weights they still
    // read (threads ascending: thread 0 writes row 0's, which threads 1-31 read; descending, thread k < 4 rewrites
    // row k of the last tile's 4, read by threads 32k to 32k + 31, which ran before it).
    struct ControlRow {
        const char *what;
        Break broken;
        size_t row;        // kRows' row
        bool shows[2][2];  // wrong values, [landing][order] in kLandings' and kOrders' order (elsewhere none)
        const char *fault; // the fault every recorded one names, or "" for none
        bool overreads;    // copies read past their row
    };
    const std::vector<ControlRow> controls = {
        {"no barrier after the horizontal phase", Break::BarrierAfterHorizontal, 0, {{true, true}, {true, true}}, "", false},
        {"no barrier before the horizontal phase", Break::BarrierBeforeHorizontal, 0, {{true, true}, {true, true}}, "", false},
        {"wait<2> for wait<1>", Break::WaitOneGroupShort, 0, {{false, false}, {true, true}}, "", false},
        {"no wait<0> for the last plane", Break::LastWaitLeftOut, 0, {{false, false}, {true, true}}, "never waited", false},
        {"no barrier at a tile's start", Break::BarrierAtTileStart, 1, {{true, false}, {true, false}}, "", false},
        {"the buffer's zeroing undone", Break::ZeroingUndone, 0, {{true, true}, {true, true}}, "", false},
        // the bytes read past the row hold zero weights: right values, caught by the row check alone
        {"16-byte chunks past the row's end (the crop's 1-byte chunks)", Break::WholeChunks, 2, {{false, false}, {false, false}}, "", true},
    };
    for (const ControlRow &c : controls)
        for (size_t l = 0; l < 2; ++l)
            for (size_t k = 0; k < 2; ++k) {
                const StagedRow &r = kRows[c.row];
                INFO(c.what << " (" << r.what << "); " << emulation(kLandings[l], kOrders[k]));
                const Outcome o = runGrid(r, kLandings[l], kOrders[k], c.broken);
                CHECK(o.faults.empty() == (*c.fault == 0)); // broken uniformly: no divergence
                for (const std::string &f : o.faults)
                    if (*c.fault == 0 || f.find(c.fault) == std::string::npos) FAIL_CHECK(f);
                CHECK(o.missing == 0);
                CHECK((o.wrong > 0) == c.shows[l][k]);
                CHECK((o.overreads > 0) == c.overreads);
            }
}

TEST_CASE("block emulator: what it records as a fault, one body a row", "[cpu]") {
    struct FaultRow {
        const char *what;
        std::function<void(EmulatedBlock::Thread &, uint8_t *stage, const uint8_t *from)> body;
        const char *fault; // part of the fault recorded, or "" for none
    };
    alignas(16) static uint8_t stage[64], from[32];
    const std::vector<FaultRow> rows = {
        {"a well-formed body", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to + 16 * (t.tid() % 4), f, 16); t.commit(); t.wait<0>(); t.sync(); }, ""},
        {"a barrier only even threads reach", [](EmulatedBlock::Thread &t, uint8_t *, const uint8_t *) { if (t.tid() % 2 == 0) t.sync(); }, "different barriers"},
        {"a copy before the wait on the prior grid", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.copy16(to, f, 16); t.commit(); t.wait<0>(); }, "before the wait"},
        {"a copy never waited for", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to, f, 16); t.commit(); t.wait<1>(); }, "never waited"},
        {"a copy not 16-byte aligned", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to + 8, f, 16); t.commit(); t.wait<0>(); }, "not 16-byte aligned"},
        {"a copy past the stages", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to + 64, f, 0); t.commit(); t.wait<0>(); }, "outside the stages"},
        {"a copy of 17 bytes", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to, f, 17); t.commit(); t.wait<0>(); }, "17 bytes"},
        {"an empty group never waited for (nothing to wait for)", [](EmulatedBlock::Thread &t, uint8_t *, const uint8_t *) { t.waitPriorGrid(); t.commit(); }, ""},
        {"a copy never committed", [](EmulatedBlock::Thread &t, uint8_t *to, const uint8_t *f) { t.waitPriorGrid(); t.copy16(to, f, 16); t.wait<0>(); }, "never waited"},
        {"a body that throws", [](EmulatedBlock::Thread &t, uint8_t *, const uint8_t *) { if (t.tid() == 3) throw std::runtime_error("thread 3"); }, "threw: thread 3"},
    };
    for (const FaultRow &r : rows)
        for (CopyLanding landing : kLandings) {
            INFO(r.what << "; " << emulation(landing, ThreadOrder::Ascending));
            EmulatedBlock block(8, BlockPlace{0, 0, 0, 1, 1}, landing, ThreadOrder::Ascending, stage, stage + sizeof stage);
            block.run([&](EmulatedBlock::Thread &t) { r.body(t, stage, from); });
            if (*r.fault == 0) {
                CHECK(block.faults().empty());
            } else {
                REQUIRE_FALSE(block.faults().empty());
                CHECK(block.faults()[0].find(r.fault) != std::string::npos);
            }
        }
    EmulatedBlock once(8, BlockPlace{0, 0, 0, 1, 1}, CopyLanding::AtIssue, ThreadOrder::Ascending, stage, stage + sizeof stage);
    once.run([](EmulatedBlock::Thread &) {});
    CHECK_THROWS_AS(once.run([](EmulatedBlock::Thread &) {}), std::logic_error); // a block runs once: a second run would pass unseen
}
