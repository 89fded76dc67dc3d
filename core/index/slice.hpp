// Slices (material signatures), the canonical-slice and lookup-reversal rules, slice sizes and
// subslices (kingsrow-format.md sections 1.5, 2.3 and 2.5).
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "core/board/position.hpp"
#include "core/index/binomial.hpp"

namespace egdb {

// Pieces a side that the databases store (section 1.5). Every table of the indexing module is
// sized from this constant, so raising it (up to kBinomialMaxK) is the only change needed.
inline constexpr int kMaxPiecesPerSide = 5;
static_assert(kMaxPiecesPerSide <= kBinomialMaxK, "binomial table too small for the piece limit");

// Board geometry used by the index (section 2.1): black men on squares 1-5 form group R, other
// black men live on 6-45 (40 squares), white men on 6-50 (45 squares), kings anywhere (50).
inline constexpr int kBackRowSquares = 5;
inline constexpr int kForwardBlackManSquares = 40;
inline constexpr int kWhiteManSquares = 45;

// Subslice lengths (section 2.5): WLD and MTC formats cut slices into 2^31 indices, DTW into 2^30.
inline constexpr std::uint64_t kSubsliceSizeWld = std::uint64_t{1} << 31;
inline constexpr std::uint64_t kSubsliceSizeMtc = std::uint64_t{1} << 31;
inline constexpr std::uint64_t kSubsliceSizeDtw = std::uint64_t{1} << 30;

// A slice: all positions with these numbers of black men, black kings, white men, white kings.
struct SliceId {
    int nbm = 0;
    int nbk = 0;
    int nwm = 0;
    int nwk = 0;

    constexpr int black() const noexcept { return nbm + nbk; }
    constexpr int white() const noexcept { return nwm + nwk; }
    constexpr int total() const noexcept { return black() + white(); }

    // "2212" for nbm=2, nbk=2, nwm=1, nwk=2: the order of the per-slice file names (3.1).
    std::string to_string() const;

    // Lexicographic on (nbm, nbk, nwm, nwk): only for containers, not the driver's file order.
    friend constexpr auto operator<=>(const SliceId&, const SliceId&) = default;
};

constexpr SliceId slice_of(const Material& m) noexcept { return {m.nbm, m.nbk, m.nwm, m.nwk}; }
constexpr SliceId slice_of(const Position& p) noexcept { return slice_of(material_of(p)); }

// Non-negative counts and at most kMaxPiecesPerSide a side: what the indexer accepts.
constexpr bool is_indexable(SliceId s) noexcept {
    return s.nbm >= 0 && s.nbk >= 0 && s.nwm >= 0 && s.nwk >= 0 && s.black() <= kMaxPiecesPerSide &&
           s.white() <= kMaxPiecesPerSide;
}

// The slice of the colour-reversed positions (section 1.4): colours swap.
constexpr SliceId color_reversed(SliceId s) noexcept { return {s.nwm, s.nwk, s.nbm, s.nbk}; }

constexpr bool is_color_symmetric(SliceId s) noexcept { return s.nbm == s.nwm && s.nbk == s.nwk; }

// Section 1.5: only canonical slices are stored: nb > nw, or nb == nw and nbk >= nwk.
constexpr bool is_canonical(SliceId s) noexcept {
    return s.black() > s.white() || (s.black() == s.white() && s.nbk >= s.nwk);
}

// Section 1.5, the three reversal conditions of a lookup: nw > nb; nw == nb and nwk > nbk; a
// colour-symmetric slice with White to move.
constexpr bool lookup_reverses(SliceId s, Color side_to_move) noexcept {
    if (s.white() > s.black()) return true;
    if (s.white() == s.black() && s.nwk > s.nbk) return true;
    return is_color_symmetric(s) && side_to_move == Color::White;
}

// What a database lookup actually reads (section 1.5): the position, side to move and slice
// after the optional reversal. `slice` is always canonical, and for a colour-symmetric slice
// `side_to_move` is Black.
struct LookupKey {
    Position position;
    Color side_to_move = Color::Black;
    SliceId slice;
    bool reversed = false;

