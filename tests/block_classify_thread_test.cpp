// A block large enough to be classified on several threads (BlockSolver: a level with fewer
// configurations than threads, here the one block of the kings-only slice 0202, 1.38 million
// positions) gives the solution of one thread. Under ThreadSanitizer (scripts/test.sh) this also
// checks that the classifying threads share nothing they write.
#include <gtest/gtest.h>

#include "core/generate/build_driver.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"

namespace egdb {
namespace {

TEST(BlockClassifyThreads, ALargeBlockClassifiedByThreeThreadsGivesTheOneThreadSolution) {
    SolutionStore smaller;
    solve_slices(3, smaller, {2, {}});
    const SliceId kings{0, 2, 0, 2};
    const SolvedSlice one = SliceSolver(kings, smaller, {1}).solve();
    const SolvedSlice three = SliceSolver(kings, smaller, {3}).solve();
    EXPECT_TRUE(one == three);
}

}  // namespace
}  // namespace egdb
