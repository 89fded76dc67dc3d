// The in-build check (core/generate/block_check.hpp) on several threads: each worker checks the
// block it has just solved while the others still solve theirs, reading wide positions that other
// workers may be adding to the level at the same time; a block too large for one thread (the one
// block of the kings-only slice 0202, 1.38 million positions) is checked in ranges by several.
// Both must find no mismatch and leave the solution of one thread. Under ThreadSanitizer
// (scripts/test.sh) this also checks that the checking threads share nothing they write.
#include <gtest/gtest.h>

#include "core/generate/build_driver.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"

namespace egdb {
namespace {

TEST(BlockCheckThreads, BlocksCheckedBesideOtherBlocksAgreeWithOneThread) {
    SolutionStore smaller;
    solve_slices(3, smaller, {2, {}});
    // Many blocks a level (one per placement of the two men), kings walked, and every distance
    // above 2 plies wide.
    const SliceId men{1, 1, 1, 0};
    constexpr Plies kNarrowLimit = 2;
    const SolvedSlice one = SliceSolver(men, smaller, {1, kNarrowLimit}).solve();
    LevelChecks checks;
    const SolvedSlice three = SliceSolver(men, smaller, {3, kNarrowLimit, &checks}).solve();
    EXPECT_TRUE(one == three);
    EXPECT_GT(three.wide(Color::Black).size() + three.wide(Color::White).size(), 1000U);
    EXPECT_EQ(checks.result.mismatches, 0U) << (checks.result.messages.empty() ? "" : checks.result.messages[0]);
    EXPECT_EQ(checks.result.positions, 2 * slice_size(men));
}

TEST(BlockCheckThreads, ALargeBlockIsCheckedInRangesByThreeThreads) {
    SolutionStore smaller;
    solve_slices(3, smaller, {2, {}});
    const SliceId kings{0, 2, 0, 2};
    LevelChecks checks;
    const SolvedSlice three = SliceSolver(kings, smaller, {3, kMaxNarrowMtc, &checks}).solve();
    EXPECT_EQ(checks.result.mismatches, 0U) << (checks.result.messages.empty() ? "" : checks.result.messages[0]);
    EXPECT_EQ(checks.result.positions, 2 * slice_size(kings));
    EXPECT_EQ(checks.levels_checked, 1U);
}

}  // namespace
}  // namespace egdb
