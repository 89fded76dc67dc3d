// The fill of colour_mirror.hpp on several threads gives the bytes of solving every block, with
// blocks split into parts whose capture words two threads share (ThreadSanitizer watches this in
// scripts/test.sh). Kept small: the rest of the fill's tests are in colour_mirror_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/board/position.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/colour_mirror.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"
#include "tests/solved_levels.hpp"

namespace egdb {
namespace {

using testing_levels::solved_blocks_only;
using testing_levels::solved_levels;
using testing_levels::solved_successors;
using testing_levels::solve_options;

// 1010 (a man a side, 1,985 blocks of one position) solved block by block, every distance above 2
// plies wide; then its filled blocks on three threads, one block a work item: neighbouring blocks
// share capture words, and the threads read and add wide positions side by side. Kept this small
// for ThreadSanitizer; the fill of blocks with kings, split into parts, is in colour_mirror_test.cpp.
TEST(ColourMirrorThreads, BlocksFilledOnThreeThreadsEqualSolvedOnes) {
    const SliceId slice{1, 0, 1, 0};
    const std::array<SliceId, 1> slices{slice};
    const std::unique_ptr<SolutionStore> smaller = solved_successors(slices);
    const KingPlacements kings(slice);
    std::size_t filled = 0, differed = 0, wide = 0, captures = 0;
    for (const SolvedLevel& level_solved : solved_levels(slice, *smaller, solve_options(1, false, 2))) {
        const MirrorPlan plan = plan_colour_mirror(level_solved);
        SolvedLevel level = solved_blocks_only(level_solved, plan);
        // A level whose filled blocks are all drawn without a capture is complete before the fill.
        differed += level == level_solved ? 0 : 1;
        fill_colour_mirror(level, kings, plan.fill, 3, 1);
        EXPECT_TRUE(level == level_solved) << "level " << level_solved.advancement();
        filled += plan.fill.size();
        for (const Color side : {Color::Black, Color::White}) {
            wide += level.wide(side).size();
            for (const std::uint64_t word : level.capture_bits(side)) captures += static_cast<std::size_t>(std::popcount(word));
        }
    }
    EXPECT_EQ(filled, 970u);
    EXPECT_GT(differed, 5u);
    EXPECT_GT(wide, 100u);
    EXPECT_GT(captures, 100u);
}

}  // namespace
}  // namespace egdb
