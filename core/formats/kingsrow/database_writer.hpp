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
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/formats/kingsrow/identify.hpp"
#include "core/formats/kingsrow/result.hpp"
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

struct WriterOptions {
    // Tunstall formats: codes trial-encoded to rank each catalog / value-map candidate.
    int catalog_trial_codes = 64;
    // Force the identifying index file's CRC-32 so that upstream egdb_open accepts the directory.
    bool force_identification_crc = true;
};

struct WriteReport {
    std::vector<std::string> files;  // written, index and data
    std::uint64_t index_bytes = 0;
    std::uint64_t data_bytes = 0;
    std::uint64_t positions = 0;     // stored (slice, side) positions
    int max_pieces = 0;
    std::optional<IdentificationRow> identification;  // the row whose CRC was forced
};

// Writes a WLD database of `type` (WldRunlen, WldTunV1 or WldTunV2). Colour-symmetric slices
// need only Black to move (White-to-move tables of them are not written, as upstream never reads
// them). Throws std::invalid_argument on bad input (non-canonical slice, wrong sizes, values V2
// cannot store), TunstallTablesUnavailable, FileError.
WriteReport write_wld_database(const std::filesystem::path& directory, DbType type, std::span<const WldTable> tables,
                               const WriterOptions& options = {});

WriteReport write_mtc_database(const std::filesystem::path& directory, std::span<const MtcTable> tables,
                               const WriterOptions& options = {});

}  // namespace egdb::kingsrow
