// The check of each block as it is solved (core/generate/block_check.hpp): every level of every
// slice of up to 4 pieces (3 in sanitizer builds) agrees with its successors, with wide positions
// too; a value changed in a block is found and named, whether the position's value comes from its
// captures or from its king moves; solve_levels reports the levels it checked and those it took
// from its sink unchecked.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/generate/block_successors.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/block_check.hpp"
#include "core/generate/block_solver.hpp"
#include "core/generate/men_order.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

int max_level_pieces() { return test::quick_mode() ? 3 : 4; }

// Every slice solved up to max_level_pieces(), without checks: the smaller slices of the tests.
const SolutionStore& smaller_slices() {
    static const std::unique_ptr<SolutionStore> store = [] {
        auto s = std::make_unique<SolutionStore>();
        solve_slices(max_level_pieces(), *s, {2, {}});
        return s;
    }();
    return *store;
}

// Keeps the levels it is given, and reports a chosen set as solved before (from `resumed`).
class KeepingSink final : public LevelSink {
public:
    std::vector<SolvedLevel> levels;
    std::vector<SolvedLevel> resumed;
    bool has_level(SliceId, int advancement) override {
        for (const SolvedLevel& l : resumed) {
            if (l.advancement() == advancement) return true;
        }
        return false;
    }
    SolvedLevel load_level(SliceId, int advancement) override {
        for (const SolvedLevel& l : resumed) {
            if (l.advancement() == advancement) return l;
        }
        throw std::logic_error("no such level");
    }
    void store_level(const SolvedLevel& level, double) override { levels.push_back(level); }
};

TEST(BlockCheck, EveryLevelOfEverySliceAgreesWithItsSuccessors) {
    const SolutionStore& store = smaller_slices();
    std::size_t slices = 0;
    for (const SliceId slice : build_order(max_level_pieces())) {
        // Solved again, in memory (whole slice read for man moves) and level by level (the level
        // above read for them), each with its checks.
        LevelChecks whole_checks, level_checks;
        SolveOptions options{2, kMaxNarrowMtc, &whole_checks};
        const SolvedSlice solved = SliceSolver(slice, store, options).solve();
        EXPECT_TRUE(solved == *store.find(slice)) << slice.to_string();
        KeepingSink sink;
        options.checks = &level_checks;
        SliceSolver(slice, store, options).solve_levels(sink);
        for (const LevelChecks* checks : {&whole_checks, &level_checks}) {
            EXPECT_EQ(checks->result.mismatches, 0U) << slice.to_string() << (checks->result.messages.empty() ? "" : checks->result.messages[0]);
            // A colour-symmetric slice with men has about half its blocks filled from their
            // reversals (colour_mirror.hpp): checked or filled, every position is accounted for.
            EXPECT_EQ(checks->result.positions + checks->positions_mirrored, 2 * slice_size(slice)) << slice.to_string();
            EXPECT_EQ(checks->positions_mirrored != 0, is_color_symmetric(slice) && slice.nbm != 0) << slice.to_string();
            EXPECT_EQ(checks->levels_checked, men_configuration_levels(slice).size());
            EXPECT_EQ(checks->levels_not_checked, 0U);
            EXPECT_TRUE(checks->whole_slice_consistent());
        }
        ++slices;
    }
    EXPECT_EQ(slices, build_order(max_level_pieces()).size());
}

// The levels of `slice`, most advanced first, solved one after another as a build solves them.
std::vector<SolvedLevel> solve_each_level(SliceId slice, const SolutionStore& store) {
    KeepingSink sink;
    SliceSolver(slice, store, {2}).solve_levels(sink);
    return std::move(sink.levels);
}

// With every distance above a few plies stored wide (position_value.hpp), the check reads the wide
// positions of the block as the solver stored them.
TEST(BlockCheck, WidePositionsAreCheckedToo) {
    const SolutionStore& store = smaller_slices();
    std::uint64_t wide = 0;
    for (const SliceId slice : build_order(3)) {
        LevelChecks checks;
        const SolvedSlice solved = SliceSolver(slice, store, {2, 4, &checks}).solve();
        EXPECT_EQ(checks.result.mismatches, 0U) << slice.to_string() << (checks.result.messages.empty() ? "" : checks.result.messages[0]);
        EXPECT_EQ(checks.result.positions + checks.positions_mirrored, 2 * slice_size(slice)) << slice.to_string();
        wide += solved.wide(Color::Black).size() + solved.wide(Color::White).size();
    }
    EXPECT_GT(wide, 1000U);
}

