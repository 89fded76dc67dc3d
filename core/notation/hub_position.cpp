// Hub position strings (Scan's protocol.txt, "1) position"); the grammar is in hub_position.hpp.
#include "core/notation/hub_position.hpp"

#include <exception>

namespace egdb {
namespace {

[[noreturn]] void fail(std::string_view problem, std::string_view text, std::size_t begin, std::size_t end) {
    const std::string_view token = text.substr(begin, end - begin);
    throw NotationError(token_message(problem, token, begin), std::string(token), begin);
}

std::string square_problem(char c, int square) {
    std::string problem = "square " + std::to_string(square) + " must be one of w b W B e (white man, black man, "
                          "white king, black king, empty), found ";
    problem += quoted_token(std::string_view(&c, 1));
    return problem;
}

}  // namespace

FenPosition parse_hub_position(std::string_view text) {
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && is_notation_space(text[begin])) ++begin;
    while (end > begin && is_notation_space(text[end - 1])) --end;
    if (begin == end) throw NotationError("empty Hub position", std::string(), 0);

    FenPosition result;
    const char side = text[begin];
    if (side != 'W' && side != 'B') {
        fail(side == 'w' || side == 'b'
                 ? "the side to move of a Hub position is an upper-case W or B (lower case would be a man)"
                 : "a Hub position starts with the side to move, W or B",
             text, begin, begin + 1);
    }
    result.side_to_move = side == 'W' ? Color::White : Color::Black;

    // The squares are read before the length is judged, so a stray character is named where it
    // stands rather than reported as a wrong length.
    std::size_t i = begin + 1;
    int square = 1;
    for (; i < end && square <= kNumSquares; ++i, ++square) {
        const char c = text[i];
        const Bitboard bb = square_bb(square);
        switch (c) {
            case 'w': result.position.white |= bb; break;
            case 'b': result.position.black |= bb; break;
            case 'W': result.position.white |= bb; result.position.king |= bb; break;
            case 'B': result.position.black |= bb; result.position.king |= bb; break;
            case 'e': break;
            default:
                fail(is_notation_space(c) ? "whitespace is not allowed inside a Hub position" : square_problem(c, square),
                     text, i, i + 1);
        }
    }
    if (square <= kNumSquares) {
        fail("a Hub position is the side to move and 50 squares (51 characters); this one has " +
                 std::to_string(end - begin),
             text, begin, end);
    }
    if (i != end) fail("a Hub position ends after square 50", text, i, end);

    // The positions FEN rejects are rejected here too, so both notations describe the same set.
    const Position& p = result.position;
    const auto check_promotion_row = [&](Color colour, Bitboard row, const char* name) {
        const Bitboard wrong = p.men(colour) & row;
        if (wrong == 0) return;
        const int s = bb_to_square(lowest_bit(wrong));
        const std::size_t at = begin + static_cast<std::size_t>(s);
        fail(std::string(name) + " man on square " + std::to_string(s) + " stands on its promotion row", text, at,
             at + 1);
    };
    check_promotion_row(Color::Black, kRow10, "black");
    check_promotion_row(Color::White, kRow1, "white");
    for (const Color colour : {Color::White, Color::Black}) {
        if (popcount(p.pieces(colour)) > kMaxFenPiecesPerSide) {
            fail("more than " + std::to_string(kMaxFenPiecesPerSide) + (colour == Color::White ? " white" : " black") +
                     " pieces",
                 text, begin, end);
        }
    }
    return result;
}

std::optional<FenPosition> try_parse_hub_position(std::string_view text, std::string* error) noexcept {
    try {
        return parse_hub_position(text);
    } catch (const std::exception& e) {
        if (error != nullptr) {
            try {
                *error = e.what();
            } catch (...) {
                error->clear();
            }
        }
    }
    return std::nullopt;
}

std::string to_hub_position(const Position& position, Color side) {
    std::string out;
    out.reserve(kHubPositionLength);
    out += side == Color::White ? 'W' : 'B';
    for (int s = 1; s <= kNumSquares; ++s) {
        const Bitboard bb = square_bb(s);
        const bool king = (position.king & bb) != 0;
        if ((position.white & bb) != 0) {
            out += king ? 'W' : 'w';
        } else if ((position.black & bb) != 0) {
            out += king ? 'B' : 'b';
        } else {
            out += 'e';
        }
    }
    return out;
}

}  // namespace egdb
