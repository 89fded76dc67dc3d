// Hub move strings (Scan's protocol.txt) on top of the move generator (section 14).
#include "core/notation/hub_move.hpp"

#include <algorithm>
#include <vector>

#include "core/rules/movegen.hpp"
#include "core/util/ascii.hpp"

namespace egdb {
namespace {

// A square of the move text with where it stands, for messages.
struct SquareToken {
    int square = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
};

struct HubText {
    std::vector<SquareToken> squares;  // from, to, then the captured squares
    bool capture = false;
};

class HubMoveReader {
public:
    explicit HubMoveReader(std::string_view text) noexcept : text_(text), end_(text.size()) {}

    HubText read() {
        while (pos_ < end_ && is_notation_space(text_[pos_])) ++pos_;
        while (end_ > pos_ && is_notation_space(text_[end_ - 1])) --end_;
        if (pos_ == end_) throw NotationError("empty Hub move", std::string(), 0);
        begin_ = pos_;
        HubText result;
        char separator = '\0';
        for (;;) {
            result.squares.push_back(read_square());
            if (pos_ == end_) break;
            const char c = text_[pos_];
            if (c != '-' && c != 'x') {
                fail(c == 'X' ? "a Hub move separates squares with a lower-case 'x'"
                              : "expected '-' (a move) or 'x' (a capture) between squares, e.g. 32-28 or 28x19x23",
                     pos_, pos_ + 1);
            }
            if (separator != '\0' && c != separator) {
                fail("a move uses '-' and a capture 'x', not both", pos_, pos_ + 1);
            }
            separator = c;
            if (c == '-' && result.squares.size() == 2) fail("a move that is not a capture is from-to", begin_, end_);
            if (result.squares.size() > static_cast<std::size_t>(kMaxCaptureSteps) + 2) {
                fail("a capture takes at most " + std::to_string(kMaxCaptureSteps) + " pieces", begin_, end_);
            }
            ++pos_;
        }
        if (result.squares.size() < 2) {
            fail("a Hub move is from-to or from x to x every captured square, e.g. 32-28 or 28x19x23", begin_, end_);
        }
        result.capture = separator == 'x';
        if (result.capture && result.squares.size() == 2) {
            fail("a Hub capture lists every captured square after from and to, e.g. 28x19x23", begin_, end_);
        }
        for (std::size_t i = 2; i < result.squares.size(); ++i) {
            for (std::size_t j = 2; j < i; ++j) {
                if (result.squares[j].square == result.squares[i].square) {
                    fail("square " + std::to_string(result.squares[i].square) + " is captured twice",
                         result.squares[i].begin, result.squares[i].end);
                }
            }
        }
        return result;
    }

    [[noreturn]] void fail(std::string_view problem, std::size_t begin, std::size_t end) const {
        const std::string_view token = text_.substr(begin, end - begin);
        throw NotationError(token_message(problem, token, begin), std::string(token), begin);
    }

    // The whole move (without the surrounding whitespace), for errors about what it means.
    [[noreturn]] void fail_whole(std::string_view problem) const { fail(problem, begin_, end_); }

private:
    SquareToken read_square() {
        const std::size_t begin = pos_;
        if (pos_ == end_ || !is_ascii_digit(text_[pos_])) {
            const std::size_t stop = pos_ == end_ ? pos_ : pos_ + 1;
            fail(pos_ == end_ ? "expected a square number at the end" : "expected a square number", pos_ == end_ ? begin_ : pos_,
                 pos_ == end_ ? end_ : stop);
        }
        int value = 0;
        while (pos_ < end_ && is_ascii_digit(text_[pos_])) {
            // Saturate: the message quotes the digits, the value only needs to be out of range.
            value = value > kNumSquares ? value : value * 10 + (text_[pos_] - '0');
            ++pos_;
        }
        if (value < 1 || value > kNumSquares) {
            fail("square " + std::string(text_.substr(begin, pos_ - begin)) + " out of range 1..50", begin, pos_);
        }
        return {value, begin, pos_};
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t begin_ = 0;
    std::size_t end_;
};

// Every legal move in Hub form, each once, for messages.
std::string legal_moves_text(const MoveList& list) {
    std::vector<Move> seen;
    std::string out;
    for (const Move& m : list) {
        if (std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
        if (!out.empty()) out += ", ";
        out += move_to_hub(m);
        seen.push_back(m);
    }
    return out;
}

}  // namespace

std::string move_to_hub(const Move& move) {
    std::string out = std::to_string(bb_to_square(move.from));
    out += move.is_capture() ? 'x' : '-';
    out += std::to_string(bb_to_square(move.to));
    for (Bitboard rest = move.captured; rest != 0; rest &= rest - 1) {
        out += 'x';
        out += std::to_string(bb_to_square(lowest_bit(rest)));
    }
    return out;
}

Move parse_hub_move(const Position& pos, Color side, std::string_view text) {
    HubMoveReader reader(text);
    const HubText written = reader.read();

    Move wanted{square_bb(written.squares[0].square), square_bb(written.squares[1].square), 0};
    for (std::size_t i = 2; i < written.squares.size(); ++i) wanted.captured |= square_bb(written.squares[i].square);

    MoveList list;
    generate_moves(pos, side, list);
    if (std::find(list.begin(), list.end(), wanted) != list.end()) return wanted;

    if (list.empty()) reader.fail_whole("no legal move matches: " + std::string(color_name(side)) + " has no legal move");
    std::string why;
    const bool captures = list[0].is_capture();  // the list holds captures only or none (section 14)
    if (!written.capture && captures) {
        why = "capturing is compulsory";
    } else if (written.capture && !captures) {
        why = "there is no capture";
    } else if (written.capture && popcount(wanted.captured) != list[0].capture_count()) {
        const int pieces = list[0].capture_count();
        why = "it captures " + std::to_string(popcount(wanted.captured)) + " but every legal capture takes " +
              std::to_string(pieces) + (pieces == 1 ? " piece" : " pieces");
    } else if (written.capture && std::any_of(list.begin(), list.end(), [&](const Move& m) {
                   return m.from == wanted.from && m.to == wanted.to;
               })) {
        why = "a capture from " + std::to_string(written.squares[0].square) + " to " +
              std::to_string(written.squares[1].square) + " takes other pieces";
    }
    std::string problem = "no legal move matches";
    if (!why.empty()) problem += " (" + why + ")";
    problem += "; legal moves for " + std::string(color_name(side)) + ": " + legal_moves_text(list);
    reader.fail_whole(problem);
}

}  // namespace egdb
