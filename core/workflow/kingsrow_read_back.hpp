// Reads a Kingsrow directory written by write_kingsrow_databases back and compares it with the
// solution it was written from. The directory is opened by Database::open with the options
// egdb_open gives it, so what passes here is what egdb_open, `egdb probe` and egdb.open read
// (a read-back through the format readers alone once passed on a set none of them could open).
// Two passes:
//  - every stored position: each index of each canonical slice, both sides to move, looked up as
//    stored (the files' own orientation);
//  - a sample of every slice, canonical or not: random indices, both sides to move, looked up
//    through the reversal of 1.5 (non-canonical slices, and White to move in colour-symmetric
//    ones), against the solution's own reversal (SolutionStore::value).
// Values compared: the WLD code, MTC as the format stores it (even, rounded up; 1 below the
// threshold, 7.5) and DTW halved (8.1). Positions where the side to move must capture are skipped
// (Kingsrow stores nothing there), and so are MTC and DTW of draws.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/build/kingsrow_export.hpp"
#include "core/probe/database.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb::workflow {

struct ExportCheckOptions {
    bool every_stored_position = true;
    // Indices drawn at random (with replacement) from every slice; a slice with no more indices
    // than this is checked whole. 0: no sampled pass.
    std::uint64_t samples_per_slice = 100'000;
    std::uint64_t seed = 1;
    int threads = 1;
};

struct ExportCheckReport {
    std::uint64_t stored_positions = 0;   // (position, side) pairs compared in the first pass
    std::uint64_t sampled_slices = 0;
    std::uint64_t sampled_positions = 0;  // (position, side) pairs compared in the second pass
    std::uint64_t mismatches = 0;         // over both passes, counting each kind separately
    std::vector<std::string> problems;    // the first 20: "<fen>: <kind> <read>, expected <solved>"
};

// `slices` are the canonical slices written (all held by `store`); `kinds` says which kinds and
// which WLD type the directory holds. A directory that opens as anything else (another WLD type,
// a kind missing or added) is a problem of the report, and so is one that cannot be opened.
ExportCheckReport check_kingsrow_export(const std::filesystem::path& directory, const SolutionStore& store,
                                        const std::vector<SliceId>& slices, const kingsrow::KingsrowExportOptions& kinds,
                                        const ExportCheckOptions& options = {});

}  // namespace egdb::workflow
