// The three quantities the generator computes for a position and a side to move, and the byte
// encoding the in-memory solution uses for them.
//
//  * WLD: win, loss or draw for the side to move; a side with no legal move (or no piece) has lost
//    (kingsrow-format.md 13.3 step 2 and step 6).
//  * DTW: plies until the game ends under optimal play (13.4): a lost position without moves has
//    DTW 0; a win is 1 + the smallest DTW of the successors that are lost for the opponent; a
//    loss is 1 + the largest DTW of all successors. Wins are odd, losses even (by induction).
//  * MTC: plies until the next conversion, a capture or any man move (7.1, 13.5), with Kingsrow's
//    counting: a king move counts 1 + the successor's MTC; a conversion move counts a fixed number
//    of plies that depends on which side makes it (conversion_plies below): 3 for the stronger
//    side, the one that is Black in the canonical orientation of an asymmetric slice (section
//    1.5: more pieces, or as many pieces and more kings), and 2 for a side that is not stronger:
//    the other side of an asymmetric slice and either side of a colour-symmetric one. A lost
//    position without moves has MTC 0. The winner minimises over the moves that keep the win, the
//    loser maximises over all moves. In an asymmetric slice MTC is thus odd with the canonical
//    Black to move and even with White to move, whoever wins.
//    Kingsrow does not document its count. This one reproduces every maximum of up to 6 pieces in
//    kingsrow_high_mtc.txt of the reference material (tests/generate_test.cpp and
//    tests/native_build_test.cpp check those of up to 5), and keeps every unlisted (subslice, side
//    to move) of 2 to 6 pieces below 10. The symmetric count is pinned by 6 pieces only: with 3,
//    slice 2121 reaches 10 with Black to move where Kingsrow lists none; Kingsrow's maxima of
//    symmetric 8-piece slices (3131, 2222) have both parities with Black to move, so both sides
//    count alike there; 2 is the count of a side that is not stronger.
// DTW and MTC are meaningful for wins and losses only; draws report 0 for both.
// MTC of a position whose side to move must capture is thus 3 or 2 (conversion_plies); Kingsrow
// stores no useful value there (7.1).
#pragma once

#include <cstdint>
#include <limits>

#include "core/board/position.hpp"
#include "core/index/slice.hpp"

namespace egdb {

// Plies a conversion move counts in MTC (see above): by the stronger side (the canonical Black
// of an asymmetric slice), and by a side that is not stronger.
inline constexpr unsigned kStrongerSideConversionPlies = 3;
inline constexpr unsigned kOtherSideConversionPlies = 2;

// Plies a conversion by `mover` counts in a position of slice `slice` (the slice before the move).
constexpr unsigned conversion_plies(SliceId slice, Color mover) noexcept {
    if (is_color_symmetric(slice)) return kOtherSideConversionPlies;
    return (mover == Color::Black) == is_canonical(slice) ? kStrongerSideConversionPlies : kOtherSideConversionPlies;
}
constexpr unsigned conversion_plies(const Position& position, Color mover) noexcept {
    return conversion_plies(slice_of(position), mover);
}

// Numeric order Loss < Draw < Win: the side to move prefers larger values.
enum class WldValue : std::uint8_t { Loss = 0, Draw = 1, Win = 2 };

constexpr WldValue negated(WldValue v) noexcept {
    return v == WldValue::Win ? WldValue::Loss : v == WldValue::Loss ? WldValue::Win : WldValue::Draw;
}

const char* to_string(WldValue v) noexcept;

// A distance in plies (half-moves).
using Plies = std::uint16_t;

struct PositionValue {
    WldValue wld = WldValue::Draw;
    Plies dtw = 0;  // 0 for draws
    Plies mtc = 0;  // 0 for draws

    friend constexpr bool operator==(const PositionValue&, const PositionValue&) = default;
};

// WLD and DTW without MTC: all that a conversion needs of its successor, since MTC counts a
// conversion as a fixed number of plies (conversion_plies). The solver and the one-ply check look
// up the successors of every capture and man move with it, which reads one byte per successor
// instead of two in separate arrays (the successor slices are far larger than the caches, so
// each byte read is a cache miss and often a TLB miss).
struct DtwValue {
    WldValue wld = WldValue::Draw;
    Plies dtw = 0;  // 0 for draws

    friend constexpr bool operator==(const DtwValue&, const DtwValue&) = default;
};

constexpr DtwValue dtw_part(const PositionValue& v) noexcept { return {v.wld, v.dtw}; }

// Storage: one byte of DTW code and one byte of MTC per position and side to move, and a sparse
// table for the rare positions whose distances do not fit (wide_values.hpp).
// The DTW code is the DTW in plies for a win or a loss (its parity says which: wins are odd,
// losses even) and kDrawCode for a draw, so WLD costs no extra byte. A position whose DTW is above
// kMaxNarrowDtw or whose MTC is above kMaxNarrowMtc is "wide": its code is kWideWinCode or
// kWideLossCode (odd and even, so the parity still tells WLD), its MTC byte kWideMtc, and both
// distances sit in the table. Up to 6 pieces none is wide (the longest 6-piece DTW is far
// below); 7 and 8 pieces have distances past 255 plies (GWDEGTB moved to 16-bit DTM for 8
// pieces), and they are stored whole, never saturated. The solver counts up to kMaxPlies and
// throws std::overflow_error beyond.
using DistanceCode = std::uint8_t;
inline constexpr DistanceCode kDrawCode = std::numeric_limits<DistanceCode>::max();  // 255
inline constexpr DistanceCode kWideLossCode = 254;
inline constexpr DistanceCode kWideWinCode = 253;
inline constexpr Plies kMaxNarrowDtw = 252;
inline constexpr std::uint8_t kWideMtc = 255;
inline constexpr Plies kMaxNarrowMtc = 254;
inline constexpr Plies kMaxPlies = std::numeric_limits<Plies>::max() - 1;

constexpr WldValue wld_of_code(DistanceCode code) noexcept {
    if (code == kDrawCode) return WldValue::Draw;
    return (code & 1u) != 0 ? WldValue::Win : WldValue::Loss;
}

constexpr bool is_wide_code(DistanceCode code) noexcept { return code == kWideWinCode || code == kWideLossCode; }

// Whether a win or loss with these distances is held in the bytes alone.
constexpr bool fits_narrow(Plies dtw, Plies mtc) noexcept { return dtw <= kMaxNarrowDtw && mtc <= kMaxNarrowMtc; }

// The code of a wide win or loss.
constexpr DistanceCode wide_code(WldValue wld) noexcept { return wld == WldValue::Win ? kWideWinCode : kWideLossCode; }

// The value of a position that is not wide.
constexpr PositionValue decode_value(DistanceCode dtw_code, std::uint8_t mtc) noexcept {
    if (dtw_code == kDrawCode) return {WldValue::Draw, 0, 0};
    return {wld_of_code(dtw_code), dtw_code, mtc};
}
constexpr DtwValue decode_dtw(DistanceCode dtw_code) noexcept {
    if (dtw_code == kDrawCode) return {WldValue::Draw, 0};
    return {wld_of_code(dtw_code), dtw_code};
}

}  // namespace egdb
