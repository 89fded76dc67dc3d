// Half the blocks of a colour-symmetric slice filled instead of solved.
//
// A slice with as many men and kings on each side (nbm == nwm, nbk == nwk: at 6 pieces 0303,
// 1212, 2121 and 3030) maps onto itself by colour reversal (kingsrow-format.md 1.4: turn the
// board, swap the colours, the other side to move). Values are relative to the side to move, so a
// position with White to move in men configuration M has the value (WLD, DTW, MTC, and whether it
// must capture) of its reversal with Black to move in the reversed configuration R(M), and the
// other way round; both sides count a conversion alike in such a slice (position_value.hpp). A
// man keeps its rows from its own side under R, so R(M) has M's advancement and lies in the same
// level (men_order.hpp). Solving the block of M thus gives both sides of the block of R(M): the
// solver solves one block of each such pair and fills the other from it, which takes a fraction
// of a solve (a rank and a read a position instead of moves, two propagation passes and a check).
// Blocks whose configuration is its own reversal (0303's single block among them) are solved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/generate/king_placements.hpp"
#include "core/generate/solved_level.hpp"

namespace egdb {

// Which blocks of a level are solved and which are filled from another.
struct MirrorPlan {
    struct Mirrored {
        std::uint64_t slot;    // the block filled
        std::uint64_t source;  // the solved block of the reversed configuration
        friend bool operator==(const Mirrored&, const Mirrored&) = default;
    };
    std::vector<std::uint64_t> solve;  // increasing slots
    std::vector<Mirrored> fill;        // increasing slots
    friend bool operator==(const MirrorPlan&, const MirrorPlan&) = default;
};

// Every slot of `level` solved, for a slice that is not colour-symmetric or when `mirror` is
// false (tests compare both ways). In a colour-symmetric one, of each pair of configurations the
// level holds that reverse into each other the first is solved and the second filled; a
// configuration that is its own reversal, or whose reversal the level does not hold (a chunk of a
// level, in a distributed build), is solved. On up to `threads` threads.
MirrorPlan plan_colour_mirror(const SolvedLevel& level, bool mirror = true, std::size_t threads = 1);

// Fills the blocks `fill` of `level` from their solved sources: codes, MTC bytes, wide positions
// and capture bits, both sides, on up to `threads` threads. The sources must be solved and no
// other thread may write the level meanwhile. A work item of the threads is a part of about
// `chunk_positions` positions of a block, or as many whole blocks when they are smaller (tests
// make it small, so that the 4-piece slices' blocks are split).
void fill_colour_mirror(SolvedLevel& level, const KingPlacements& kings, std::span<const MirrorPlan::Mirrored> fill,
                        std::size_t threads, std::uint64_t chunk_positions = std::uint64_t{1} << 16);

}  // namespace egdb
