// Position <-> 64-bit index inside one slice, exactly as Kingsrow numbers positions
// (kingsrow-format.md section 2; upstream position_to_index_slice / indextoposition_slice).
//
// Speed comes from five observations:
//  * the logical squares of section 2.1 are what pext/pdep compute: the logical square of a king
//    is its rank among the squares not taken by the groups placed before it, so extracting the
//    king bitboard under the mask of those free squares yields a mask whose bit numbers are the
//    logical squares, and depositing a mask of logical squares under that mask places the kings;
//  * the combinatorial rank of section 2.2 is one table load per piece; the table rows are padded
//    with a zero at column 64 (countr_zero of an empty mask) so that the loop over the forward
//    black men can run a fixed number of times even though their count depends on r;
//  * the unranking search "largest l with C(l,j) <= rho" (2.4 step 4) is one load: from a table
//    indexed by rho itself for j = 2 (rho < C(50,2)), otherwise from a table keyed by the leading
//    six bits and the bit length of rho, followed by one comparison (see detail::unrank_key for
//    why at most one correction is ever needed);
//  * the divisions of 2.4 are multiplications by precomputed reciprocals;
//  * everything that depends only on the slice is a compile-time constant: StaticSliceIndexer is
//    instantiated for every slice with at most kMaxPiecesPerSide a side, its loops are unrolled
//    and branch-free, and SliceIndexer calls the instantiation of its slice through a pointer.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/board/position.hpp"
#include "core/index/slice.hpp"

namespace egdb {

namespace detail {

// The square sets of section 2.1.
inline constexpr Bitboard kBackRowBits = squares_bb(1, kBackRowSquares);
inline constexpr Bitboard kForwardBlackManBits = squares_bb(6, 45);
inline constexpr Bitboard kWhiteManBits = squares_bb(6, 50);
static_assert(kBackRowBits == 0x1F, "the back row must be bits 0-4 for the back-row tables");
static_assert(popcount(kForwardBlackManBits) == kForwardBlackManSquares);
static_assert(popcount(kWhiteManBits) == kWhiteManSquares);

// Parallel bit extract: the bits of `source` selected by `mask`, packed into the low bits in
// mask order (BMI2 pext), without BMI2: the code of the portable build (EGDB_PORTABLE), compiled
// in every build so that the tests check it beside the instruction.
constexpr Bitboard extract_bits_portable(Bitboard source, Bitboard mask) noexcept {
    Bitboard result = 0;
    for (Bitboard bits = source & mask; bits != 0; bits &= bits - 1) {
        const Bitboard below = (bits & (~bits + 1)) - 1;
        result |= Bitboard{1} << std::popcount(mask & below);
    }
    return result;
}

// Parallel bit deposit: bit i of `source` goes to the i-th lowest set bit of `mask` (BMI2 pdep),
// without BMI2.
constexpr Bitboard deposit_bits_portable(Bitboard source, Bitboard mask) noexcept {
    Bitboard result = 0;
    for (Bitboard slots = mask; slots != 0 && source != 0; slots &= slots - 1, source >>= 1) {
        if ((source & 1) != 0) result |= slots & (~slots + 1);
    }
    return result;
}

inline Bitboard extract_bits(Bitboard source, Bitboard mask) noexcept {
#if defined(__BMI2__)
    return _pext_u64(source, mask);
#else
    return extract_bits_portable(source, mask);
#endif
}

inline Bitboard deposit_bits(Bitboard source, Bitboard mask) noexcept {
#if defined(__BMI2__)
    return _pdep_u64(source, mask);
#else
    return deposit_bits_portable(source, mask);
#endif
}

// std::bit_width as an int (libstdc++ before 13 returns the argument type).
constexpr int bit_length(std::uint64_t value) noexcept { return static_cast<int>(std::bit_width(value)); }

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 Uint128;
#endif

struct WideProduct {
    std::uint64_t high;
    std::uint64_t low;
};

inline WideProduct multiply_wide(std::uint64_t a, std::uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__)
    const Uint128 product = static_cast<Uint128>(a) * b;
    return {static_cast<std::uint64_t>(product >> 64), static_cast<std::uint64_t>(product)};
#else
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    return {a_hi * b_hi + (hi_lo >> 32) + (cross >> 32), (cross << 32) | (lo_lo & 0xFFFFFFFFu)};
#endif
}

// Division by a constant divisor d (1 <= d < 2^63) for dividends n < 2^63, by multiplication:
// with l = ceil(log2 d) and m = ceil(2^(63+l) / d), floor(n/d) = floor(n*m / 2^(63+l)). Proof:
// m*d = 2^(63+l) + e with 0 <= e < d <= 2^l, so n*m / 2^(63+l) = n/d + n*e/(d*2^(63+l)), and the
// error term is below 2^63 * 2^l / (d * 2^(63+l)) = 1/d, too small to reach the next integer.
// m < 2^64 because d > 2^(l-1) (or d = 2^l exactly, where m = 2^63).
class FastDivisor {
public:
    constexpr FastDivisor() noexcept = default;
    constexpr explicit FastDivisor(std::uint64_t divisor) noexcept
        : divisor_(divisor),
          multiplier_(ceil_power_of_two_ratio(63 + bit_length(divisor - 1), divisor)),
          shift_(bit_length(divisor - 1)) {}

