// PDN move strings (kingsrow-format.md 13.7) on top of the move generator (section 14).
#include "core/notation/pdn_move.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/rules/movegen.hpp"
#include "core/util/ascii.hpp"
#include "core/util/error.hpp"

namespace egdb {
namespace {

constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The move text in double quotes, for messages. Built by appending: GCC 12 warns falsely
// (-Wrestrict) about `"literal" + std::string(...)`.
std::string quote(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    out += text;
    out += '"';
    return out;
}

std::string square_text(Bitboard single) { return std::to_string(bb_to_square(single)); }

std::string short_form(const Move& m) {
    return square_text(m.from) + (m.is_capture() ? 'x' : '-') + square_text(m.to);
}

std::string full_path(const Move& m, const CapturePath& path) {
    std::string out = square_text(m.from);
    for (std::size_t i = 0; i < path.length; ++i) {
        out += 'x';
        out += std::to_string(path.squares[i]);
    }
    return out;
}

// The text of a move: squares in order (from, then every landing or just the destination) and
// whether it was written as a capture.
struct MoveText {
    std::vector<int> squares;
    bool capture = false;
};

[[noreturn]] void malformed(std::string_view text, std::string_view why) {
    std::string message = "malformed move ";
    message += quote(text);
    message += ": ";
    message += why;
    throw MoveError(message);
}

MoveText read_move_text(std::string_view text) {
    constexpr std::string_view kForms = "expected squares separated by '-' (a move) or 'x' (a capture), "
                                        "e.g. 32-28, 28x19 or 26x37x48";
    if (text.empty()) throw MoveError("empty move string");
    MoveText result;
    char separator = '\0';
    std::size_t i = 0;
    for (;;) {
        if (i == text.size() || !is_ascii_digit(text[i])) malformed(text, kForms);
        const std::size_t digits = i;
        int value = 0;
        while (i < text.size() && is_ascii_digit(text[i])) {
            value = value > kNumSquares ? value : value * 10 + (text[i] - '0');
            ++i;
        }
        if (value < 1 || value > kNumSquares) {
            malformed(text, "square " + std::string(text.substr(digits, i - digits)) + " out of range 1..50");
        }
        result.squares.push_back(value);
        if (i == text.size()) break;
        const char c = text[i] == 'X' ? 'x' : text[i];
        if (c != '-' && c != 'x') malformed(text, kForms);
        if (separator != '\0' && c != separator) malformed(text, "a move uses '-' and a capture 'x', not both");
        separator = c;
        if (result.squares.size() > static_cast<std::size_t>(kMaxCaptureSteps)) {
            malformed(text, "a capture has at most " + std::to_string(kMaxCaptureSteps) + " steps");
        }
        ++i;
    }
    if (result.squares.size() < 2) malformed(text, kForms);
    result.capture = separator == 'x';
    if (!result.capture && result.squares.size() != 2) {
        malformed(text, "a move that is not a capture is written from-to");
    }
    return result;
}

// All legal moves in PDN, each string once, for error messages.
std::string legal_moves_text(const Position& pos, Color side, const MoveListWithPaths& list) {
    std::vector<std::string> seen;
    std::string out;
    for (int i = 0; i < list.size(); ++i) {
        std::string s = move_to_pdn(pos, side, list, i);
        if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
        if (!out.empty()) out += ", ";
        out += s;
        seen.push_back(std::move(s));
    }
    return out;
}

// Follows a capture written square by square on the board of section 1 under the capture rules
// of section 14: each step runs along one diagonal, passes only free squares (the mover's start
// square counts as free) and exactly one opponent piece not taken before, and lands on a free
// square, right behind the jumped piece for a man. Captured pieces stay on the board until the
// end, so they block. Returns the captured pieces, or 0 with `why` set.
Bitboard follow_capture(const Position& pos, Color side, const std::vector<int>& squares, std::string& why) {
    const Bitboard from = square_bb(squares.front());
    if ((pos.pieces(side) & from) == 0) {
        why = "square " + std::to_string(squares.front()) + " holds no " + std::string(color_name(side)) + " piece";
        return 0;
    }
    const bool king = (pos.king & from) != 0;
    const Bitboard opponents = pos.pieces(opposite(side));
    const Bitboard free = pos.empty() | from;
    Bitboard captured = 0;
    Bitboard at = from;
    for (std::size_t i = 1; i < squares.size(); ++i) {
        const Bitboard target = square_bb(squares[i]);
        const std::string step = std::to_string(squares[i - 1]) + "x" + std::to_string(squares[i]);
        int direction = 0;
        for (const int d : kDirections) {
            for (Bitboard b = shift(at, d) & kAllSquares; b != 0; b = shift(b, d) & kAllSquares) {
                if (b == target) direction = d;
            }
        }
        if (direction == 0) {
            why = "step " + step + " does not run along a diagonal";
            return 0;
        }
        Bitboard jumped = 0;
        int distance = 1;
        for (Bitboard b = shift(at, direction); b != target; b = shift(b, direction), ++distance) {
            if ((free & b) != 0) continue;
            if ((captured & b) != 0) {
                why = "step " + step + " would jump square " + square_text(b) + " a second time";
                return 0;
            }
            if ((opponents & b) == 0 || jumped != 0) {
                why = "step " + step + " is blocked on square " + square_text(b);
                return 0;
            }
            jumped = b;
        }
        if (jumped == 0) {
            why = "step " + step + " jumps no piece";
            return 0;
        }
        if ((free & target) == 0) {
            why = "step " + step + " lands on the occupied square " + std::to_string(squares[i]);
            return 0;
        }
        if (!king && distance != 2) {
            why = "step " + step + ": a man lands right behind the piece it jumps";
            return 0;
        }
        captured |= jumped;
        at = target;
    }
    return captured;
}

}  // namespace

// The list already carries everything needed; `pos` and `side` keep the signature in step with
// upstream print_move, which takes the position the list was generated from.
std::string move_to_pdn([[maybe_unused]] const Position& pos, [[maybe_unused]] Color side,
                        const MoveListWithPaths& list, int index) {
    if (index < 0 || index >= list.size()) throw OutOfRangeError("move_to_pdn: index outside the move list");
    const Move& m = list[index];
    const auto same_squares = std::count_if(
        list.begin(), list.end(), [&](const Move& other) { return other.from == m.from && other.to == m.to; });
    const CapturePath& path = list.paths[static_cast<std::size_t>(index)];
    if (same_squares > 1 && m.is_capture() && path.length > 0) return full_path(m, path);
    return short_form(m);
}

std::string move_to_pdn(const Position& pos, Color side, const Move& move) {
    MoveListWithPaths list;
    generate_moves(pos, side, list);
    for (int i = 0; i < list.size(); ++i) {
        if (list[i] == move) return move_to_pdn(pos, side, list, i);
    }
    return {};
}

std::string move_string(const Position& from, const Position& to, Color side) {
    MoveListWithPaths list;
    generate_moves(from, side, list);
    for (int i = 0; i < list.size(); ++i) {
        if (apply_move(from, side, list[i]) == to) return move_to_pdn(from, side, list, i);
    }
    return {};
}

Move parse_pdn_move(const Position& pos, Color side, std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    const MoveText written = read_move_text(text);

    MoveListWithPaths list;
    generate_moves(pos, side, list);
    const std::string quoted = quote(text);
    if (list.empty()) {
        throw MoveError("no legal move matches " + quoted + ": " + std::string(color_name(side)) +
                        " has no legal move");
    }
    auto no_match = [&](std::string_view why) {
        std::string message = "no legal move matches " + quoted;
        if (!why.empty()) message += " (" + std::string(why) + ")";
        message += "; legal moves for " + std::string(color_name(side)) + ": " + legal_moves_text(pos, side, list);
        return MoveError(message);
    };

    const Bitboard from = square_bb(written.squares.front());
    const Bitboard to = square_bb(written.squares.back());
    const bool captures = list[0].is_capture();  // the list holds captures only or none (section 14)
    auto has_from_to = [&](bool capture) {
        return std::any_of(list.begin(), list.end(),
                           [&](const Move& m) { return m.is_capture() == capture && m.from == from && m.to == to; });
    };

    if (!written.capture) {
        for (const Move& m : list) {
            if (!m.is_capture() && m.from == from && m.to == to) return m;
        }
        if (has_from_to(true)) throw no_match("it is a capture: write it with 'x'");
        throw no_match(captures ? "capturing is compulsory" : "");
    }
    if (!captures) {
        throw no_match(has_from_to(false) ? "it is not a capture: write it with '-'" : "there is no capture");
    }

    if (written.squares.size() == 2) {
        // Short form: every list entry from `from` to `to`; duplicate entries of the same move
        // (upstream keeps them for 1-3 captures) are one candidate.
        std::vector<int> candidates;
        for (int i = 0; i < list.size(); ++i) {
            const Move& m = list[i];
            if (m.from != from || m.to != to) continue;
            const bool known = std::any_of(candidates.begin(), candidates.end(), [&](int j) { return list[j] == m; });
            if (!known) candidates.push_back(i);
        }
        if (candidates.empty()) throw no_match("");
        if (candidates.size() == 1) return list[candidates.front()];
        std::string message = "ambiguous move " + quoted + ": " + std::to_string(candidates.size()) +
                              " captures go from " + std::to_string(written.squares.front()) + " to " +
                              std::to_string(written.squares.back()) + "; write the full path: ";
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            if (k != 0) message += k + 1 == candidates.size() ? " or " : ", ";
            message += full_path(list[candidates[k]], list.paths[static_cast<std::size_t>(candidates[k])]);
        }
        throw MoveError(message);
    }

    // Full path: every legal capture takes the same number of pieces (majority rule).
    const std::size_t steps = written.squares.size() - 1;
    const int pieces = list[0].capture_count();
    if (steps != static_cast<std::size_t>(pieces)) {
        throw no_match("it has " + std::to_string(steps) + " capture steps but every legal capture takes " +
                       std::to_string(pieces) + (pieces == 1 ? " piece" : " pieces"));
    }
    // A full path fixes the captured pieces, hence the move; following it on the board accepts
    // the recorded path and every other legal way of writing the same capture alike.
    std::string why;
    const Bitboard captured = follow_capture(pos, side, written.squares, why);
    if (captured == 0) throw no_match(why);
    const Move move{from, to, captured};
    if (std::find(list.begin(), list.end(), move) != list.end()) return move;
    throw no_match("");
}

}  // namespace egdb
