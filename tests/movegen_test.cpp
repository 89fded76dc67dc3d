#include "core/rules/movegen.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/king_slides.hpp"
#include "tests/reference_rules.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

using test::make_position;

std::vector<std::pair<int, int>> from_to_squares(const MoveList& list) {
    std::vector<std::pair<int, int>> out;
    for (const Move& m : list) out.emplace_back(bb_to_square(m.from), bb_to_square(m.to));
    return out;
}

std::set<std::tuple<Bitboard, Bitboard, Bitboard>> successor_set(const Position& pos, Color side) {
    MoveList list;
    generate_moves(pos, side, list);
    std::set<std::tuple<Bitboard, Bitboard, Bitboard>> out;
    for (const Move& m : list) {
        const Position q = apply_move(pos, side, m);
        out.emplace(q.black, q.white, q.king);
    }
    return out;
}

TEST(MoveGen, StartPositionOrder) {
    Position p;
    p.black = squares_bb(1, 20);
    p.white = squares_bb(31, 50);
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 9);
    // White men: all moves via -5 (ascending destination), then all via -6.
    const std::vector<std::pair<int, int>> expected = {{31, 27}, {32, 28}, {33, 29}, {34, 30}, {31, 26},
                                                       {32, 27}, {33, 28}, {34, 29}, {35, 30}};
    EXPECT_EQ(from_to_squares(list), expected);
    ASSERT_EQ(generate_moves(p, Color::Black, list), 9);
    // Black men: via +6 first, then +5.
    const std::vector<std::pair<int, int>> expected_black = {{16, 21}, {17, 22}, {18, 23}, {19, 24}, {20, 25},
                                                             {17, 21}, {18, 22}, {19, 23}, {20, 24}};
    EXPECT_EQ(from_to_squares(list), expected_black);
}

TEST(MoveGen, KingMovesFollowEachRayInDirectionOrder) {
    const Position p = make_position({.white_kings = {28}, .black_kings = {1}});
    MoveList list;
    generate_moves(p, Color::White, list);
    std::vector<int> to;
    for (const Move& m : list) {
        EXPECT_EQ(bb_to_square(m.from), 28);
        to.push_back(bb_to_square(m.to));
    }
    const std::vector<int> expected = {33, 39, 44, 50, 32, 37, 41, 46, 23, 19, 14, 10, 5, 22, 17, 11, 6};
    EXPECT_EQ(to, expected);
    EXPECT_EQ(count_moves(p, Color::White), 17);
}

TEST(MoveGen, ManCapturesBackward) {
    const Position p = make_position({.white_men = {13}, .black_men = {18}});
    ASSERT_TRUE(has_capture(p, Color::White));
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    EXPECT_EQ(bb_to_square(list[0].to), 22);
    EXPECT_EQ(list[0].captured, square_bb(18));
}

TEST(MoveGen, ManPassingThePromotionRowStaysAMan) {
    // 13x2 takes 8 and lands on the promotion row, then 2x11 takes 7: the man ends on 11 unpromoted.
    const Position p = make_position({.white_men = {13}, .black_men = {7, 8}});
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    const Position after = apply_move(p, Color::White, list[0]);
    EXPECT_EQ(after.white, square_bb(11));
    EXPECT_EQ(after.king, Bitboard{0});
    EXPECT_EQ(after.black, Bitboard{0});
}

TEST(MoveGen, ManEndingOnThePromotionRowIsPromoted) {
    const Position p = make_position({.white_men = {13}, .black_men = {8}});
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    const Position after = apply_move(p, Color::White, list[0]);
    EXPECT_EQ(after.white, square_bb(2));
    EXPECT_EQ(after.king, square_bb(2));
}

TEST(MoveGen, MajorityRuleKeepsOnlyTheLongestCaptures) {
    // 13x11 takes two pieces (8 and 7); 13x24 would take only 19.
    const Position p = make_position({.white_men = {13}, .black_men = {7, 8, 19}});
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    EXPECT_EQ(list[0].capture_count(), 2);
    EXPECT_EQ(bb_to_square(list[0].to), 11);
}

TEST(MoveGen, FlyingKingMayLandOnAnySquareBehindTheCapturedPiece) {
    const Position p = make_position({.white_kings = {46}, .black_men = {32}});
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 6);
    std::vector<int> to;
    for (const Move& m : list) to.push_back(bb_to_square(m.to));
    EXPECT_EQ(to, (std::vector<int>{28, 23, 19, 14, 10, 5}));
}

TEST(MoveGen, RingCaptureOfFourReturnsToStartAndMergesDuplicates) {
    // The man on 28 can take 23, 13, 12, 22 clockwise or anticlockwise and comes back to 28;
    // both sequences give the same position and, with 4 captures, are one list entry (section 14).
    const Position p = make_position({.white_men = {28}, .black_men = {12, 13, 22, 23}});
    MoveList list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    EXPECT_EQ(list[0].from, list[0].to);
    EXPECT_EQ(list[0].capture_count(), 4);
    const Position after = apply_move(p, Color::White, list[0]);
    EXPECT_EQ(after.white, square_bb(28));
    EXPECT_EQ(after.black, Bitboard{0});
}