    constexpr std::uint64_t divisor() const noexcept { return divisor_; }

    // floor(n / divisor()) for n < 2^63.
    std::uint64_t quotient(std::uint64_t n) const noexcept {
        // The high word of (2n)*m is floor(n*m / 2^63); 2n does not overflow since n < 2^63.
        return multiply_wide(n + n, multiplier_).high >> shift_;
    }

private:
    // ceil(2^exponent / d) by binary long division; the result must fit in 64 bits.
    static constexpr std::uint64_t ceil_power_of_two_ratio(int exponent, std::uint64_t d) noexcept {
        std::uint64_t quotient = 0;
        std::uint64_t remainder = 0;
        for (int bit = exponent; bit >= 0; --bit) {
            remainder = (remainder << 1) | (bit == exponent ? 1 : 0);
            if (remainder >= d) {
                remainder -= d;
                if (bit < 64) quotient |= std::uint64_t{1} << bit;
            }
        }
        return quotient + (remainder != 0 ? 1 : 0);
    }

    std::uint64_t divisor_ = 1;
    std::uint64_t multiplier_ = std::uint64_t{1} << 63;
    int shift_ = 0;
};

// Unranking search key (2.4 step 4): values below 64 are their own key; larger values keep their
// leading six bits h (32 <= h < 64) and their bit length, key = 32 * shift + h. A key's values
// span a ratio of at most (h+1)/h <= 33/32, while consecutive C(l,j) with j >= 2 and l < 64
// differ by the ratio (l+1)/(l+1-j) >= 1 + 2/62 > 33/32. So a key's values straddle at most one
// C(l,j): the answer for its smallest value, corrected by one comparison, is exact.
inline constexpr int kUnrankMantissaBits = 5;

constexpr unsigned unrank_key(std::uint64_t value) noexcept {
    const int width = bit_length(value);
    const int shift = width > kUnrankMantissaBits + 1 ? width - (kUnrankMantissaBits + 1) : 0;
    return (static_cast<unsigned>(shift) << kUnrankMantissaBits) +
           static_cast<unsigned>(value >> shift);
}

// The smallest value with a given key.
constexpr std::uint64_t unrank_key_floor(unsigned key) noexcept {
    const unsigned leading = key >> kUnrankMantissaBits;
    const unsigned shift = leading > 1 ? leading - 1 : 0;
    return std::uint64_t{key - (shift << kUnrankMantissaBits)} << shift;
}

// Every group rank is below C(50, kMaxPiecesPerSide) (the kings' range is the largest).
inline constexpr std::uint64_t kMaxGroupRank = binomial(kNumSquares, kMaxPiecesPerSide) - 1;
inline constexpr unsigned kUnrankKeys = unrank_key(kMaxGroupRank) + 1;

// Columns of the padded binomial rows: logical squares 0..63 and the countr_zero(0) slot 64.
inline constexpr int kRankColumns = 65;
inline constexpr int kEmptyMaskColumn = 64;
// Unranking guesses stay below 63 so that the correction reads at most column 63.
inline constexpr int kMaxUnrankGuess = 62;

inline constexpr std::size_t kPairRanks = binomial(kNumSquares, 2);

struct RankTables {
    // binomial[k][l] = C(l,k) for l < 64 (beyond 50 only to keep out-of-slice guesses in range),
    // and 0 in column 64.
    std::array<std::array<std::uint64_t, kRankColumns>, kMaxPiecesPerSide + 1> binomial{};
    // unrank_guess[j][key]: largest l <= kMaxUnrankGuess with C(l,j) <= unrank_key_floor(key).
    std::array<std::array<std::uint8_t, kUnrankKeys>, kMaxPiecesPerSide + 1> unrank_guess{};
    // pair_top[rho]: largest l with C(l,2) <= rho, for every rho < C(50,2). Pairs are the most
    // common group, and one load is shorter than the keyed search.
    std::array<std::uint8_t, kPairRanks> pair_top{};
    // Group R (section 2.1, black men on squares 1-5 = bits 0-4): rank by 5-bit occupancy, and
    // occupancy by (r, rank).
    std::array<std::uint8_t, 1 << kBackRowSquares> back_row_rank{};
    std::array<std::array<std::uint8_t, 10>, kBackRowSquares + 1> back_row_pattern{};
};
static_assert(binomial(kBackRowSquares, kBackRowSquares / 2) <= 10, "back_row_pattern too narrow");

constexpr std::uint64_t wide_binomial(int n, int k) noexcept {
    if (k < 0 || k > n) return 0;
    std::uint64_t result = 1;
    for (int i = 0; i < k; ++i) {
        result = result * static_cast<std::uint64_t>(n - i) / static_cast<std::uint64_t>(i + 1);
    }
    return result;
}

constexpr RankTables make_rank_tables() noexcept {
    RankTables t{};
    for (int k = 0; k <= kMaxPiecesPerSide; ++k) {
        for (int l = 0; l < kEmptyMaskColumn; ++l) t.binomial[k][l] = wide_binomial(l, k);
        t.binomial[k][kEmptyMaskColumn] = 0;
        for (unsigned key = 0; key < kUnrankKeys; ++key) {
            const std::uint64_t floor = unrank_key_floor(key);
            int l = 0;
            while (l < kMaxUnrankGuess && wide_binomial(l + 1, k) <= floor) ++l;
            t.unrank_guess[k][key] = static_cast<std::uint8_t>(l);
        }
    }
    int top = 1;
    for (std::uint64_t rho = 0; rho < t.pair_top.size(); ++rho) {
        while (wide_binomial(top + 1, 2) <= rho) ++top;
        t.pair_top[rho] = static_cast<std::uint8_t>(top);
    }
    for (unsigned pattern = 0; pattern < (1u << kBackRowSquares); ++pattern) {
        std::uint64_t rank = 0;
        int piece = 0;
        for (int l = 0; l < kBackRowSquares; ++l) {
            if ((pattern >> l) & 1u) rank += wide_binomial(l, ++piece);
        }
        t.back_row_rank[pattern] = static_cast<std::uint8_t>(rank);
        t.back_row_pattern[piece][rank] = static_cast<std::uint8_t>(pattern);
    }
    return t;
}

inline constexpr RankTables kRankTables = make_rank_tables();

// Calls f(std::integral_constant<int, count>) for a runtime count in 0..kMaxPiecesPerSide, so that
// code with a piece count known only at run time can still use the unrolled per-group functions
// below (the runtime-count group_rank and group_unrank).
template <int Count = 0, typename F>
inline auto with_piece_count(int count, F&& f) noexcept {
    if constexpr (Count == kMaxPiecesPerSide) {
        return f(std::integral_constant<int, Count>{});
    } else {
        if (count == Count) return f(std::integral_constant<int, Count>{});
        return with_piece_count<Count + 1>(count, f);
    }
}

// Calls f(std::integral_constant<int, i>) for i = 0 .. N-1, unrolled.
template <int N, typename F>
inline void unrolled(F&& f) noexcept {
    [&]<int... I>(std::integer_sequence<int, I...>) {
        (f(std::integral_constant<int, I>{}), ...);
    }(std::make_integer_sequence<int, N>{});
}

// Rank (2.2) of a group of Pieces whose logical squares are the set bits of `logical`. Fewer set
// bits are fine: the extra rounds read the zero column 64.
template <int Pieces>
inline std::uint64_t group_rank(Bitboard logical) noexcept {
    std::uint64_t rank = 0;
    unrolled<Pieces>([&](auto i) {
        rank += kRankTables.binomial[i + 1][std::countr_zero(logical)];
        logical &= logical - 1;
    });
    return rank;
}

// White men's logical squares count down from square 50 (2.1): slot u (counting up among the free
// squares 6..50) is logical square top - u, with top = (number of free squares) - 1. The lowest
// slot is the highest logical square, so the piece number counts down.
template <int Pieces>
inline std::uint64_t white_men_rank(Bitboard slots, int top) noexcept {
    std::uint64_t rank = 0;
    unrolled<Pieces>([&](auto i) {
        rank += kRankTables.binomial[Pieces - i][top - std::countr_zero(slots)];
        slots &= slots - 1;
    });
    return rank;
}

// One step of 2.4 step 4 for J >= 2: returns the largest l with C(l,J) <= rank and subtracts
// C(l,J) from rank.
template <int J>
inline int unrank_step(std::uint64_t& rank) noexcept {
    static_assert(J >= 2, "C(l,1) = l needs no search");
    if constexpr (J == 2) {
        // Every rank met with J = 2 is below C(50,2): a pair's rank, or the rank left for the two
        // lowest pieces of a larger group, or (padded rounds) a rank below C(40,1).
        const int l = kRankTables.pair_top[rank];
        rank -= kRankTables.binomial[2][l];
        return l;
    } else {
        const int guess = kRankTables.unrank_guess[J][unrank_key(rank)];
        const std::uint64_t at_guess = kRankTables.binomial[J][guess];
        const std::uint64_t next = kRankTables.binomial[J][guess + 1];
        const bool advance = next <= rank;
        // Select arithmetically: `advance` is as good as random, a branch would often mispredict.
        const std::uint64_t select = std::uint64_t{0} - std::uint64_t{advance};
        rank -= at_guess ^ ((at_guess ^ next) & select);
        return guess + static_cast<int>(advance);
    }
}

// Logical squares (as a mask) of a group of Pieces with the given rank.
template <int Pieces>
inline Bitboard group_unrank(std::uint64_t rank) noexcept {
    Bitboard logical = 0;
    unrolled<(Pieces > 1 ? Pieces - 1 : 0)>(
        [&](auto i) { logical |= Bitboard{1} << unrank_step<Pieces - i>(rank); });
    if constexpr (Pieces >= 1) logical |= Bitboard{1} << rank;  // C(l,1) = l
    return logical;
}

// The same for a group of `pieces` <= Slots pieces, where `pieces` is only known at run time:
// all Slots rounds are computed and the rounds above `pieces` are masked out, so that nothing
// branches on `pieces` (which depends on r, itself as good as random).
template <int Slots>
inline Bitboard group_unrank_padded(std::uint64_t rank, int pieces) noexcept {
    Bitboard logical = 0;
    unrolled<(Slots > 1 ? Slots - 1 : 0)>([&](auto i) {
        constexpr int j = Slots - i;
        std::uint64_t remaining = rank;
        const int l = unrank_step<j>(remaining);
        const std::uint64_t keep = std::uint64_t{0} - std::uint64_t{j <= pieces};
        logical |= (Bitboard{1} << l) & keep;
        rank ^= (rank ^ remaining) & keep;
    });
    if constexpr (Slots >= 1) logical |= Bitboard{pieces >= 1} << rank;
    return logical;
}

// White men: the slot mask (see white_men_rank) of a group of Pieces with the given rank.
template <int Pieces>
inline Bitboard white_men_unrank(std::uint64_t rank, int top) noexcept {
    Bitboard slots = 0;
    unrolled<(Pieces > 1 ? Pieces - 1 : 0)>(
        [&](auto i) { slots |= Bitboard{1} << (top - unrank_step<Pieces - i>(rank)); });
    if constexpr (Pieces >= 1) slots |= Bitboard{1} << (top - static_cast<int>(rank));
    return slots;
}

// Runtime-count forms of group_rank and group_unrank, for callers that work group by group.
inline std::uint64_t group_rank(Bitboard logical, int pieces) noexcept {
    return with_piece_count(pieces, [&](auto n) { return group_rank<n>(logical); });
}

inline Bitboard group_unrank(std::uint64_t rank, int pieces) noexcept {
    return with_piece_count(pieces, [&](auto n) { return group_unrank<n>(rank); });
}

// Constants for one value of r, the number of black men on squares 1-5 (section 2.3).
struct BackRowCase {
    std::uint64_t men_base = 0;              // base(r), in men configurations
    std::uint64_t index_base = 0;            // base(r) * KB * KW
    std::uint64_t forward_range = 1;         // B = C(40, bm - r)
    std::uint64_t forward_multiplier = 0;    // A * KB * KW, the weight of rank(F)
    std::uint64_t white_men_multiplier = 0;  // A * B * KB * KW, the weight of rank(WM)
    FastDivisor back_row;                    // A = C(5, r)
    FastDivisor black_men;                   // A * B
    int forward_men = 0;                     // |F| = bm - r
    int white_man_top = 0;                   // 44 - |F|: highest logical square of a white man
};

// The BackRowCase of every r = 0 .. Count-1 of a slice; Count = min(bm, 5) + 1 covers all.
template <int Count>
constexpr std::array<BackRowCase, Count> make_back_row_cases(SliceId s) noexcept {
    std::array<BackRowCase, Count> cases{};
    const int men = s.nbm + s.nwm;
    const std::uint64_t kings_range =
        binomial(kNumSquares - men, s.nbk) * binomial(kNumSquares - men - s.nbk, s.nwk);
    for (int r = 0; r < Count && r <= max_back_row_men(s.nbm); ++r) {
        const int forward = s.nbm - r;
        const std::uint64_t back_row_range = binomial(kBackRowSquares, r);              // A
        const std::uint64_t forward_range = binomial(kForwardBlackManSquares, forward);  // B
        BackRowCase& c = cases[r];
        c.men_base = men_group_base(s.nbm, s.nwm, r);
        c.index_base = c.men_base * kings_range;
        c.forward_range = forward_range;
        c.forward_multiplier = back_row_range * kings_range;
        c.white_men_multiplier = back_row_range * forward_range * kings_range;
        c.back_row = FastDivisor(back_row_range);
        c.black_men = FastDivisor(back_row_range * forward_range);
        c.forward_men = forward;
        c.white_man_top = kWhiteManSquares - forward - 1;
    }
    return cases;
}

// The part of a BackRowCase that position -> index needs, padded to 32 bytes so that selecting
// the entry of r is a shift.
struct IndexCase {
    std::uint64_t forward_multiplier = 0;
    std::uint64_t white_men_multiplier = 0;
    std::int64_t white_man_top = 0;
    std::uint64_t padding = 0;
};
static_assert(sizeof(IndexCase) == 32);

template <int Count>
constexpr std::array<IndexCase, Count> make_index_cases(const std::array<BackRowCase, Count>& cases) noexcept {
    std::array<IndexCase, Count> index_cases{};
    for (int r = 0; r < Count; ++r) {
        index_cases[r] = {cases[r].forward_multiplier, cases[r].white_men_multiplier, cases[r].white_man_top, 0};
    }
    return index_cases;
}

// base(r) * KB * KW + rank(R) * KB * KW by occupancy of squares 1-5 (r = its popcount): the first
// two terms of the index in one load.
template <int Count>
constexpr std::array<std::uint64_t, 1 << kBackRowSquares> make_back_row_index(
    const std::array<BackRowCase, Count>& cases, std::uint64_t kings_range) noexcept {
    std::array<std::uint64_t, 1 << kBackRowSquares> table{};
    for (unsigned pattern = 0; pattern < table.size(); ++pattern) {
        const int r = std::popcount(pattern);
        if (r < Count) table[pattern] = cases[r].index_base + kRankTables.back_row_rank[pattern] * kings_range;
    }
    return table;
}

}  // namespace detail

