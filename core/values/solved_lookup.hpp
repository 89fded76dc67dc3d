// Read access to already-solved positions: what the solver needs to value the successors that
// leave the slice it is solving (captures lead to fewer pieces, promotions to fewer men), and
// what the one-ply verification reads.
#pragma once

#include "core/board/position.hpp"
#include "core/values/position_value.hpp"

namespace egdb {

class SolvedLookup {
public:
    virtual ~SolvedLookup() = default;

    // Value of `position` with `side_to_move` to move, for any slice with at most
    // kMaxPiecesPerSide a side that the implementation holds (either colour orientation).
    // A side to move without pieces has lost with DTW and MTC 0 (13.3 step 2); implementations
    // answer that without storage. Throws std::out_of_range for a slice it does not hold.
    virtual PositionValue value(const Position& position, Color side_to_move) const = 0;

    // WLD and DTW of the same, for a successor reached by a conversion (position_value.hpp
    // DtwValue). Implementations that hold bytes in memory read the DTW byte alone.
    virtual DtwValue dtw_value(const Position& position, Color side_to_move) const {
        return dtw_part(value(position, side_to_move));
    }
};

}  // namespace egdb

namespace egdb {

// The value of a position in which a side has no piece (precondition: has_empty_side(position)).
// A side to move without pieces has lost (DTW 0, MTC 0); a side to move whose opponent has no
// piece wins in one ply if it has a legal move (DTW 1; MTC 1 after a king move, else
// conversion_plies(position, side_to_move) for a man move) and has lost otherwise.
PositionValue empty_side_value(const Position& position, Color side_to_move) noexcept;

// True when a side has no piece: the only case empty_side_value answers. Lookups test this
// first; the value itself is returned in registers (an optional returned on every lookup cost a
// store-to-load stall in the hot path).
constexpr bool has_empty_side(const Position& position) noexcept { return position.black == 0 || position.white == 0; }

}  // namespace egdb
