#include "core/generate/one_ply_check.hpp"

#include <algorithm>

#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {

const char* to_string(WldValue v) noexcept {
    switch (v) {
        case WldValue::Win: return "win";
        case WldValue::Loss: return "loss";
        case WldValue::Draw: return "draw";
    }
    return "?";
}

std::string describe(const PositionValue& value) {
    if (value.wld == WldValue::Draw) return "draw";
    return std::string(to_string(value.wld)) + " dtw=" + std::to_string(value.dtw) + " mtc=" + std::to_string(value.mtc);
}

PositionValue value_from_successors(const Position& position, Color side_to_move, const SolvedLookup& values) {
    MoveList moves;
    generate_moves(position, side_to_move, moves);
    if (moves.empty()) return {WldValue::Loss, 0, 0};

    const Bitboard own_men = position.men(side_to_move);
    bool any_win = false;
    bool any_draw = false;
    unsigned win_dtw = ~0u, win_mtc = ~0u, loss_dtw = 0, loss_mtc = 0;
    for (const Move& move : moves) {
        const PositionValue child = values.value(apply_move(position, side_to_move, move), opposite(side_to_move));
        const bool conversion = move.is_capture() || (move.from & own_men) != 0;
        const unsigned dtw = child.dtw + 1u;
        switch (child.wld) {
            case WldValue::Loss:
                any_win = true;
                win_dtw = std::min(win_dtw, dtw);
                win_mtc = std::min(win_mtc, conversion ? conversion_plies(position, side_to_move) : child.mtc + 1u);
                break;
            case WldValue::Draw:
                any_draw = true;
                break;
            case WldValue::Win:
                loss_dtw = std::max(loss_dtw, dtw);
                loss_mtc = std::max(loss_mtc, conversion ? conversion_plies(position, side_to_move) : child.mtc + 1u);
                break;
        }
    }
    if (any_win) return {WldValue::Win, static_cast<Plies>(win_dtw), static_cast<Plies>(win_mtc)};
    if (any_draw) return {WldValue::Draw, 0, 0};
    return {WldValue::Loss, static_cast<Plies>(loss_dtw), static_cast<Plies>(loss_mtc)};
}

std::optional<std::string> check_one_ply(const Position& position, Color side_to_move, const PositionValue& claimed,
                                         const SolvedLookup& values) {
    const PositionValue derived = value_from_successors(position, side_to_move, values);
    if (derived == claimed) return std::nullopt;
    return to_fen(position, side_to_move) + ": stored " + describe(claimed) + ", successors give " + describe(derived);
}

}  // namespace egdb