// The index of one slice fixed at compile time: every count, range and divisor is a constant and
// every loop is unrolled, so the only memory read besides the position is a few table entries.
// SliceIndexer dispatches to these; code that knows its slice at compile time can call them
// directly and have them inlined.
template <int Nbm, int Nbk, int Nwm, int Nwk>
struct StaticSliceIndexer {
    static constexpr SliceId kSlice{Nbm, Nbk, Nwm, Nwk};
    static_assert(is_indexable(kSlice), "more pieces a side than kMaxPiecesPerSide");
    static constexpr std::uint64_t kSize = slice_size(kSlice);

    // As SliceIndexer::index_of and SliceIndexer::position_at.
    static std::uint64_t index_of(const Position& p) noexcept;
    static Position position_at(std::uint64_t index) noexcept;

private:
    static constexpr int kMen = Nbm + Nwm;
    static constexpr std::uint64_t kWhiteKingRange = binomial(kNumSquares - kMen - Nbk, Nwk);      // KW
    static constexpr std::uint64_t kKingRange = binomial(kNumSquares - kMen, Nbk) * kWhiteKingRange;  // KB*KW
    static constexpr detail::FastDivisor kKingDivisor{kKingRange};
    static constexpr detail::FastDivisor kWhiteKingDivisor{kWhiteKingRange};
    static constexpr int kBackRowCases = max_back_row_men(Nbm) + 1;
    static constexpr std::array<detail::BackRowCase, kBackRowCases> kCases =
        detail::make_back_row_cases<kBackRowCases>(kSlice);
    static constexpr std::array<detail::IndexCase, kBackRowCases> kIndexCases =
        detail::make_index_cases<kBackRowCases>(kCases);
    static constexpr std::array<std::uint64_t, 1 << kBackRowSquares> kBackRowIndex =
        detail::make_back_row_index<kBackRowCases>(kCases, kKingRange);
};

