// FEN notation (kingsrow-format.md 13.6): every accepted form, every rejection with the token it
// must name, the canonical writer, and round trips.
#include "core/notation/fen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "tests/test_positions.hpp"

namespace egdb {
namespace {

// Built square by square, independently of the parser under test.
Position pieces(std::initializer_list<int> white_men, std::initializer_list<int> white_kings,
                std::initializer_list<int> black_men, std::initializer_list<int> black_kings) {
    Position p;
    for (const int s : white_men) p.white |= square_bb(s);
    for (const int s : white_kings) {
        p.white |= square_bb(s);
        p.king |= square_bb(s);
    }
    for (const int s : black_men) p.black |= square_bb(s);
    for (const int s : black_kings) {
        p.black |= square_bb(s);
        p.king |= square_bb(s);
    }
    return p;
}

const Position kStart{squares_bb(1, 20), squares_bb(31, 50), 0};

TEST(FenParse, SpecExamples) {
    EXPECT_EQ(parse_fen("W:W31-50:B1-20"), (FenPosition{kStart, Color::White}));
    EXPECT_EQ(parse_fen("B:WK3,K9,49:B2,7,13,37"),
              (FenPosition{pieces({49}, {3, 9}, {2, 7, 13, 37}, {}), Color::Black}));
    EXPECT_EQ(parse_fen("W:W31-35,K36-38:BK1-3,4-6"),
              (FenPosition{pieces({31, 32, 33, 34, 35}, {36, 37, 38}, {4, 5, 6}, {1, 2, 3}), Color::White}));
    EXPECT_EQ(parse_fen("B:W:B"), (FenPosition{Position{}, Color::Black}));
}

TEST(FenParse, AcceptsEveryForm) {
    const FenPosition start{kStart, Color::White};
    // Letters in either case, either list first, lists of single squares.
    EXPECT_EQ(parse_fen("w:w31-50:b1-20"), start);
    EXPECT_EQ(parse_fen("W:B1-20:W31-50"), start);
    EXPECT_EQ(parse_fen("W:b1-10,11-20:w31-40,41,42,43-50"), start);
    // Kings with `K` or `k`, single or as a range; a range of one square.
    const FenPosition kings{pieces({}, {36, 37, 38}, {}, {1}), Color::Black};
    EXPECT_EQ(parse_fen("B:WK36-38:BK1"), kings);
    EXPECT_EQ(parse_fen("b:wk36,k37,K38:bk1"), kings);
    EXPECT_EQ(parse_fen("B:WK36-38:BK1-1"), kings);
    // A missing list means no pieces of that colour; an empty list the same.
    EXPECT_EQ(parse_fen("W:W31"), (FenPosition{pieces({31}, {}, {}, {}), Color::White}));
    EXPECT_EQ(parse_fen("W:B20"), (FenPosition{pieces({}, {}, {20}, {}), Color::White}));
    EXPECT_EQ(parse_fen("W:W:B20"), (FenPosition{pieces({}, {}, {20}, {}), Color::White}));
    EXPECT_EQ(parse_fen("W:W31:B"), (FenPosition{pieces({31}, {}, {}, {}), Color::White}));
    EXPECT_EQ(parse_fen("W:B:W"), (FenPosition{Position{}, Color::White}));
    EXPECT_EQ(parse_fen("B:W"), (FenPosition{Position{}, Color::Black}));
    // PDN decorations: trailing period, quotes (the [FEN "..."] value), whitespace around.
    EXPECT_EQ(parse_fen("W:W31-50:B1-20."), start);
    EXPECT_EQ(parse_fen("\"W:W31-50:B1-20\""), start);
    EXPECT_EQ(parse_fen("\"W:W31-50:B1-20.\""), start);
    EXPECT_EQ(parse_fen("  \t W:W31-50:B1-20 \r\n"), start);
    EXPECT_EQ(parse_fen(" \" W:W31-50:B1-20. \" "), start);
    EXPECT_EQ(parse_fen("B:W:B."), (FenPosition{Position{}, Color::Black}));
    // Leading zeros are just decimal digits.
    EXPECT_EQ(parse_fen("W:W031:B07"), (FenPosition{pieces({31}, {}, {7}, {}), Color::White}));
    // Kings may stand anywhere, including their own back rows and the opponent's.
    EXPECT_EQ(parse_fen("W:WK1-5:BK46-50"), (FenPosition{pieces({}, {1, 2, 3, 4, 5}, {}, {46, 47, 48, 49, 50}),
                                                         Color::White}));
    // Twenty pieces a side is the maximum and allowed.
    EXPECT_EQ(parse_fen("W:WK1-20:BK31-50").position.king, squares_bb(1, 20) | squares_bb(31, 50));
}

struct FenRejection {
    const char* fen;
    const char* token;
    std::size_t offset;
    const char* problem;  // a fragment the message must contain
};

// Each case names the token the error must point at and where it starts.
const std::vector<FenRejection>& rejections() {
    static const std::vector<FenRejection> cases = {
        {"", "", 0, "empty FEN"},
        {" \t ", "", 0, "empty FEN"},
        // Side to move.
        {"W", "W", 0, "side to move"},
        {"X:W31:B1", "X", 0, "side to move"},
        {"White:W31", "White", 0, "side to move"},
        {"W W31:B1", "W W31", 0, "side to move"},
        {":W31:B1", ":", 0, "side to move"},
        {".", ".", 0, "side to move"},
        {"W;W31", "W;W31", 0, "side to move"},
        // Lists.
        {"W:", ":", 1, "expected a piece list"},
        {"W:W31-50:B1-20:", ":", 14, "expected a piece list"},
        {"W::B1", "::", 1, "expected a piece list"},
        {"W:31-50:B1-20", "31-50", 2, "must start with its colour"},
        {"W:X1", "X1", 2, "must start with its colour"},
        {"W:W31:W32", "W32", 6, "white list is given twice"},
        {"W:B1:W31:B2", "B2", 9, "black list is given twice"},
        // Squares out of range.
        {"W:W51", "51", 3, "square 51 out of range 1..50"},
        {"W:W0", "0", 3, "square 0 out of range 1..50"},
        {"W:W31-51", "31-51", 3, "square 51 out of range 1..50"},
        {"W:W31,99999999999999999999", "99999999999999999999", 6, "square 99999999999999999999 out of range"},
        {"W:BK0-3", "K0-3", 3, "square 0 out of range"},
        {"W:W35-31", "35-31", 3, "range 35-31 ends below its start"},
        // A square twice.
        {"W:W31,31", "31", 6, "square 31 is given twice (already white)"},
        {"W:W31-35,33", "33", 9, "square 33 is given twice"},
        {"W:W31:B31", "31", 7, "square 31 is given twice (already white)"},
        {"W:B20:W18-22", "18-22", 7, "square 20 is given twice (already black)"},
        {"B:BK7:WK7", "K7", 7, "square 7 is given twice"},
        // Men on their own promotion row.
        {"W:W31:B46", "46", 7, "black man on square 46 stands on its promotion row 46..50"},
        {"W:W3:B10", "3", 3, "white man on square 3 stands on its promotion row 1..5"},
        {"W:W3-7", "3-7", 3, "white man on square 3"},
        {"B:B44-48", "44-48", 3, "black man on square 46"},
        // Too many pieces.
        {"W:WK1-21", "K1-21", 3, "more than 20 white pieces"},
        {"W:W31-50:BK1-20,21", "21", 16, "more than 20 black pieces"},
        // Junk and malformed items.
        {"B:W28, 29:B1", " 29", 6, "whitespace"},
        {"W:W 31", " 31", 3, "whitespace"},
        {"W:W31 :B1", "31 ", 3, "whitespace"},
        {"W:W31-50:B1-20 x", "1-20 x", 10, "whitespace"},
        {"W:W31-50:B1-20 .", "1-20 ", 10, "whitespace"},
        {"W:W31--35", "31--35", 3, "expected a square number after '-'"},
        {"W:W31-", "31-", 3, "expected a square number after '-'"},
        {"W:W-5", "-5", 3, "expected a square number"},
        {"W:WK", "K", 3, "expected a square number after 'K'"},
        {"W:WKK3", "KK3", 3, "expected a square number after 'K'"},
        {"W:WK31-K33", "K31-K33", 3, "expected a square number after '-'"},
        {"W:W31,,32", ",,", 5, "expected a square number"},
        {"W:W31,", ",", 5, "expected a square number"},
        {"W:W31,:B1", ",:", 5, "expected a square number"},
        {"W:W,31", "W,", 2, "expected a square number"},
        {"W:W31;32", "31;32", 3, "found \";\""},
        {"W:W31x", "31x", 3, "found \"x\""},
        {"W:W31-33K", "31-33K", 3, "found \"K\""},
        {"W:W31.:B1", "31.", 3, "found \".\""},
        {"W:W31-50:B1-20..", "1-20.", 10, "found \".\""},
        {"W:Wx", "x", 3, "expected a square number, found \"x\""},
        // Quotes.
        {"\"W:W31", "\"", 0, "opening '\"' without a closing '\"'"},
        {"\"", "\"", 0, "opening '\"' without a closing '\"'"},
        {"W:W31\"", "\"", 5, "closing '\"' without an opening '\"'"},
        {"\"\"", "\"\"", 0, "empty FEN inside the quotes"},
        {" \"  \" ", "\"  \"", 1, "empty FEN inside the quotes"},
        {"W:W\"31\":B1", "\"31\"", 3, "expected a square number, found \"\\\"\""},
        {"W:W\"31\"", "\"", 6, "closing '\"' without an opening '\"'"},
        // Control bytes are shown escaped.
        {"W:W3\x01", "3\x01", 3, "found \"\\x01\""},
    };
    return cases;
}

TEST(FenParse, RejectsWithTheOffendingToken) {
    for (const FenRejection& r : rejections()) {
        SCOPED_TRACE(std::string("FEN: ") + r.fen);
        try {
            const FenPosition p = parse_fen(r.fen);
            ADD_FAILURE() << "accepted as " << to_fen(p.position, p.side_to_move);
        } catch (const FenError& e) {
            const std::string message = e.what();
            EXPECT_EQ(e.token(), r.token) << message;
            EXPECT_EQ(e.offset(), r.offset) << message;
            EXPECT_NE(message.find(r.problem), std::string::npos) << message;
            if (!e.token().empty()) {
                EXPECT_NE(message.find("in token \""), std::string::npos) << message;
                EXPECT_NE(message.find("at byte " + std::to_string(r.offset)), std::string::npos) << message;
            }
        }
    }
}

TEST(FenParse, MessageMatchesTheDocumentedForm) {
    try {
        parse_fen("W:W51");
        FAIL() << "accepted";
    } catch (const FenError& e) {
        EXPECT_STREQ(e.what(), "square 51 out of range 1..50 in token \"51\" at byte 3");
    }
    try {
        parse_fen("B:W28, 29:B1");
        FAIL() << "accepted";
    } catch (const FenError& e) {
        EXPECT_STREQ(e.what(), "whitespace is not allowed inside a FEN in token \" 29\" at byte 6");
    }
}

TEST(FenParse, FenErrorIsAnInvalidArgument) {
    EXPECT_THROW(parse_fen("W:W51"), std::invalid_argument);
}

TEST(FenParse, TryParseReportsInsteadOfThrowing) {
    std::string error = "untouched";
    const auto ok = try_parse_fen("W:W31-50:B1-20", &error);
    ASSERT_TRUE(ok.has_value());
    EXPECT_EQ(*ok, (FenPosition{kStart, Color::White}));
    EXPECT_EQ(error, "untouched");

    const auto bad = try_parse_fen("W:W31,31", &error);
    EXPECT_FALSE(bad.has_value());
    EXPECT_EQ(error, "square 31 is given twice (already white) in token \"31\" at byte 6");

    EXPECT_FALSE(try_parse_fen("").has_value());
    EXPECT_TRUE(try_parse_fen("B:W:B").has_value());
}

TEST(FenWrite, SpecExamplesAreCanonical) {
    EXPECT_EQ(to_fen(kStart, Color::White), "W:W31-50:B1-20");
    EXPECT_EQ(to_fen(pieces({49}, {3, 9}, {2, 7, 13, 37}, {}), Color::Black), "B:WK3,K9,49:B2,7,13,37");
    EXPECT_EQ(to_fen(pieces({31, 32, 33, 34, 35}, {36, 37, 38}, {4, 5, 6}, {1, 2, 3}), Color::White),
              "W:W31-35,K36-38:BK1-3,4-6");
    EXPECT_EQ(to_fen(Position{}, Color::Black), "B:W:B");
}

TEST(FenWrite, RangesNeedThreeConsecutiveSquaresOfOneType) {
    // Two consecutive squares are listed, three or more form a range.
    EXPECT_EQ(to_fen(pieces({31, 32}, {}, {}, {}), Color::White), "W:W31,32:B");
    EXPECT_EQ(to_fen(pieces({31, 32, 33}, {}, {}, {}), Color::White), "W:W31-33:B");
    EXPECT_EQ(to_fen(pieces({}, {7, 8}, {}, {}), Color::White), "W:WK7,K8:B");
    // Men and kings never share a range, even when their numbers are consecutive.
    EXPECT_EQ(to_fen(pieces({6, 7, 8}, {9, 10, 11}, {}, {}), Color::White), "W:W6-8,K9-11:B");
    EXPECT_EQ(to_fen(pieces({6, 8}, {7}, {}, {}), Color::White), "W:W6,K7,8:B");
    EXPECT_EQ(to_fen(pieces({30, 31, 34}, {32, 33}, {}, {}), Color::White), "W:W30,31,K32,K33,34:B");
    // Consecutive numbers form a range even across a row boundary (5 and 6 are not neighbours on
    // the board; the notation counts numbers, as upstream does).
    EXPECT_EQ(to_fen(pieces({}, {}, {4, 5, 6}, {}), Color::Black), "B:W:B4-6");
    // A gap in either colour ends the run.
    EXPECT_EQ(to_fen(pieces({21, 23}, {}, {22}, {}), Color::Black), "B:W21,23:B22");
    // White list first whatever the side to move.
    EXPECT_EQ(to_fen(pieces({50}, {}, {1}, {}), Color::Black), "B:W50:B1");
    EXPECT_EQ(to_fen(pieces({}, {1, 2, 3, 4, 5}, {}, {46, 47, 48, 49, 50}), Color::White), "W:WK1-5:BK46-50");
}

TEST(FenRoundTrip, SpecExamples) {
    for (const char* fen : {"B:WK3,K9,49:B2,7,13,37", "W:W31-50:B1-20", "W:W31-35,K36-38:BK1-3,4-6", "B:W:B"}) {
        const FenPosition p = parse_fen(fen);
        EXPECT_EQ(to_fen(p.position, p.side_to_move), fen);
    }
}

TEST(FenRoundTrip, RandomPositions) {
    std::mt19937_64 rng(20240613);
    for (int i = 0; i < 20000; ++i) {
        const Position p = test::random_mixed_position(rng, 0, kMaxFenPiecesPerSide, 100);
        ASSERT_TRUE(is_well_formed(p));
        const Color side = (i % 2) == 0 ? Color::White : Color::Black;
        const std::string fen = to_fen(p, side);
        SCOPED_TRACE(fen);
        ASSERT_EQ(parse_fen(fen), (FenPosition{p, side}));
        // Decorated forms parse to the same position.
        std::string decorated = " \"";
        decorated += fen;
        decorated += ".\" ";
        ASSERT_EQ(parse_fen(decorated), (FenPosition{p, side}));
    }
}

TEST(FenRoundTrip, EverySingleSquareAndPieceType) {
    for (int s = 1; s <= kNumSquares; ++s) {
        for (const bool king : {false, true}) {
            for (const Color c : {Color::White, Color::Black}) {
                Position p;
                (c == Color::White ? p.white : p.black) = square_bb(s);
                if (king) p.king = square_bb(s);
                if (!is_well_formed(p)) continue;
                EXPECT_EQ(parse_fen(to_fen(p, c)), (FenPosition{p, c})) << to_fen(p, c);
            }
        }
    }
}

}  // namespace
}  // namespace egdb
