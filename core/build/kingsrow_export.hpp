// Writes the generator's solved slices as Kingsrow databases (WLD in one of the three WLD
// formats, MTC, DTW) in one directory, so engines that only read Kingsrow files can use what egdb
// builds. Positions where the side to move must capture are "don't care" everywhere (Kingsrow
// stores nothing useful there), draws too for MTC and DTW.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/formats/kingsrow/export/database_writer.hpp"
#include "core/formats/kingsrow/dtw/dtw_writer.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb::kingsrow {

struct KingsrowExportOptions {
    DbType wld_type = DbType::WldTunV2;  // WldRunlen, WldTunV1 or WldTunV2
    bool wld = true;
    bool mtc = true;
    bool dtw = true;
    int threads = 1;
    // Called after each (slice, side to move) is in the files of every kind; may be empty.
    std::function<void(SliceId, Color)> on_table_written;
};

struct KingsrowExportReport {
    WriteReport wld;
    WriteReport mtc;
    DtwWriteStats dtw;
};

// Writes every slice of `slices` (canonical, all held by `store`) for the sides a lookup reads,
// table by table in file order (3.1): besides `store`, memory holds the WLD and MTC arrays of one
// table and the DTW encodings of at most `threads` tables, a few bytes per position of the
// largest slices, so exporting costs little more than solving did.
KingsrowExportReport write_kingsrow_databases(const std::filesystem::path& directory, const SolutionStore& store,
                                              const std::vector<SliceId>& slices, const KingsrowExportOptions& options);

}  // namespace egdb::kingsrow
