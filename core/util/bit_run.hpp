// Runs of bits in 64-bit words (bit i is bit i % 64 of word i / 64), copied between arbitrary
// bit offsets: the capture bits of a level (generate/solved_level.hpp) travel through unit frames
// and into the ranges a slice file is encoded from, and neither end is aligned to the other.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

namespace egdb {

// `count` bits of `words` from bit `first`.
struct BitRun {
    std::span<const std::uint64_t> words;
    std::uint64_t first = 0;
    std::uint64_t count = 0;

    bool test(std::uint64_t i) const noexcept {
        const std::uint64_t at = first + i;
        return ((words[at / 64] >> (at % 64)) & 1u) != 0;
    }
};

namespace detail {

// Up to 64 bits of `words` from bit `at` (bits past the last word read as 0).
inline std::uint64_t load_bits(std::span<const std::uint64_t> words, std::uint64_t at) noexcept {
    const std::uint64_t w = at / 64;
    const unsigned shift = static_cast<unsigned>(at % 64);
    const std::uint64_t low = words[w] >> shift;
    if (shift == 0 || w + 1 >= words.size()) return low;
    return low | (words[w + 1] << (64 - shift));
}

}  // namespace detail

// Sets bits [to, to + from.count) of `out` to the bits of `from`; the other bits of `out` keep
// their values. `out` must hold bit to + from.count - 1. A word at a time: a block of a kings-only
// slice is 318 million positions.
inline void copy_bits(const BitRun& from, std::span<std::uint64_t> out, std::uint64_t to) noexcept {
    std::uint64_t done = 0;
    while (done < from.count) {
        const std::uint64_t at = to + done;
        const unsigned shift = static_cast<unsigned>(at % 64);
        // The bits that fit in out's word from `shift`, and are left to copy.
        const std::uint64_t n = std::min<std::uint64_t>(64 - shift, from.count - done);
        const std::uint64_t mask = (n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1) << shift;
        const std::uint64_t bits = detail::load_bits(from.words, from.first + done) << shift;
        std::uint64_t& word = out[at / 64];
        word = (word & ~mask) | (bits & mask);
        done += n;
    }
}

}  // namespace egdb
