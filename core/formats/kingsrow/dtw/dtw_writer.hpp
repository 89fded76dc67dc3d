// Writer of Kingsrow EGDB_DTW files (kingsrow-format.md 8.5 and the checklist of 17): for each
// subslice, the values floor(plies / 2) become terminals 0..T-1 at their own slots, a Re-Pair
// grammar shortens the sequence, a canonical Huffman code (ordered by non-increasing length)
// codes the symbols, and whole codes are packed into 512-byte miniblocks of at most 4096 bits
// and 131071 positions. Records follow the data order, subslices are back to back, only
// canonical slices are written. The output opens in DtwDatabase and in the upstream driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/formats/kingsrow/dtw/dtw_format.hpp"
#include "core/formats/kingsrow/dtw/huffman_code.hpp"
#include "core/formats/kingsrow/dtw/repair_grammar.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/index/slice.hpp"

namespace egdb::kingsrow {

// Fills the values of indices first_index .. first_index + plies.size() - 1 of a table: the DTW
// in plies, and dont_care[i] = 1 where any value will do (draws, positions with a capture: 8.1);
// dont_care arrives zeroed. The writer calls it once per subslice, in index order.
using DtwValueSource =
    std::function<void(std::uint64_t first_index, std::span<std::uint32_t> plies, std::span<std::uint8_t> dont_care)>;

// One (slice, side to move) table to write.
struct DtwTableSource {
    SliceId slice;
    Color side_to_move = Color::Black;
    DtwValueSource values;
};

// A source over arrays covering the whole slice: plies[i] for index i, and optionally a bitset
// (bit i of word i / 64) of don't-care indices. The arrays must outlive the writing.
template <class Plies>
DtwValueSource dtw_values_from_array(std::span<const Plies> plies, std::span<const std::uint64_t> dont_care = {}) {
    return [plies, dont_care](std::uint64_t first, std::span<std::uint32_t> out, std::span<std::uint8_t> free) {
        for (std::size_t i = 0; i < out.size(); ++i) {
            const std::uint64_t index = first + i;
            out[i] = static_cast<std::uint32_t>(plies[index]);
            if (!dont_care.empty()) free[i] = static_cast<std::uint8_t>((dont_care[index / 64] >> (index % 64)) & 1U);
        }
    };
}

struct DtwWriterOptions {
    RePairOptions repair;
    // Append 4 bytes to the identifying index file (db4, db5, db6-3030 or db7-4030, the largest
    // written) so that its CRC-32 is the one upstream egdb_identify looks for (12.4); otherwise
    // the upstream driver refuses the directory. Readers ignore up to 5 trailing bytes (8.3).
    bool force_identification_crc = true;
};

// One encoded subslice: what its index record needs and its miniblocks, back to back.
struct DtwEncodedSubslice {
    std::vector<RePairRule> rules;
    std::vector<HuffmanEntry> huffman;
    std::vector<std::uint32_t> miniblock_positions;
    std::vector<std::byte> miniblocks;  // 512 bytes per miniblock
};

// Encodes stored values (already halved, each <= kDtwMaxValue), taken by value because the
// grammar builder rewrites them in place. Precondition: values not empty.
DtwEncodedSubslice encode_dtw_subslice(std::vector<std::uint16_t> values, const RePairOptions& options = {});

// One (slice, side to move) table encoded, its subslices in order. Encoding does not depend on
// where the table lands in its file, so tables can be encoded in parallel and appended in order.
struct DtwEncodedTable {
    SliceId slice;
    Color side_to_move = Color::Black;
    std::vector<DtwEncodedSubslice> subslices;
};

// Throws std::invalid_argument for a slice DTW does not store and for a value above
// 2 * kDtwMaxValue + 1 plies that is not don't-care.
DtwEncodedTable encode_dtw_table(const DtwTableSource& table, const RePairOptions& options = {});

struct DtwWriteStats {
    std::uint64_t positions = 0;
    std::uint64_t subslices = 0;
    std::uint64_t miniblocks = 0;
    std::uint64_t grammar_symbols = 0;
    std::uint64_t index_bytes = 0;
    std::uint64_t data_bytes = 0;
    std::string identifying_file;  // the file whose CRC was forced; empty if none
};

// Writes a DTW database into `directory` (created if needed) one table at a time: db2..db5 per
// piece count, db6-xxxx / db7-xxxx per slice (3.1). Tables arrive in strictly increasing
// table_place order (file_set.hpp), as sources (encoded here, a subslice at a time) or already
// encoded; each is appended to the data file on disk before the next, so memory is one table's
// encoding, whatever the size of the database. Tables of White to move in a colour-symmetric slice are skipped (never read,
// 1.5). add() throws std::invalid_argument for a non-canonical slice, more than 7 pieces, a table
// out of order or given twice, or a value above 2 * kDtwMaxValue + 1 plies; FileError when a
// file cannot be written.
class DtwDatabaseWriter {
public:
    explicit DtwDatabaseWriter(std::filesystem::path directory, const DtwWriterOptions& options = {});
    void add(const DtwTableSource& table);
    void add(DtwEncodedTable table);
    // Closes the last file and forces the identifying CRC (12.4). Call once, after the last add.
    DtwWriteStats finish();

private:
    void close_file();

    std::filesystem::path directory_;
    DtwWriterOptions options_;
    DtwWriteStats stats_;
    std::optional<TablePlace> last_place_;
    int pieces_written_ = 0;
    // The open file.
    std::string base_name_;
    std::ofstream data_;
    std::uint64_t data_bytes_ = 0;
    std::vector<std::byte> index_;
};

// Writes `tables`, in any order, through DtwDatabaseWriter.
DtwWriteStats write_dtw_database(const std::filesystem::path& directory, std::span<const DtwTableSource> tables,
                                 const DtwWriterOptions& options = {});

}  // namespace egdb::kingsrow
