// The value algebra of the Kingsrow search (kingsrow-format.md 13.3) over kingsrow::WldResult:
// stored lookups may give partial values (draw-or-loss, win-or-draw) and "unknown" (an unstored
// position or side, a missing slice: written U below), and the negamax search of Database
// combines them with these operations. Every result is from the side to move's point of view.
#pragma once

#include "core/formats/kingsrow/result.hpp"

namespace egdb::wld_algebra {

using kingsrow::WldResult;

// U: anything but a (possibly partial) value.
constexpr bool is_unknown(WldResult v) noexcept {
    return v != WldResult::Win && v != WldResult::Loss && v != WldResult::Draw && v != WldResult::DrawOrLoss &&
           v != WldResult::WinOrDraw;
}

// The value for the other side.
constexpr WldResult negate(WldResult v) noexcept {
    switch (v) {
        case WldResult::Win: return WldResult::Loss;
        case WldResult::Loss: return WldResult::Win;
        case WldResult::WinOrDraw: return WldResult::DrawOrLoss;
        case WldResult::DrawOrLoss: return WldResult::WinOrDraw;
        default: return v;
    }
}

// a >= b whatever a partial a turns out to be.
constexpr bool greater_equal(WldResult a, WldResult b) noexcept {
    switch (b) {
        case WldResult::Win: return a == WldResult::Win;
        case WldResult::Draw: return a == WldResult::Draw || a == WldResult::WinOrDraw || a == WldResult::Win;
        case WldResult::Loss: return true;
        case WldResult::WinOrDraw: return a == WldResult::WinOrDraw || a == WldResult::Win;
        case WldResult::DrawOrLoss:
            return a == WldResult::Win || a == WldResult::WinOrDraw || a == WldResult::Draw || a == WldResult::DrawOrLoss;
        default: return a != WldResult::Loss;
    }
}

// a > b whatever a partial a turns out to be.
constexpr bool greater(WldResult a, WldResult b) noexcept {
    switch (b) {
        case WldResult::Win: return false;
        case WldResult::Draw: return a == WldResult::WinOrDraw || a == WldResult::Win;
        case WldResult::Loss: return a != WldResult::Loss;
        case WldResult::WinOrDraw: return a == WldResult::Win;
        case WldResult::DrawOrLoss: return a != WldResult::Loss;
        default: return a != WldResult::Loss && !is_unknown(a);
    }
}

// The best of `best` so far and a move worth `v`.
constexpr WldResult improve(WldResult v, WldResult best) noexcept {
    switch (best) {
        case WldResult::Win: return WldResult::Win;
        case WldResult::Draw:
            return (v == WldResult::WinOrDraw || v == WldResult::Win) ? v
                   : is_unknown(v)                                   ? WldResult::WinOrDraw
                                                                     : WldResult::Draw;
        case WldResult::Loss: return v;
        case WldResult::WinOrDraw: return v == WldResult::Win ? WldResult::Win : WldResult::WinOrDraw;
        case WldResult::DrawOrLoss: return v == WldResult::Loss ? WldResult::DrawOrLoss : v;
        default:
            return (v == WldResult::WinOrDraw || v == WldResult::Win) ? v
                   : v == WldResult::Draw                            ? WldResult::WinOrDraw
                                                                     : WldResult::Unknown;
    }
}

}  // namespace egdb::wld_algebra