template <int Nbm, int Nbk, int Nwm, int Nwk>
inline std::uint64_t StaticSliceIndexer<Nbm, Nbk, Nwm, Nwk>::index_of(const Position& p) noexcept {
    using namespace detail;
    const Bitboard black_men = p.black & ~p.king;
    const Bitboard white_men = p.white & ~p.king;
    const Bitboard black_kings = p.black & p.king;
    const Bitboard white_kings = p.white & p.king;
    const Bitboard men = black_men | white_men;

    // Section 2.3: index = (men * KB + rank(BK)) * KW + rank(WK), with
    // men = base(r) + rank(R) + A * (rank(F) + B * rank(WM)), multiplied out.
    std::uint64_t index = 0;
    if constexpr (Nbm > 0) {
        const Bitboard back_row = black_men & kBackRowBits;
        const IndexCase& c = kIndexCases[std::popcount(back_row)];
        index = kBackRowIndex[back_row] +
                group_rank<Nbm>(extract_bits(black_men, kForwardBlackManBits)) * c.forward_multiplier;
        if constexpr (Nwm > 0) {
            index += white_men_rank<Nwm>(extract_bits(white_men, kWhiteManBits & ~black_men),
                                         static_cast<int>(c.white_man_top)) *
                     c.white_men_multiplier;
        }
    } else if constexpr (Nwm > 0) {
        index = white_men_rank<Nwm>(extract_bits(white_men, kWhiteManBits), kCases[0].white_man_top) *
                kCases[0].white_men_multiplier;
    }
    if constexpr (Nbk > 0) {
        index += group_rank<Nbk>(extract_bits(black_kings, kAllSquares & ~men)) * kWhiteKingRange;
    }
    if constexpr (Nwk > 0) {
        index += group_rank<Nwk>(extract_bits(white_kings, kAllSquares & ~(men | black_kings)));
    }
    return index;
}

