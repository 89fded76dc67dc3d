#include "core/probe/ranked_moves.hpp"

#include <algorithm>

#include "core/rules/movegen.hpp"

namespace egdb {

std::vector<RankedMove> ranked_moves(const Position& position, Color side_to_move, const SolvedLookup& values,
                                     DistanceKind distance) {
    MoveList list;
    generate_moves(position, side_to_move, list);
    std::vector<RankedMove> out;
    out.reserve(static_cast<std::size_t>(list.size()));
    for (const Move& m : list) {
        out.push_back({m, values.value(apply_move(position, side_to_move, m), opposite(side_to_move))});
    }
    // Our result is the negation of the successor's: a successor lost for the opponent is our win.
    auto rank = [](const RankedMove& r) { return 2 - static_cast<int>(r.successor.wld); };  // 2 win, 1 draw, 0 loss
    // Plies this move contributes to the mover's distance (position_value.hpp): DTW counts the move
    // itself; MTC stops at a conversion (a capture or a man move), which counts a fixed amount
    // (conversion_plies).
    auto dist = [&](const RankedMove& r) -> int {
        if (distance == DistanceKind::Dtw) return r.successor.dtw + 1;
        if (distance == DistanceKind::None) return 0;
        const bool conversion = r.move.is_capture() || (position.king & r.move.from) == 0;
        if (!conversion) return r.successor.mtc + 1;
        return static_cast<int>(conversion_plies(position, side_to_move));
    };
    std::stable_sort(out.begin(), out.end(), [&](const RankedMove& a, const RankedMove& b) {
        if (rank(a) != rank(b)) return rank(a) > rank(b);
        if (rank(a) == 2) return dist(a) < dist(b);  // win fastest
        if (rank(a) == 0) return dist(a) > dist(b);  // lose slowest
        return false;
    });
    return out;
}

}  // namespace egdb
