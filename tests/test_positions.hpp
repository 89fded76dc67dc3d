// Small helpers to build positions in tests from square lists and to draw random ones.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <vector>

#include "core/board/position.hpp"

namespace egdb::test {

struct PieceLists {
    std::initializer_list<int> white_men{};
    std::initializer_list<int> white_kings{};
    std::initializer_list<int> black_men{};
    std::initializer_list<int> black_kings{};
};

inline Position make_position(const PieceLists& l) {
    Position p;
    for (int s : l.white_men) p.white |= square_bb(s);
    for (int s : l.white_kings) { p.white |= square_bb(s); p.king |= square_bb(s); }
    for (int s : l.black_men) p.black |= square_bb(s);
    for (int s : l.black_kings) { p.black |= square_bb(s); p.king |= square_bb(s); }
    return p;
}

// A random well-formed position with the given numbers of pieces (men never on their own
// promotion row).
inline Position random_position(std::mt19937_64& rng, int nbm, int nbk, int nwm, int nwk) {
    std::vector<int> squares(50);
    for (int i = 0; i < 50; ++i) squares[static_cast<std::size_t>(i)] = i + 1;
    for (;;) {
        std::shuffle(squares.begin(), squares.end(), rng);
        Position p;
        std::size_t k = 0;
        bool ok = true;
        auto place = [&](int count, bool black, bool king) {
            for (int i = 0; i < count; ++i) {
                const int s = squares[k++];
                if (!king && ((black && s >= 46) || (!black && s <= 5))) ok = false;
                (black ? p.black : p.white) |= square_bb(s);
                if (king) p.king |= square_bb(s);
            }
        };
        place(nbm, true, false);
        place(nbk, true, true);
        place(nwm, false, false);
        place(nwk, false, true);
        if (ok) return p;
    }
}

// A random well-formed position with between min_per_side and max_per_side pieces a side, a random
// share (up to max_king_percent) of them kings, so that runs of men, of kings and of both appear;
// a man drawn on its own promotion row becomes a king.
inline Position random_mixed_position(std::mt19937_64& rng, int min_per_side, int max_per_side, int max_king_percent) {
    std::vector<int> squares;
    for (int s = 1; s <= kNumSquares; ++s) squares.push_back(s);
    std::shuffle(squares.begin(), squares.end(), rng);
    std::uniform_int_distribution<int> count(min_per_side, max_per_side);
    const int white = count(rng);
    const int black = count(rng);
    const int king_percent = std::uniform_int_distribution<int>(0, max_king_percent)(rng);
    std::uniform_int_distribution<int> percent(0, 99);
    Position p;
    for (int i = 0; i < white + black; ++i) {
        const int s = squares[static_cast<std::size_t>(i)];
        const bool is_white = i < white;
        const Bitboard promotion_row = is_white ? kRow1 : kRow10;
        const bool king = percent(rng) < king_percent || (promotion_row & square_bb(s)) != 0;
        (is_white ? p.white : p.black) |= square_bb(s);
        if (king) p.king |= square_bb(s);
    }
    return p;
}

// True when the slow, exhaustive variants of tests should be cut down (sanitizer builds).
inline bool quick_mode() {
    const char* v = std::getenv("EGDB_TEST_QUICK");
    return v != nullptr && *v != '\0' && *v != '0';
}

}  // namespace egdb::test
