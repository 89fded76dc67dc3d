// The one-ply check (one_ply_check.hpp) of a block the solver has just solved, before the solver
// moves on: every position of the block, for both sides to move, against its successors. A build
// that checks every block as it is solved has verified its slice without decoding anything again
// (docs/architecture.md, the build pipeline, step 6).
//
// What it derives each value from:
//  * king moves: walked again (block_successors.hpp fold_king_moves, forward moves, where the
//    solver un-moves kings) and read from the level as the solver stored it: codes, MTC bytes and
//    wide positions;
//  * conversions (captures and man moves): what the solver's classification found of them
//    (BlockSolver::conversions), not generated and looked up a second time. Those lookups read
//    files and levels that were themselves checked, with the same move generator and indexer; on
//    a men-heavy slice repeating them cost a third of the check. `egdb verify` still derives every
//    move from the files alone.
// So the propagation (both passes, the capture rule, the seeds), the encoding into bytes and wide
// positions, and the storing are checked against the rule, written once in SuccessorFold.
// In a colour-symmetric slice the blocks filled from their reversal (colour_mirror.hpp) are not
// checked again: each is a checked block under a symmetry of the rules and of the values. They
// are counted apart (LevelChecks::positions_mirrored); `egdb verify` reads them from the files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/generate/block_solver.hpp"
#include "core/generate/solved_level.hpp"

namespace egdb {

struct CheckTally {
    std::uint64_t positions = 0;   // checked, each side to move counted
    std::uint64_t mismatches = 0;  // positions whose value is not the one their successors give
    std::vector<std::string> messages;  // the first mismatches, with the index, the FEN and both values

    // Adds `other`, keeping at most `max_messages` messages.
    void add(CheckTally&& other, std::size_t max_messages);
};

// Checks every position of the block at `slot` of `level`, which `solver` solved last (its
// conversions() are this block's), on up to `threads` threads when the block is large
// (BlockSolver::shares_block). Other blocks of `level` may be solved meanwhile. Adds to
// `tally`, describing at most `max_messages` mismatches.
// `Solver` is BlockSolver or KingsOnlySolver (which solves the one block of a slice without men).
template <class Solver>
void check_solved_block(const Solver& solver, const SolvedLevel& level, std::size_t slot, std::size_t threads,
                        CheckTally& tally, std::size_t max_messages = 8);

}  // namespace egdb
