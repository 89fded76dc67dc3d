#include "core/notation/move_notation.hpp"

#include <algorithm>

#include "core/notation/hub_move.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {

std::string move_text(const Position& pos, Color side, const Move& move, MoveNotation notation) {
    return notation == MoveNotation::Hub ? move_to_hub(move) : move_to_pdn(pos, side, move);
}

Move parse_move(const Position& pos, Color side, std::string_view text) {
    // Only the number of 'x'-separated fields matters here; both parsers check the rest.
    const auto separators = static_cast<int>(std::count(text.begin(), text.end(), 'x'));
    if (separators >= 2) {
        MoveList list;
        generate_moves(pos, side, list);
        if (!list.empty() && list[0].is_capture() && separators + 1 == list[0].capture_count() + 2) {
            return parse_hub_move(pos, side, text);
        }
    }
    return parse_pdn_move(pos, side, text);
}

}  // namespace egdb
