// cvtcolor's RGB <-> BGR block permutation (kernels/cvtcolor_swap.cuh) on the CPU, no GPU: for 1-, 2- and 4-byte
// elements and each of the three phases, a block made from a random window equals element i <- element i + 2 - 2k
// (k the channel of element i), the definition of swapping channels 0 and 2 of 3-channel pixels.
#include <catch2/catch_test_macros.hpp>

#include "../../kernels/cvtcolor_swap.cuh"

#include <cstdint>
#include <cstring>
#include <random>

namespace {

template <int Size> void checkEveryPhase(std::mt19937 &rng) {
    using S = cvk::Swap3Block<Size>;
    for (int round = 0; round < 50; ++round) {
        uint32_t w[S::kWords];
        for (uint32_t &x : w) x = static_cast<uint32_t>(rng());
        unsigned char window[4 * S::kWords];
        std::memcpy(window, w, sizeof w);
        for (int phase = 0; phase < 3; ++phase) {
            INFO("element size " << Size << ", phase " << phase);
            const uint4 got = S::swap(w, phase);
            unsigned char out[16];
            std::memcpy(out, &got, 16);
            const int pad = 4 * S::kE; // window bytes before the block
            for (int i = 0; i < 16 / Size; ++i) {
                const int k = (phase + i) % 3, from = i + 2 - 2 * k;
                for (int b = 0; b < Size; ++b) CHECK(out[i * Size + b] == window[pad + from * Size + b]);
            }
        }
    }
}

} // namespace

TEST_CASE("Swap3Block: channels 0 and 2 swapped in every phase, 1-, 2- and 4-byte elements", "[cvtcolor]") {
    std::mt19937 rng(5);
    checkEveryPhase<1>(rng);
    checkEveryPhase<2>(rng);
    checkEveryPhase<4>(rng);
}
