// Hub move strings (Scan's protocol.txt) and the either-notation reader (move_notation.hpp). The
// hand-made positions use the board geometry described in pdn_move_test.cpp.
#include "core/notation/hub_move.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/notation/move_notation.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

Move move(int from, int to, std::initializer_list<int> captured = {}) {
    Move m{square_bb(from), square_bb(to), 0};
    for (const int s : captured) m.captured |= square_bb(s);
    return m;
}

Move parse(std::string_view fen, std::string_view text) {
    const FenPosition p = parse_fen(fen);
    return parse_hub_move(p.position, p.side_to_move, text);
}

// The protocol's example: after 32-28 19-23 White's man on 28 takes 23, landing on 19.
constexpr std::string_view kProtocolCapture = "W:W28,31,33-50:B1-18,20,23";
// A white king on 46 takes four men along the long diagonal 46-41-37-32-28-23-19-14-10-5, ending
// on 10 or 5 (the issue's example 46x10x41x32x23x14).
constexpr std::string_view kKingLine = "W:WK46:B14,23,32,41";
// A white man on 28 with black pieces on 19, 23 and a king on 33: 19 blocks the jump over 23, so
// the only capture takes 33 backwards, landing on 39.
constexpr std::string_view kBackwards = "W:W28:B19,23,K33";
// Two three-piece captures from 25 to 36 (see pdn_move_test.cpp): over 30, 23, 31 or 30, 32, 31.
constexpr std::string_view kSharedFromTo = "W:WK25:B23,30-32";
// A white king on 24 ringed by 18, 19, 28, 29: it can take all four and stop on 24 again.
constexpr std::string_view kKingRing = "W:WK24:B18,19,28,29";

TEST(HubMoveWrite, HandCheckedMoves) {
    EXPECT_EQ(move_to_hub(move(32, 28)), "32-28");
    EXPECT_EQ(move_to_hub(move(28, 19, {23})), "28x19x23");
    EXPECT_EQ(move_to_hub(move(46, 10, {41, 32, 23, 14})), "46x10x14x23x32x41");
    EXPECT_EQ(move_to_hub(move(24, 24, {18, 19, 28, 29})), "24x24x18x19x28x29");
    EXPECT_EQ(move_to_hub(move(5, 50)), "5-50");
}

TEST(HubMoveParse, ProtocolAndIssueExamples) {
    EXPECT_EQ(parse(kProtocolCapture, "28x19x23"), move(28, 19, {23}));
    EXPECT_EQ(parse(kKingLine, "46x10x41x32x23x14"), move(46, 10, {14, 23, 32, 41}));
    EXPECT_EQ(parse(kKingLine, "46x5x14x23x32x41"), move(46, 5, {14, 23, 32, 41}));
    EXPECT_EQ(parse(kBackwards, "28x39x33"), move(28, 39, {33}));
    EXPECT_EQ(parse("W:W31-50:B1-20", "32-28"), move(32, 28));
    EXPECT_EQ(parse("W:W31-50:B1-20", " \t32-28\n"), move(32, 28));
    EXPECT_EQ(parse("B:W31-50:B1-20", "19-23"), move(19, 23));
}

TEST(HubMoveParse, CapturedSquaresIdentifyMovesThatShareFromAndTo) {
    EXPECT_EQ(parse(kSharedFromTo, "25x36x23x30x31"), move(25, 36, {23, 30, 31}));
    EXPECT_EQ(parse(kSharedFromTo, "25x36x31x30x32"), move(25, 36, {30, 31, 32}));
    EXPECT_EQ(parse(kKingRing, "24x24x29x28x19x18"), move(24, 24, {18, 19, 28, 29}));
}

struct HubMoveRejection {
    std::string_view fen;
    std::string text;
    std::string token;
    std::size_t offset;
    const char* problem;
};

