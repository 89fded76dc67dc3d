// The canonical Huffman code of a DTW subslice (kingsrow-format.md 8.3): a table of
// (symbol, code length) entries ordered by non-increasing length; entry 0 gets code 0 and each
// following entry gets (previous code + 1) >> (previous length - this length), so the longest
// codes are numerically smallest. Decoding (8.4) finds the shortest length whose first code,
// left-justified to 32 bits, is <= the next 32 stream bits.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace egdb::kingsrow {

struct HuffmanEntry {
    std::uint16_t symbol = 0;
    std::uint8_t length = 0;  // 1..32

    friend constexpr bool operator==(const HuffmanEntry&, const HuffmanEntry&) = default;
};

// The codes of 8.3 in table order (right-justified: only the low `length` bits count).
// Returns an empty vector and sets `error` when the table is empty, a length is outside 1..32,
// the lengths increase somewhere, or a code does not fit its length (Kraft sum above 1).
std::vector<std::uint32_t> assign_canonical_codes(std::span<const HuffmanEntry> table, std::string& error);

// Decodes codes exactly as the upstream reader does (8.4), with a first-level table on the top
// bits so that most codes take one load. Immutable after construction, so safe to share.
class HuffmanDecoder {
public:
    struct Decoded {
        std::uint16_t symbol = 0;
        std::uint8_t length = 0;  // 0: the bits match no table entry (corrupt data)
    };

    HuffmanDecoder() = default;
    // Throws std::invalid_argument (with the reason) for a table assign_canonical_codes rejects.
    explicit HuffmanDecoder(std::span<const HuffmanEntry> table);

    // The code at the top of `window` (the next 32 stream bits, first bit in bit 31).
    Decoded decode(std::uint32_t window) const noexcept {
        const std::uint32_t fast = fast_table_[window >> fast_shift_];
        if (fast != 0) return {static_cast<std::uint16_t>(fast), static_cast<std::uint8_t>(fast >> 16)};
        return decode_slow(window);
    }

    std::size_t size() const noexcept { return symbols_.size(); }
    unsigned max_length() const noexcept { return max_length_; }

private:
    // One group of equal code lengths, shortest length first (upstream's length table).
    struct LengthGroup {
        std::uint32_t first_code_left_justified = 0;
        std::uint32_t first_entry = 0;
        std::uint8_t length = 0;
    };

    Decoded decode_slow(std::uint32_t window) const noexcept;
    // Index into the length groups chosen for `window` (the first group whose start is <= it).
    // Starts decrease with the group, so that is the number of starts above the window: counted
    // over all of them without a branch (codes past the first-level table are most codes of a
    // large DTW subslice, and a scan that stops at the group mispredicted on nearly every one).
    std::size_t group_of(std::uint32_t window) const noexcept {
        std::uint32_t count = 0;
        for (const std::uint32_t start : group_starts_) count += window < start ? 1U : 0U;
        return count;
    }

    static constexpr std::size_t kMaxGroups = 32;  // code lengths 1..32
    std::vector<std::uint16_t> symbols_;
    std::vector<LengthGroup> groups_;
    // groups_[g].first_code_left_justified, then 0 (which no window is below) up to kMaxGroups.
    std::array<std::uint32_t, kMaxGroups> group_starts_{};
    // Entry for every value of the top fast_bits bits: symbol | length << 16 when the prefix
    // alone decides the code, 0 otherwise (length 0 never occurs in a valid code).
    std::vector<std::uint32_t> fast_table_;
    unsigned fast_shift_ = 32;
    unsigned max_length_ = 0;
};

// Code lengths of a prefix code for the given symbol frequencies, limited to `max_length` bits,
// as a table in the 8.3 order (decreasing length, then increasing symbol). Symbols with frequency
// 0 get no entry; a single used symbol gets length 1. Precondition: some frequency is nonzero and
// 2^max_length >= the number of used symbols.
std::vector<HuffmanEntry> build_huffman_table(std::span<const std::uint64_t> frequencies, unsigned max_length);

}  // namespace egdb::kingsrow