TEST(MoveGen, AgreesWithReferenceRulesOnRandomPositions) {
    std::mt19937_64 rng(20261130);
    const int rounds = test::quick_mode() ? 5000 : 150000;
    std::uniform_int_distribution<int> men(0, 12), kings(0, 4);
    int captures_seen = 0;
    for (int i = 0; i < rounds; ++i) {
        const Position p = test::random_position(rng, men(rng), kings(rng), men(rng), kings(rng));
        for (Color side : {Color::Black, Color::White}) {
            const auto expected = test::ReferenceRules::successors(p, side);
            ASSERT_EQ(successor_set(p, side), expected) << "position #" << i << " side " << static_cast<int>(side);
            MoveList list;
            const int n = generate_moves(p, side, list);
            ASSERT_EQ(count_moves(p, side), n);
            const bool capture = n > 0 && list[0].is_capture();
            ASSERT_EQ(has_capture(p, side), capture);
            captures_seen += capture ? 1 : 0;
            std::vector<Position> successors(kMaxMoves);
            ASSERT_EQ(successor_positions(p, side, successors.data(), kMaxMoves), n);
            for (int k = 0; k < n; ++k) ASSERT_EQ(successors[static_cast<std::size_t>(k)], apply_move(p, side, list[k]));
        }
    }
    EXPECT_GT(captures_seen, rounds / 10) << "the random positions should exercise captures";
}

// has_capture slides kings with a branch-free fill (movegen.cpp capture_reach); the capture
// generator walks each king's rays square by square. Every position of the slices of up to 3
// pieces and of the kings-only 4-piece slices, both sides to move, must agree: kings on every
// square, next to every edge and blocked in every way.
TEST(MoveGen, HasCaptureAgreesWithTheCaptureGeneratorOnWholeSlices) {
    std::vector<SliceId> slices = all_slices(3);
    for (const SliceId kings_only : {SliceId{0, 2, 0, 2}, SliceId{0, 3, 0, 1}, SliceId{0, 1, 0, 3}}) {
        slices.push_back(kings_only);
    }
    std::uint64_t positions = 0, captures = 0;
    for (const SliceId slice : slices) {
        const SliceIndexer& indexer = slice_indexer(slice);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) {
            const Position p = indexer.position_at(i);
            for (const Color side : {Color::Black, Color::White}) {
                MoveList list;
                const bool generated = generate_captures(p, side, list) > 0;
                ASSERT_EQ(has_capture(p, side), generated) << "slice " << slice.to_string() << " index " << i << " "
                                                           << to_fen(p, side);
                ++positions;
                captures += generated ? 1 : 0;
            }
        }
    }
    EXPECT_GT(positions, 5'000'000u);
    EXPECT_GT(captures, positions / 10) << "the slices should exercise captures";
}

// The solver counts king moves and walks king (un-)moves with fills (king_slides.hpp); the
// generator walks each ray square by square. On every position of the 3-piece slices and of the
// kings-only 4-piece slices, and random positions crowded with men and kings, each king's targets
// are the destinations the generator gives it, and the count is the generator's.
TEST(MoveGen, KingSlidesAreTheGeneratorsKingMoves) {
    const auto expect_same = [](const Position& p, const std::string& where) {
        for (const Color side : {Color::Black, Color::White}) {
            MoveList list;
            generate_non_captures(p, side, list);
            Bitboard generated_from_kings = 0;
            int king_moves = 0;
            for (Bitboard kings = p.kings(side); kings != 0; kings &= kings - 1) {
                const Bitboard king = lowest_bit(kings);
                Bitboard generated = 0;
                for (const Move& m : list) {
                    if (m.from == king) generated |= m.to;
                }
                ASSERT_EQ(king_slide_targets(king, p.empty()), generated) << where << " " << to_fen(p, side);
                generated_from_kings |= generated;
                king_moves += popcount(generated);
            }
            ASSERT_EQ(count_king_slides(p.kings(side), p.empty()), king_moves) << where << " " << to_fen(p, side);
            ASSERT_EQ(count_king_non_captures(p, side), king_moves) << where << " " << to_fen(p, side);
        }
    };
    std::vector<SliceId> slices = all_slices(3);
    for (const SliceId kings_only : {SliceId{0, 2, 0, 2}, SliceId{0, 3, 0, 1}, SliceId{0, 1, 0, 3}}) slices.push_back(kings_only);
    for (const SliceId slice : slices) {
        const SliceIndexer& indexer = slice_indexer(slice);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) expect_same(indexer.position_at(i), slice.to_string());
    }
    std::mt19937_64 rng(20261206);
    std::uniform_int_distribution<int> men(0, 15), kings(0, 5);
    for (int i = 0; i < (test::quick_mode() ? 5000 : 100000); ++i) {
        expect_same(test::random_position(rng, men(rng), kings(rng), men(rng), kings(rng)), "random #" + std::to_string(i));
    }
}

TEST(MoveGen, ColourReversalIsASymmetry) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 5000; ++i) {
        const Position p = test::random_position(rng, 6, 2, 6, 2);
        std::set<std::tuple<Bitboard, Bitboard, Bitboard>> mirrored;
        for (const auto& [b, w, k] : successor_set(p, Color::White)) {
            const Position r = reversed(Position{b, w, k});
            mirrored.emplace(r.black, r.white, r.king);
        }
        ASSERT_EQ(successor_set(reversed(p), Color::Black), mirrored);
    }
}

TEST(MoveGen, PathsRecordEveryLanding) {
    const Position p = make_position({.white_men = {13}, .black_men = {7, 8}});
    MoveListWithPaths list;
    ASSERT_EQ(generate_moves(p, Color::White, list), 1);
    ASSERT_EQ(list.paths[0].length, 2);
    EXPECT_EQ(list.paths[0].squares[0], 2);
    EXPECT_EQ(list.paths[0].squares[1], 11);
}

}  // namespace
}  // namespace egdb