// Solves the blocks of `slice` one by one with a BlockSolver, as the level workers do, and after
// each calls `visit(solver, level, slot)` while the solver still holds the block.
template <class Visit>
void solve_block_by_block(SliceId slice, const SolutionStore& store, Visit&& visit) {
    const KingPlacements kings(slice);
    BlockSolver solver(slice, kings, store);
    std::optional<SolvedLevel> above;
    for (MenLevel& men_level : men_configuration_levels(slice)) {
        SolvedLevel level(slice, men_level.advancement, std::move(men_level.configurations));
        const SolvedLevel* next = above && above->advancement() == level.advancement() + 1 ? &*above : nullptr;
        for (std::size_t slot = 0; slot < level.configurations().size(); ++slot) {
            solver.solve(level, slot, next);
            visit(solver, level, slot);
        }
        above.emplace(std::move(level));
    }
}

// A win of the block changed in three ways (two plies longer, so the WLD stays; its MTC one ply
// longer; a draw) is found each time, and named by its FEN. The positions changed are chosen both
// among those whose side to move must capture (their value comes from the conversions the solver
// classified) and among those with king moves and no capture (from the king walk over the block).
TEST(BlockCheck, AChangedValueIsFoundAndNamed) {
    const SolutionStore& store = smaller_slices();
    const SliceId slice{1, 1, 0, 1};  // a man, and kings on both sides: captures and king moves
    const SliceIndexer& indexer = slice_indexer(slice);
    std::size_t changed_captures = 0, changed_king_movers = 0;
    solve_block_by_block(slice, store, [&](const BlockSolver& solver, SolvedLevel& level, std::size_t slot) {
        CheckTally clean;
        check_solved_block(solver, level, slot, 1, clean);
        ASSERT_EQ(clean.mismatches, 0U) << (clean.messages.empty() ? "" : clean.messages[0]);
        ASSERT_EQ(clean.positions, 2 * level.block_size());
        const std::span<DistanceCode> codes = level.block_dtw_codes(slot, Color::Black);
        const std::span<std::uint8_t> mtc = level.block_mtc(slot, Color::Black);
        const KingPlacements& kings = solver.kings();
        // The first win of each kind in the block, Black to move.
        std::optional<std::uint64_t> capture, king_mover;
        for (std::uint64_t local = 0; local < codes.size(); ++local) {
            if (wld_of_code(codes[local]) != WldValue::Win || codes[local] >= 200) continue;
            const Position p = kings.position(solver.black_men(), solver.white_men(), local);
            if (has_capture(p, Color::Black)) {
                if (!capture) capture = local;
            } else if (count_king_non_captures(p, Color::Black) > 0 && !king_mover) {
                king_mover = local;
            }
        }
        for (const std::optional<std::uint64_t>& at : {capture, king_mover}) {
            if (!at) continue;
            const std::uint64_t index = level.configurations()[slot] * level.block_size() + *at;
            const std::string fen = to_fen(indexer.position_at(index), Color::Black);
            const DistanceCode code = codes[*at];
            const std::uint8_t moves_to_conversion = mtc[*at];
            const auto found = [&](const char* change) {
                CheckTally r;
                check_solved_block(solver, level, slot, 1, r);
                EXPECT_GE(r.mismatches, 1U) << change << " " << fen;
                bool named = false;
                for (const std::string& m : r.messages) named = named || m.find(fen) != std::string::npos;
                EXPECT_TRUE(named) << change << " " << fen << (r.messages.empty() ? "" : ": " + r.messages[0]);
            };
            codes[*at] = static_cast<DistanceCode>(code + 2);
            found("DTW + 2");
            codes[*at] = code;
            mtc[*at] = static_cast<std::uint8_t>(moves_to_conversion + 1);
            found("MTC + 1");
            mtc[*at] = moves_to_conversion;
            codes[*at] = kDrawCode;
            found("a draw");
            codes[*at] = code;  // the next level reads this one
            ++(at == capture ? changed_captures : changed_king_movers);
        }
    });
    EXPECT_GE(changed_captures, 5U);
    EXPECT_GE(changed_king_movers, 5U);
}

TEST(BlockCheck, LevelsTakenFromTheSinkAreCountedAsNotChecked) {
    const SolutionStore& store = smaller_slices();
    const SliceId slice{2, 0, 1, 0};
    KeepingSink sink;
    sink.resumed = solve_each_level(slice, store);
    const std::size_t levels = sink.resumed.size();
    sink.resumed.erase(sink.resumed.begin() + 1, sink.resumed.end());  // the most advanced level was solved before
    LevelChecks checks;
    SliceSolver(slice, store, {2, kMaxNarrowMtc, &checks}).solve_levels(sink);
    EXPECT_EQ(checks.levels_not_checked, 1U);
    EXPECT_EQ(checks.levels_checked, levels - 1);
    EXPECT_EQ(checks.result.mismatches, 0U);
    EXPECT_FALSE(checks.whole_slice_consistent());
}

