// A native database against values Kingsrow published (the project's reference material, or any
// folder with the same two files):
//  * kingsrow_example_wld.txt: positions with Kingsrow's win/loss/draw ("FEN value" lines);
//  * kingsrow_high_mtc.txt: for each Kingsrow MTC subslice (2^31 indices, kingsrow-format.md
//    2.5) and side to move, the highest moves-to-conversion, with a position that has it; only
//    values of 10 plies and more exist there (7.1).
// Each listed position must have the listed value; each (subslice, side) of a slice held must
// reach exactly the listed maximum, and one not listed must stay below 10. Positions where the
// side to move must capture and draws have no MTC in Kingsrow and are left out of the maxima.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/util/resources.hpp"

namespace egdb::workflow {

struct KingsrowOracleRequest {
    std::filesystem::path database;  // a native database directory
    std::filesystem::path oracles;   // the folder with the two files
    Resources resources = Resources::machine();  // threads
};

struct KingsrowOracleReport {
    int max_pieces = 0;                      // of the slices held
    std::uint64_t wld_positions = 0;         // listed positions the database holds, checked
    std::uint64_t wld_mismatches = 0;
    std::uint64_t mtc_maxima_checked = 0;    // listed (subslice, side) pairs of slices held
    std::uint64_t mtc_mismatches = 0;        // listed maximum or listed position differs
    std::uint64_t unlisted_pairs = 0;        // (subslice, side) pairs held and not listed
    std::uint64_t unlisted_above_threshold = 0;  // of those, reaching 10 or more
    std::uint64_t highest_mtc = 0;           // over every pair checked
    std::vector<std::string> messages;       // one per mismatch (the first 50)
    double seconds = 0;

    // Something was compared and nothing differed.
    bool ok() const noexcept {
        return wld_positions + mtc_maxima_checked + unlisted_pairs > 0 && wld_mismatches == 0 && mtc_mismatches == 0 &&
               unlisted_above_threshold == 0;
    }
};

// Throws FileError when an oracle file is missing, RuntimeError(InvalidArgument) for a line it
// cannot read, and what opening the database throws (CorruptDataError for a damaged file).
KingsrowOracleReport check_kingsrow_oracles(const KingsrowOracleRequest& request);

}  // namespace egdb::workflow
