// A block large enough to be shared by several threads (BlockSolver: a level with fewer
// configurations than threads, here the one block of a kings-only slice) gives the solution of
// one thread: classified in ranges, its large distance buckets expanded together. Under
// ThreadSanitizer (scripts/test.sh) this also checks that the threads share nothing they write
// except through atomics.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/generate/build_driver.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"
#include "tests/solved_levels.hpp"

namespace egdb {
namespace {

using testing_levels::solved_levels;

TEST(BlockClassifyThreads, ALargeBlockClassifiedByThreeThreadsGivesTheOneThreadSolution) {
    SolutionStore smaller;
    solve_slices(3, smaller, {2, {}});
    const SliceId kings{0, 2, 0, 2};
    const SolvedSlice one = SliceSolver(kings, smaller, {1}).solve();
    const SolvedSlice three = SliceSolver(kings, smaller, {3}).solve();
    EXPECT_TRUE(one == three);
}

// Three kings against one (0301, 921,200 positions a side): most positions are won or lost, so
// the buckets the threads expand together hold both the wins found from a lost entry and the
// count-downs of king moves that make a loss. The thresholds are lowered so that this block and
// nearly every bucket of both passes are shared; with the defaults only the 1.38-million-position
// blocks of 4 pieces would be, and few of their buckets.
TEST(BlockClassifyThreads, ABlockWhoseBucketsAreExpandedByThreeThreadsGivesTheOneThreadSolution) {
    SolutionStore smaller;
    solve_slices(3, smaller, {2, {}});
    const SliceId kings{0, 3, 0, 1};
    SolveOptions shared{3};
    shared.sharing = {.min_block_positions = 1024, .min_bucket_entries = 64};
    const SolvedSlice one = SliceSolver(kings, smaller, {1}).solve();
    const SolvedSlice three = SliceSolver(kings, smaller, shared).solve();
    EXPECT_TRUE(one == three);
    // The wide path too: distances above 4 plies are stored as wide positions.
    SolveOptions wide_one{1, 4};
    SolveOptions wide_three = shared;
    wide_three.narrow_limit = 4;
    EXPECT_TRUE(SliceSolver(kings, smaller, wide_one).solve() == SliceSolver(kings, smaller, wide_three).solve());
}

// With men (a suite of its own: ThreadSanitizer's stage runs suites two at a time, and this is
// the longest test there), an entry can be pushed twice into one bucket: queued at the distance its winning man
// move gives, and finished at that same distance by a king move. Only one thread may expand it.
// 1201 (a man, two kings against a king) has levels of at most 5 men configurations, so 12
// threads give each block 2 or more; on 2 threads a level of 5 shares its fifth block.
TEST(BlockClassifyWithMenThreads, BlocksSharedByThreadsGiveTheOneThreadSolution) {
    const SliceId slice{1, 2, 0, 1};
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(std::span(&slice, 1));
    SolveOptions shared{12};
    shared.sharing = {.min_block_positions = 1024, .min_bucket_entries = 16};
    // Level by level, as a build solves: the capture bits of a level's blocks are compared too
    // (the blocks are not aligned to their 64-bit words, so the threads of two blocks share some).
    const std::vector<SolvedLevel> one = solved_levels(slice, *smaller, {1});
    EXPECT_TRUE(one == solved_levels(slice, *smaller, shared));
    shared.threads = 2;
    EXPECT_TRUE(one == solved_levels(slice, *smaller, shared));
}

}  // namespace
}  // namespace egdb
