// Writers of Kingsrow databases (kingsrow-format.md 4.6, 5.4, 6.2, 7.5 and the checklist of 17):
// from the values of each stored (slice, side to move) they write the index and data files of
// RUNLEN, TUN_V1, TUN_V2 or MTC into a directory, in a form both egdb's reader and the upstream
// driver accept: canonical slices only, plain decimal headers, data streams contiguous from byte
// 0 in index order, one block line per index unit touched, at least one data record per file,
// every subslice listed, short streams padded across a 64-byte boundary (16.3), and the CRC-32 of
// the identifying index file forced to the driver's table value (12.4).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "core/formats/kingsrow/result.hpp"
#include "core/formats/kingsrow/export/text_database_writer.hpp"
#include "core/index/slice.hpp"

namespace egdb::kingsrow {

// The values of one stored (slice, side to move): one per index of the slice. `dont_care`
// (optional) is a bitset over the indices, bit i set when position i's value is irrelevant
// (the side to move can capture): the writer stores whatever extends the surrounding runs.
struct WldTable {
    SliceId slice;
    Color side_to_move = Color::Black;
    std::span<const WldResult> values;
    std::span<const std::uint64_t> dont_care;
};

// MTC in plies for won and lost positions; 0 (or anything below 10) for everything else.
struct MtcTable {
    SliceId slice;
    Color side_to_move = Color::Black;
    std::span<const std::uint16_t> plies;
    std::span<const std::uint64_t> dont_care;
};

// Writes a WLD database one table at a time: tables in strictly increasing table_place order
// (file_set.hpp), each converted, encoded and written before the next is taken, so only one
// table is ever held. White-to-move tables of colour-symmetric slices are skipped (never read,
// 1.5). add() throws std::invalid_argument on bad input (non-canonical slice, wrong sizes, order,
// values the type cannot store), FileError; the constructor TunstallTablesUnavailable.
class WldDatabaseWriter {
public:
    WldDatabaseWriter(const std::filesystem::path& directory, DbType type, const WriterOptions& options = {});
    void add(const WldTable& table);
    WriteReport finish();

private:
    DbType type_;
    std::unique_ptr<StreamEncoder> encoder_;
    TextDatabaseWriter files_;
};

// The same for MTC.
class MtcDatabaseWriter {
public:
    explicit MtcDatabaseWriter(const std::filesystem::path& directory, const WriterOptions& options = {});
    void add(const MtcTable& table);
    WriteReport finish();

private:
    std::unique_ptr<StreamEncoder> encoder_;
    TextDatabaseWriter files_;
};

// Writes a WLD database of `type` (WldRunlen, WldTunV1 or WldTunV2) from tables in any order (a
// table given twice is an error), through WldDatabaseWriter.
WriteReport write_wld_database(const std::filesystem::path& directory, DbType type, std::span<const WldTable> tables,
                               const WriterOptions& options = {});

// The same for MTC, through MtcDatabaseWriter.
WriteReport write_mtc_database(const std::filesystem::path& directory, std::span<const MtcTable> tables,
                               const WriterOptions& options = {});

}  // namespace egdb::kingsrow
