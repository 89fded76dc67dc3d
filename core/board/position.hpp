// A position in the Kingsrow representation (kingsrow-format.md 1.2-1.5): three bitboards,
// black pieces, white pieces and kings of both colours. The layout is the 24-byte C struct that
// the C ABI and the Kingsrow DLL pass around, so a Position can be handed across unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/board/bitboard.hpp"

namespace egdb {

// Numeric values are the Kingsrow constants EGDB_BLACK = 0 and EGDB_WHITE = 1.
enum class Color : std::uint8_t { Black = 0, White = 1 };

constexpr Color opposite(Color c) noexcept { return c == Color::Black ? Color::White : Color::Black; }

// "Black" / "White", as messages name the side to move.
constexpr std::string_view color_name(Color c) noexcept { return c == Color::White ? "White" : "Black"; }

struct Position {
    Bitboard black = 0;
    Bitboard white = 0;
    Bitboard king = 0;

    constexpr Bitboard pieces(Color c) const noexcept { return c == Color::Black ? black : white; }
    constexpr Bitboard occupied() const noexcept { return black | white; }
    constexpr Bitboard empty() const noexcept { return ~(black | white) & kAllSquares; }
    constexpr Bitboard men(Color c) const noexcept { return pieces(c) & ~king; }
    constexpr Bitboard kings(Color c) const noexcept { return pieces(c) & king; }

    friend constexpr bool operator==(const Position&, const Position&) = default;
};

static_assert(sizeof(Position) == 24, "Position must match the Kingsrow 24-byte struct");

// Piece counts of a position: the material signature of its slice (section 1.5).
struct Material {
    int nbm = 0, nbk = 0, nwm = 0, nwk = 0;

    constexpr int black() const noexcept { return nbm + nbk; }
    constexpr int white() const noexcept { return nwm + nwk; }
    constexpr int total() const noexcept { return black() + white(); }
    friend constexpr bool operator==(const Material&, const Material&) = default;
};

constexpr Material material_of(const Position& p) noexcept {
    return {popcount(p.men(Color::Black)), popcount(p.kings(Color::Black)),
            popcount(p.men(Color::White)), popcount(p.kings(Color::White))};
}

// Colour reversal (section 1.4): rotate 180 degrees and swap colours. The side to move flips too;
// values relative to the side to move are unchanged.
constexpr Position reversed(const Position& p) noexcept {
    return {mirror(p.white), mirror(p.black), mirror(p.king)};
}

// Structural legality (section 1.3): disjoint colours, kings are pieces, no man on its own
// promotion row, nothing outside the 50 squares. Does not limit piece counts.
constexpr bool is_well_formed(const Position& p) noexcept {
    if ((p.black & p.white) != 0) return false;
    if ((p.king & ~(p.black | p.white)) != 0) return false;
    if (((p.black | p.white) & ~kAllSquares) != 0) return false;
    if ((p.men(Color::Black) & kRow10) != 0) return false;
    if ((p.men(Color::White) & kRow1) != 0) return false;
    return true;
}

}  // namespace egdb