template <int Nbm, int Nbk, int Nwm, int Nwk>
inline Position StaticSliceIndexer<Nbm, Nbk, Nwm, Nwk>::position_at(std::uint64_t index) noexcept {
    using namespace detail;
    // 2.4 step 1, split as men * (KB*KW) + (rank(BK) * KW + rank(WK)).
    const std::uint64_t men_index = kKingDivisor.quotient(index);
    const std::uint64_t king_index = index - men_index * kKingRange;
    const std::uint64_t black_king_rank = kWhiteKingDivisor.quotient(king_index);
    const std::uint64_t white_king_rank = king_index - black_king_rank * kWhiteKingRange;

    Bitboard black_men = 0;
    std::uint64_t white_rank = men_index;
    int white_man_top = kCases[0].white_man_top;
    if constexpr (Nbm > 0) {
        // Step 2: base(r) decreases strictly with r, so r = #{q : base(q) > men}.
        int r = 0;
        unrolled<kBackRowCases - 1>([&](auto q) { r += kCases[q].men_base > men_index ? 1 : 0; });
        const BackRowCase& c = kCases[r];
        // Step 3. m = rank(R) + A * (rank(F) + B * rank(WM)); m / A and m / (A*B) are computed
        // side by side rather than one after the other.
        const std::uint64_t m = men_index - c.men_base;
        const std::uint64_t black_part = c.back_row.quotient(m);
        white_rank = c.black_men.quotient(m);
        const std::uint64_t forward_rank = black_part - white_rank * c.forward_range;
        const std::uint64_t back_rank = m - black_part * c.back_row.divisor();
        // Steps 4-5 for the black men.
        black_men = kRankTables.back_row_pattern[r][back_rank] |
                    deposit_bits(group_unrank_padded<Nbm>(forward_rank, c.forward_men), kForwardBlackManBits);
        white_man_top = c.white_man_top;
    }
    Bitboard white_men = 0;
    if constexpr (Nwm > 0) {
        white_men = deposit_bits(white_men_unrank<Nwm>(white_rank, white_man_top), kWhiteManBits & ~black_men);
    }
    const Bitboard men = black_men | white_men;
    Bitboard black_kings = 0;
    if constexpr (Nbk > 0) black_kings = deposit_bits(group_unrank<Nbk>(black_king_rank), kAllSquares & ~men);
    Bitboard white_kings = 0;
    if constexpr (Nwk > 0) {
        white_kings = deposit_bits(group_unrank<Nwk>(white_king_rank), kAllSquares & ~(men | black_kings));
    }
    // Step 6.
    return {black_men | black_kings, white_men | white_kings, black_kings | white_kings};
}

