// Move generation under the FMJD rules as the Kingsrow engine implements them
// (kingsrow-format.md section 14). The order of the generated moves is upstream's, because the
// C ABI's get_movelist and the tie order of distance lists depend on it.
#include "core/rules/movegen.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "core/rules/king_slides.hpp"

namespace egdb {
namespace {

// Squares along each direction from each bit, nearest first in bit order (all squares up to the
// edge of the board). Index: direction slot (0: +6, 1: +5, 2: -5, 3: -6), then bit number.
struct RayTable {
    std::array<std::array<Bitboard, 64>, 4> ray{};
};

constexpr RayTable make_rays() {
    RayTable t{};
    for (int slot = 0; slot < 4; ++slot) {
        const int d = kDirections[static_cast<std::size_t>(slot)];
        for (int square = 1; square <= kNumSquares; ++square) {
            Bitboard b = square_bb(square);
            Bitboard r = 0;
            for (;;) {
                b = shift(b, d) & kAllSquares;
                if (b == 0) break;
                r |= b;
            }
            t.ray[static_cast<std::size_t>(slot)][static_cast<std::size_t>(square_to_bit(square))] = r;
        }
    }
    return t;
}

inline constexpr RayTable kRays = make_rays();

constexpr int slot_of(int d) noexcept { return d == 6 ? 0 : d == 5 ? 1 : d == -5 ? 2 : 3; }

// The squares of `from` and the squares up to 7 steps away from one of them along direction D over
// `empty` squares (king_slides.hpp occluded_fill, 3 rounds). 7 steps are all a capture can use: on
// a diagonal of at most 10 squares the king, its victim and the landing square leave at most 7
// empty squares before the victim.
template <int D>
constexpr Bitboard capture_reach(Bitboard from, Bitboard empty) noexcept {
    return occluded_fill<D, 3>(from, empty);
}

// Nearest occupied square from `from_bit` along direction d (0 when the ray is empty).
template <int D>
inline Bitboard nearest_blocker(int from_bit, Bitboard occupied) noexcept {
    const Bitboard blockers = kRays.ray[slot_of(D)][static_cast<std::size_t>(from_bit)] & occupied;
    if (blockers == 0) return 0;
    if constexpr (D > 0) return blockers & (~blockers + 1);
    else return Bitboard{1} << (63 - std::countl_zero(blockers));
}

// Men move forward: Black towards 50 (+6 then +5 in upstream order), White towards 1 (-5 then -6).
template <Color Side> inline constexpr int kManStepA = Side == Color::Black ? 6 : -5;
template <Color Side> inline constexpr int kManStepB = Side == Color::Black ? 5 : -6;

// The state of one capture search: the board as the capturing piece sees it while the capture
// is under way. Captured pieces stay on the board (they block and cannot be jumped twice) and
// the capturing piece's start square counts as empty (section 14).
template <bool TrackPath>
struct CaptureSearch {
    Position pos;
    Color side;
    Bitboard free = 0;       // empty squares plus the capturing piece's start square
    Bitboard opponents = 0;  // all opponent pieces at the start of the move
    Bitboard from = 0;
    int best = 0;            // most pieces taken by any capture found so far
    MoveList* list = nullptr;
    CapturePath* paths = nullptr;  // only when TrackPath
    std::array<std::uint8_t, kMaxCaptureSteps> path{};

    // Adds the capture ending on `to` after taking `captured` (n pieces), applying the majority
    // rule and upstream's duplicate rule: equal results are merged only with 4+ captures.
    void record(Bitboard to, Bitboard captured, int n) noexcept {
        if (n < best) return;
        if (n > best) {
            best = n;
            list->count = 0;
        }
        if (list->count >= kMaxMoves) return;
        const Move move{from, to, captured};
        if (n >= 4) {
            const Position result = apply_move(pos, side, move);
            for (int i = 0; i < list->count; ++i) {
                if (apply_move(pos, side, list->moves[static_cast<std::size_t>(i)]) == result) return;
            }
        }
        const auto slot = static_cast<std::size_t>(list->count);
        list->moves[slot] = move;
        if constexpr (TrackPath) {
            CapturePath& p = paths[slot];
            p.length = static_cast<std::uint8_t>(n);
            std::copy_n(path.begin(), n, p.squares.begin());
        }
        ++list->count;
    }

