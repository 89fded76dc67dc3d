// FEN notation for international draughts positions (kingsrow-format.md 13.6), as used by
// Kingsrow and in the PDN `[FEN "..."]` tag: `W:W31-50:B1-20`, `B:WK3,K9,49:B2,7,13,37`; also the
// dialects other draughts software writes: Lidraughts' clock suffixes `W:W31-50:B1-20:H0:F1` and
// the whole PDN tag `[FEN "W:W31-50:B1-20"]` (py-draughts' Board.fen).
//
// The parser accepts everything upstream's canonical writer and common PDN files produce, but,
// unlike upstream (which stops silently at the first character it does not understand and does
// not validate squares), it rejects anything malformed with a FenError that names the offending
// token and its byte offset, so a typo never yields a silently different position.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/notation/notation_error.hpp"

namespace egdb {

// Each side starts with 20 men; a FEN with more pieces for one side cannot come from a game.
inline constexpr int kMaxFenPiecesPerSide = 20;

struct FenPosition {
    Position position;
    Color side_to_move = Color::White;

    friend constexpr bool operator==(const FenPosition&, const FenPosition&) = default;
};

// A malformed FEN (see NotationError: the message names the token and its byte offset in the
// text passed to parse_fen).
class FenError : public NotationError {
public:
    using NotationError::NotationError;
};

// Parses a FEN. Accepted (everything else is a FenError):
//   * whitespace around the whole FEN, and the whole FEN optionally enclosed in double quotes
//     (whitespace may also stand just inside the quotes);
//   * the whole FEN optionally given as the PDN tag that carries it, `[FEN "..."]`, with
//     whitespace allowed after `[`, around the value and before `]`, as a PDN reader allows it;
//     the tag name is `FEN` exactly and its value must be quoted;
//   * the side to move, `W` or `B` in either case, immediately followed by `:`;
//   * at most one list per colour, separated by `:`, each a colour letter (either case) followed
//     by comma-separated items in any order; a missing or empty list (`B:W:B`) means no pieces of
//     that colour;
//   * an item is a square `n`, a king `Kn` (or `kn`), a range `a-b` of men or `Ka-b` of kings,
//     with 1 <= a <= b <= 50;
//   * after the lists, Lidraughts' suffixes `:H<digits>` and then `:F<digits>` (either may be
//     left out, neither given twice; letters in either case). Lidraughts' Forsyth.scala defines
//     H as the halfmove clock, the plies since a draw-by-material-count combination appeared
//     (for claiming the draw of the 16/5-move rules), and F as the fullmove number, starting at
//     1 and incremented after Black's move. Neither changes the game-theoretic value of a
//     position with best play from now on, so both are read and ignored;
//   * an optional `.` right after the last field (as some PDN files write it).
// Rejected: a square out of range or given twice, a man on its own promotion row (black 46-50,
// white 1-5), more than kMaxFenPiecesPerSide pieces of one colour, Lidraughts' ghost pieces
// (`G`/`P` items: pieces already jumped in an unfinished capture, which no database position
// has), a piece list after the suffixes, whitespace inside the FEN, and any other character
// where the grammar does not allow it.
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
