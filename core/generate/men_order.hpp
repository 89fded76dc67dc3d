// The order in which the solver visits the men configurations of a slice. A man move (including
// one that stays in the slice) moves one man one row forward, so it raises the total advancement
// (rows a black man has advanced from row 1 plus rows a white man has advanced from row 10) by
// exactly one. Solving configurations by decreasing advancement therefore finds every man-move
// successor solved, and the configurations of one advancement level are independent of each other
// (they can be solved in parallel).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"

namespace egdb {

// Sum over men of the rows advanced: a black man on square s has advanced (s-1)/5 rows, a white
// man 9 - (s-1)/5.
int men_advancement(const Position& position) noexcept;

// The men configurations of one advancement: numbers 0 .. men_configurations - 1 (the `men` of
// section 2.3), in increasing order.
struct MenLevel {
    int advancement = 0;
    std::vector<std::uint64_t> configurations;
};

// The men configurations of a slice grouped by advancement, most advanced group first; empty
// groups are left out.
std::vector<MenLevel> men_configuration_levels(SliceId slice);

// How many men configurations each of those groups has, in the same order, counted square by
// square without listing them: what a build plans with (slice 4030 of 7 pieces has 1.6e9
// configurations, 13 GB listed).
struct MenLevelSize {
    int advancement = 0;
    std::uint64_t configurations = 0;
};
std::vector<MenLevelSize> men_level_sizes(SliceId slice);

// The men configurations of `slice` that a man move staying in the slice (no capture, no
// promotion, either side to move) leads to from any position of `configurations`, increasing and
// without repeats: the blocks of the level above that solving those configurations reads (all of
// advancement one higher). Kings are left out, so a destination they would block in some position
// still counts: the set holds every block a solve can ask for.
std::vector<std::uint64_t> configurations_reached(SliceId slice, std::span<const std::uint64_t> configurations);

}  // namespace egdb