    void note_landing(int n, Bitboard landing) noexcept {
        if constexpr (TrackPath) path[static_cast<std::size_t>(n)] = static_cast<std::uint8_t>(bb_to_square(landing));
    }

    // A man standing on `at` after taking n pieces (`captured`) tries to go on capturing in all
    // four directions, in upstream order; where it cannot, the sequence ends there.
    void man_continue(Bitboard at, Bitboard captured, int n) noexcept {
        const Bitboard targets = opponents & ~captured;
        bool extended = false;
        extended |= man_step<6>(at, captured, targets, n);
        extended |= man_step<5>(at, captured, targets, n);
        extended |= man_step<-5>(at, captured, targets, n);
        extended |= man_step<-6>(at, captured, targets, n);
        if (!extended) record(at, captured, n);
    }

    template <int D>
    bool man_step(Bitboard at, Bitboard captured, Bitboard targets, int n) noexcept {
        const Bitboard jumped = shift<D>(at) & targets;
        const Bitboard landing = shift<D>(jumped) & free;
        if (landing == 0) return false;
        note_landing(n, landing);
        man_continue(landing, captured | jumped, n + 1);
        return true;
    }

    // A king has just taken the piece before `first_landing` while moving along D. It may stop
    // on any empty square behind that piece; from each, nearest first, it first tries to capture
    // along the other diagonal (section 14 order), then the sequence may end there. After all
    // landing squares it tries to go on along D over the next piece.
    template <int D>
    void king_continue(Bitboard first_landing, Bitboard captured, int n) noexcept {
        constexpr int kSideA = (D == 6 || D == -6) ? 5 : 6;
        constexpr int kSideB = -kSideA;
        const Bitboard targets = opponents & ~captured;
        const Bitboard occupied = ~free & kAllSquares;
        Bitboard at = first_landing;
        for (;;) {
            note_landing(n - 1, at);
            const int bit = std::countr_zero(at);
            bool extended = king_try<kSideA>(bit, captured, targets, occupied, n);
            extended |= king_try<kSideB>(bit, captured, targets, occupied, n);
            if (!extended) record(at, captured, n);
            const Bitboard next = shift<D>(at);
            if ((next & free) == 0) {
                at = next;
                break;
            }
            at = next;
        }
        if ((at & targets) != 0 && (shift<D>(at) & free) != 0) {
            note_landing(n - 1, first_landing);
            king_continue<D>(shift<D>(at), captured | at, n + 1);
        }
    }

    template <int D>
    bool king_try(int bit, Bitboard captured, Bitboard targets, Bitboard occupied, int n) noexcept {
        const Bitboard blocker = nearest_blocker<D>(bit, occupied);
        if ((blocker & targets) == 0 || (shift<D>(blocker) & free) == 0) return false;
        king_continue<D>(shift<D>(blocker), captured | blocker, n + 1);
        return true;
    }

