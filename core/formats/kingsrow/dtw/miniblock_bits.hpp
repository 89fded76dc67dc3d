// The bit order of a DTW miniblock (kingsrow-format.md 8.2): 128 little-endian uint32 words form
// one stream read from the most significant bit of word 0 downward, then word 1, and so on.
// So the first code of a miniblock sits in the top bits of the *fourth* byte, not the first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/formats/kingsrow/dtw/dtw_format.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::kingsrow {

// A miniblock as host-order words, with one zero word of padding so that a 32-bit window can be
// read at any bit position below kDtwMiniblockBits without a bounds test.
class MiniblockWords {
public:
    MiniblockWords() = default;

    // Loads the 512 bytes of one miniblock.
    explicit MiniblockWords(std::span<const std::byte> miniblock) noexcept { load(miniblock); }

    void load(std::span<const std::byte> miniblock) noexcept {
        for (std::size_t w = 0; w < kDtwMiniblockWords; ++w) words_[w] = load_le<std::uint32_t>(miniblock, 4 * w);
    }

    // The 32 stream bits starting at `bit_position` (< kDtwMiniblockBits), first bit in bit 31;
    // bits past the end of the miniblock read as zero.
    std::uint32_t peek32(unsigned bit_position) const noexcept {
        const std::size_t word = bit_position / 32;
        const unsigned shift = bit_position % 32;
        const std::uint64_t pair = (std::uint64_t{words_[word]} << 32) | words_[word + 1];
        return static_cast<std::uint32_t>((pair << shift) >> 32);
    }

private:
    std::array<std::uint32_t, kDtwMiniblockWords + 1> words_{};
};

// Builds one miniblock from whole codes, in the 8.2 bit order; unused trailing bits stay zero.
class MiniblockBitWriter {
public:
    unsigned bits_used() const noexcept { return bits_used_; }
    unsigned bits_free() const noexcept { return kDtwMiniblockBits - bits_used_; }

    // Appends the `length` low bits of `code`, most significant first. Precondition:
    // 1 <= length <= 32 and length <= bits_free().
    void append(std::uint32_t code, unsigned length) noexcept {
        for (unsigned i = length; i-- > 0;) {
            const std::uint32_t bit = (code >> i) & 1U;
            words_[bits_used_ / 32] |= bit << (31 - bits_used_ % 32);
            ++bits_used_;
        }
    }

    // The 512 bytes of the miniblock (each word little-endian).
    std::array<std::byte, kDtwMiniblockBytes> bytes() const noexcept {
        std::array<std::byte, kDtwMiniblockBytes> out{};
        for (std::size_t w = 0; w < kDtwMiniblockWords; ++w) store_le<std::uint32_t>(out, 4 * w, words_[w]);
        return out;
    }

private:
    std::array<std::uint32_t, kDtwMiniblockWords> words_{};
    unsigned bits_used_ = 0;
};

}  // namespace egdb::kingsrow
