// A legal move as the generator produces it: the moving piece's start and end squares and the
// set of captured pieces. Promotion is implied (a man whose move ends on its last row).
// For PDN move strings (kingsrow-format.md 13.7) the landing squares of every capture step can
// be recorded as well; see MoveList::path.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/board/position.hpp"

namespace egdb {

struct Move {
    Bitboard from;      // one bit
    Bitboard to;        // one bit; equals `from` when a king captures round to its start
    Bitboard captured;  // opponent pieces removed; 0 for a non-capture

    constexpr bool is_capture() const noexcept { return captured != 0; }
    constexpr int capture_count() const noexcept { return popcount(captured); }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};

// The position after `side` plays `move` in `pos`.
constexpr Position apply_move(const Position& pos, Color side, const Move& move) noexcept {
    // Computed in scalars and assembled once: patching a copied struct field by field makes the
    // compiler store and reload it, which stalls the perft and generator loops.
    const Bitboard delta = move.from ^ move.to;
    const Bitboard keep = ~move.captured;
    const bool black = side == Color::Black;
    const Bitboard b = black ? pos.black ^ delta : pos.black & keep;
    const Bitboard w = black ? pos.white & keep : pos.white ^ delta;
    Bitboard k = pos.king & keep;
    if ((pos.king & move.from) != 0) {
        k ^= delta;
    } else if ((move.to & (black ? kRow10 : kRow1)) != 0) {
        k |= move.to;
    }
    return Position{b, w, k};
}

// The longest capture in international draughts takes at most 20 pieces (one side's maximum).
inline constexpr int kMaxCaptureSteps = 20;

// Landing squares of the capture steps of one move: squares[i] is where the capturing piece
// stands after taking its (i+1)-th piece. For a king continuing along the same line, upstream
// records the nearest landing square behind the captured piece (13.7).
struct CapturePath {
    std::array<std::uint8_t, kMaxCaptureSteps> squares{};
    std::uint8_t length = 0;
};

// Capacity of a move list. Upstream stops king capture lists at 127 entries (section 14); we keep
// every legal move, so the list is sized for the worst case seen in practice with room to spare.
inline constexpr int kMaxMoves = 256;

struct MoveList {
    std::array<Move, kMaxMoves> moves;
    int count = 0;

    std::span<const Move> view() const noexcept { return {moves.data(), static_cast<std::size_t>(count)}; }
    const Move& operator[](int i) const noexcept { return moves[static_cast<std::size_t>(i)]; }
    int size() const noexcept { return count; }
    bool empty() const noexcept { return count == 0; }
    const Move* begin() const noexcept { return moves.data(); }
    const Move* end() const noexcept { return moves.data() + count; }
};

// A move list with the capture path of every entry, for notation.
struct MoveListWithPaths : MoveList {
    std::array<CapturePath, kMaxMoves> paths;
};

}  // namespace egdb
