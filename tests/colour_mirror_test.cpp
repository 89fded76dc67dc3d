// A colour-symmetric slice solved with half its blocks filled by colour reversal
// (colour_mirror.hpp) gives, level by level, the bytes of solving every block: codes, MTC bytes,
// wide positions and capture bits. The fill on several threads: colour_mirror_thread_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "core/board/position.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/colour_mirror.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "tests/solved_levels.hpp"

namespace egdb {
namespace {

using testing_levels::solved_blocks_only;
using testing_levels::solved_levels;
using testing_levels::solved_successors;
using testing_levels::solve_options;

// 1111 (blocks of kings) solved block by block once, every distance above 6 plies stored wide, for
// the tests to compare with.
class ColourMirror : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        smaller_ = solved_successors(kSlices).release();
        reference_ = new std::vector<SolvedLevel>(solved_levels(kSlices[0], *smaller_, solve_options(1, false, kNarrow)));
    }
    static void TearDownTestSuite() {
        delete reference_;
        delete smaller_;
        reference_ = nullptr;
        smaller_ = nullptr;
    }
    static constexpr Plies kNarrow = 6;
    // 1111 has blocks of kings; 1010 blocks of one position (as 2020 and 3030).
    static constexpr std::array<SliceId, 2> kSlices{SliceId{1, 1, 1, 1}, SliceId{1, 0, 1, 0}};
    static SolutionStore* smaller_;
    static std::vector<SolvedLevel>* reference_;
};
SolutionStore* ColourMirror::smaller_ = nullptr;
std::vector<SolvedLevel>* ColourMirror::reference_ = nullptr;

// 1111: a man and a king a side, 17 levels, most configurations paired with another.
TEST_F(ColourMirror, PlanPairsEachFilledBlockWithItsReversal) {
    const SliceId slice{1, 1, 1, 1};
    const SliceIndexer& indexer = slice_indexer(slice);
    std::size_t filled = 0, self_reversed = 0;
    for (MenLevel& men : men_configuration_levels(slice)) {
        const SolvedLevel level(slice, men.advancement, std::move(men.configurations));
        const MirrorPlan plan = plan_colour_mirror(level);
        ASSERT_EQ(plan.solve.size() + plan.fill.size(), level.configurations().size());
        EXPECT_TRUE(plan == plan_colour_mirror(level, true, 3));
        std::set<std::uint64_t> slots(plan.solve.begin(), plan.solve.end());
        const std::set<std::uint64_t> solved = slots;
        for (const MirrorPlan::Mirrored& m : plan.fill) {
            EXPECT_TRUE(slots.insert(m.slot).second) << "slot " << m.slot << " planned twice";
            EXPECT_TRUE(solved.contains(m.source)) << "slot " << m.slot << " filled from a block not solved";
            const Position a = indexer.position_at(level.configurations()[m.slot] * level.block_size());
            const Position b = indexer.position_at(level.configurations()[m.source] * level.block_size());
            EXPECT_EQ(mirror(a.men(Color::Black)), b.men(Color::White));
            EXPECT_EQ(mirror(a.men(Color::White)), b.men(Color::Black));
        }
        for (const std::uint64_t k : plan.solve) {
            const Position p = indexer.position_at(level.configurations()[k] * level.block_size());
            if (mirror(p.men(Color::Black)) == p.men(Color::White)) ++self_reversed;
        }
        filled += plan.fill.size();
        EXPECT_TRUE(plan_colour_mirror(level, false).fill.empty());
    }
    // 1111 has 45 * 45 - 40 = 1,985 men configurations (a black man on rows 1-9, a white one on
    // rows 2-10, not on one square); 45 are their own reversal, so 970 are filled.
    EXPECT_EQ(filled, 970u);
    EXPECT_EQ(self_reversed, 45u);

    // A slice that is not colour-symmetric fills nothing; nor does 0202, one block that is its
    // own reversal. 2020 (two men a side) fills just under half: its self-reversed
    // configurations are solved.
    for (const SliceId other : {SliceId{1, 2, 1, 0}, SliceId{0, 2, 0, 2}, SliceId{2, 0, 2, 0}}) {
        std::uint64_t configurations = 0, other_filled = 0;
        for (MenLevel& men : men_configuration_levels(other)) {
            const SolvedLevel level(other, men.advancement, std::move(men.configurations));
            configurations += level.configurations().size();
            other_filled += plan_colour_mirror(level, true, 2).fill.size();
        }
        if (is_color_symmetric(other) && other.nbm != 0) {
            EXPECT_GT(other_filled, configurations * 49 / 100) << other.to_string();
            EXPECT_LT(other_filled, configurations / 2) << other.to_string();
        } else {
            EXPECT_EQ(other_filled, 0u) << other.to_string();
        }
    }
}

