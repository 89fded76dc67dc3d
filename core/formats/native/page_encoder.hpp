// The pages of a native section (docs/native-format.md, "Pages"): values packed at 2, 8 or 16
// bits, cut into pages of a fixed number of positions, each page zstd-compressed and
// checksummed, or stored as a constant in its page-table entry.
//
// Every page is encoded from its own positions only, so any run of whole pages can be encoded
// apart from the others and the runs concatenated: the single-process writer encodes runs in
// parallel, and a distributed build encodes page ranges of one slice on different machines
// (slice_part_file.hpp) into the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/formats/native/native_layout.hpp"

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

namespace egdb::native {

// The values of one (kind, side) section, or of a run of its positions. Exactly one of `values8`
// / `values16` is non-empty. WLD values use the stored codes (kStoredLoss...). `dont_care`
// (optional) is a bitset, bit i set when position i's value is irrelevant (the side to move has
// a capture, or a draw for DTW/MTC): the encoder stores whatever compresses best there.
struct SectionValues {
    ValueKind kind = ValueKind::Wld;
    Color side = Color::Black;
    std::span<const std::uint8_t> values8;
    std::span<const std::uint16_t> values16;
    std::span<const std::uint64_t> dont_care;

    std::uint64_t size() const noexcept { return values8.empty() ? values16.size() : values8.size(); }
    // The same section restricted to positions [first, first + count); `first` is a multiple of 64
    // (page boundaries are), so the bitset can be cut at a word.
    SectionValues subrange(std::uint64_t first, std::uint64_t count) const;
};

// Pages as they will appear in a section: page-table entries (kPageEntrySize bytes each, page
// offsets counted from the first of these pages; CRC not included) and the compressed bytes.
struct EncodedPages {
    std::vector<std::byte> entries;
    std::vector<std::byte> bytes;
    std::uint64_t page_count = 0;
    std::uint32_t max_value = 0;  // over the positions that are not "don't care"

    // Appends `next` (the pages that follow), moving its offsets behind these bytes.
    void append(const EncodedPages& next);
};

// The largest value of the positions that are not "don't care".
std::uint32_t max_meaningful_value(const SectionValues& values);

// Bits per stored value of a section whose largest meaningful value is `max_value`.
constexpr unsigned section_value_bits(ValueKind kind, std::uint32_t max_value) noexcept {
    return kind == ValueKind::Wld ? 2 : (max_value > 0xFF ? 16 : 8);
}

// The zstd level of a page of `kind` when the database's level is `zstd_level`: WLD pages take it
// as it is (WLD size is what engines keep in memory: level 12 gives 0.211 bits a position at 4
// pieces, 9 gives 0.236); DTW and MTC pages at most kDistancePageZstdLevel. Measured on the
// 4-piece build and slice 0311: level 6 for them writes a third faster than 12 (1.7 -> 1.1 s,
// 3.1 -> 2.1 s) for 2% more bytes in all, and writing was a quarter of a 6-piece slice's time.
inline constexpr int kDistancePageZstdLevel = 6;
constexpr int page_zstd_level(ValueKind kind, int zstd_level) noexcept {
    return kind == ValueKind::Wld || zstd_level < kDistancePageZstdLevel ? zstd_level : kDistancePageZstdLevel;
}

class PageEncoder {
public:
    // WLD and MTC pages are written with raw literals (see the .cpp); `zstd_level` as zstd's,
    // for WLD pages, page_zstd_level for the others.
    PageEncoder(ValueKind kind, int zstd_level);
    ~PageEncoder();
    PageEncoder(const PageEncoder&) = delete;
    PageEncoder& operator=(const PageEncoder&) = delete;

    // Encodes all positions of `values` (which start on a page boundary) in pages of
    // `positions_per_page`, `value_bits` bits each (section_value_bits of the whole section).
    // Throws std::invalid_argument for a value that does not fit. Every compressed page is
    // decompressed again and compared with the packed values it was made from, so a page that
    // would not read back as written throws std::runtime_error here instead of reaching a file
    // (a build that checks its levels as it solves them relies on this for its files).
    EncodedPages encode(const SectionValues& values, std::uint32_t positions_per_page, unsigned value_bits);

private:
    std::unique_ptr<ZSTD_CCtx_s, void (*)(ZSTD_CCtx_s*)> cctx_;
    std::unique_ptr<ZSTD_DCtx_s, void (*)(ZSTD_DCtx_s*)> dctx_;
    std::vector<std::uint16_t> filled_;  // a page's values, "don't care" positions filled in
    std::vector<std::byte> packed_;
    std::vector<std::byte> compressed_;
    std::vector<std::byte> read_back_;
};

}  // namespace egdb::native
