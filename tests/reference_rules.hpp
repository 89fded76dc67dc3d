// An independent, deliberately simple implementation of the FMJD capture and move rules on
// (x, y) board coordinates (kingsrow-format.md 1.1 and 14), used only by tests to check the fast
// bitboard generator. It returns the set of distinct resulting positions, which is what the rules
// define; order and upstream's duplicate handling are tested separately.
#pragma once

#include <algorithm>
#include <array>
#include <set>
#include <tuple>
#include <vector>

#include "core/board/position.hpp"

namespace egdb::test {

struct ReferenceBoard {
    // 0 empty, 1 black man, 2 black king, 3 white man, 4 white king, indexed by square 1..50.
    std::array<int, 51> sq{};
};

inline int square_at(int x, int y) {
    if (x < 0 || x > 9 || y < 0 || y > 9) return 0;
    if ((x + y) % 2 == 0) return 0;  // light squares are not played on
    return 5 * y + x / 2 + 1;
}

inline std::pair<int, int> coords_of(int square) {
    const int q = square - 1;
    const int y = q / 5;
    return {2 * (q % 5) + ((y % 2 == 0) ? 1 : 0), y};
}

inline ReferenceBoard to_reference(const Position& p) {
    ReferenceBoard b;
    for (int s = 1; s <= 50; ++s) {
        const Bitboard m = square_bb(s);
        if (p.black & m) b.sq[s] = (p.king & m) ? 2 : 1;
        if (p.white & m) b.sq[s] = (p.king & m) ? 4 : 3;
    }
    return b;
}

inline Position from_reference(const ReferenceBoard& b) {
    Position p;
    for (int s = 1; s <= 50; ++s) {
        const Bitboard m = square_bb(s);
        if (b.sq[s] == 1 || b.sq[s] == 2) p.black |= m;
        if (b.sq[s] == 3 || b.sq[s] == 4) p.white |= m;
        if (b.sq[s] == 2 || b.sq[s] == 4) p.king |= m;
    }
    return p;
}

struct ReferenceCapture {
    int from;
    int to;
    std::vector<int> captured;
};

class ReferenceRules {
public:
    // All distinct positions reachable by one legal move.
    static std::set<std::tuple<Bitboard, Bitboard, Bitboard>> successors(const Position& pos, Color side) {
        const ReferenceBoard board = to_reference(pos);
        std::vector<ReferenceCapture> caps;
        for (int s = 1; s <= 50; ++s) {
            if (!own(board.sq[s], side)) continue;
            std::vector<int> taken;
            search(board, side, s, s, board.sq[s] == 2 || board.sq[s] == 4, taken, caps);
        }
        std::set<std::tuple<Bitboard, Bitboard, Bitboard>> out;
        if (!caps.empty()) {
            std::size_t best = 0;
            for (const auto& c : caps) best = std::max(best, c.captured.size());
            for (const auto& c : caps) {
                if (c.captured.size() != best) continue;
                ReferenceBoard b = board;
                const int piece = b.sq[c.from];
                b.sq[c.from] = 0;
                for (int t : c.captured) b.sq[t] = 0;
                b.sq[c.to] = promote(piece, c.to);
                const Position p = from_reference(b);
                out.emplace(p.black, p.white, p.king);
            }
            return out;
        }
        for (int s = 1; s <= 50; ++s) {
            if (!own(board.sq[s], side)) continue;
            const bool king = board.sq[s] == 2 || board.sq[s] == 4;
            const auto [x, y] = coords_of(s);
            for (auto [dx, dy] : kDirs) {
                if (!king && dy != forward(side)) continue;
                for (int k = 1; k <= 9; ++k) {
                    const int t = square_at(x + k * dx, y + k * dy);
                    if (t == 0 || board.sq[t] != 0) break;
                    ReferenceBoard b = board;
                    b.sq[t] = promote(b.sq[s], t);
                    b.sq[s] = 0;
                    const Position p = from_reference(b);
                    out.emplace(p.black, p.white, p.king);
                    if (!king) break;
                }
            }
        }
        return out;
    }

private:
    static constexpr std::array<std::pair<int, int>, 4> kDirs = {{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}};

    static bool own(int piece, Color side) {
        return side == Color::Black ? (piece == 1 || piece == 2) : (piece == 3 || piece == 4);
    }
    static int forward(Color side) { return side == Color::Black ? 1 : -1; }
    static int promote(int piece, int square) {
        if (piece == 1 && square >= 46) return 2;
        if (piece == 3 && square <= 5) return 4;
        return piece;
    }

    // Depth-first search of every capture sequence of the piece that started on `start` and now
    // stands on `at`. Captured pieces stay on the board until the end; the start square is empty.
    static void search(const ReferenceBoard& board, Color side, int start, int at, bool king,
                       std::vector<int>& taken, std::vector<ReferenceCapture>& out) {
        const auto [x, y] = coords_of(at);
        bool extended = false;
        auto is_empty = [&](int s) { return s != 0 && (board.sq[s] == 0 || s == start); };
        auto is_target = [&](int s) {
            return s != 0 && s != start && board.sq[s] != 0 && !own(board.sq[s], side) &&
                   std::find(taken.begin(), taken.end(), s) == taken.end();
        };
        for (auto [dx, dy] : kDirs) {
            int k = 1;
            if (king) {
                while (is_empty(square_at(x + k * dx, y + k * dy))) ++k;
            }
            const int victim = square_at(x + k * dx, y + k * dy);
            if (!is_target(victim)) continue;
            for (int j = k + 1;; ++j) {
                const int landing = square_at(x + j * dx, y + j * dy);
                if (!is_empty(landing)) break;
                extended = true;
                taken.push_back(victim);
                search(board, side, start, landing, king, taken, out);
                taken.pop_back();
                if (!king) break;
            }
        }
        if (!extended && !taken.empty()) out.push_back({start, at, taken});
    }
};

}  // namespace egdb::test
