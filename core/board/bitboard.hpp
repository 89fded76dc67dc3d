// Bitboard layout of the Kingsrow driver (kingsrow-format.md section 1.2).
//
// Square s (1..50) lives at bit (s-1) + (s-1)/10, which leaves "ghost" bits 10, 21, 32 and 43
// empty. With these gaps every diagonal step is a plain shift by 5 or 6 and a step off the board
// lands on a ghost bit or outside bits 0..53, so masking with kAllSquares removes it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace egdb {

using Bitboard = std::uint64_t;

inline constexpr int kNumSquares = 50;
inline constexpr int kNumBits = 54;

// Bit number of square s (1..50).
constexpr int square_to_bit(int square) noexcept { return (square - 1) + (square - 1) / 10; }

// Square (1..50) of a valid bit number; 0 for a ghost bit or a bit beyond 53.
constexpr int bit_to_square(int bit) noexcept {
    if (bit < 0 || bit >= kNumBits || bit % 11 == 10) return 0;
    return bit - bit / 11 + 1;
}

constexpr Bitboard square_bb(int square) noexcept { return Bitboard{1} << square_to_bit(square); }

// Square of a bitboard that has exactly one bit set.
inline int bb_to_square(Bitboard single) noexcept { return bit_to_square(std::countr_zero(single)); }

constexpr Bitboard squares_bb(int first, int last) noexcept {
    Bitboard b = 0;
    for (int s = first; s <= last; ++s) b |= square_bb(s);
    return b;
}

inline constexpr Bitboard kAllSquares = squares_bb(1, 50);
// Black men are promoted on White's back row (46-50), white men on Black's (1-5).
inline constexpr Bitboard kRow1 = squares_bb(1, 5);
inline constexpr Bitboard kRow10 = squares_bb(46, 50);

// The four diagonal directions, as shifts. Positive shifts go towards square 50 (Black's forward
// direction), negative ones towards square 1 (White's forward direction).
// The order +6, +5, -5, -6 is the upstream generator's order (section 14).
inline constexpr std::array<int, 4> kDirections = {6, 5, -5, -6};

template <int Shift>
constexpr Bitboard shift(Bitboard b) noexcept {
    if constexpr (Shift > 0) return b << Shift;
    else return b >> -Shift;
}

constexpr Bitboard shift(Bitboard b, int s) noexcept { return s > 0 ? b << s : b >> -s; }

constexpr Bitboard lowest_bit(Bitboard b) noexcept { return b & (~b + 1); }
constexpr int popcount(Bitboard b) noexcept { return std::popcount(b); }

// Mirror of the board (kingsrow-format.md 1.4): square s <-> 51 - s, bit b <-> 53 - b.
constexpr Bitboard mirror(Bitboard b) noexcept {
    // Reverse all 64 bits, then bit 63-b lands where 53-b belongs: shift right by 10.
    Bitboard r = b;
    r = ((r >> 1) & 0x5555555555555555ULL) | ((r & 0x5555555555555555ULL) << 1);
    r = ((r >> 2) & 0x3333333333333333ULL) | ((r & 0x3333333333333333ULL) << 2);
    r = ((r >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((r & 0x0F0F0F0F0F0F0F0FULL) << 4);
    r = ((r >> 8) & 0x00FF00FF00FF00FFULL) | ((r & 0x00FF00FF00FF00FFULL) << 8);
    r = ((r >> 16) & 0x0000FFFF0000FFFFULL) | ((r & 0x0000FFFF0000FFFFULL) << 16);
    r = (r >> 32) | (r << 32);
    return r >> 10;
}

}  // namespace egdb
