// PDN move strings (kingsrow-format.md 13.7). The hand-made positions are worked out on the
// board geometry of section 1.1: square s has row y = (s-1) div 5 and column
// x = 2*((s-1) mod 5) + (1 if y is even); squares 1-5 are Black's back row, black men move towards
// 50, white men towards 1.
#include "core/notation/pdn_move.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

Move move(int from, int to, std::initializer_list<int> captured = {}) {
    Move m{square_bb(from), square_bb(to), 0};
    for (const int s : captured) m.captured |= square_bb(s);
    return m;
}

Position pos(std::string_view fen) { return parse_fen(fen).position; }

// The strings of every list entry, sorted (the tests do not depend on generator order).
std::vector<std::string> pdn_strings(std::string_view fen) {
    const FenPosition p = parse_fen(fen);
    MoveListWithPaths list;
    generate_moves(p.position, p.side_to_move, list);
    std::vector<std::string> out;
    for (int i = 0; i < list.size(); ++i) out.push_back(move_to_pdn(p.position, p.side_to_move, list, i));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// The MoveError message parse_pdn_move gives, or "" when it accepts the text.
std::string parse_error(std::string_view fen, std::string_view text) {
    const FenPosition p = parse_fen(fen);
    try {
        parse_pdn_move(p.position, p.side_to_move, text);
    } catch (const MoveError& e) {
        return e.what();
    }
    return {};
}

Move parse(std::string_view fen, std::string_view text) {
    const FenPosition p = parse_fen(fen);
    return parse_pdn_move(p.position, p.side_to_move, text);
}

constexpr std::string_view kStart = "W:W31-50:B1-20";
// A white man on 28 (x 4, y 5) next to a black man on 23 (5, 4): it must take to 19 (6, 3).
constexpr std::string_view kManCapture = "W:W28:B23";
// A white man on 47 (2, 9) takes 42 (3, 8), 33 (5, 6) and 24 (7, 4), landing on 38, 29 and 20;
// no landing square offers another capture.
constexpr std::string_view kMultiCapture = "W:W47:B24,33,42";
// A white king on 46 (0, 9), the corner of the long diagonal 46-41-37-32-28-23-19-14-10-5.
constexpr std::string_view kKingOneCapture = "W:WK46:B32";
constexpr std::string_view kKingAlongTheLine = "W:WK46:B23,37";
// A white king on 25 (9, 4) and black men on 23 (5, 4), 30 (8, 5), 31 (1, 6), 32 (3, 6). After
// taking 30 it can land on 34, turn to take 23 (landing on 18) and then 31 (landing on 36), or
// land on 43, turn to take 32 (landing on 27) and then 31 (landing on 36): two different
// three-piece captures from 25 to 36, so both are written in full.
constexpr std::string_view kSharedFromTo = "W:WK25:B23,30-32";
// A white king on 24 (7, 4) inside a diamond of black men 18 (4, 3), 19 (6, 3), 28 (4, 5),
// 29 (6, 5): taking all four round the diamond in either sense ends on 24 (or behind the last
// piece: 20 and 15 one way, 30 and 35 the other).
constexpr std::string_view kKingRing = "W:WK24:B18,19,28,29";
// The same diamond round a white man on 38 (4, 7): 32, 22, 23, 33 or the reverse, back to 38.
constexpr std::string_view kManRing = "W:W38:B22,23,32,33";

TEST(PdnMoveWrite, StartPositionMoves) {
    EXPECT_EQ(pdn_strings(kStart), sorted({"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30",
                                           "35-30"}));
    EXPECT_EQ(pdn_strings("B:W31-50:B1-20"), sorted({"16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24",
                                                      "20-24", "20-25"}));
    EXPECT_EQ(move_string(pos(kStart), pos("B:W31,33-50,28:B1-20"), Color::White), "32-28");
    EXPECT_EQ(move_string(pos(kStart), pos("W:W31-50:B1-19,24"), Color::Black), "20-24");
}

TEST(PdnMoveWrite, KingMoves) {
    // A lone king on 28 (4, 5) reaches every square of its four rays: 23-19-14-10-5,
    // 22-17-11-6, 32-37-41-46 and 33-39-44-50.
    EXPECT_EQ(pdn_strings("W:WK28:B"), sorted({"28-23", "28-19", "28-14", "28-10", "28-5", "28-22", "28-17", "28-11",
                                               "28-6", "28-32", "28-37", "28-41", "28-46", "28-33", "28-39", "28-44",
                                               "28-50"}));
}

TEST(PdnMoveWrite, ManCaptures) {
    EXPECT_EQ(pdn_strings(kManCapture), std::vector<std::string>{"28x19"});
    EXPECT_EQ(move_string(pos(kManCapture), pos("W:W19:B"), Color::White), "28x19");
    // Black man on 23 takes the white man on 28, landing on 32 (3, 6).
    EXPECT_EQ(pdn_strings("B:W28:B23"), std::vector<std::string>{"23x32"});
    // Men capture backwards too: 28 takes 33 (5, 6) landing on 39 (6, 7).
    EXPECT_EQ(pdn_strings("W:W28:B33"), std::vector<std::string>{"28x39"});
}

TEST(PdnMoveWrite, MultiCaptureUsesFromAndTo) {
    EXPECT_EQ(pdn_strings(kMultiCapture), std::vector<std::string>{"47x20"});
    EXPECT_EQ(move_string(pos(kMultiCapture), pos("B:W20:B"), Color::White), "47x20");
}

TEST(PdnMoveWrite, KingCaptureWithSeveralLandingSquares) {
    EXPECT_EQ(pdn_strings(kKingOneCapture), sorted({"46x28", "46x23", "46x19", "46x14", "46x10", "46x5"}));
    for (const int landing : {28, 23, 19, 14, 10, 5}) {
        const std::string after = "B:WK" + std::to_string(landing) + ":B";
        EXPECT_EQ(move_string(pos(kKingOneCapture), pos(after), Color::White), "46x" + std::to_string(landing));
    }
    // Two pieces on the line: land on 32 or 28 after 37, then 19, 14, 10 or 5 after 23.
    EXPECT_EQ(pdn_strings(kKingAlongTheLine), sorted({"46x19", "46x14", "46x10", "46x5"}));
}

TEST(PdnMoveWrite, SharedFromAndToGivesTheFullPath) {
    EXPECT_EQ(pdn_strings(kSharedFromTo), sorted({"25x34x18x36", "25x43x27x36"}));
    EXPECT_EQ(move_string(pos(kSharedFromTo), pos("B:WK36:B32"), Color::White), "25x34x18x36");
    EXPECT_EQ(move_string(pos(kSharedFromTo), pos("B:WK36:B23"), Color::White), "25x43x27x36");
}

TEST(PdnMoveWrite, CaptureRoundToTheStartSquare) {
    EXPECT_EQ(pdn_strings(kKingRing), sorted({"24x24", "24x20", "24x15", "24x30", "24x35"}));
    EXPECT_EQ(move_string(pos(kKingRing), pos("B:WK24:B"), Color::White), "24x24");
    EXPECT_EQ(pdn_strings(kManRing), std::vector<std::string>{"38x38"});
    EXPECT_EQ(move_string(pos(kManRing), pos("B:W38:B"), Color::White), "38x38");
}

TEST(PdnMoveWrite, NoSuccessorGivesTheEmptyString) {
    const Position start = pos(kStart);
    EXPECT_EQ(move_string(start, start, Color::White), "");
    // 32-27-... two squares at once, and a legal black move asked as White.
    EXPECT_EQ(move_string(start, pos("B:W31,33-50,23:B1-20"), Color::White), "");
    EXPECT_EQ(move_string(start, pos("W:W31-50:B1-19,24"), Color::White), "");
    // Ignoring the compulsory capture is not a successor.
    EXPECT_EQ(move_string(pos(kManCapture), pos("B:W22:B23"), Color::White), "");
    // No pieces, no moves.
    EXPECT_EQ(move_string(Position{}, Position{}, Color::White), "");
}

TEST(PdnMoveWrite, IndexOutsideTheListThrows) {
    const Position start = pos(kStart);
    MoveListWithPaths list;
    generate_moves(start, Color::White, list);
    EXPECT_THROW(move_to_pdn(start, Color::White, list, -1), std::out_of_range);
    EXPECT_THROW(move_to_pdn(start, Color::White, list, list.size()), std::out_of_range);
}

TEST(PdnMoveParse, ShortForms) {
    EXPECT_EQ(parse(kStart, "32-28"), move(32, 28));
    EXPECT_EQ(parse(kStart, " \t35-30\n"), move(35, 30));
    EXPECT_EQ(parse("B:W31-50:B1-20", "20-25"), move(20, 25));
    EXPECT_EQ(parse(kManCapture, "28x19"), move(28, 19, {23}));
    EXPECT_EQ(parse(kManCapture, "28X19"), move(28, 19, {23}));
    EXPECT_EQ(parse(kMultiCapture, "47x20"), move(47, 20, {42, 33, 24}));
    EXPECT_EQ(parse(kKingOneCapture, "46x10"), move(46, 10, {32}));
    EXPECT_EQ(parse(kKingAlongTheLine, "46x5"), move(46, 5, {37, 23}));
    EXPECT_EQ(parse(kKingRing, "24x24"), move(24, 24, {18, 19, 28, 29}));
    EXPECT_EQ(parse(kManRing, "38x38"), move(38, 38, {22, 23, 32, 33}));
    EXPECT_EQ(parse("W:WK28:B", "28-50"), move(28, 50));
}

TEST(PdnMoveParse, FullPaths) {
    EXPECT_EQ(parse(kMultiCapture, "47x38x29x20"), move(47, 20, {42, 33, 24}));
    EXPECT_EQ(parse(kSharedFromTo, "25x34x18x36"), move(25, 36, {30, 23, 31}));
    EXPECT_EQ(parse(kSharedFromTo, "25x43x27x36"), move(25, 36, {30, 32, 31}));
    // Both senses round the diamond name the same move.
    EXPECT_EQ(parse(kKingRing, "24x13x22x33x24"), move(24, 24, {18, 19, 28, 29}));
    EXPECT_EQ(parse(kKingRing, "24x33x22x13x24"), move(24, 24, {18, 19, 28, 29}));
    EXPECT_EQ(parse(kManRing, "38x27x18x29x38"), move(38, 38, {22, 23, 32, 33}));
    EXPECT_EQ(parse(kManRing, "38x29x18x27x38"), move(38, 38, {22, 23, 32, 33}));
    // A single capture's full path is its short form.
    EXPECT_EQ(parse(kManCapture, "28x19"), move(28, 19, {23}));
}

TEST(PdnMoveParse, KingMayNameAnyLandingSquareBeforeGoingOnAlongTheLine) {
    // The generator records 32, the nearest square behind 37; 28 is just as good.
    EXPECT_EQ(parse(kKingAlongTheLine, "46x32x19"), move(46, 19, {37, 23}));
    EXPECT_EQ(parse(kKingAlongTheLine, "46x28x19"), move(46, 19, {37, 23}));
    EXPECT_EQ(parse(kKingAlongTheLine, "46x28x5"), move(46, 5, {37, 23}));
}

TEST(PdnMoveParse, MalformedText) {
    EXPECT_EQ(parse_error(kStart, ""), "empty move string");
    EXPECT_EQ(parse_error(kStart, "  "), "empty move string");
    for (const char* text : {"32", "32-", "-28", "32--28", "32_28", "32 - 28", "32-28-23", "26x37-48", "a-b",
                             "32-28!", "32x", "x28", "32-28 23-19", "K32-28"}) {
        const std::string error = parse_error(kStart, text);
        EXPECT_EQ(error.rfind("malformed move \"" + std::string(text) + "\"", 0), 0u) << text << ": " << error;
    }
    EXPECT_NE(parse_error(kStart, "32-51").find("square 51 out of range 1..50"), std::string::npos);
    EXPECT_NE(parse_error(kStart, "0-5").find("square 0 out of range 1..50"), std::string::npos);
    EXPECT_NE(parse_error(kStart, "32-28-23").find("a move that is not a capture is written from-to"),
              std::string::npos);
    EXPECT_NE(parse_error(kStart, "26x37-48").find("not both"), std::string::npos);
    EXPECT_NE(parse_error(kStart, "1x2x3x4x5x6x7x8x9x10x11x12x13x14x15x16x17x18x19x20x21x22").find("at most 20"),
              std::string::npos);
    EXPECT_THROW(parse(kStart, "32"), std::invalid_argument);
}

TEST(PdnMoveParse, NoLegalMoveMatchesListsTheLegalMoves) {
    const std::string error = parse_error(kStart, "32-29");
    EXPECT_EQ(error.rfind("no legal move matches \"32-29\"; legal moves for White: ", 0), 0u) << error;
    for (const char* m : {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}) {
        EXPECT_NE(error.find(m), std::string::npos) << m;
    }
    // A black move asked of White.
    EXPECT_NE(parse_error(kStart, "20-24").find("no legal move matches"), std::string::npos);
    // The wrong separator gets a hint.
    EXPECT_NE(parse_error(kStart, "32x28").find("it is not a capture: write it with '-'"), std::string::npos);
    EXPECT_NE(parse_error(kManCapture, "28-19").find("it is a capture: write it with 'x'"), std::string::npos);
    // Ignoring a capture.
    const std::string compulsory = parse_error(kManCapture, "28-22");
    EXPECT_NE(compulsory.find("capturing is compulsory"), std::string::npos) << compulsory;
    EXPECT_NE(compulsory.find("legal moves for White: 28x19"), std::string::npos) << compulsory;
    // A capture where there is none.
    EXPECT_NE(parse_error(kStart, "32x23").find("there is no capture"), std::string::npos);
    // Nothing to move.
    EXPECT_EQ(parse_error("B:W31:B", "1-6"), "no legal move matches \"1-6\": Black has no legal move");
}

TEST(PdnMoveParse, InvalidFullPathsSayWhichStepFails) {
    auto expect = [](std::string_view fen, std::string_view text, std::string_view fragment) {
        const std::string error = parse_error(fen, text);
        EXPECT_NE(error.find(fragment), std::string::npos) << text << ": " << error;
        EXPECT_NE(error.find("legal moves for White"), std::string::npos) << text << ": " << error;
    };
    expect(kMultiCapture, "47x38x29", "it has 2 capture steps but every legal capture takes 3 pieces");
    expect(kMultiCapture, "47x38x29x15", "step 29x15: a man lands right behind the piece it jumps");
    expect(kMultiCapture, "47x38x33x20", "step 38x33 jumps no piece");
    expect(kMultiCapture, "47x29x38x20", "step 47x29 is blocked on square 33");
    expect(kMultiCapture, "47x38x30x20", "step 38x30 does not run along a diagonal");
    expect(kMultiCapture, "46x38x29x20", "square 46 holds no White piece");
    expect(kKingAlongTheLine, "46x19x5", "step 46x19 is blocked on square 23");
    expect(kKingAlongTheLine, "46x23x5", "step 46x23 lands on the occupied square 23");
    expect(kKingRing, "24x13x22x13x24", "step 22x13 would jump square 18 a second time");
    // A consistent path whose result is not a legal move: the king stops after one piece of two.
    expect(kKingAlongTheLine, "46x32", "no legal move matches \"46x32\"");
}

TEST(PdnMoveParse, AmbiguousShortFormListsTheFullPaths) {
    EXPECT_EQ(parse_error(kSharedFromTo, "25x36"),
              "ambiguous move \"25x36\": 2 captures go from 25 to 36; write the full path: 25x34x18x36 or "
              "25x43x27x36");
}

std::string path_string(int from, const std::vector<int>& landings) {
    std::string s = std::to_string(from);
    for (const int l : landings) {
        s += 'x';
        s += std::to_string(l);
    }
    return s;
}

// Section 1.1 coordinates, independent of the bitboard layout.
struct Xy {
    int x, y;
};
Xy xy(int s) {
    const int q = s - 1;
    const int y = q / 5;
    return {2 * (q % 5) + (y % 2 == 0 ? 1 : 0), y};
}
int square_at(int x, int y) {
    if (x < 0 || x > 9 || y < 0 || y > 9 || (x + y) % 2 == 0) return 0;
    return 5 * y + x / 2 + 1;
}
int sign(int v) { return (v > 0) - (v < 0); }

TEST(PdnMoveProperty, EveryMoveStringParsesBackToItsMove) {
    std::mt19937_64 rng(1729);
    int captures = 0, full_paths = 0, king_alternatives = 0;
    for (int n = 0; n < 4000; ++n) {
        const Position p = test::random_mixed_position(rng, 1, 9, 60);
        for (const Color side : {Color::White, Color::Black}) {
            MoveListWithPaths list;
            generate_moves(p, side, list);
            for (int i = 0; i < list.size(); ++i) {
                const Move& m = list[i];
                const std::string text = move_to_pdn(p, side, list, i);
                SCOPED_TRACE(to_fen(p, side) + " " + text);
                ASSERT_EQ(parse_pdn_move(p, side, text), m);
                full_paths += std::count(text.begin(), text.end(), 'x') > 1 ? 1 : 0;

                const Position after = apply_move(p, side, m);
                const std::string s = move_string(p, after, side);
                ASSERT_FALSE(s.empty());
                ASSERT_EQ(apply_move(p, side, parse_pdn_move(p, side, s)), after);
                if (!m.is_capture()) continue;
                ++captures;

                // The recorded path always parses back to the move.
                const CapturePath& path = list.paths[static_cast<std::size_t>(i)];
                ASSERT_EQ(path.length, m.capture_count());
                std::vector<int> landings(path.squares.begin(), path.squares.begin() + path.length);
                const int from = bb_to_square(m.from);
                ASSERT_EQ(parse_pdn_move(p, side, path_string(from, landings)), m);

                // A king continuing along the same line may name any square between the two pieces.
                if ((p.king & m.from) == 0) continue;
                int at = from;
                for (std::size_t k = 0; k + 1 < landings.size(); ++k) {
                    const Xy a = xy(at), b = xy(landings[k]), c = xy(landings[k + 1]);
                    const int dx = sign(b.x - a.x), dy = sign(b.y - a.y);
                    if (dx == sign(c.x - b.x) && dy == sign(c.y - b.y)) {
                        // Every free square (the start square counts as free) strictly between
                        // the piece jumped towards landings[k] and the one jumped after it. Both
                        // pieces lie on the line, so neither walk leaves the board.
                        auto is_free = [&](int x, int y) {
                            const int q = square_at(x, y);
                            return q != 0 && (q == from || (p.occupied() & square_bb(q)) == 0);
                        };
                        int x = a.x + dx, y = a.y + dy;
                        while (is_free(x, y)) {
                            x += dx;
                            y += dy;
                        }
                        ASSERT_NE(square_at(x, y), 0);
                        for (x += dx, y += dy; is_free(x, y); x += dx, y += dy) {
                            std::vector<int> variant = landings;
                            variant[k] = square_at(x, y);
                            ASSERT_EQ(parse_pdn_move(p, side, path_string(from, variant)), m)
                                << path_string(from, variant);
                            ++king_alternatives;
                        }
                    }
                    at = landings[k];
                }
            }
        }
    }
    // The random positions must actually exercise the interesting cases.
    EXPECT_GT(captures, 5000);
    EXPECT_GT(full_paths, 20);
    EXPECT_GT(king_alternatives, 100);
}

TEST(PdnMoveProperty, PerturbedPathsNeverGiveAWrongMove) {
    std::mt19937_64 rng(4242);
    std::uniform_int_distribution<int> square(1, kNumSquares);
    int accepted = 0, rejected = 0;
    for (int n = 0; n < 4000; ++n) {
        const Position p = test::random_mixed_position(rng, 1, 9, 60);
        for (const Color side : {Color::White, Color::Black}) {
            MoveListWithPaths list;
            generate_moves(p, side, list);
            for (int i = 0; i < list.size(); ++i) {
                const Move& m = list[i];
                const CapturePath& path = list.paths[static_cast<std::size_t>(i)];
                if (!m.is_capture() || path.length < 2) continue;
                std::vector<int> landings(path.squares.begin(), path.squares.begin() + path.length);
                landings[static_cast<std::size_t>(rng() % landings.size())] = square(rng);
                const std::string text = path_string(bb_to_square(m.from), landings);
                SCOPED_TRACE(to_fen(p, side) + " " + text);
                try {
                    const Move got = parse_pdn_move(p, side, text);
                    // Whatever is accepted is a legal move with the written ends and step count.
                    ASSERT_NE(std::find(list.begin(), list.end(), got), list.end());
                    ASSERT_EQ(got.from, m.from);
                    ASSERT_EQ(got.to, square_bb(landings.back()));
                    ASSERT_EQ(got.capture_count(), static_cast<int>(landings.size()));
                    ++accepted;
                } catch (const MoveError&) {
                    ++rejected;
                }
            }
        }
    }
    EXPECT_GT(rejected, 100);
    EXPECT_GT(accepted, 10);
}

}  // namespace
}  // namespace egdb
