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
#include "core/values/position_value.hpp"
#include "core/values/solved_lookup.hpp"
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

// The rule above, taken one successor at a time: add() the value of every legal successor (and
// whether the move to it is a conversion), then result(). With no successor added, result() is
// the loss in 0 of a position without moves. Callers that find the successors in their own way
// (block_successors.hpp walks king moves without a move list) fold them with this, so the rule is
// written once.
class SuccessorFold {
public:
    // `conversion`: conversion_plies(position, side to move).
    explicit SuccessorFold(unsigned conversion) noexcept : conversion_(conversion) {}

    void add(const PositionValue& child, bool is_conversion) noexcept {
        fold_distance(child.wld, child.dtw);
        fold_mtc(child.wld, is_conversion ? conversion_ : child.mtc + 1u);
    }
    // A conversion's successor: its MTC does not count (the conversion counts its fixed plies).
    void add_conversion(const DtwValue& child) noexcept {
        fold_distance(child.wld, child.dtw);
        fold_mtc(child.wld, conversion_);
    }

    // The same rule in two steps, for successors that are no conversion and whose MTC is a
    // separate read, often not needed: add_distance() for each one's WLD and DTW, then, once every
    // successor is in, add_mtc() for those needs_mtc() names. When some successor is lost for the
    // opponent only those count for MTC; when none is but one is drawn, none does (a draw); else
    // all do. result() is then what add(child, false) for each would give.
    void add_distance(const DtwValue& child) noexcept { fold_distance(child.wld, child.dtw); }
    bool needs_mtc(WldValue child) const noexcept {
        return any_win_ ? child == WldValue::Loss : !any_draw_ && child == WldValue::Win;
    }
    void add_mtc(WldValue child, Plies child_mtc) noexcept { fold_mtc(child, child_mtc + 1u); }

    PositionValue result() const noexcept {
        if (any_win_) return {WldValue::Win, static_cast<Plies>(win_dtw_), static_cast<Plies>(win_mtc_)};
        if (any_draw_) return {WldValue::Draw, 0, 0};
        return {WldValue::Loss, static_cast<Plies>(loss_dtw_), static_cast<Plies>(loss_mtc_)};
    }

private:
    void fold_distance(WldValue child_wld, Plies child_dtw) noexcept {
        const unsigned dtw = child_dtw + 1u;
        switch (child_wld) {
            case WldValue::Loss:
                any_win_ = true;
                win_dtw_ = std::min(win_dtw_, dtw);
                break;
            case WldValue::Draw:
                any_draw_ = true;
                break;
            case WldValue::Win:
                loss_dtw_ = std::max(loss_dtw_, dtw);
                break;
        }
    }
    // `mtc`: what the move counts in MTC if it is the one chosen.
    void fold_mtc(WldValue child_wld, unsigned mtc) noexcept {
        if (child_wld == WldValue::Loss) win_mtc_ = std::min(win_mtc_, mtc);
        if (child_wld == WldValue::Win) loss_mtc_ = std::max(loss_mtc_, mtc);
    }

    unsigned conversion_;
    bool any_win_ = false;
    bool any_draw_ = false;
    unsigned win_dtw_ = ~0u, win_mtc_ = ~0u, loss_dtw_ = 0, loss_mtc_ = 0;
};

// The WLD and DTW of `key` (a position, or an index for sources that take one) from `source`: its
// dtw_value when it has one (the DTW byte alone is read: position_value.hpp DtwValue), else the
// same part of its value.
template <class Source, class Key>
DtwValue dtw_of(const Source& source, const Key& key, Color side_to_move) {
    if constexpr (requires { source.dtw_value(key, side_to_move); }) {
        return source.dtw_value(key, side_to_move);
    } else {
        return dtw_part(source.value(key, side_to_move));
    }
}

template <class Lookup>
PositionValue value_from_successors(const Position& position, Color side_to_move, const Lookup& values) {
    MoveList moves;
    generate_moves(position, side_to_move, moves);
    return value_over_moves(position, side_to_move, moves.view(), values);
}

template <class Lookup>
PositionValue value_over_moves(const Position& position, Color side_to_move, std::span<const Move> moves,
                               const Lookup& values) {
    const Bitboard own_men = position.men(side_to_move);
    SuccessorFold fold(conversion_plies(position, side_to_move));
    const Color opponent = opposite(side_to_move);
    for (const Move& move : moves) {
        const Position child = apply_move(position, side_to_move, move);
        if (move.is_capture() || (move.from & own_men) != 0) {
            fold.add_conversion(dtw_of(values, child, opponent));
        } else {
            fold.add(values.value(child, opponent), false);
        }
    }
    return fold.result();
}

}  // namespace egdb
