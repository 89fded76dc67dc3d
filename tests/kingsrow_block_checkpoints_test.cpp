// The checkpoints that let a Kingsrow lookup start decoding close to its position
// (core/formats/kingsrow/block_checkpoints.hpp): for blocks of every length and code lengths from
// 1 to past 16 bits, the start found for every index must lie at or before it, decode it, and be
// the nearest recorded start.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/formats/kingsrow/text_index/block_checkpoints.hpp"

namespace egdb::kingsrow {
namespace {

namespace bc = block_checkpoints;

struct Block {
    std::vector<std::byte> codes;
    std::vector<std::uint32_t> length;  // positions covered by code byte value b
    std::uint64_t first = 0;
};

// The byte whose code covers local index x, by a scan from the block's start.
std::size_t byte_of(const Block& b, std::uint64_t x) {
    std::uint64_t n = b.first;
    for (std::size_t i = 0; i < b.codes.size(); ++i) {
        n += b.length[static_cast<std::uint8_t>(b.codes[i])];
        if (n > x) return i;
    }
    return b.codes.size();
}

void check_block(const Block& b, std::mt19937_64& rng, bool expect_short_scans) {
    std::vector<std::byte> checkpoints(bc::kBytes);
    const auto positions_of = [&](std::uint8_t code) { return b.length[code]; };
    const std::uint64_t end = bc::build(b.codes, b.first, positions_of, checkpoints.data());
    std::vector<std::uint64_t> start_of_byte(b.codes.size() + 1);
    start_of_byte[0] = b.first;
    for (std::size_t i = 0; i < b.codes.size(); ++i) {
        start_of_byte[i + 1] = start_of_byte[i] + b.length[static_cast<std::uint8_t>(b.codes[i])];
    }
    ASSERT_EQ(end, start_of_byte.back());
    const std::uint64_t last = std::min<std::uint64_t>(end, 0xFFFFFFFFULL) - 1;
    for (int trial = 0; trial < 400; ++trial) {
        std::uint64_t x = b.first + rng() % (last - b.first + 1);
        if (trial < 2) x = trial == 0 ? b.first : last;
        const bc::DecodeStart start = bc::find_start(checkpoints.data(), static_cast<std::uint32_t>(x));
        const std::size_t target = byte_of(b, x);
        ASSERT_LT(start.byte, b.codes.size());
        ASSERT_EQ(start.index, start_of_byte[start.byte]) << "the start's index is the index its byte decodes";
        ASSERT_LE(start.byte, target) << "x " << x;
        if (expect_short_scans) {
            ASSERT_EQ(start.byte, target / bc::kStepBytes * bc::kStepBytes) << "the nearest step at or before x";
        }
    }
}

TEST(KingsrowBlockCheckpoints, EveryIndexOfBlocksOfEveryLength) {
    std::mt19937_64 rng(7);
    for (const std::size_t size : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                   std::size_t{255}, std::size_t{256}, std::size_t{257}, std::size_t{1000},
                                   std::size_t{4095}, std::size_t{4096}}) {
        for (const std::uint32_t max_length : {1U, 7U, 300U}) {
            Block b;
            b.length.resize(256);
            for (auto& l : b.length) l = 1 + static_cast<std::uint32_t>(rng() % max_length);
            b.codes.resize(size);
            for (auto& c : b.codes) c = static_cast<std::byte>(rng() & 0xFF);
            b.first = rng() % 1000000;
            SCOPED_TRACE(testing::Message() << "block of " << size << " bytes, lengths up to " << max_length);
            check_block(b, rng, true);
        }
    }
}

TEST(KingsrowBlockCheckpoints, LongCodesAndIndicesNearThe32BitLimitStillDecode) {
    std::mt19937_64 rng(11);
    Block b;
    b.length.resize(256);
    // Codes of up to a million positions: steps past 32 bits are left without a start.
    for (auto& l : b.length) l = 1 + static_cast<std::uint32_t>(rng() % 1000000);
    b.codes.resize(4096);
    for (auto& c : b.codes) c = static_cast<std::byte>(rng() & 0xFF);
    b.first = 0xFFFFFFFFULL - 3000000000ULL;
    check_block(b, rng, false);
}

TEST(KingsrowBlockCheckpoints, AbsentStartsAreNeverChosen) {
    // A block of one step and 8 bytes: the second step is its last start, the rest are absent.
    Block b;
    b.length.assign(256, 2);
    b.codes.assign(bc::kStepBytes + 8, std::byte{0});
    std::vector<std::byte> checkpoints(bc::kBytes);
    bc::build(b.codes, 100, [&](std::uint8_t code) { return b.length[code]; }, checkpoints.data());
    const std::uint32_t second_step = 100 + 2 * bc::kStepBytes;
    EXPECT_EQ(bc::find_start(checkpoints.data(), 100).byte, 0U);
    EXPECT_EQ(bc::find_start(checkpoints.data(), second_step - 1).byte, 0U);
    const bc::DecodeStart late = bc::find_start(checkpoints.data(), second_step);
    EXPECT_EQ(late.byte, bc::kStepBytes);
    EXPECT_EQ(late.index, second_step);
    const std::uint32_t last = 100 + 2 * (bc::kStepBytes + 8) - 1;
    EXPECT_EQ(bc::find_start(checkpoints.data(), last).byte, bc::kStepBytes);
}

}  // namespace
}  // namespace egdb::kingsrow
