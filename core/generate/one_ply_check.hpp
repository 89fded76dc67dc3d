// One-ply verification: the value a position must have given the values of its successors, by
// the definitions of position_value.hpp, computed independently of the solver with the move
// generator. A solved database is consistent when every position agrees with this; `egdb verify`
// applies it to every stored position.
#pragma once

#include <optional>
#include <string>

#include "core/board/position.hpp"
#include "core/generate/position_value.hpp"
#include "core/generate/solved_lookup.hpp"

namespace egdb {

// WLD, DTW and MTC of `position` derived from `values` of its legal successors:
//  * no legal move: loss, DTW 0, MTC 0;
//  * some successor lost for the opponent: win, DTW = 1 + min DTW over those successors,
//    MTC = min over them of (conversion_plies(position, side_to_move) for a conversion, else 1 + its MTC);
//  * else some successor drawn: draw (0, 0);
//  * else loss, DTW = 1 + max DTW over all successors, MTC = max over all of
//    (conversion_plies(position, side_to_move) for a conversion, else 1 + its MTC).
// A conversion is a capture or a man move (7.1).
PositionValue value_from_successors(const Position& position, Color side_to_move, const SolvedLookup& values);

// nullopt when `claimed` equals value_from_successors; otherwise a one-line description with the
// position's FEN, the claimed and the derived value.
std::optional<std::string> check_one_ply(const Position& position, Color side_to_move, const PositionValue& claimed,
                                         const SolvedLookup& values);

std::string describe(const PositionValue& value);

}  // namespace egdb