TEST(HubMoveParse, RejectsWithTheOffendingToken) {
    const std::vector<HubMoveRejection> cases = {
        {kProtocolCapture, "", "", 0, "empty Hub move"},
        {kProtocolCapture, "  ", "", 0, "empty Hub move"},
        {kProtocolCapture, "28x19", "28x19", 0, "lists every captured square"},
        {kProtocolCapture, "28X19X23", "X", 2, "lower-case 'x'"},
        {kProtocolCapture, "28x19x23x23", "23", 9, "square 23 is captured twice"},
        {kProtocolCapture, "28x19x51", "51", 6, "square 51 out of range 1..50"},
        {kProtocolCapture, "28x19x0", "0", 6, "square 0 out of range"},
        {kProtocolCapture, "28x19-23", "-", 5, "not both"},
        {kProtocolCapture, "28x19x", "28x19x", 0, "expected a square number at the end"},
        {kProtocolCapture, "x19x23", "x", 0, "expected a square number"},
        {kProtocolCapture, "28 x19x23", " ", 2, "expected '-' (a move) or 'x'"},
        {kProtocolCapture, "28", "28", 0, "from-to or from x to"},
        {kProtocolCapture, "28:19", ":", 2, "expected '-'"},
        {"W:W31-50:B1-20", "32-28-23", "32-28-23", 0, "from-to"},
        // Well formed, but no legal move: the token is the whole move.
        {kProtocolCapture, " 28x19x24 ", "28x19x24", 1, "no legal move matches"},
        {kProtocolCapture, "32-27", "32-27", 0, "capturing is compulsory"},
        {"W:W31-50:B1-20", "32x28x23", "32x28x23", 0, "there is no capture"},
        {kKingLine, "46x10x41x32x23", "46x10x41x32x23", 0, "it captures 3 but every legal capture takes 4 pieces"},
        {kSharedFromTo, "25x36x23x30x32", "25x36x23x30x32", 0, "a capture from 25 to 36 takes other pieces"},
        {"W:W28:B", "28-23-19", "28-23-19", 0, "from-to"},
        {"W:W:B", "28-23", "28-23", 0, "White has no legal move"},
    };
    for (const HubMoveRejection& r : cases) {
        SCOPED_TRACE(std::string(r.fen) + " \"" + r.text + "\"");
        try {
            const Move m = parse(r.fen, r.text);
            ADD_FAILURE() << "accepted as " << move_to_hub(m);
        } catch (const NotationError& e) {
            const std::string message = e.what();
            EXPECT_EQ(e.token(), r.token) << message;
            EXPECT_EQ(e.offset(), r.offset) << message;
            EXPECT_NE(message.find(r.problem), std::string::npos) << message;
        }
    }
}

TEST(HubMoveParse, NoMatchListsTheLegalMovesInHubForm) {
    try {
        parse(kKingLine, "46x10x14x23x32x40");
        FAIL() << "accepted";
    } catch (const NotationError& e) {
        EXPECT_NE(std::string(e.what()).find("legal moves for White: "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("46x10x14x23x32x41"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("46x5x14x23x32x41"), std::string::npos) << e.what();
    }
}

TEST(MoveNotation, EitherNotationIsRead) {
    const FenPosition capture = parse_fen(kProtocolCapture);
    EXPECT_EQ(parse_move(capture.position, capture.side_to_move, "28x19"), move(28, 19, {23}));
    EXPECT_EQ(parse_move(capture.position, capture.side_to_move, "28x19x23"), move(28, 19, {23}));
    const FenPosition shared = parse_fen(kSharedFromTo);
    // PDN full path (from and every landing: 4 squares) and Hub (from, to, 3 captured: 5).
    EXPECT_EQ(parse_move(shared.position, shared.side_to_move, "25x34x18x36"), move(25, 36, {23, 30, 31}));
    EXPECT_EQ(parse_move(shared.position, shared.side_to_move, "25x36x30x23x31"), move(25, 36, {23, 30, 31}));
    EXPECT_THROW(parse_move(shared.position, shared.side_to_move, "25x36"), MoveError);  // ambiguous in PDN
    EXPECT_EQ(move_text(shared.position, shared.side_to_move, move(25, 36, {23, 30, 31}), MoveNotation::Pdn),
              "25x34x18x36");
    EXPECT_EQ(move_text(shared.position, shared.side_to_move, move(25, 36, {23, 30, 31}), MoveNotation::Hub),
              "25x36x23x30x31");
    const FenPosition start = parse_fen("W:W31-50:B1-20");
    EXPECT_EQ(parse_move(start.position, start.side_to_move, "32-28"), move(32, 28));
    EXPECT_THROW(parse_move(start.position, start.side_to_move, "32x28x23"), Error);
}

// Squares of a Hub string, read back by a splitter written for the test.
std::vector<int> fields(const std::string& text) {
    std::vector<int> out;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && text[j] != 'x' && text[j] != '-') ++j;
        out.push_back(std::stoi(text.substr(i, j - i)));
        i = j + 1;
    }
    return out;
}