    // The first capture of a king standing on `from` (already set), in direction D.
    template <int D>
    void king_start(Bitboard empty) noexcept {
        const Bitboard blocker = nearest_blocker<D>(std::countr_zero(from), ~empty & kAllSquares);
        if ((blocker & opponents) == 0 || (shift<D>(blocker) & empty) == 0) return;
        king_continue<D>(shift<D>(blocker), blocker, 1);
    }
};

template <bool TrackPath, int D>
void man_first_jumps(CaptureSearch<TrackPath>& s, Bitboard men, Bitboard empty) noexcept {
    for (Bitboard landings = shift<D>(shift<D>(men) & s.opponents) & empty; landings != 0;
         landings &= landings - 1) {
        const Bitboard landing = lowest_bit(landings);
        const Bitboard jumped = shift<-D>(landing);
        s.from = shift<-D>(jumped);
        s.free = empty | s.from;
        s.note_landing(0, landing);
        s.man_continue(landing, jumped, 1);
    }
}

template <Color Side, bool TrackPath>
int generate_captures_impl(const Position& pos, MoveList& list, CapturePath* paths) noexcept {
    CaptureSearch<TrackPath> s;
    s.pos = pos;
    s.side = Side;
    s.list = &list;
    s.paths = paths;
    s.opponents = pos.pieces(opposite(Side));
    list.count = 0;
    const Bitboard empty = pos.empty();
    const Bitboard men = pos.men(Side);
    // Men first: first-jump direction +6, +5, -5, -6, landing squares ascending.
    man_first_jumps<TrackPath, 6>(s, men, empty);
    man_first_jumps<TrackPath, 5>(s, men, empty);
    man_first_jumps<TrackPath, -5>(s, men, empty);
    man_first_jumps<TrackPath, -6>(s, men, empty);
    // Then each king in ascending square order, directions +6, +5, -5, -6.
    for (Bitboard kings = pos.kings(Side); kings != 0; kings &= kings - 1) {
        s.from = lowest_bit(kings);
        s.free = empty | s.from;
        s.template king_start<6>(empty);
        s.template king_start<5>(empty);
        s.template king_start<-5>(empty);
        s.template king_start<-6>(empty);
    }
    return list.count;
}

template <Color Side>
bool has_capture_impl(const Position& pos) noexcept {
    const Bitboard empty = pos.empty();
    const Bitboard opp = pos.pieces(opposite(Side));
    const Bitboard men = pos.men(Side);
    const Bitboard man_landings = (shift<6>(shift<6>(men) & opp) | shift<5>(shift<5>(men) & opp) |
                                   shift<-5>(shift<-5>(men) & opp) | shift<-6>(shift<-6>(men) & opp)) &
                                  empty;
    if (man_landings != 0) return true;
    const Bitboard kings = pos.kings(Side);
    if (kings == 0) return false;
    // Each king's reach along each direction over empty squares (capture_reach); a capture exists
    // where a reach meets an opponent with an empty square behind it. The four directions are
    // independent and without branches, so they overlap in the pipeline.
    auto landings = [&]<int D>() { return shift<D>(shift<D>(capture_reach<D>(kings, empty)) & opp); };
    return ((landings.template operator()<6>() | landings.template operator()<5>() |
             landings.template operator()<-5>() | landings.template operator()<-6>()) &
            empty) != 0;
}

// The men's steps, appended to `list` from position `n`; returns the new count.
template <Color Side>
int append_man_non_captures(const Position& pos, MoveList& list, int n) noexcept {
    const Bitboard empty = pos.empty();
    const Bitboard men = pos.men(Side);
    auto man_moves = [&]<int D>() {
        for (Bitboard to = shift<D>(men) & empty; to != 0; to &= to - 1) {
            const Bitboard t = lowest_bit(to);
            list.moves[static_cast<std::size_t>(n++)] = Move{shift<-D>(t), t, 0};
        }
    };
    man_moves.template operator()<kManStepA<Side>>();
    man_moves.template operator()<kManStepB<Side>>();
    return n;
}

template <Color Side>
int generate_non_captures(const Position& pos, MoveList& list) noexcept {
    const Bitboard empty = pos.empty();
    int n = append_man_non_captures<Side>(pos, list, 0);
    const Bitboard kings = pos.kings(Side);
    if (kings != 0) {
        // For each direction, first steps in ascending order, each followed by its ray.
        auto king_moves = [&]<int D>() {
            for (Bitboard first = shift<D>(kings) & empty; first != 0; first &= first - 1) {
                Bitboard t = lowest_bit(first);
                const Bitboard from = shift<-D>(t);
                do {
                    list.moves[static_cast<std::size_t>(n++)] = Move{from, t, 0};
                    t = shift<D>(t) & empty;
                } while (t != 0);
            }
        };
        king_moves.template operator()<6>();
        king_moves.template operator()<5>();
        king_moves.template operator()<-5>();
        king_moves.template operator()<-6>();
    }
    list.count = n;
    return n;
}

template <Color Side>
int count_king_non_captures(const Position& pos) noexcept {
    return count_king_slides(pos.kings(Side), pos.empty());
}

template <Color Side>
int count_non_captures(const Position& pos) noexcept {
    const Bitboard empty = pos.empty();
    const Bitboard men = pos.men(Side);
    return popcount(shift<kManStepA<Side>>(men) & empty) + popcount(shift<kManStepB<Side>>(men) & empty) +
           count_king_non_captures<Side>(pos);
}

template <Color Side, bool TrackPath>
int generate_impl(const Position& pos, MoveList& list, CapturePath* paths) noexcept {
    if (has_capture_impl<Side>(pos)) return generate_captures_impl<Side, TrackPath>(pos, list, paths);
    return generate_non_captures<Side>(pos, list);
}

// Number of legal moves without building the list. The common case at perft leaves, captures
// by men only where no man can go on after its first jump, is counted with bitboards alone; the
// rest goes through the full capture search (majority rule, duplicates).
template <Color Side>
int count_moves_impl(const Position& pos) noexcept {
    const Bitboard kings = pos.kings(Side);
    if (kings == 0) {
        const Bitboard empty = pos.empty();
        const Bitboard opp = pos.pieces(opposite(Side));
        const Bitboard men = pos.men(Side);
        const Bitboard l6 = shift<6>(shift<6>(men) & opp) & empty;
        const Bitboard l5 = shift<5>(shift<5>(men) & opp) & empty;
        const Bitboard lm5 = shift<-5>(shift<-5>(men) & opp) & empty;
        const Bitboard lm6 = shift<-6>(shift<-6>(men) & opp) & empty;
        const Bitboard landings = l6 | l5 | lm5 | lm6;
        if (landings == 0) return count_non_captures<Side>(pos);
        // A man that landed after jumping along D can go on only in the three other directions
        // (going back along -D would meet the piece it just took); behind a second victim it
        // needs an empty square, which cannot be its own start square in those directions.
        auto onward = [&]<int D>(Bitboard landed) {
            return shift<D>(shift<D>(landed) & opp) & empty;
        };
        const Bitboard second =
            (onward.template operator()<6>(l6 | l5 | lm5) | onward.template operator()<5>(l6 | l5 | lm6) |
             onward.template operator()<-5>(l6 | lm5 | lm6) | onward.template operator()<-6>(l5 | lm5 | lm6));
        if (second == 0) return popcount(l6) + popcount(l5) + popcount(lm5) + popcount(lm6);
        MoveList list;
        return generate_captures_impl<Side, false>(pos, list, nullptr);
    }
    if (has_capture_impl<Side>(pos)) {
        MoveList list;
        return generate_captures_impl<Side, false>(pos, list, nullptr);
    }
    return count_non_captures<Side>(pos);
}

}  // namespace

bool has_capture(const Position& pos, Color side) noexcept {
    return side == Color::Black ? has_capture_impl<Color::Black>(pos) : has_capture_impl<Color::White>(pos);
}

int generate_moves(const Position& pos, Color side, MoveList& list) noexcept {
    return side == Color::Black ? generate_impl<Color::Black, false>(pos, list, nullptr)
                                : generate_impl<Color::White, false>(pos, list, nullptr);
}

int generate_moves(const Position& pos, Color side, MoveListWithPaths& list) noexcept {
    const int n = side == Color::Black ? generate_impl<Color::Black, true>(pos, list, list.paths.data())
                                       : generate_impl<Color::White, true>(pos, list, list.paths.data());
    for (int i = 0; i < n; ++i) {
        if (!list.moves[static_cast<std::size_t>(i)].is_capture()) list.paths[static_cast<std::size_t>(i)].length = 0;
    }
    return n;
}

int generate_captures(const Position& pos, Color side, MoveList& list) noexcept {
    return side == Color::Black ? generate_captures_impl<Color::Black, false>(pos, list, nullptr)
                                : generate_captures_impl<Color::White, false>(pos, list, nullptr);
}

int generate_non_captures(const Position& pos, Color side, MoveList& list) noexcept {
    return side == Color::Black ? generate_non_captures<Color::Black>(pos, list)
                                : generate_non_captures<Color::White>(pos, list);
}

int generate_man_non_captures(const Position& pos, Color side, MoveList& list) noexcept {
    list.count = side == Color::Black ? append_man_non_captures<Color::Black>(pos, list, 0)
                                      : append_man_non_captures<Color::White>(pos, list, 0);
    return list.count;
}

int count_king_non_captures(const Position& pos, Color side) noexcept {
    return side == Color::Black ? count_king_non_captures<Color::Black>(pos)
                                : count_king_non_captures<Color::White>(pos);
}

int count_moves(const Position& pos, Color side) noexcept {
    return side == Color::Black ? count_moves_impl<Color::Black>(pos) : count_moves_impl<Color::White>(pos);
}

int successor_positions(const Position& pos, Color side, Position* out, int capacity) noexcept {
    MoveList list;
    const int n = std::min(generate_moves(pos, side, list), capacity);
    for (int i = 0; i < n; ++i) out[i] = apply_move(pos, side, list[i]);
    return n;
}

}  // namespace egdb
