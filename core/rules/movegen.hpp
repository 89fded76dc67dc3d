// Legal move generation under the FMJD rules exactly as the Kingsrow engine implements them
// (kingsrow-format.md section 14): compulsory capture, majority rule, flying kings, pieces removed
// after the capture, promotion only at the end of a move, upstream's move order and its
// duplicate-merging rule (same resulting position merged only when 4 or more pieces are taken).
#pragma once

#include <cstdint>

#include "core/board/position.hpp"
#include "core/rules/move.hpp"

namespace egdb {

// True when `side` has at least one capture (upstream `canjump`, C ABI `is_capture`).
bool has_capture(const Position& pos, Color side) noexcept;

// All legal moves of `side`, in upstream generator order. Captures if any exist, else
// non-captures. Returns the number of moves.
int generate_moves(const Position& pos, Color side, MoveList& list) noexcept;

// The same with the landing squares of every capture step (for PDN move strings).
int generate_moves(const Position& pos, Color side, MoveListWithPaths& list) noexcept;

// Only the moves without capture: all legal moves when has_capture(pos, side) is false (callers
// that have just asked has_capture skip the generator's own capture test).
int generate_non_captures(const Position& pos, Color side, MoveList& list) noexcept;

// Only captures (empty list when there is none).
int generate_captures(const Position& pos, Color side, MoveList& list) noexcept;

// The two halves of generate_non_captures, for callers that treat king moves in bulk (the
// retrograde solver: a king move stays in its block, so it only counts them): the men's
// non-captures in generator order, and the number of the kings' non-captures. Both are legal
// moves only when has_capture(pos, side) is false.
int generate_man_non_captures(const Position& pos, Color side, MoveList& list) noexcept;
int count_king_non_captures(const Position& pos, Color side) noexcept;

// Number of legal moves, without building the non-capture list (bulk counting for perft).
int count_moves(const Position& pos, Color side) noexcept;

// Successor positions in generator order (C ABI `get_movelist`); returns the count written, at
// most `capacity`.
int successor_positions(const Position& pos, Color side, Position* out, int capacity) noexcept;

}  // namespace egdb