TEST(HubMoveProperty, EveryLegalMoveRoundTripsInAnyCaptureOrder) {
    std::mt19937_64 rng(2718);
    int captures = 0, multi = 0, shared_ends = 0;
    for (int n = 0; n < 4000; ++n) {
        const Position p = test::random_mixed_position(rng, 1, 9, 60);
        for (const Color side : {Color::White, Color::Black}) {
            MoveListWithPaths list;
            generate_moves(p, side, list);
            for (int i = 0; i < list.size(); ++i) {
                const Move& m = list[i];
                const std::string hub = move_to_hub(m);
                SCOPED_TRACE(to_fen(p, side) + " " + hub);
                // The text holds from, to and exactly the captured squares, ascending.
                std::vector<int> squares = fields(hub);
                ASSERT_GE(squares.size(), 2u);
                ASSERT_EQ(square_bb(squares[0]), m.from);
                ASSERT_EQ(square_bb(squares[1]), m.to);
                Bitboard written = 0;
                for (std::size_t k = 2; k < squares.size(); ++k) {
                    if (k > 2) {
                        ASSERT_LT(squares[k - 1], squares[k]);
                    }
                    written |= square_bb(squares[k]);
                }
                ASSERT_EQ(written, m.captured);
                ASSERT_EQ(hub.find('-') != std::string::npos, !m.is_capture());

                ASSERT_EQ(parse_hub_move(p, side, hub), m);
                ASSERT_EQ(parse_move(p, side, hub), m);
                ASSERT_EQ(parse_move(p, side, move_to_pdn(p, side, list, i)), m);
                if (!m.is_capture()) continue;
                ++captures;
                multi += m.capture_count() > 1 ? 1 : 0;
                shared_ends += std::count_if(list.begin(), list.end(), [&](const Move& o) {
                                   return o.from == m.from && o.to == m.to && o.captured != m.captured;
                               }) > 0
                                   ? 1
                                   : 0;
                // The protocol allows the captured squares in any order.
                std::shuffle(squares.begin() + 2, squares.end(), rng);
                std::string shuffled = std::to_string(squares[0]);
                for (std::size_t k = 1; k < squares.size(); ++k) shuffled += "x" + std::to_string(squares[k]);
                ASSERT_EQ(parse_hub_move(p, side, shuffled), m) << shuffled;

                // Another captured set never yields a move with other captured pieces.
                std::vector<int> changed = squares;
                changed[2 + rng() % (changed.size() - 2)] = 1 + static_cast<int>(rng() % kNumSquares);
                std::string text = std::to_string(changed[0]);
                for (std::size_t k = 1; k < changed.size(); ++k) text += "x" + std::to_string(changed[k]);
                try {
                    const Move got = parse_hub_move(p, side, text);
                    Bitboard expected = 0;
                    for (std::size_t k = 2; k < changed.size(); ++k) expected |= square_bb(changed[k]);
                    ASSERT_EQ(got.captured, expected) << text;
                    ASSERT_NE(std::find(list.begin(), list.end(), got), list.end());
                } catch (const NotationError&) {
                }
            }
        }
    }
    EXPECT_GT(captures, 5000);
    EXPECT_GT(multi, 500);
    EXPECT_GT(shared_ends, 5);
}

}  // namespace
}  // namespace egdb
