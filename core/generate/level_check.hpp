// The one-ply check (one_ply_check.hpp) of a level the solver has just finished, while what it
// reads is still in memory: the level itself (king moves keep the men, so they stay in the
// block), the level above (man moves, men_order.hpp) and the solved slices captures and
// promotions lead to. A build that checks each level as it is solved has verified its slice
// without decoding anything again: the verifier's separate pass decodes every file and derives
// every capture position by search before it can check (docs/six-pieces.md, "Verification in the
// build"). Capture positions are checked too, over their captures, with the solver's values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/generate/solved_level.hpp"
#include "core/generate/solved_lookup.hpp"
#include "core/generate/solved_slice.hpp"

namespace egdb {

struct LevelCheckResult {
    std::uint64_t positions = 0;   // checked: every position of the level, for both sides to move
    std::uint64_t mismatches = 0;  // positions whose value is not the one their successors give
    std::vector<std::string> messages;  // the first mismatches, with the FEN and both values
};

// Checks every position of `level` against its successors: king moves in `level`, man moves in
// `next` (the level of advancement + 1; nullptr when the slice has none) or in `whole` when given
// (a slice holding every level solved before this one), captures and promotions in `smaller`.
// Runs on `threads` threads; at most `max_messages` mismatches are described. Throws what
// `smaller` throws for a slice it does not hold, and std::logic_error when a man move leads
// outside `next`.
LevelCheckResult check_level(const SolvedLevel& level, const SolvedLevel* next, const SolvedSlice* whole,
                             const SolvedLookup& smaller, int threads, std::size_t max_messages = 8);

}  // namespace egdb
