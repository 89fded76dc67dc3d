// FEN parsing and writing (kingsrow-format.md 13.6). The grammar accepted here is documented in
// fen.hpp; this file is a small recursive-descent parser over byte offsets, so every error can
// name the exact token and where it starts in the caller's text.
//
// The Lidraughts dialect (`:H<n>:F<n>` after the lists, ghost pieces `G`/`P`) follows the
// comment and the writer of Lidraughts' scaladraughts format/Forsyth.scala, which emits
// `W:W31,...,50:B1,...,20:H0:F1`.
#include "core/notation/fen.hpp"
#include "core/util/ascii.hpp"

#include <cstdint>

namespace egdb {
namespace {

constexpr char to_upper(char c) noexcept { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

std::string_view colour_name(Color c) noexcept { return c == Color::White ? "white" : "black"; }

class FenParser {
public:
    explicit FenParser(std::string_view text) noexcept : text_(text), end_(text.size()) {}

    FenPosition parse() {
        locate_body();
        parse_side();
        for (;;) {
            if (starts_suffix()) {
                parse_suffix();
            } else {
                if (suffix_seen_ != Suffix::None) reject_after_suffix();
                parse_list();
            }
            if (pos_ == end_) break;
            ++pos_;  // each field stops only at the end or at the ':' before the next field
        }
        return result_;
    }

private:
    // Throws a FenError for the token text_[begin, end).
    [[noreturn]] void fail(std::string_view problem, std::size_t begin, std::size_t end) const {
        const std::string_view token = text_.substr(begin, end - begin);
        throw FenError(token_message(problem, token, begin), std::string(token), begin);
    }

    // The end of the item or list starting at `from`: the next ',' or ':' (or the end of the body).
    std::size_t token_end(std::size_t from) const noexcept {
        std::size_t i = from;
        while (i < end_ && text_[i] != ',' && text_[i] != ':') ++i;
        return i;
    }

    void skip_space_inside() noexcept {
        while (pos_ < end_ && is_notation_space(text_[pos_])) ++pos_;
        while (end_ > pos_ && is_notation_space(text_[end_ - 1])) --end_;
    }

    // Narrows [pos_, end_) to the FEN itself: surrounding whitespace, the optional PDN tag
    // `[FEN "..."]` around it, the optional enclosing quotes of a tag value and the optional
    // final period are not part of it.
    void locate_body() {
        skip_space_inside();
        if (pos_ == end_) throw FenError("empty FEN", std::string(), 0);
        if (text_[pos_] == '[') {
            unwrap_pdn_tag();
        } else if (text_[end_ - 1] == ']') {
            fail("closing ']' without an opening '['", end_ - 1, end_);
        }
        if (text_[pos_] == '"') {
            if (end_ - pos_ < 2 || text_[end_ - 1] != '"') fail("opening '\"' without a closing '\"'", pos_, pos_ + 1);
            const std::size_t open = pos_;
            const std::size_t close = end_ - 1;
            ++pos_;
            --end_;
            while (pos_ < end_ && is_notation_space(text_[pos_])) ++pos_;
            while (end_ > pos_ && is_notation_space(text_[end_ - 1])) --end_;
            if (pos_ == end_) fail("empty FEN inside the quotes", open, close + 1);
        } else if (text_[end_ - 1] == '"') {
            fail("closing '\"' without an opening '\"'", end_ - 1, end_);
        }
        if (text_[end_ - 1] == '.') --end_;
    }

    // `[FEN "..."]` (the PDN setup tag, as py-draughts' Board.fen returns it): leaves [pos_,
    // end_) on the quoted value, quotes included, for locate_body to unquote.
    void unwrap_pdn_tag() {
        const std::size_t open = pos_;
        if (text_[end_ - 1] != ']') fail("'[' without a closing ']'", open, open + 1);
        const std::size_t close = end_ - 1;
        ++pos_;
        --end_;
        skip_space_inside();
        const std::size_t name = pos_;
        while (pos_ < end_ && text_[pos_] != '"' && !is_notation_space(text_[pos_])) ++pos_;
        if (text_.substr(name, pos_ - name) != "FEN") {
            fail(name == pos_ ? "a PDN tag needs a name: [FEN \"...\"]"
                              : "the only PDN tag holding a position is [FEN \"...\"]",
                 name == pos_ ? open : name, name == pos_ ? close + 1 : pos_);
        }
        while (pos_ < end_ && is_notation_space(text_[pos_])) ++pos_;
        if (pos_ == end_ || text_[pos_] != '"' || end_ - pos_ < 2 || text_[end_ - 1] != '"') {
            fail("the value of a PDN tag is a string in double quotes: [FEN \"...\"]", open, close + 1);
        }
    }

    enum class Suffix : std::uint8_t { None, HalfmoveClock, FullmoveNumber };

    // A field after a suffix that is not one: Lidraughts writes the lists first.
    [[noreturn]] void reject_after_suffix() const {
        if (pos_ == end_ || text_[pos_] == ':') {
            fail("expected :H<n> or :F<n> after ':'", pos_ - 1, pos_ == end_ ? pos_ : pos_ + 1);
        }
        const char c = to_upper(text_[pos_]);
        fail(c == 'W' || c == 'B' ? "piece lists must come before the Lidraughts suffixes :H and :F"
                                  : "only the suffixes :H<n> and :F<n> may follow a Lidraughts suffix",
             pos_, token_end(pos_));
    }

    // Whether the field at pos_ is a Lidraughts suffix, `H<digits>` or `F<digits>` (no colour
    // letter of a piece list is H or F, so the first letter decides).
    bool starts_suffix() const noexcept {
        if (pos_ == end_) return false;
        const char c = to_upper(text_[pos_]);
        return c == 'H' || c == 'F';
    }

    // One Lidraughts suffix (fen.hpp): validated and ignored. H before F, each at most once.
    void parse_suffix() {
        const std::size_t start = pos_;
        const std::size_t stop = token_end(start);
        const Suffix kind = to_upper(text_[pos_]) == 'H' ? Suffix::HalfmoveClock : Suffix::FullmoveNumber;
        const char* what = kind == Suffix::HalfmoveClock ? "the halfmove clock :H" : "the fullmove number :F";
        if (kind == suffix_seen_) fail(std::string(what) + " is given twice", start, stop);
        if (kind == Suffix::HalfmoveClock && suffix_seen_ == Suffix::FullmoveNumber) {
            fail("the halfmove clock :H comes before the fullmove number :F", start, stop);
        }
        ++pos_;
        if (pos_ == stop) fail(std::string(what) + " needs a number", start, stop);
        while (pos_ < stop && is_ascii_digit(text_[pos_])) ++pos_;
        if (pos_ != stop) unexpected(start, stop, std::string(what) + " is a number of digits only");
        suffix_seen_ = kind;
    }

    void parse_side() {
        const std::size_t start = pos_;
        const char c = pos_ < end_ ? to_upper(text_[pos_]) : '\0';
        if ((c != 'W' && c != 'B') || pos_ + 1 >= end_ || text_[pos_ + 1] != ':') {
            // Name the whole first field (up to the first ':') so `White:` or `W W1` reads well.
            std::size_t stop = start;
            while (stop < end_ && text_[stop] != ':') ++stop;
            if (stop == start) stop = start + 1;
            fail("the FEN must start with the side to move (W or B) followed by ':'", start, stop);
        }
        result_.side_to_move = c == 'W' ? Color::White : Color::Black;
        pos_ += 2;
    }

    // One list: a colour letter, then nothing (an empty list) or comma-separated items. Leaves
    // pos_ at the end of the body or at the ':' that follows.
    void parse_list() {
        const std::size_t start = pos_;
        if (pos_ == end_ || text_[pos_] == ':' || text_[pos_] == ',') {
            fail("expected a piece list (W or B) after ':'", pos_ - 1, pos_ == end_ ? pos_ : pos_ + 1);
        }
        const char c = to_upper(text_[pos_]);
        if (c != 'W' && c != 'B') fail("a piece list must start with its colour (W or B)", start, token_end(start));
        const Color colour = c == 'W' ? Color::White : Color::Black;
        bool& seen = colour == Color::White ? seen_white_ : seen_black_;
        if (seen) {
            fail(colour == Color::White ? "the white list is given twice" : "the black list is given twice", start,
                 token_end(start));
        }
        seen = true;
        ++pos_;
        if (pos_ == end_ || text_[pos_] == ':') return;
        for (;;) {
            parse_item(colour);
            if (pos_ == end_ || text_[pos_] == ':') return;
            ++pos_;  // the ',' before the next item
        }
    }

    // One item: [K] square [- square]. Leaves pos_ at the ',' or ':' after it, or at the end.
    void parse_item(Color colour) {
        const std::size_t start = pos_;
        const std::size_t stop = token_end(start);
        if (start == stop) {
            // Nothing between two separators (`,,` or `,:`) or a dangling ',' at the end.
            fail("expected a square number", start - 1, pos_ == end_ ? pos_ : pos_ + 1);
        }
        const char prefix = to_upper(text_[pos_]);
        if (prefix == 'G' || prefix == 'P') {
            // Lidraughts marks a piece already jumped in a capture still under way as a ghost
            // (G man, P king); such a position is between two plies and has no value.
            fail("a ghost piece (Lidraughts G/P: captured in a capture still under way) cannot be part of a "
                 "position to probe",
                 start, stop);
        }
        const bool king = prefix == 'K';
        if (king) ++pos_;
        const int first =
            parse_square(start, stop, king ? "expected a square number after 'K'" : "expected a square number");
        int last = first;
        if (pos_ < stop && text_[pos_] == '-') {
            ++pos_;
            last = parse_square(start, stop, "expected a square number after '-'");
            if (last < first) {
                fail("range " + std::to_string(first) + "-" + std::to_string(last) + " ends below its start", start,
                     stop);
            }
        }
        if (pos_ != stop) unexpected(start, stop, "expected ',' or ':'");
        for (int s = first; s <= last; ++s) add_piece(s, colour, king, start, stop);
    }

    // A decimal square number at pos_, validated to 1..50.
    int parse_square(std::size_t start, std::size_t stop, std::string_view expectation) {
        if (pos_ == stop || !is_ascii_digit(text_[pos_])) unexpected(start, stop, expectation);
        const std::size_t digits = pos_;
        int value = 0;
        while (pos_ < stop && is_ascii_digit(text_[pos_])) {
            // Saturate: the message quotes the digits themselves, so the value only needs to be
            // known to be out of range.
            value = value > kNumSquares ? value : value * 10 + (text_[pos_] - '0');
            ++pos_;
        }
        if (value < 1 || value > kNumSquares) {
            fail("square " + std::string(text_.substr(digits, pos_ - digits)) + " out of range 1..50", start, stop);
        }
        return value;
    }

    [[noreturn]] void unexpected(std::size_t start, std::size_t stop, std::string_view expectation) const {
        if (pos_ == stop) fail(expectation, start, stop);
        const char c = text_[pos_];
        if (is_notation_space(c)) fail("whitespace is not allowed inside a FEN", start, stop);
        std::string problem(expectation);
        problem += ", found ";
        problem += quoted_token(std::string_view(&text_[pos_], 1));
        fail(problem, start, stop);
    }

    void add_piece(int square, Color colour, bool king, std::size_t start, std::size_t stop) {
        Position& p = result_.position;
        const Bitboard bb = square_bb(square);
        if ((p.occupied() & bb) != 0) {
            const Color other = (p.white & bb) != 0 ? Color::White : Color::Black;
            fail("square " + std::to_string(square) + " is given twice (already " +
                     std::string(colour_name(other)) + ")",
                 start, stop);
        }
        // Section 1.3: a man on its own promotion row cannot occur, it would have been crowned.
        const Bitboard promotion_row = colour == Color::Black ? kRow10 : kRow1;
        if (!king && (promotion_row & bb) != 0) {
            fail(std::string(colour_name(colour)) + " man on square " + std::to_string(square) +
                     " stands on its promotion row " + (colour == Color::Black ? "46..50" : "1..5") +
                     " (write K" + std::to_string(square) + " for a king)",
                 start, stop);
        }
        (colour == Color::White ? p.white : p.black) |= bb;
        if (king) p.king |= bb;
        if (popcount(p.pieces(colour)) > kMaxFenPiecesPerSide) {
            fail("more than " + std::to_string(kMaxFenPiecesPerSide) + " " + std::string(colour_name(colour)) +
                     " pieces",
                 start, stop);
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t end_;
    bool seen_white_ = false;
    bool seen_black_ = false;
    Suffix suffix_seen_ = Suffix::None;
    FenPosition result_{};
};

// Appends one colour's list: ascending squares, runs of three or more consecutive numbers of the
// same piece type as a range (13.6).
// Appends square number s (1..50) without std::to_string: to_fen runs for every move of every
// report the server answers.
void append_square(std::string& out, int s) {
    if (s >= 10) out += static_cast<char>('0' + s / 10);
    out += static_cast<char>('0' + s % 10);
}

void append_pieces(std::string& out, Bitboard pieces, Bitboard kings) {
    bool first_item = true;
    int s = 1;
    while (s <= kNumSquares) {
        if ((pieces & square_bb(s)) == 0) {
            ++s;
            continue;
        }
        const bool king = (kings & square_bb(s)) != 0;
        int last = s;
        while (last < kNumSquares && (pieces & square_bb(last + 1)) != 0 &&
               ((kings & square_bb(last + 1)) != 0) == king) {
            ++last;
        }
        if (!first_item) out += ',';
        first_item = false;
        if (last - s + 1 >= 3) {
            if (king) out += 'K';
            append_square(out, s);
            out += '-';
            append_square(out, last);
        } else {
            for (int q = s; q <= last; ++q) {
                if (q != s) out += ',';
                if (king) out += 'K';
                append_square(out, q);
            }
        }
        s = last + 1;
    }
}

}  // namespace

FenPosition parse_fen(std::string_view text) { return FenParser(text).parse(); }

std::optional<FenPosition> try_parse_fen(std::string_view text, std::string* error) noexcept {
    try {
        return parse_fen(text);
    } catch (const std::exception& e) {
        // Copying the message can itself fail (out of memory); the result is still a failure.
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

std::string to_fen(const Position& position, Color side) {
    std::string out;
    out.reserve(64);
    out += side == Color::White ? 'W' : 'B';
    out += ":W";
    append_pieces(out, position.white, position.king);
    out += ":B";
    append_pieces(out, position.black, position.king);
    return out;
}

}  // namespace egdb
