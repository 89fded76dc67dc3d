// Hub move strings (Scan's protocol.txt, version 2, section "1) position"): a non-capture in
// standard notation, `32-28`; a capture as from, to and every captured square, `x` separated,
// without spaces: `28x19x23`, `46x10x41x32x23x14`. The protocol lets the captured squares come
// in any order; this is the form pydraughts' HubEngine, lidraughts-bot and dame-rs's `dame hub`
// exchange with engines. Unlike a PDN path it never needs the landing squares: from, to and
// the set of captured pieces identify a legal move.
#pragma once

#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/notation/notation_error.hpp"
#include "core/rules/move.hpp"

namespace egdb {

// The Hub string of a move: `from-to`, or `fromxto` followed by `x<square>` for every captured
// piece in ascending square order, the order Scan's move::to_hub writes (it walks the captured
// bitboard from the lowest square) and dame-rs's Move.hub() too. A king that captures round to
// its start square gives e.g. `24x24x19x30`.
std::string move_to_hub(const Move& move);

// The legal move of `side` in `pos` that the Hub string `text` denotes. Accepted, with
// whitespace around it: `a-b` (a non-capture) and `axbxc1x...xcn` with n >= 1 (the capture from
// a to b taking the pieces on c1..cn, in any order, each once); squares are decimal 1..50.
// A NotationError names the token and its byte offset in `text`: malformed text (another
// separator, `X`, a missing captured list, a square out of range or captured twice), and text
// that no legal move matches (the token is then the whole move; the message lists the legal
// moves in Hub form).
Move parse_hub_move(const Position& pos, Color side, std::string_view text);

}  // namespace egdb
