// Where kings slide without capturing (kingsrow-format.md section 14: a king moves any number of
// empty squares along a diagonal), as bitboards computed without a loop. The solver counts king
// moves, walks king un-moves, and its check walks king moves for every position of a slice; a
// loop that steps square by square ends at a different step each time, and each end is a
// mispredicted branch. An occluded fill has no branch: four rounds along a direction reach 15
// steps, more than the 9 of the longest diagonal. A step off the board meets a ghost bit or
// leaves the word, never an empty square, so no fill wraps around an edge (bitboard.hpp).
#pragma once

#include <utility>

#include "core/board/bitboard.hpp"

namespace egdb {

// `from` and the squares its pieces reach along direction D (a shift of kDirections) over empty
// squares in at most 2^Rounds - 1 steps: round r adds the squares 2^r steps further over a run
// of empty squares (a Kogge-Stone fill). has_capture uses 3 rounds (movegen.cpp), a king's slide 4.
template <int D, int Rounds>
constexpr Bitboard occluded_fill(Bitboard from, Bitboard empty) noexcept {
    Bitboard reach = from;
    Bitboard open = empty;
    [&]<int... R>(std::integer_sequence<int, R...>) {
        ((reach |= open & shift<D * (1 << R)>(reach), open &= shift<D * (1 << R)>(open)), ...);
    }(std::make_integer_sequence<int, Rounds>{});
    return reach;
}

// The empty squares the pieces `from` reach along direction D over empty squares, without the
// squares of `from`. Pieces on one diagonal block each other, so the reaches of several pieces
// along one direction never overlap: their popcount is their number of moves along it.
template <int D>
constexpr Bitboard slide_reach(Bitboard from, Bitboard empty) noexcept {
    return occluded_fill<D, 4>(from, empty) & ~from;
}

// Every square one king on `king` moves to without capturing; the same squares are where it can
// have come from by such a move (a slide is reversible over the same empty squares).
constexpr Bitboard king_slide_targets(Bitboard king, Bitboard empty) noexcept {
    return slide_reach<6>(king, empty) | slide_reach<5>(king, empty) | slide_reach<-5>(king, empty) |
           slide_reach<-6>(king, empty);
}

// The number of non-capturing moves of the kings `kings`.
constexpr int count_king_slides(Bitboard kings, Bitboard empty) noexcept {
    return popcount(slide_reach<6>(kings, empty)) + popcount(slide_reach<5>(kings, empty)) +
           popcount(slide_reach<-5>(kings, empty)) + popcount(slide_reach<-6>(kings, empty));
}

}  // namespace egdb
