// The king placements of one men configuration of a slice. The slice index is
// (men * KB + rank(BK)) * KW + rank(WK) (kingsrow-format.md 2.3), so the positions sharing a men
// configuration form one contiguous block of KB * KW indices, and a king move only changes the
// local index rank(BK) * KW + rank(WK) inside the block. This class converts between local
// indices and king bitboards with per-slice tables, without touching the men part.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/king_slides.hpp"

namespace egdb {

// The king moves of one side, a bound: a side has at most kMaxPiecesPerSide kings, and a king
// reaches at most 17 squares (4 diagonals of at most 9, 4 and so on from the central squares).
// The solver's predecessors of a position and the check's king successors fit in this.
inline constexpr std::size_t kMaxKingMoves = kMaxPiecesPerSide * 20;

class KingPlacements {
public:
    explicit KingPlacements(SliceId slice);

    // KB * KW: positions per men configuration.
    std::uint64_t block_size() const noexcept { return black_ranks_ * white_ranks_; }

    // The position with local index `local` < block_size() for the given men.
    Position position(Bitboard black_men, Bitboard white_men, std::uint64_t local) const noexcept {
        const std::uint64_t black_rank = white_divisor_.quotient(local);
        const std::uint64_t white_rank = local - black_rank * white_ranks_;
        const Bitboard men = black_men | white_men;
        const Bitboard black_kings = detail::deposit_bits(black_logical_[black_rank], kAllSquares & ~men);
        const Bitboard white_kings =
            detail::deposit_bits(white_logical_[white_rank], kAllSquares & ~(men | black_kings));
        return {black_men | black_kings, white_men | white_kings, black_kings | white_kings};
    }

    // Local index of the kings of a position whose men are `men` (section 2.1: black kings skip
    // the men, white kings skip the men and the black kings).
    std::uint64_t local_index(Bitboard men, Bitboard black_kings, Bitboard white_kings) const noexcept {
        return black_rank(men, black_kings) * white_ranks_ + white_rank(men | black_kings, white_kings);
    }
    std::uint64_t black_rank(Bitboard men, Bitboard black_kings) const noexcept {
        return rank_of(detail::extract_bits(black_kings, kAllSquares & ~men));
    }
    std::uint64_t white_rank(Bitboard men_and_black_kings, Bitboard white_kings) const noexcept {
        return rank_of(detail::extract_bits(white_kings, kAllSquares & ~men_and_black_kings));
    }
    std::uint64_t white_ranks() const noexcept { return white_ranks_; }

    // The logical square (2.1) of `square` (one bit) among the squares `free` its group may use:
    // the free squares below it.
    static unsigned logical_square(Bitboard square, Bitboard free) noexcept {
        return static_cast<unsigned>(std::popcount(free & (square - 1)));
    }

private:
    // The rank (2.2) of a group given by its logical squares, one round per king: a loop whose trip
    // count is the same for every position of the slice (well predicted), where dispatching to
    // the unrolled per-count functions costs a call chain on every lookup.
    static std::uint64_t rank_of(Bitboard logical) noexcept {
        std::uint64_t rank = 0;
        for (std::size_t k = 1; logical != 0; ++k, logical &= logical - 1) {
            rank += detail::kRankTables.binomial[k][std::countr_zero(logical)];
        }
        return rank;
    }

