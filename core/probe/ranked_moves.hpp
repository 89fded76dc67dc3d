// The legal moves of a position ranked by the database values of their successors: the move that
// wins fastest first, then drawing moves, then losing moves that last longest. This is what
// `egdb probe` prints as `best`, and the basis of best-move and principal-variation queries.
#pragma once

#include <vector>

#include "core/board/position.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/rules/move.hpp"

namespace egdb {

struct RankedMove {
    Move move;
    PositionValue successor;  // value for the opponent, who moves next
};

enum class DistanceKind { Dtw, Mtc, None };

// Moves ranked for the side to move. With DistanceKind::Dtw, wins are ordered by the opponent's
// DTW ascending and losses by it descending (the DTW definition of 13.4); with Mtc likewise by
// MTC; with None only by WLD. Ties keep generator order. Throws what `values` throws.
std::vector<RankedMove> ranked_moves(const Position& position, Color side_to_move, const SolvedLookup& values,
                                     DistanceKind distance = DistanceKind::Dtw);

}  // namespace egdb
