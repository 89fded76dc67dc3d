// copy_bits (util/bit_run.hpp) against a bit-by-bit copy, at every alignment of source and
// destination, with runs shorter than a word, spanning words, and longer than several.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/util/bit_run.hpp"

namespace egdb {
namespace {

TEST(BitRun, CopyBitsEqualsABitByBitCopyAtEveryAlignment) {
    std::mt19937_64 random(20261206);
    std::vector<std::uint64_t> source(8);
    for (std::uint64_t& w : source) w = random();
    for (std::uint64_t from = 0; from < 130; from += 3) {
        for (std::uint64_t to = 0; to < 70; ++to) {
            for (const std::uint64_t count : {0, 1, 5, 63, 64, 65, 127, 200, 300}) {
                if (from + count > 64 * source.size()) continue;
                const BitRun run{source, from, count};
                std::vector<std::uint64_t> out(7);
                for (std::uint64_t& w : out) w = random();
                std::vector<std::uint64_t> expected = out;
                if (to + count > 64 * out.size()) continue;
                for (std::uint64_t i = 0; i < count; ++i) {
                    const std::uint64_t bit = std::uint64_t{1} << ((to + i) % 64);
                    if (run.test(i)) {
                        expected[(to + i) / 64] |= bit;
                    } else {
                        expected[(to + i) / 64] &= ~bit;
                    }
                }
                copy_bits(run, out, to);
                ASSERT_EQ(out, expected) << "from " << from << " to " << to << " count " << count;
            }
        }
    }
}

TEST(BitRun, TestReadsTheRunFromItsFirstBit) {
    const std::vector<std::uint64_t> words{0x8000000000000001u, 0x2u};
    const BitRun run{words, 63, 3};
    EXPECT_TRUE(run.test(0));   // bit 63 of word 0
    EXPECT_FALSE(run.test(1));  // bit 0 of word 1
    EXPECT_TRUE(run.test(2));   // bit 1 of word 1
}

}  // namespace
}  // namespace egdb
