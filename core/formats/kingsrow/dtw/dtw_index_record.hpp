// One record of a binary .idx_dtw index file (kingsrow-format.md 8.3): the grammar, the Huffman
// table and the miniblock geometry of one subslice. Records are stored back to back; the file
// ends when fewer than 6 bytes remain for the next record's header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/formats/kingsrow/dtw/huffman_code.hpp"
#include "core/formats/kingsrow/dtw/repair_grammar.hpp"
#include "core/index/slice.hpp"

namespace egdb::kingsrow {

struct DtwIndexRecord {
    SliceId slice;
    Color side_to_move = Color::Black;
    std::uint16_t subslice = 0;
    std::uint8_t permutation = 0;  // read and ignored by the driver
    std::vector<RePairRule> rules;
    std::vector<HuffmanEntry> huffman;
    std::int32_t first_block = 0;        // 4096-byte block holding the first miniblock
    std::uint16_t first_miniblock = 0;   // its slot 0..7 in that block
    std::int32_t block_count = 0;        // 4096-byte blocks touched
    std::vector<std::uint32_t> miniblock_positions;  // positions in each miniblock (17 bits each)

    // Global number of the first miniblock (8.2: miniblock g lives at file offset 512 g).
    std::uint64_t first_global_miniblock() const noexcept {
        return 8 * static_cast<std::uint64_t>(first_block) + first_miniblock;
    }
    // "db4-2011 subslice 0 black" style name used in error messages.
    std::string describe() const;

    friend bool operator==(const DtwIndexRecord&, const DtwIndexRecord&) = default;
};

// Blocks touched by `miniblocks` (>= 1) miniblocks starting at global miniblock g0 (8.3):
// (g0 + m - 1) div 8 - g0 div 8 + 1.
constexpr std::int64_t dtw_blocks_touched(std::uint64_t g0, std::uint64_t miniblocks) noexcept {
    return static_cast<std::int64_t>((g0 + miniblocks - 1) / 8 - g0 / 8 + 1);
}

// Parses every record of an index file image. Checks the structure only (field sizes, the
// npieces sum, the 17-bit table length, the block count); the reader checks the rest against
// the slice and the data file. Throws CorruptDataError naming `file_name`, the record number and
// the byte offset.
std::vector<DtwIndexRecord> parse_dtw_index(std::span<const std::byte> bytes, const std::string& file_name);

// Appends the binary form of `record` (8.3) to `out`.
void append_dtw_index_record(const DtwIndexRecord& record, std::vector<std::byte>& out);

}  // namespace egdb::kingsrow
