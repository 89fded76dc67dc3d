// The FEN dialects of other draughts software (fen.hpp): Lidraughts' `:H<n>:F<n>` suffixes and
// ghost pieces (Forsyth.scala), the whole PDN tag `[FEN "..."]` (py-draughts' Board.fen), and
// pydraughts' lists in text order (`B1,10,11,...,19,2,20,3`). Every rejection names its token.
#include "core/notation/fen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/test_positions.hpp"

namespace egdb {
namespace {

const FenPosition kStartWhite{Position{squares_bb(1, 20), squares_bb(31, 50), 0}, Color::White};

// Lidraughts' Forsyth.initial, written out as its writer does (every square, then H and F).
constexpr const char* kLidraughtsInitial =
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
    "19,20:H0:F1";

TEST(FenDialect, LidraughtsSuffixesAreAcceptedAndIgnored) {
    EXPECT_EQ(parse_fen(kLidraughtsInitial), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:H0:F1"), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:H17"), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:F31"), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:h0:f1"), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:H0:F1."), kStartWhite);
    EXPECT_EQ(parse_fen("W:W31-50:B1-20:H007:F0123456789"), kStartWhite);
    EXPECT_EQ(parse_fen("\"W:W31-50:B1-20:H0:F1\""), kStartWhite);
    // The lists may be missing; the suffixes still follow the side to move's field.
    EXPECT_EQ(parse_fen("B:H3:F40"), (FenPosition{Position{}, Color::Black}));
    EXPECT_EQ(parse_fen("B:WK3:H3"), (FenPosition{test::make_position({.white_kings = {3}}), Color::Black}));
}

TEST(FenDialect, PdnTagIsUnwrapped) {
    EXPECT_EQ(parse_fen("[FEN \"W:W31-50:B1-20\"]"), kStartWhite);
    EXPECT_EQ(parse_fen("[FEN\"W:W31-50:B1-20\"]"), kStartWhite);
    EXPECT_EQ(parse_fen("  [ FEN \t \" W:W31-50:B1-20. \"  ]\r\n"), kStartWhite);
    EXPECT_EQ(parse_fen("[FEN \"W:W31-50:B1-20:H0:F1\"]"), kStartWhite);
    // py-draughts writes every square: the same position.
    EXPECT_EQ(parse_fen("[FEN \"W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,"
                        "10,11,12,13,14,15,16,17,18,19,20\"]"),
              kStartWhite);
    EXPECT_EQ(parse_fen("[FEN \"B:W:B\"]"), (FenPosition{Position{}, Color::Black}));
}

TEST(FenDialect, ListsInTextOrderAsPydraughtsWritesThem) {
    // pydraughts sorts the squares as strings: 1, 10, 11, ..., 19, 2, 20, 3, ...
    EXPECT_EQ(parse_fen("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,10,11,12,13,14,15,16,17,"
                        "18,19,2,20,3,4,5,6,7,8,9"),
              kStartWhite);
}

struct DialectRejection {
    const char* fen;
    const char* token;
    std::size_t offset;
    const char* problem;  // a fragment the message must contain
};

TEST(FenDialect, RejectsWithTheOffendingToken) {
    const std::vector<DialectRejection> cases = {
        // Suffixes: digits only, each once, H before F, nothing after them but suffixes.
        {"W:W31-50:B1-20:H", "H", 15, "the halfmove clock :H needs a number"},
        {"W:W31-50:B1-20:F", "F", 15, "the fullmove number :F needs a number"},
        {"W:W31-50:B1-20:H0:H1", "H1", 18, "the halfmove clock :H is given twice"},
        {"W:W31-50:B1-20:F1:F2", "F2", 18, "the fullmove number :F is given twice"},
        {"W:W31-50:B1-20:F1:H0", "H0", 18, "the halfmove clock :H comes before the fullmove number :F"},
        {"W:W31-50:B1-20:Hx", "Hx", 15, "a number of digits only, found \"x\""},
        {"W:W31-50:B1-20:H-1", "H-1", 15, "digits only, found \"-\""},
        {"W:W31-50:B1-20:H1.5", "H1.5", 15, "digits only, found \".\""},
        {"W:W31-50:B1-20:H 1", "H 1", 15, "whitespace is not allowed"},
        {"W:W31-50:B1-20:H0:F1:W32", "W32", 21, "piece lists must come before the Lidraughts suffixes"},
        {"W:H0:W31", "W31", 5, "piece lists must come before"},
        {"W:W31-50:B1-20:H0:F1:+0+0", "+0+0", 21, "only the suffixes :H<n> and :F<n> may follow"},
        {"W:W31-50:B1-20:H0:", ":", 17, "expected"},
        // Ghost pieces of a capture under way.
        {"W:W31,G32:B1-20", "G32", 6, "ghost piece"},
        {"W:WP32:B1", "P32", 3, "ghost piece"},
        {"B:W31:Bg7", "g7", 7, "ghost piece"},
        // The PDN tag.
        {"[FEN \"W:W31\"", "[", 0, "'[' without a closing ']'"},
        {"[FEN \"W:W31\"] 1. 32-28", "[", 0, "'[' without a closing ']'"},
        {"W:W31]", "]", 5, "closing ']' without an opening '['"},
        {"[FENX \"W:W31\"]", "FENX", 1, "the only PDN tag holding a position is [FEN"},
        {"[fen \"W:W31\"]", "fen", 1, "the only PDN tag holding a position is [FEN"},
        {"[Setup \"1\"]", "Setup", 1, "the only PDN tag"},
        {"[FEN W:W31]", "[FEN W:W31]", 0, "a string in double quotes"},
        {"[FEN \"W:W31]", "[FEN \"W:W31]", 0, "a string in double quotes"},
        {"[ \"W:W31\"]", "[ \"W:W31\"]", 0, "a PDN tag needs a name"},
        {"[]", "[]", 0, "a PDN tag needs a name"},
        {"[FEN \"\"]", "\"\"", 5, "empty FEN inside the quotes"},
        {"[FEN \"W:W31:H0x\"]", "H0x", 12, "digits only"},
        {"[FEN \"W:W51\"]", "51", 9, "square 51 out of range"},
    };
    for (const DialectRejection& r : cases) {
        SCOPED_TRACE(std::string("FEN: ") + r.fen);
        try {
            const FenPosition p = parse_fen(r.fen);
            ADD_FAILURE() << "accepted as " << to_fen(p.position, p.side_to_move);
        } catch (const FenError& e) {
            const std::string message = e.what();
            EXPECT_EQ(e.token(), r.token) << message;
            EXPECT_EQ(e.offset(), r.offset) << message;
            EXPECT_NE(message.find(r.problem), std::string::npos) << message;
            EXPECT_NE(message.find("at byte " + std::to_string(r.offset)), std::string::npos) << message;
        }
    }
}

// One colour's list as other programs write it: every square on its own, in the given order.
std::string explicit_list(char colour, const std::vector<int>& squares, Bitboard kings) {
    std::string out(1, colour);
    for (std::size_t i = 0; i < squares.size(); ++i) {
        if (i != 0) out += ',';
        if ((kings & square_bb(squares[i])) != 0) out += 'K';
        out += std::to_string(squares[i]);
    }
    return out;
}

std::vector<int> squares_of(Bitboard b) {
    std::vector<int> out;
    for (int s = 1; s <= kNumSquares; ++s) {
        if ((b & square_bb(s)) != 0) out.push_back(s);
    }
    return out;
}

// Random positions written the way Lidraughts (every square ascending, :H:F), pydraughts (squares
// sorted as text) and py-draughts (the whole tag) write them; each must read as the position the
// test drew, built here without the FEN writer under test.
TEST(FenDialect, EveryDialectOfRandomPositionsReadsBack) {
    std::mt19937_64 rng(140014);
    std::uniform_int_distribution<int> clock(0, 200);
    for (int i = 0; i < 5000; ++i) {
        const Position p = test::random_mixed_position(rng, 0, kMaxFenPiecesPerSide, 100);
        const Color side = (i % 2) == 0 ? Color::White : Color::Black;
        const FenPosition expected{p, side};
        const std::string side_letter(1, side == Color::White ? 'W' : 'B');

        std::vector<int> white = squares_of(p.white);
        std::vector<int> black = squares_of(p.black);
        const std::string lidraughts = side_letter + ":" + explicit_list('W', white, p.king) + ":" +
                                       explicit_list('B', black, p.king) + ":H" + std::to_string(clock(rng)) + ":F" +
                                       std::to_string(1 + clock(rng));
        SCOPED_TRACE(lidraughts);
        ASSERT_EQ(parse_fen(lidraughts), expected);

        const auto as_text = [](int a, int b) { return std::to_string(a) < std::to_string(b); };
        std::sort(white.begin(), white.end(), as_text);
        std::sort(black.begin(), black.end(), as_text);
        const std::string pydraughts =
            side_letter + ":" + explicit_list('W', white, p.king) + ":" + explicit_list('B', black, p.king);
        ASSERT_EQ(parse_fen(pydraughts), expected) << pydraughts;

        ASSERT_EQ(parse_fen("[FEN \"" + pydraughts + "\"]"), expected);
        ASSERT_EQ(parse_fen("[FEN \"" + lidraughts + "\"]"), expected);
        // And the canonical writer's output survives the same wrappers.
        ASSERT_EQ(parse_fen("[FEN \"" + to_fen(p, side) + ":H0:F1\"]"), expected);
    }
}

}  // namespace
}  // namespace egdb