    int nbk_ = 0;
    int nwk_ = 0;
    std::uint64_t black_ranks_ = 1;  // KB
    std::uint64_t white_ranks_ = 1;  // KW
    detail::FastDivisor white_divisor_;
    // Logical squares (as masks) of the black kings for each rank(BK), of the white kings for each
    // rank(WK): independent of the men, so computed once per slice.
    std::vector<Bitboard> black_logical_;
    std::vector<Bitboard> white_logical_;
};

// The ranks (2.2) of a group of kings one of which moves, the others staying: the king walks of
// the propagation (un-moves) and of the check (moves). With the others at logical squares
// t_0 < t_1 < ..., c of them below the moved king's new square y, the rank is
//   sum_{j<c} C(t_j, j+1) + C(y, c+1) + sum_{j>=c} C(t_j, j+2),
// so the others' part is one of a few sums, made once per moving king: each of its squares then
// costs a popcount and two table reads, where a rank over the whole group costs a read per king
// in a loop (the walks' hottest code in kings-heavy blocks).
class KingStepRanks {
public:
    // `others`: the logical squares of the group's kings that do not move.
    explicit KingStepRanks(Bitboard others) noexcept : others_(others) {
        std::array<unsigned, kMaxPiecesPerSide> t{};
        std::size_t n = 0;
        for (Bitboard b = others; b != 0; b &= b - 1) t[n++] = static_cast<unsigned>(std::countr_zero(b));
        std::uint64_t below = 0;
        for (std::size_t c = 0; c <= n; ++c) {
            std::uint64_t above = 0;
            for (std::size_t j = c; j < n; ++j) above += detail::kRankTables.binomial[j + 2][t[j]];
            base_[c] = below + above;
            if (c < n) below += detail::kRankTables.binomial[c + 1][t[c]];
        }
    }
    // The group's rank with the moved king at logical square `y` (not one of the others').
    std::uint64_t rank(unsigned y) const noexcept {
        const auto c = static_cast<std::size_t>(std::popcount(others_ & ((Bitboard{1} << y) - 1)));
        return base_[c] + detail::kRankTables.binomial[c + 1][y];
    }

private:
    Bitboard others_;
    std::array<std::uint64_t, kMaxPiecesPerSide> base_{};
};

// Calls step(local) with the local index (in the block of men `men`) of every position one king
// move of `mover` leads to from `p`, until step returns false (then returns false). A slide is reversible over the same empty squares, so these
// are also the positions from which `mover` moved into `p`: the solver walks them as
// predecessors, its check as successors. The mover's rank comes from KingStepRanks (black kings
// skip the men, white kings the men and the black kings); a black move also changes the white
// rank, since white kings skip black kings.
template <class Step>
bool for_each_king_step(const KingPlacements& kings, Bitboard men, const Position& p, Color mover, Step&& step) {
    const Bitboard empty = p.empty();
    const Bitboard black_kings = p.kings(Color::Black);
    const Bitboard white_kings = p.kings(Color::White);
    const auto each_king = [&](Bitboard movers, Bitboard free, auto&& local_after) {
        const Bitboard logical = detail::extract_bits(movers, free);
        for (; movers != 0; movers &= movers - 1) {
            const Bitboard king = lowest_bit(movers);
            const KingStepRanks ranks(logical & ~(Bitboard{1} << KingPlacements::logical_square(king, free)));
            for (Bitboard targets = king_slide_targets(king, empty); targets != 0; targets &= targets - 1) {
                const Bitboard to = lowest_bit(targets);
                if (!step(local_after(ranks.rank(KingPlacements::logical_square(to, free)), king | to))) return false;
            }
        }
        return true;
    };
    if (mover == Color::Black) {
        return each_king(black_kings, kAllSquares & ~men, [&](std::uint64_t black_rank, Bitboard moved) {
            return black_rank * kings.white_ranks() + kings.white_rank(men | (black_kings ^ moved), white_kings);
        });
    } else {
        const std::uint64_t black_part = kings.black_rank(men, black_kings) * kings.white_ranks();
        return each_king(white_kings, kAllSquares & ~(men | black_kings), [&](std::uint64_t white_rank, Bitboard) { return black_part + white_rank; });
    }
}

// The positions of consecutive indices from `first` on: the men of a block (one men
// configuration) are unranked once, the kings of each position come from the slice's tables.
// Restoring a slice and checking it walk their positions this way.
class BlockWalk {
public:
    BlockWalk(const SliceIndexer& indexer, const KingPlacements& kings, std::uint64_t first)
        : indexer_(indexer), kings_(kings), block_(kings.block_size()), index_(first) {
        enter();
    }
    Position position() const noexcept { return kings_.position(black_men_, white_men_, local_); }
    void next() {
        ++index_;
        if (++local_ == block_) enter();
    }

    // The current block: its men and its first index.
    Bitboard black_men() const noexcept { return black_men_; }
    Bitboard white_men() const noexcept { return white_men_; }
    std::uint64_t block_first() const noexcept { return index_ - local_; }

private:
    void enter() {
        local_ = index_ % block_;
        if (index_ >= indexer_.size()) return;
        const Position p = indexer_.position_at(index_);
        black_men_ = p.men(Color::Black);
        white_men_ = p.men(Color::White);
    }

    const SliceIndexer& indexer_;
    const KingPlacements& kings_;
    std::uint64_t block_;
    std::uint64_t index_;
    std::uint64_t local_ = 0;
    Bitboard black_men_ = 0;
    Bitboard white_men_ = 0;
};

}  // namespace egdb