// Position <-> index for one slice chosen at run time: a slice id, its size and pointers to the
// StaticSliceIndexer of the slice. Cheap to construct and to copy.
class SliceIndexer {
public:
    // Precondition: is_indexable(slice).
    explicit SliceIndexer(SliceId slice) noexcept;

    SliceId slice() const noexcept { return slice_; }
    // Number of positions, N of section 2.3.
    std::uint64_t size() const noexcept { return size_; }

    // Index of a position of this slice (section 2.3). The position must belong to the slice
    // (slice_of(p) == slice(), men on their allowed squares); no colour reversal is applied.
    std::uint64_t index_of(const Position& p) const noexcept { return index_of_(p); }

    // The position with a given index < size() (section 2.4).
    Position position_at(std::uint64_t index) const noexcept { return position_at_(index); }

private:
    using IndexOf = std::uint64_t (*)(const Position&) noexcept;
    using PositionAt = Position (*)(std::uint64_t) noexcept;

    SliceId slice_;
    std::uint64_t size_ = 0;
    IndexOf index_of_ = nullptr;
    PositionAt position_at_ = nullptr;
};

// The indexer of any indexable slice (one shared instance per slice).
const SliceIndexer& slice_indexer(SliceId slice);

// slice_indexer(slice).index_of(p) without the shared instance: one jump through a constant table,
// for lookups that index a different slice every time.
std::uint64_t index_in_slice(SliceId slice, const Position& p) noexcept;

// Thin wrappers with the semantics of the upstream DLL functions positiontoindex, indextoposition
// and getdatabasesize_slice (for the C ABI). The counts must describe an indexable slice, the
// position must belong to it and the index must be below the slice size.
std::int64_t position_to_index(const Position& p, int nbm, int nbk, int nwm, int nwk) noexcept;
void index_to_position(std::int64_t index, Position* p, int nbm, int nbk, int nwm, int nwk) noexcept;
std::int64_t get_database_size_slice(int nbm, int nbk, int nwm, int nwk) noexcept;

}  // namespace egdb
