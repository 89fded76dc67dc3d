// The one-ply consistency of a database read through the probing API: random positions of every
// stored (slice, side to move) must have the value their successors give them (WLD, and DTW when
// the database has it; one_ply_check.hpp states the rule). This is what `egdb verify` can check
// on any Kingsrow set, including the ones egdb writes, which have no published CRC-32 to compare
// with. Kingsrow MTC is stored rounded and only from 10 plies on (7), so it is not checked here.
//
// Positions where the side to move must capture are skipped: their value is computed from their
// successors at probe time and is consistent by construction.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/index/slice.hpp"
#include "core/probe/database.hpp"

namespace egdb {

struct ConsistencyOptions {
    std::uint64_t samples_per_table = 20000;  // random indices per (slice, side); every index of smaller tables
    std::uint64_t seed = 1;
    int threads = 1;
    // Called after each (slice, side) table with its positions checked and mismatches.
    std::function<void(SliceId, Color, std::uint64_t checked, std::uint64_t mismatches)> on_table;
};

struct ConsistencyReport {
    std::uint64_t tables = 0;
    std::uint64_t positions_checked = 0;
    std::uint64_t mismatches = 0;
    bool checked_dtw = false;
    std::vector<std::string> messages;  // the first mismatches (with FENs) and tables that could not be checked
    bool ok() const noexcept { return mismatches == 0 && unchecked_tables == 0; }
    std::uint64_t unchecked_tables = 0;
};

// Precondition: db.has_wld() (otherwise every table is reported as not checked).
ConsistencyReport check_consistency(const Database& db, const ConsistencyOptions& options = {});

}  // namespace egdb
