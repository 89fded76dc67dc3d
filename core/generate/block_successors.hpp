// The values of the successors of the positions of one block (men configuration) of a slice,
// for a one-ply check (one_ply_check.hpp) that walks the slice block by block. Three sources, by
// where a move leads:
//  * a king move keeps the men and every piece, so its successor lies in the block itself
//    (kingsrow-format.md 2.3: a block is a contiguous range of king placements), answered by
//    its local index from `block`;
//  * a man move that is no promotion stays in the slice, answered by its slice index from
//    `in_slice`;
//  * a capture or a promotion leads to another slice, answered by `others`.
// The solver's check of a just-solved level (level_check.cpp) and the verifier's check of a
// decoded slice (verify_database.cpp) differ only in where these live, so they share this.
// A template, not virtual calls: the check asks it for every successor of every position.
#pragma once

#include <cstdint>

#include "core/board/position.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/position_value.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb {

// `Block` is the block being checked: its men (`Bitboard black_men()`, `white_men()`) and
// `PositionValue value(std::uint64_t local, Color)` for its positions; the check moves it on.
// `InSlice` answers `PositionValue value(std::uint64_t index, Color)` for the slice, and `Others`
// answers `PositionValue value(const Position&, Color)` like SolvedLookup.
template <class Block, class InSlice, class Others>
class BlockSuccessors {
public:
    BlockSuccessors(SliceId slice, const KingPlacements& kings, const Block& block, const InSlice& in_slice,
                    const Others& others)
        : slice_(slice),
          kings_(kings),
          indexer_(slice_indexer(slice)),
          pieces_(slice.total()),
          block_(block),
          in_slice_(in_slice),
          others_(others) {}

    PositionValue value(const Position& p, Color side_to_move) const {
        const Bitboard black_men = p.men(Color::Black), white_men = p.men(Color::White);
        if (black_men == block_.black_men() && white_men == block_.white_men() && popcount(p.occupied()) == pieces_) {
            return block_.value(kings_.local_index(black_men | white_men, p.kings(Color::Black), p.kings(Color::White)),
                                side_to_move);
        }
        if (slice_of(p) == slice_) return in_slice_.value(indexer_.index_of(p), side_to_move);
        return others_.value(p, side_to_move);
    }

private:
    SliceId slice_;
    const KingPlacements& kings_;
    const SliceIndexer& indexer_;
    int pieces_;
    const Block& block_;
    const InSlice& in_slice_;
    const Others& others_;
};

}  // namespace egdb
