// The values of the successors of the positions of one block (men configuration) of a slice,
// for a one-ply check (one_ply_check.hpp) that walks the slice block by block. Three sources, by
// where a move leads:
//  * a king move keeps the men and every piece, so its successor lies in the block itself
//    (kingsrow-format.md 2.3: a block is a contiguous range of king placements), answered by
//    its local index from `block`;
//  * a man move that is no promotion stays in the slice, answered by its slice index from
//    `in_slice`;
//  * a capture or a promotion leads to another slice, answered by `others`.
// The verifier's check of a decoded slice (verify_database.cpp) reads them so; the solver's check of
// a block it has just solved (block_check.hpp) walks only the king moves (fold_king_moves), the
// same walk. A template, not virtual calls: the check asks it for every successor of every
// position.
//
// value_of() derives a position's value by the one-ply rule (one_ply_check.hpp) as
// value_from_successors does, but walks the king moves itself: a king move stays in the block, so
// its successor's local index comes from the kings alone (the mover's rank changes; a white move
// keeps the black rank), without a move list, apply_move or the test of where the move leads.
// King moves are most of the successors of a kings-heavy slice, and a one-block slice (0303,
// 0402) spent as long in its check as in its solve. The moves it walks are those the generator
// gives (tests: every position of every slice of up to 4 pieces, both sides, same value as
// value_from_successors).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/board/position.hpp"
#include "core/generate/king_placements.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/values/position_value.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/king_slides.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/prefetch.hpp"

namespace egdb {

// Adds to `fold` every king move of `side_to_move` in `p`, a position of `block` whose side to
// move has no capture (a king move then is legal). `Block` answers `DtwValue dtw_value(local,
// Color)` and `PositionValue value(local, Color)` for the positions of the block and gives its
// men (`black_men()`, `white_men()`), as below, and may offer `prefetch(local, Color)`. A king move keeps the men and every piece, so its
// successor is in the block; its local index comes from the kings alone (the mover's rank
// changes; a white move keeps the black rank), without a move list or apply_move.
template <class Block>
void fold_king_moves(const KingPlacements& kings, const Block& block, const Position& p, Color side_to_move,
                     SuccessorFold& fold) {
    const Color opponent = opposite(side_to_move);
    // The successors' local indices first, their bytes requested from memory as they come (when
    // the block can say where they are), then read: in a large block each is a likely cache miss,
    // and the misses then overlap instead of waiting one after another.
    std::array<std::uint64_t, kMaxKingMoves> locals;
    std::size_t moves = 0;
    for_each_king_step(kings, block.black_men() | block.white_men(), p, side_to_move, [&](std::uint64_t local) {
        if constexpr (requires { block.prefetch(local, opponent); }) block.prefetch(local, opponent);
        locals[moves++] = local;
        return true;
    });
    // Two passes (SuccessorFold::add_distance): first the DTW byte of every successor, then the
    // MTC byte of those that decide the MTC, once the outcome is known. The two bytes are in
    // separate arrays, and most MTC bytes are not needed (a drawn position needs none, a won one
    // only those of the successors lost for the opponent).
    struct DecidedSuccessor {
        std::uint64_t local;
        WldValue wld;
    };
    std::array<DecidedSuccessor, kMaxKingMoves> decided;
    std::size_t count = 0;
    for (const std::uint64_t local : std::span(locals).first(moves)) {
        const DtwValue child = block.dtw_value(local, opponent);
        fold.add_distance(child);
        decided[count] = {local, child.wld};
        count += child.wld != WldValue::Draw ? 1 : 0;
    }
    for (const DecidedSuccessor& child : std::span(decided).first(count)) {
        if (fold.needs_mtc(child.wld)) fold.add_mtc(child.wld, block.value(child.local, opponent).mtc);
    }
}

// `Block` is the block being checked: its men (`Bitboard black_men()`, `white_men()`),
// `PositionValue value(std::uint64_t local, Color)` and `DtwValue dtw_value(std::uint64_t local,
// Color)` (WLD and DTW without reading MTC) for its positions; the check moves it on.
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

    // WLD and DTW of the same, for the successor of a conversion (a capture or a man move, which
    // never stays in the block): the DTW byte alone is read where the source allows it.
    DtwValue dtw_value(const Position& p, Color side_to_move) const {
        const Bitboard black_men = p.men(Color::Black), white_men = p.men(Color::White);
        if (black_men == block_.black_men() && white_men == block_.white_men() && popcount(p.occupied()) == pieces_) {
            return dtw_part(value(p, side_to_move));
        }
        if (slice_of(p) == slice_) return dtw_of(in_slice_, indexer_.index_of(p), side_to_move);
        return dtw_of(others_, p, side_to_move);
    }

    // The value the one-ply rule gives `p`, a position of the block, with `side_to_move` to move
    // (value_from_successors(p, side_to_move, *this)). `moves` is scratch space.
    PositionValue value_of(const Position& p, Color side_to_move, MoveList& moves) const {
        if (has_capture(p, side_to_move)) {
            generate_captures(p, side_to_move, moves);
            return value_over_moves(p, side_to_move, moves.view(), *this);
        }
        return value_without_capture(p, side_to_move, moves);
    }

    // The same for a position whose side to move has no capture (the caller knows it).
    PositionValue value_without_capture(const Position& p, Color side_to_move, MoveList& moves) const {
        const Color opponent = opposite(side_to_move);
        SuccessorFold fold(conversion_plies(slice_, side_to_move));
        // Man moves are conversions: the next level of the slice, or another slice on promotion.
        generate_man_non_captures(p, side_to_move, moves);
        for (const Move& move : moves) fold.add_conversion(dtw_value(apply_move(p, side_to_move, move), opponent));
        fold_king_moves(kings_, block_, p, side_to_move, fold);
        return fold.result();
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

// The block and the slice of a whole SolvedSlice walked block by block (the verifier's decoded
// slice, the tests' solutions): the block the walk is in, and any index of the slice.
struct WalkBlock {
    const SolvedSlice& solved;
    const BlockWalk& walk;
    Bitboard black_men() const noexcept { return walk.black_men(); }
    Bitboard white_men() const noexcept { return walk.white_men(); }
    PositionValue value(std::uint64_t local, Color side_to_move) const {
        return solved.value(walk.block_first() + local, side_to_move);
    }
    DtwValue dtw_value(std::uint64_t local, Color side_to_move) const {
        return solved.dtw_value(walk.block_first() + local, side_to_move);
    }
    void prefetch(std::uint64_t local, Color side_to_move) const noexcept {
        const std::span<const DistanceCode> codes = solved.dtw_codes(side_to_move);
        if (!codes.empty()) prefetch_for_read(codes.data() + walk.block_first() + local);
    }
};

struct WholeSlice {
    const SolvedSlice& solved;
    PositionValue value(std::uint64_t index, Color side_to_move) const { return solved.value(index, side_to_move); }
    DtwValue dtw_value(std::uint64_t index, Color side_to_move) const { return solved.dtw_value(index, side_to_move); }
};

}  // namespace egdb
