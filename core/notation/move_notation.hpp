// A move in either notation egdb speaks: PDN (pdn_move.hpp, Kingsrow's move strings) or Hub
// (hub_move.hpp, the engine protocol's). Front ends that take a move from a user or another
// program accept both without being told which one it is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/board/position.hpp"
#include "core/rules/move.hpp"

namespace egdb {

enum class MoveNotation : std::uint8_t { Pdn = 0, Hub = 1 };

// The string of legal move `move` of `side` in `pos`: move_to_pdn or move_to_hub. The empty
// string for PDN when `move` is not legal there (move_to_hub needs no position).
std::string move_text(const Position& pos, Color side, const Move& move, MoveNotation notation);

// The legal move of `side` in `pos` that `text` denotes in PDN or in Hub notation. The two never
// compete: under the majority rule every legal capture takes the same number n of pieces, and a
// PDN capture names 2 squares (from x to) or n + 1 (from and every landing), a Hub capture n + 2
// (from, to and every captured piece). So a capture text of n + 2 squares is read as Hub, any
// other text as PDN (`a-b` means the same in both). Errors are those of parse_pdn_move (a
// MoveError) or of parse_hub_move (a NotationError naming the token), both InvalidNotation.
Move parse_move(const Position& pos, Color side, std::string_view text);

}  // namespace egdb
