#include "core/values/solved_lookup.hpp"

#include <algorithm>

#include "core/rules/movegen.hpp"

namespace egdb {

namespace {

// Out of line: its move list is a large stack frame that the usual call must not pay for.
[[gnu::noinline]] PositionValue value_against_no_pieces(const Position& position, Color side_to_move) noexcept {
    MoveList moves;
    if (generate_moves(position, side_to_move, moves) == 0) return PositionValue{WldValue::Loss, 0, 0};
    const bool king_move = std::any_of(moves.begin(), moves.end(),
                                       [&](const Move& m) { return (m.from & position.king) != 0; });
    return PositionValue{WldValue::Win, 1, static_cast<Plies>(king_move ? 1 : conversion_plies(position, side_to_move))};
}

}  // namespace

PositionValue empty_side_value(const Position& position, Color side_to_move) noexcept {
    if (position.pieces(side_to_move) == 0) return PositionValue{WldValue::Loss, 0, 0};
    return value_against_no_pieces(position, side_to_move);
}

}  // namespace egdb
