// The check of each level as it is solved (core/generate/level_check.hpp): every level of every
// slice of up to 4 pieces (3 in sanitizer builds) agrees with its successors; a value changed
// in a level is found and named; solve_levels reports the levels it checked and those it took
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
#include "core/generate/level_check.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/one_ply_check.hpp"
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

TEST(LevelCheck, EveryLevelOfEverySliceAgreesWithItsSuccessors) {
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
            EXPECT_EQ(checks->result.positions, 2 * slice_size(slice)) << slice.to_string();
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

const SolvedLevel* level_above(const std::vector<SolvedLevel>& levels, std::size_t k) {
    return k > 0 && levels[k - 1].advancement() == levels[k].advancement() + 1 ? &levels[k - 1] : nullptr;
}

TEST(LevelCheck, AChangedValueIsFoundAndNamed) {
    const SolutionStore& store = smaller_slices();
    const SliceId slice{2, 0, 1, 0};  // many levels; promotions lead to 1110 and 2001
    std::vector<SolvedLevel> levels = solve_each_level(slice, store);
    ASSERT_GE(levels.size(), 3U);
    const SliceIndexer& indexer = slice_indexer(slice);
    std::size_t changed_levels = 0;
    for (std::size_t k = 0; k < levels.size(); ++k) {
        SolvedLevel& level = levels[k];
        const SolvedLevel* above = level_above(levels, k);
        ASSERT_EQ(check_level(level, above, nullptr, store, 2).mismatches, 0U) << "level " << level.advancement();
        // The first win of the level, Black to move, made two plies longer (the parity, so the
        // WLD, stays): only the distances disagree.
        const std::span<DistanceCode> codes = level.dtw_codes(Color::Black);
        std::optional<std::size_t> at;
        for (std::size_t i = 0; i < codes.size() && !at; ++i) {
            if (wld_of_code(codes[i]) == WldValue::Win && codes[i] < 200) at = i;
        }
        if (!at) continue;
        const DistanceCode solved = codes[*at];
        codes[*at] = static_cast<DistanceCode>(solved + 2);
        const std::uint64_t block = level.block_size();
        const std::uint64_t index = level.configurations()[*at / block] * block + *at % block;
        const std::string fen = to_fen(indexer.position_at(index), Color::Black);
        const LevelCheckResult r = check_level(level, above, nullptr, store, 2);
        EXPECT_GE(r.mismatches, 1U) << "level " << level.advancement();
        bool named = false;
        for (const std::string& m : r.messages) named = named || m.find(fen) != std::string::npos;
        EXPECT_TRUE(named) << fen << (r.messages.empty() ? "" : ": " + r.messages[0]);
        // And a draw where the solver found a win.
        codes[*at] = kDrawCode;
        EXPECT_GE(check_level(level, above, nullptr, store, 2).mismatches, 1U);
        codes[*at] = solved;  // the next level reads this one
        ++changed_levels;
    }
    EXPECT_GE(changed_levels, 2U);
}

TEST(LevelCheck, LevelsTakenFromTheSinkAreCountedAsNotChecked) {
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

TEST(LevelCheck, AMissingSmallerSliceIsAnError) {
    const SolutionStore empty;
    const SliceId slice{1, 0, 1, 0};
    const SolutionStore& store = smaller_slices();
    std::vector<SolvedLevel> levels = solve_each_level(slice, store);
    ASSERT_FALSE(levels.empty());
    // Captures of 1010 lead to 0010 and 1000, which have an empty side and need no storage, and
    // promotions to 0110 and 1001, which `empty` does not hold.
    EXPECT_THROW(check_level(levels.front(), nullptr, nullptr, empty, 2), std::out_of_range);
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
