// A slice without men solved ply by ply in its own bytes (kings_only_solver.hpp) gives the bytes
// BlockSolver's propagation gives: codes, MTC bytes, wide positions and capture bits, on one
// thread and on several (under ThreadSanitizer in scripts/test.sh, the threads' candidate bits
// and ranges), with the wide path forced by a low narrow limit; its in-build check finds a
// changed value. Slices of up to 3 pieces here (ThreadSanitizer runs the solver about fifty
// times slower); 4 and 5 pieces in kings_only_solver_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/generate/block_check.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/kings_only_solver.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/index/slice.hpp"
#include "core/rules/movegen.hpp"
#include "tests/solved_levels.hpp"

namespace egdb {
namespace {

using testing_levels::solved_levels;

SolveOptions options(int threads, bool in_place, Plies narrow_limit = kMaxNarrowMtc) {
    SolveOptions o{threads, narrow_limit};
    o.kings_only_in_place = in_place;
    return o;
}

std::vector<SliceId> slices_without_men() { return {{0, 1, 0, 1}, {0, 2, 0, 1}, {0, 1, 0, 2}}; }

TEST(KingsOnlySolverThreads, EverySliceWithoutMenGetsBlockSolversBytes) {
    const std::vector<SliceId> slices = slices_without_men();
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(slices);
    for (const SliceId slice : slices) {
        const std::vector<SolvedLevel> reference = solved_levels(slice, *smaller, options(2, false));
        ASSERT_EQ(reference.size(), 1U);
        EXPECT_TRUE(reference == solved_levels(slice, *smaller, options(2, true))) << slice.to_string();
        EXPECT_TRUE(reference == solved_levels(slice, *smaller, options(1, true))) << slice.to_string();
        EXPECT_TRUE(reference == solved_levels(slice, *smaller, options(3, true))) << slice.to_string();
    }
}

// Every distance above 4 plies is wide: long distances are decided, scanned and looked up from
// the solver's table instead of the bytes, and stored as BlockSolver stores them.
TEST(KingsOnlySolverThreads, WidePositionsAreTheSame) {
    const std::vector<SliceId> slices{{0, 2, 0, 1}, {0, 1, 0, 2}};
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(slices);
    std::size_t wide = 0;
    for (const SliceId slice : slices) {
        const std::vector<SolvedLevel> reference = solved_levels(slice, *smaller, options(1, false, 4));
        EXPECT_TRUE(reference == solved_levels(slice, *smaller, options(2, true, 4))) << slice.to_string();
        wide += reference[0].wide(Color::Black).size() + reference[0].wide(Color::White).size();
    }
    EXPECT_GT(wide, 100U);
}

// The check of the in-place solver (its conversions generated again) passes on what it solved,
// and finds a win made two plies longer, among positions with a capture and among those without.
TEST(KingsOnlySolverThreads, TheCheckFindsAChangedValue) {
    const SliceId slice{0, 2, 0, 1};
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(std::span(&slice, 1));
    const KingPlacements kings(slice);
    KingsOnlySolver solver(slice, kings, *smaller);
    SolvedLevel level(slice, 0, {0});
    solver.solve(level, 2);
    CheckTally clean;
    check_solved_block(solver, level, 0, 2, clean);
    EXPECT_EQ(clean.mismatches, 0U) << (clean.messages.empty() ? "" : clean.messages[0]);
    EXPECT_EQ(clean.positions, 2 * slice_size(slice));

    const std::span<DistanceCode> codes = level.block_dtw_codes(0, Color::Black);
    std::optional<std::uint64_t> capture, king_mover;
    for (std::uint64_t local = 0; local < codes.size() && !(capture && king_mover); ++local) {
        if (wld_of_code(codes[local]) != WldValue::Win || codes[local] >= 200) continue;
        const Position p = kings.position(0, 0, local);
        (has_capture(p, Color::Black) ? capture : king_mover).emplace(local);
    }
    ASSERT_TRUE(capture && king_mover);
    for (const std::uint64_t at : {*capture, *king_mover}) {
        const DistanceCode code = codes[at];
        codes[at] = static_cast<DistanceCode>(code + 2);
        CheckTally changed;
        check_solved_block(solver, level, 0, 2, changed);
        EXPECT_GE(changed.mismatches, 1U) << at;
        codes[at] = code;
    }
}

TEST(KingsOnlySolverThreads, ASliceWithMenIsRefused) {
    const SliceId slice{1, 1, 0, 1};
    const std::unique_ptr<SolutionStore> smaller = testing_levels::solved_successors(std::span(&slice, 1));
    const KingPlacements kings(slice);
    EXPECT_THROW(KingsOnlySolver(slice, kings, *smaller), std::invalid_argument);
}

}  // namespace
}  // namespace egdb