// BlockSuccessors::value_of walks king moves itself instead of taking the generator's list: over
// every position of every slice of up to 4 pieces (3 in sanitizer builds), both sides to move, it
// must give what the rule gives over generate_moves with every successor looked up by its full
// index in the store (value_from_successors), and value_without_capture the same where the side
// to move has no capture. Positions with king moves and no capture are counted, so the walk
// cannot pass by being skipped.
TEST(BlockSuccessors, ValueOfEqualsTheRuleOverTheGeneratedMoves) {
    const SolutionStore& store = smaller_slices();
    std::uint64_t compared = 0, with_king_moves = 0;
    for (const SliceId slice : build_order(max_level_pieces())) {
        const SolvedSlice& solved = *store.find(slice);
        const KingPlacements kings(slice);
        const SliceIndexer& indexer = slice_indexer(slice);
        BlockWalk walk(indexer, kings, 0);
        const WalkBlock block{solved, walk};
        const WholeSlice whole{solved};
        const BlockSuccessors successors(slice, kings, block, whole, store);
        MoveList moves;
        for (std::uint64_t i = 0; i < indexer.size(); ++i, walk.next()) {
            const Position p = walk.position();
            for (const Color side : {Color::Black, Color::White}) {
                const PositionValue expected = value_from_successors(p, side, store);
                const PositionValue got = successors.value_of(p, side, moves);
                ASSERT_TRUE(got == expected) << to_fen(p, side) << ": " << describe(got) << ", the generator's moves give "
                                             << describe(expected);
                if (!has_capture(p, side)) {
                    const PositionValue direct = successors.value_without_capture(p, side, moves);
                    ASSERT_TRUE(direct == expected) << to_fen(p, side);
                    if (p.kings(side) != 0 && count_king_non_captures(p, side) > 0) ++with_king_moves;
                }
                ++compared;
            }
        }
    }
    EXPECT_GT(with_king_moves, compared / 4) << compared << " positions compared";
}

// The king walk folds its successors in two steps (SuccessorFold::add_distance, then add_mtc for
// those needs_mtc names). Over random sets of successors, conversions mixed in, that must give
// what adding each whole gives, for every outcome, while leaving MTC bytes unread.
TEST(SuccessorFold, TwoStepsGiveWhatAddingEachSuccessorWholeGives) {
    std::mt19937 random(12);
    constexpr std::array kWld{WldValue::Loss, WldValue::Draw, WldValue::Win};
    struct Child {
        PositionValue value;
        bool conversion;
    };
    std::array<std::uint64_t, 3> outcomes{};
    std::uint64_t mtc_reads = 0, successors = 0;
    for (int trial = 0; trial < 200000; ++trial) {
        const unsigned conversion = 2 + random() % 2;
        std::vector<Child> children(random() % 7);
        for (Child& child : children) {
            const WldValue wld = kWld[random() % 3];
            // A draw carries no distances; the others small, so that ties of DTW and MTC happen.
            const auto dtw = static_cast<Plies>(wld == WldValue::Draw ? 0 : 2 * (random() % 4) + (wld == WldValue::Win));
            const auto mtc = static_cast<Plies>(wld == WldValue::Draw ? 0 : random() % 5);
            child = {{wld, dtw, mtc}, random() % 4 == 0};
        }
        SuccessorFold whole(conversion), two_steps(conversion);
        for (const Child& child : children) {
            whole.add(child.value, child.conversion);
            if (child.conversion) {
                two_steps.add_conversion(dtw_part(child.value));
            } else {
                two_steps.add_distance(dtw_part(child.value));
            }
        }
        for (const Child& child : children) {
            if (child.conversion) continue;
            ++successors;
            if (!two_steps.needs_mtc(child.value.wld)) continue;
            ++mtc_reads;
            two_steps.add_mtc(child.value.wld, child.value.mtc);
        }
        const PositionValue expected = whole.result();
        ASSERT_EQ(two_steps.result(), expected) << "trial " << trial << ": " << describe(two_steps.result()) << " instead of "
                                                << describe(expected);
        ++outcomes[static_cast<std::size_t>(expected.wld)];
    }
    for (const std::uint64_t n : outcomes) EXPECT_GT(n, 20000u);
    // Drawn positions and the successors a won position does not choose are skipped.
    EXPECT_LT(mtc_reads, successors * 3 / 4) << mtc_reads << " MTC reads for " << successors << " successors";
}

}  // namespace
}  // namespace egdb