// The solver with the fill on two threads, its checks on: the same levels, wide positions
// included, and the check counts what it read the successors of and what it filled, which
// together are the slice.
TEST_F(ColourMirror, FilledLevelsEqualSolvedOnes) {
    std::size_t wide = 0;
    for (const SolvedLevel& level : *reference_) wide += level.wide(Color::Black).size() + level.wide(Color::White).size();
    ASSERT_GT(wide, 1000u);
    LevelChecks checks;
    SolveOptions o = solve_options(2, true, kNarrow);
    o.checks = &checks;
    EXPECT_TRUE(*reference_ == solved_levels(kSlices[0], *smaller_, o));
    EXPECT_EQ(checks.result.mismatches, 0u);
    EXPECT_GT(checks.positions_mirrored, 0u);
    EXPECT_EQ(checks.result.positions + checks.positions_mirrored, 2 * slice_size(kSlices[0]));
    EXPECT_TRUE(checks.whole_slice_consistent());

    const SliceId small = kSlices[1];
    EXPECT_TRUE(solved_levels(small, *smaller_, solve_options(1, false, 2)) == solved_levels(small, *smaller_, solve_options(1, true, 2)));
}

// 1111's blocks (2,256 positions) split into parts of 100, filled on three threads: capture words
// shared by two parts, wide positions among them.
TEST_F(ColourMirror, BlocksFilledInPartsEqualSolvedOnes) {
    const SliceId slice{1, 1, 1, 1};
    const KingPlacements kings(slice);
    std::size_t filled = 0;
    for (const SolvedLevel& level_solved : *reference_) {
        const MirrorPlan plan = plan_colour_mirror(level_solved);
        SolvedLevel level = solved_blocks_only(level_solved, plan);
        fill_colour_mirror(level, kings, plan.fill, 3, 100);
        EXPECT_TRUE(level == level_solved) << "level " << level_solved.advancement();
        filled += plan.fill.size();
    }
    EXPECT_EQ(filled, 970u);
}

// A chunk of a level (a distributed build's unit) may hold a configuration without its reversal:
// that one is solved, and the chunk equals the same chunk solved block by block.
TEST_F(ColourMirror, AChunkWithoutSomeReversalsIsSolvedThere) {
    const SliceId slice{1, 1, 1, 1};
    std::vector<MenLevel> levels = men_configuration_levels(slice);
    const auto widest = std::max_element(levels.begin(), levels.end(), [](const MenLevel& a, const MenLevel& b) {
        return a.configurations.size() < b.configurations.size();
    });
    // The level above, the chunk's input.
    const SolvedLevel* next = nullptr;
    for (const SolvedLevel& level : *reference_) {
        if (level.advancement() == widest->advancement + 1) next = &level;
    }
    ASSERT_NE(next, nullptr);
    std::vector<std::uint64_t> chunk(widest->configurations.begin(),
                                     widest->configurations.begin() + static_cast<std::ptrdiff_t>(widest->configurations.size() * 2 / 3));
    const SolvedLevel one_by_one = SliceSolver(slice, *smaller_, solve_options(1, false, kNarrow)).solve_level(widest->advancement, chunk, next);
    const SolvedLevel mirrored = SliceSolver(slice, *smaller_, solve_options(3, true, kNarrow)).solve_level(widest->advancement, chunk, next);
    const MirrorPlan plan = plan_colour_mirror(mirrored);
    EXPECT_FALSE(plan.fill.empty());
    EXPECT_GT(plan.solve.size(), plan.fill.size());  // the configurations whose reversal is outside the chunk
    EXPECT_TRUE(one_by_one == mirrored);
}

}  // namespace
}  // namespace egdb
