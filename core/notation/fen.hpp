// FEN notation for international draughts positions (kingsrow-format.md 13.6), as used by
// Kingsrow and in the PDN `[FEN "..."]` tag: `W:W31-50:B1-20`, `B:WK3,K9,49:B2,7,13,37`.
//
// The parser accepts everything upstream's canonical writer and common PDN files produce, but,
// unlike upstream (which stops silently at the first character it does not understand and does
// not validate squares), it rejects anything malformed with a FenError that names the offending
// token and its byte offset, so a typo never yields a silently different position.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/board/position.hpp"
#include "core/util/error.hpp"

namespace egdb {

// Each side starts with 20 men; a FEN with more pieces for one side cannot come from a game.
inline constexpr int kMaxFenPiecesPerSide = 20;

struct FenPosition {
    Position position;
    Color side_to_move = Color::White;

    friend constexpr bool operator==(const FenPosition&, const FenPosition&) = default;
};

// A malformed FEN. what() is a complete human-readable message naming the token, for example
// `square 51 out of range 1..50 in token "51" at byte 5`; token() and offset() give the token
// (empty for an empty input) and the byte offset in the text passed to parse_fen where it starts.
class FenError : public ErrorOf<std::invalid_argument, ErrorKind::InvalidNotation> {
public:
    FenError(const std::string& message, std::string token, std::size_t offset)
        : ErrorOf(message), token_(std::move(token)), offset_(offset) {}

    const std::string& token() const noexcept { return token_; }
    std::size_t offset() const noexcept { return offset_; }

private:
    std::string token_;
    std::size_t offset_;
};

// Parses a FEN. Accepted (everything else is a FenError):
//   * whitespace around the whole FEN, and the whole FEN optionally enclosed in double quotes
//     (whitespace may also stand just inside the quotes);
//   * the side to move, `W` or `B` in either case, immediately followed by `:`;
//   * at most one list per colour, separated by `:`, each a colour letter (either case) followed
//     by comma-separated items; a missing or empty list (`B:W:B`) means no pieces of that colour;
//   * an item is a square `n`, a king `Kn` (or `kn`), a range `a-b` of men or `Ka-b` of kings,
//     with 1 <= a <= b <= 50;
//   * an optional `.` right after the last list (as some PDN files write it).
// Rejected: a square out of range or given twice, a man on its own promotion row (black 46-50,
// white 1-5), more than kMaxFenPiecesPerSide pieces of one colour, whitespace inside the FEN, and
// any other character where the grammar does not allow it.
FenPosition parse_fen(std::string_view text);

// The same without exceptions: nullopt on error, with the FenError message in *error when given.
std::optional<FenPosition> try_parse_fen(std::string_view text, std::string* error = nullptr) noexcept;

// The canonical form of section 13.6, identical to upstream's writer: side letter, `:W` and the
// white list, `:B` and the black list; squares ascending, kings prefixed with `K`, three or more
// consecutive square numbers of the same colour and piece type written as `a-b` (`Ka-b` for
// kings); no trailing period, no quotes. parse_fen(to_fen(p, c)) == FenPosition{p, c} for every
// well-formed position (is_well_formed) with at most kMaxFenPiecesPerSide pieces per side.
std::string to_fen(const Position& position, Color side);

}  // namespace egdb
