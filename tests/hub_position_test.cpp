// Hub position strings (Scan's protocol.txt, "1) position"): the protocol's own examples, every
// rejection with its token, and round trips against FEN.
#include "core/notation/hub_position.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/test_positions.hpp"

namespace egdb {
namespace {

// The two examples of protocol.txt.
constexpr const char* kProtocolStart = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
constexpr const char* kProtocolKings = "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee";

TEST(HubPosition, ProtocolExamples) {
    EXPECT_EQ(parse_hub_position(kProtocolStart), parse_fen("W:W31-50:B1-20"));
    // Counted by hand: white kings on 4 and 5, white men on 25, 35 and 36, black kings on 38, 48.
    EXPECT_EQ(parse_hub_position(kProtocolKings), parse_fen("B:WK4,K5,25,35,36:BK38,K48"));
    EXPECT_EQ(to_hub_position(parse_fen("W:W31-50:B1-20").position, Color::White), kProtocolStart);
    EXPECT_EQ(to_hub_position(parse_fen("B:WK4,K5,25,35,36:BK38,K48").position, Color::Black), kProtocolKings);
}

TEST(HubPosition, LidraughtsExportScanPositionOfAnEndgame) {
    // Lidraughts' exportScanPosition writes the same letters: a white man on 28 against a black
    // king on 26 with White to move.
    std::string hub = "W" + std::string(50, 'e');
    hub[28] = 'w';
    hub[26] = 'B';
    EXPECT_EQ(parse_hub_position(hub), parse_fen("W:W28:BK26"));
    EXPECT_EQ(parse_hub_position("  " + hub + "\n"), parse_fen("W:W28:BK26"));
    EXPECT_EQ(to_hub_position(parse_fen("W:W28:BK26").position, Color::White), hub);
    EXPECT_EQ(to_hub_position(Position{}, Color::Black), "B" + std::string(50, 'e'));
}

struct HubPositionRejection {
    std::string text;
    std::string token;
    std::size_t offset;
    const char* problem;
};

TEST(HubPosition, RejectsWithTheOffendingToken) {
    const std::string empty_board(50, 'e');
    std::string x_on_12 = "W" + empty_board;
    x_on_12[12] = 'x';
    std::string space_on_7 = "W" + empty_board;
    space_on_7[7] = ' ';
    std::string black_man_on_46 = "W" + empty_board;
    black_man_on_46[46] = 'b';
    std::string white_man_on_3 = "B" + empty_board;
    white_man_on_3[3] = 'w';
    const std::string too_many_white = "W" + std::string(21, 'W') + std::string(29, 'e');
    const std::vector<HubPositionRejection> cases = {
        {"", "", 0, "empty Hub position"},
        {"w" + empty_board, "w", 0, "upper-case W or B"},
        {"b" + empty_board, "b", 0, "upper-case W or B"},
        {"X" + empty_board, "X", 0, "starts with the side to move"},
        {":W31-50:B1-20", ":", 0, "starts with the side to move"},
        {"W" + std::string(49, 'e'), "W" + std::string(49, 'e'), 0, "this one has 50"},
        {" W" + std::string(51, 'e'), "e", 52, "ends after square 50"},
        {"W" + empty_board + "w", "w", 51, "ends after square 50"},
        {x_on_12, "x", 12, "square 12 must be one of w b W B e"},
        {space_on_7, " ", 7, "whitespace is not allowed inside a Hub position"},
        {black_man_on_46, "b", 46, "black man on square 46 stands on its promotion row"},
        {white_man_on_3, "w", 3, "white man on square 3 stands on its promotion row"},
        {too_many_white, too_many_white, 0, "more than 20 white pieces"},
        {"W:W31-50:B1-20", ":", 1, "square 1 must be one of"},
    };
    for (const HubPositionRejection& r : cases) {
        SCOPED_TRACE("Hub position: \"" + r.text + "\"");
        try {
            const FenPosition p = parse_hub_position(r.text);
            ADD_FAILURE() << "accepted as " << to_fen(p.position, p.side_to_move);
        } catch (const NotationError& e) {
            const std::string message = e.what();
            EXPECT_EQ(e.token(), r.token) << message;
            EXPECT_EQ(e.offset(), r.offset) << message;
            EXPECT_NE(message.find(r.problem), std::string::npos) << message;
        }
    }
    std::string error;
    EXPECT_FALSE(try_parse_hub_position(x_on_12, &error).has_value());
    EXPECT_EQ(error, "square 12 must be one of w b W B e (white man, black man, white king, black king, empty), found "
                     "\"x\" in token \"x\" at byte 12");
}

// Every square holds each kind of piece once; the string is built here character by character.
TEST(HubPosition, EverySquareAndPieceType) {
    for (int s = 1; s <= kNumSquares; ++s) {
        for (const char letter : {'w', 'b', 'W', 'B'}) {
            std::string hub = "B" + std::string(50, 'e');
            hub[static_cast<std::size_t>(s)] = letter;
            Position p;
            const bool white = letter == 'w' || letter == 'W';
            (white ? p.white : p.black) = square_bb(s);
            if (letter == 'W' || letter == 'B') p.king = square_bb(s);
            if (!is_well_formed(p)) {
                EXPECT_THROW(parse_hub_position(hub), NotationError) << hub;
                continue;
            }
            EXPECT_EQ(parse_hub_position(hub), (FenPosition{p, Color::Black})) << hub;
            EXPECT_EQ(to_hub_position(p, Color::Black), hub);
        }
    }
}

TEST(HubPosition, RandomPositionsRoundTripAndAgreeWithFen) {
    std::mt19937_64 rng(511);
    for (int i = 0; i < 20000; ++i) {
        const Position p = test::random_mixed_position(rng, 0, kMaxFenPiecesPerSide, 100);
        const Color side = (i % 2) == 0 ? Color::White : Color::Black;
        const std::string hub = to_hub_position(p, side);
        SCOPED_TRACE(hub);
        ASSERT_EQ(hub.size(), kHubPositionLength);
        ASSERT_EQ(parse_hub_position(hub), (FenPosition{p, side}));
        ASSERT_EQ(parse_hub_position(hub), parse_fen(to_fen(p, side)));
    }
}

}  // namespace
}  // namespace egdb
