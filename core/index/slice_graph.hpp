// The graph of slices: which slices a move leads to, the order that solves every slice after
// those it reads, and what a set of target slices needs. The build, its memory plan and the
// manifest of a database (which slices a complete one holds) all follow it.
#pragma once

#include <span>
#include <vector>

#include "core/index/side_set.hpp"
#include "core/index/slice.hpp"

namespace egdb {

// Canonical slices with 2..max_pieces pieces, both sides non-empty, at most kMaxPiecesPerSide a
// side, in an order where every capture or promotion successor is solved before it is needed.
std::vector<SliceId> build_order(int max_pieces);

// The canonical slices other than `slice` that a single move from a position of `slice` (either
// side to move) can lead to: a promotion turns a man into a king, a capture removes at least one
// opposing piece and may end in a promotion. Slices with no piece of one colour are left out (a
// side without pieces has lost; nothing is stored for it). A superset of what occurs: used to
// know which solved slices must be at hand, never to skip a position.
std::vector<SliceId> successor_slices(SliceId slice);

// A slice that a move from `slice` leads to, and the sides to move its positions are read at
// there (canonical orientation): a move by Black leaves White to move, and the reversal that makes
// a slice canonical swaps the sides. Nearly every read is at one side to move (at 6 pieces 404 of
// 412, at 8 pieces 695 of 701); at both when two moves reach colour-reversed slices (1110 reads
// 0110 after a white man takes the black man, and, reversed, after it takes the king and promotes).
struct SuccessorRead {
    SliceId slice;
    SideSet sides;
};

// successor_slices(slice), in the same order, each with the sides to move it is read at.
std::vector<SuccessorRead> successor_reads(SliceId slice);

// The sides to move at which any of `readers` reads `slice` (successor_reads); empty when none
// does. A solution kept for later slices under a memory budget keeps those sides only.
SideSet sides_read_by(SliceId slice, std::span<const SliceId> readers);

// The canonical slices that solving `targets` needs: the targets (any orientation) and, again and
// again, the slices their moves lead to (successor_slices), in build order. GWDEGTB-style builds
// of one material use it: `egdb build --slices 1212` solves 1212 and what it depends on only.
std::vector<SliceId> dependency_closure(std::span<const SliceId> targets);

}  // namespace egdb
