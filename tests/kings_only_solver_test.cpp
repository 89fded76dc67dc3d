// A slice without men solved in place (kings_only_solver.hpp) gives BlockSolver's bytes on the
// larger slices: every slice without men of 4 and 5 pieces (0401, 0302 and their reversals, 1e7
// to 2e7 positions a side; 4 pieces in sanitizer builds), and with the wide path forced on 4.
// The smaller ones on 1 to 3 threads, under ThreadSanitizer too: kings_only_solver_thread_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/generate/slice_solver.hpp"
#include "core/index/slice.hpp"
#include "tests/solved_levels.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

using testing_levels::solved_levels;

TEST(KingsOnlySolver, LargerSlicesWithoutMenGetBlockSolversBytes) {
    std::vector<SliceId> slices;
    for (int pieces = 4; pieces <= (test::quick_mode() ? 4 : 5); ++pieces) {
        for (int black = 1; black < pieces; ++black) slices.push_back(SliceId{0, black, 0, pieces - black});
    }
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(slices);
    for (const Plies narrow_limit : {kMaxNarrowMtc, Plies{4}}) {
        for (const SliceId slice : slices) {
            if (narrow_limit != kMaxNarrowMtc && slice.total() > 4) continue;
            SolveOptions general{2, narrow_limit};
            general.kings_only_in_place = false;
            const std::vector<SolvedLevel> reference = solved_levels(slice, *smaller, general);
            EXPECT_TRUE(reference == solved_levels(slice, *smaller, SolveOptions{2, narrow_limit})) << slice.to_string();
        }
    }
}

}  // namespace
}  // namespace egdb