    friend constexpr bool operator==(const LookupKey&, const LookupKey&) = default;
};

constexpr LookupKey lookup_key(const Position& p, Color side_to_move) noexcept {
    const SliceId s = slice_of(p);
    if (lookup_reverses(s, side_to_move)) {
        return {reversed(p), opposite(side_to_move), color_reversed(s), true};
    }
    return {p, side_to_move, s, false};
}

// Number of men configurations with r black men on squares 1-5 (section 2.3):
// G(r) = C(5,r) * C(40,bm-r) * C(45-(bm-r),wm).
constexpr std::uint64_t men_group_size(int nbm, int nwm, int back_row_men) noexcept {
    const int forward = nbm - back_row_men;
    return binomial(kBackRowSquares, back_row_men) * binomial(kForwardBlackManSquares, forward) *
           binomial(kWhiteManSquares - forward, nwm);
}

// Largest possible r, the number of black men on squares 1-5.
constexpr int max_back_row_men(int nbm) noexcept { return nbm < kBackRowSquares ? nbm : kBackRowSquares; }

// base(r) of section 2.3: the men configurations with more than r men on the back row come first.
constexpr std::uint64_t men_group_base(int nbm, int nwm, int back_row_men) noexcept {
    std::uint64_t base = 0;
    for (int q = back_row_men + 1; q <= max_back_row_men(nbm); ++q) base += men_group_size(nbm, nwm, q);
    return base;
}

// Number of men configurations of a slice: the sum of G(r) over r.
constexpr std::uint64_t men_configurations(int nbm, int nwm) noexcept {
    return men_group_base(nbm, nwm, -1);
}

// Positions of a slice, N of section 2.3 (upstream getdatabasesize_slice).
constexpr std::uint64_t slice_size(SliceId s) noexcept {
    const int men = s.nbm + s.nwm;
    return men_configurations(s.nbm, s.nwm) * binomial(kNumSquares - men, s.nbk) *
           binomial(kNumSquares - men - s.nbk, s.nwk);
}

// Section 2.5: max(1, ceil(size / subslice_size)) subslices.
constexpr std::uint64_t subslice_count(std::uint64_t size, std::uint64_t subslice_size) noexcept {
    const std::uint64_t count = (size + subslice_size - 1) / subslice_size;
    return count == 0 ? 1 : count;
}

// Positions in subslice number `subslice` (< subslice_count): S, except for the last one.
constexpr std::uint64_t subslice_length(std::uint64_t size, std::uint64_t subslice_size,
                                        std::uint64_t subslice) noexcept {
    const std::uint64_t first = subslice * subslice_size;
    const std::uint64_t rest = size - first;
    return rest < subslice_size ? rest : subslice_size;
}

// An index split into subslice number and 32-bit local index (section 2.5).
struct SubsliceIndex {
    std::uint64_t subslice = 0;
    std::uint32_t local = 0;

    friend constexpr bool operator==(const SubsliceIndex&, const SubsliceIndex&) = default;
};

constexpr SubsliceIndex split_index(std::uint64_t index, std::uint64_t subslice_size) noexcept {
    return {index / subslice_size, static_cast<std::uint32_t>(index % subslice_size)};
}

// The canonical slices with `total_pieces` pieces, both sides non-empty, at most
// kMaxPiecesPerSide a side, in the driver's file-name order (section 1.5, last paragraph): nb
// upward from 1 with nw <= nb, then nbk from 0 to nb, then nwk from 0 to nw, skipping
// nb == nw && nwk > nbk.
std::vector<SliceId> canonical_slices(int total_pieces);

// Whether slices with no piece of one colour are listed. A side without pieces has lost, so the
// databases never contain them, but the index is defined for them too.
enum class EmptySide : std::uint8_t { Excluded, Included };

// Every slice, canonical or not, with 1..max_pieces pieces (2..max_pieces when empty sides are
// excluded) and at most kMaxPiecesPerSide a side, ordered by total pieces, then nbm, nbk, nwm, nwk.
std::vector<SliceId> all_slices(int max_pieces, EmptySide empty_side = EmptySide::Excluded);

}  // namespace egdb
