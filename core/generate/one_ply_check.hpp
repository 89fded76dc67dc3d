// One-ply verification: the value a position must have given the values of its successors, by
// the definitions of position_value.hpp, computed independently of the solver with the move
// generator. A solved database is consistent when every position agrees with this; `egdb verify`
// applies it to every stored position.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "core/board/position.hpp"
#include "core/generate/position_value.hpp"
#include "core/generate/solved_lookup.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {

// WLD, DTW and MTC of `position` derived from `values` of its legal successors:
//  * no legal move: loss, DTW 0, MTC 0;
//  * some successor lost for the opponent: win, DTW = 1 + min DTW over those successors,
//    MTC = min over them of (conversion_plies(position, side_to_move) for a conversion, else 1 + its MTC);
//  * else some successor drawn: draw (0, 0);
//  * else loss, DTW = 1 + max DTW over all successors, MTC = max over all of
//    (conversion_plies(position, side_to_move) for a conversion, else 1 + its MTC).
// A conversion is a capture or a man move (7.1).
// `values` is any type with `PositionValue value(const Position&, Color) const` answering like
// SolvedLookup::value: a template, so that the verifier's lookup, which answers most successors
// from the slice being checked, is inlined rather than called through a virtual function.
template <class Lookup>
PositionValue value_from_successors(const Position& position, Color side_to_move, const Lookup& values);

// The same rule over `moves`, which must be every legal move of `side_to_move` in `position`.
template <class Lookup>
PositionValue value_over_moves(const Position& position, Color side_to_move, std::span<const Move> moves,
                               const Lookup& values);

// nullopt when `claimed` equals value_from_successors; otherwise a one-line description with the
// position's FEN, the claimed and the derived value.
std::optional<std::string> check_one_ply(const Position& position, Color side_to_move, const PositionValue& claimed,
                                         const SolvedLookup& values);

std::string describe(const PositionValue& value);

template <class Lookup>
PositionValue value_from_successors(const Position& position, Color side_to_move, const Lookup& values) {
    MoveList moves;
    generate_moves(position, side_to_move, moves);
    return value_over_moves(position, side_to_move, moves.view(), values);
}

template <class Lookup>
PositionValue value_over_moves(const Position& position, Color side_to_move, std::span<const Move> moves,
                               const Lookup& values) {
    if (moves.empty()) return {WldValue::Loss, 0, 0};

    const Bitboard own_men = position.men(side_to_move);
    const unsigned conversion = conversion_plies(position, side_to_move);
    bool any_win = false;
    bool any_draw = false;
    unsigned win_dtw = ~0u, win_mtc = ~0u, loss_dtw = 0, loss_mtc = 0;
    for (const Move& move : moves) {
        const PositionValue child = values.value(apply_move(position, side_to_move, move), opposite(side_to_move));
        const bool is_conversion = move.is_capture() || (move.from & own_men) != 0;
        const unsigned dtw = child.dtw + 1u;
        switch (child.wld) {
            case WldValue::Loss:
                any_win = true;
                win_dtw = std::min(win_dtw, dtw);
                win_mtc = std::min(win_mtc, is_conversion ? conversion : child.mtc + 1u);
                break;
            case WldValue::Draw:
                any_draw = true;
                break;
            case WldValue::Win:
                loss_dtw = std::max(loss_dtw, dtw);
                loss_mtc = std::max(loss_mtc, is_conversion ? conversion : child.mtc + 1u);
                break;
        }
    }
    if (any_win) return {WldValue::Win, static_cast<Plies>(win_dtw), static_cast<Plies>(win_mtc)};
    if (any_draw) return {WldValue::Draw, 0, 0};
    return {WldValue::Loss, static_cast<Plies>(loss_dtw), static_cast<Plies>(loss_mtc)};
}

}  // namespace egdb
