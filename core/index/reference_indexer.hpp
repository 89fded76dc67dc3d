// A deliberately simple transcription of the index formulas of kingsrow-format.md section 2,
// square by square, with no tables beyond the binomial coefficients. It is the oracle for the
// fast SliceIndexer in the tests and the same-process baseline of the index benchmark; it shares
// no code with SliceIndexer except binomial().
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/board/position.hpp"
#include "core/index/binomial.hpp"
#include "core/index/slice.hpp"

namespace egdb::reference {

// The logical squares of one piece group (at most one per board square).
struct LogicalSquares {
    std::array<int, kNumSquares> values{};
    int count = 0;

    void add(int logical) { values[count++] = logical; }
};

inline bool holds(Bitboard b, int square) { return (b & square_bb(square)) != 0; }

inline int count_on(Bitboard b, int first_square, int last_square) {
    int count = 0;
    for (int s = first_square; s <= last_square; ++s) count += holds(b, s) ? 1 : 0;
    return count;
}

// Section 2.2: C(l1,1) + C(l2,2) + ... over the logical squares sorted ascending.
inline std::uint64_t combinatorial_rank(LogicalSquares group) {
    std::sort(group.values.begin(), group.values.begin() + group.count);
    std::uint64_t rank = 0;
    for (int i = 0; i < group.count; ++i) rank += binomial(group.values[i], i + 1);
    return rank;
}

// Section 2.3: G(r) and base(r).
inline std::uint64_t men_group(int bm, int wm, int r) {
    return binomial(5, r) * binomial(40, bm - r) * binomial(45 - (bm - r), wm);
}

inline std::uint64_t men_base(int bm, int wm, int r) {
    std::uint64_t base = 0;
    for (int q = r + 1; q <= std::min(bm, 5); ++q) base += men_group(bm, wm, q);
    return base;
}

// The five groups of section 2.1 with the logical square of every piece, in square order.
struct LogicalGroups {
    LogicalSquares back;        // R: black men on 1-5
    LogicalSquares forward;     // F: other black men
    LogicalSquares white_men;   // WM
    LogicalSquares black_kings; // BK
    LogicalSquares white_kings; // WK
};

inline LogicalGroups logical_groups(const Position& p) {
    const Bitboard black_men = p.black & ~p.king;
    const Bitboard white_men = p.white & ~p.king;
    const Bitboard black_kings = p.black & p.king;
    const Bitboard white_kings = p.white & p.king;
    const Bitboard men = black_men | white_men;
    LogicalGroups g;
    for (int s = 1; s <= kNumSquares; ++s) {
        if (holds(black_men, s)) {
            if (s <= 5) g.back.add(s - 1);
            else g.forward.add(s - 6);
        }
        if (holds(white_men, s)) g.white_men.add((50 - s) - count_on(black_men, s + 1, 50));
        if (holds(black_kings, s)) g.black_kings.add((s - 1) - count_on(men, 1, s - 1));
        if (holds(white_kings, s)) g.white_kings.add((s - 1) - count_on(men | black_kings, 1, s - 1));
    }
    return g;
}

// Section 2.3.
inline std::uint64_t index_of(const Position& p, SliceId slice) {
    const LogicalGroups g = logical_groups(p);
    const int bm = slice.nbm, wm = slice.nwm;
    const int r = g.back.count;
    const std::uint64_t a = binomial(5, r);
    const std::uint64_t b = binomial(40, bm - r);
    const std::uint64_t kb = binomial(50 - bm - wm, slice.nbk);
    const std::uint64_t kw = binomial(50 - bm - wm - slice.nbk, slice.nwk);
    const std::uint64_t men_index = men_base(bm, wm, r) + combinatorial_rank(g.back) +
                                    a * (combinatorial_rank(g.forward) + b * combinatorial_rank(g.white_men));
    return (men_index * kb + combinatorial_rank(g.black_kings)) * kw + combinatorial_rank(g.white_kings);
}

// Section 2.4 step 4: the logical squares of a group of `pieces` with the given rank.
inline LogicalSquares unrank(std::uint64_t rank, int pieces) {
    LogicalSquares group;
    for (int j = pieces; j >= 1; --j) {
        int l = kNumSquares;
        while (binomial(l, j) > rank) --l;
        group.add(l);
        rank -= binomial(l, j);
    }
    return group;
}

// The square that is the l-th (0-based) of those in `order` not in `taken`.
template <typename Squares>
int nth_free_square(const Squares& order, Bitboard taken, int l) {
    for (const int s : order) {
        if (holds(taken, s)) continue;
        if (l-- == 0) return s;
    }
    return 0;
}

inline Position position_at(std::uint64_t index, SliceId slice) {
    const int bm = slice.nbm, wm = slice.nwm;
    const std::uint64_t kb = binomial(50 - bm - wm, slice.nbk);
    const std::uint64_t kw = binomial(50 - bm - wm - slice.nbk, slice.nwk);

    // Steps 1-3.
    const std::uint64_t white_king_rank = index % kw;
    const std::uint64_t rest = index / kw;
    const std::uint64_t black_king_rank = rest % kb;
    const std::uint64_t men_index = rest / kb;
    int r = std::min(bm, 5);
    while (men_index >= men_base(bm, wm, r) + men_group(bm, wm, r)) --r;
    const std::uint64_t m = men_index - men_base(bm, wm, r);
    const std::uint64_t a = binomial(5, r);
    const std::uint64_t b = binomial(40, bm - r);
    const std::uint64_t back_rank = m % a;
    const std::uint64_t forward_rank = (m / a) % b;
    const std::uint64_t white_rank = (m / a) / b;

    std::array<int, kNumSquares> upward{}, downward{};
    for (int i = 0; i < kNumSquares; ++i) {
        upward[i] = i + 1;
        downward[i] = kNumSquares - i;
    }

    // Step 5.
    Position p;
    Bitboard black_men = 0, white_men = 0, black_kings = 0, white_kings = 0;
    const LogicalSquares back = unrank(back_rank, r);
    for (int i = 0; i < back.count; ++i) black_men |= square_bb(back.values[i] + 1);
    const LogicalSquares forward = unrank(forward_rank, bm - r);
    for (int i = 0; i < forward.count; ++i) black_men |= square_bb(forward.values[i] + 6);
    const LogicalSquares white = unrank(white_rank, wm);
    for (int i = 0; i < white.count; ++i) {
        white_men |= square_bb(nth_free_square(downward, black_men, white.values[i]));
    }
    const LogicalSquares black_king = unrank(black_king_rank, slice.nbk);
    for (int i = 0; i < black_king.count; ++i) {
        black_kings |= square_bb(nth_free_square(upward, black_men | white_men, black_king.values[i]));
    }
    const LogicalSquares white_king = unrank(white_king_rank, slice.nwk);
    for (int i = 0; i < white_king.count; ++i) {
        white_kings |= square_bb(
            nth_free_square(upward, black_men | white_men | black_kings, white_king.values[i]));
    }

    // Step 6.
    p.black = black_men | black_kings;
    p.white = white_men | white_kings;
    p.king = black_kings | white_kings;
    return p;
}

}  // namespace egdb::reference
