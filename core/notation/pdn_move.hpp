// PDN move strings (kingsrow-format.md 13.7): `32-28` for a move, `28x19` for a capture, and the
// full capture path `26x37x48` when the short form would not say which capture is meant.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/rules/move.hpp"
#include "core/util/error.hpp"

namespace egdb {

// A move string that is malformed, matches no legal move, or matches several. what() says which,
// and lists the legal moves (or the candidates, with full paths) in PDN.
class MoveError : public ErrorOf<std::invalid_argument, ErrorKind::InvalidNotation> {
public:
    using ErrorOf::ErrorOf;
};

// The PDN string of entry `index` of `list`, the list generate_moves(pos, side, list) produced
// (with capture paths). Upstream semantics (13.7): `from-to` or `fromxto`, where a king that
// captures round to its start gives e.g. `24x24`; the full path `from` `x<landing>`... from the
// recorded CapturePath only when two or more entries of the list have the same from and to
// squares (upstream counts entries, so this includes duplicate entries of 1-3 captures that
// lead to the same position). Throws std::out_of_range for an index outside the list.
std::string move_to_pdn(const Position& pos, Color side, const MoveListWithPaths& list, int index);

// The PDN string of legal move `move` of `side` in `pos` (as move_to_pdn writes list entries);
// the empty string when `move` is not one of the legal moves.
std::string move_to_pdn(const Position& pos, Color side, const Move& move);

// The PDN string of the legal move of `side` that turns `from` into `to` (upstream
// `print_move`): the first list entry leading to `to`, written as move_to_pdn does; the empty
// string when `to` is not a legal successor.
std::string move_string(const Position& from, const Position& to, Color side);

// The legal move of `side` in `pos` that `text` denotes. Accepted, with whitespace around it:
//   * `a-b`: the non-capture from a to b;
//   * `axb` (also `X`): the capture from a ending on b; an error if several different captures
//     do (the message lists them with their full paths);
//   * `axl1xl2x...xb`: a capture given by all its landing squares. It matches the move whose
//     recorded path is exactly this, or any other legal way of landing: each step must jump
//     exactly one opponent piece along a diagonal (a man's landing right behind it, a king's on
//     any free square beyond it), so a king may name any landing square before continuing
//     along the same line, not only the one the generator records.
// Throws MoveError for malformed text, for text no legal move matches (listing the legal moves)
// and for an ambiguous short form.
Move parse_pdn_move(const Position& pos, Color side, std::string_view text);

}  // namespace egdb
