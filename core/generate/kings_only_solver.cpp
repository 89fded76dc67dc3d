#include "core/generate/kings_only_solver.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <span>
#include <string>

#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/prefetch.hpp"

namespace egdb {

namespace {

constexpr std::size_t kDtwPass = 0;
constexpr std::size_t kMtcPass = 1;

[[noreturn]] void throw_overflow(SliceId slice) {
    throw DistanceOverflowError("slice " + slice.to_string() + ": a distance exceeds " + std::to_string(kMaxPlies) +
                                " plies, the most the solver counts");
}

[[noreturn]] void throw_disagreement(SliceId slice, std::uint64_t local, std::size_t side) {
    throw InternalError("slice " + slice.to_string() + ": MTC pass disagrees with DTW pass at index " + std::to_string(local) +
                        (side == 0 ? ", Black" : ", White") + " to move");
}

// Calls hit(i) for every i in [first, last) with bytes[i] == target, eight bytes at a time: most
// of a ply is this scan, and most words hold no entry of the distance sought.
template <class Hit>
void scan_for(const std::uint8_t* bytes, std::uint64_t first, std::uint64_t last, std::uint8_t target, Hit&& hit) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
    const std::uint64_t pattern = kOnes * target;
    std::uint64_t i = first;
    for (; i + 8 <= last; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, bytes + i, 8);
        const std::uint64_t x = word ^ pattern;
        // A zero byte of x sets its high bit; a borrow may also set that of a byte above one, so
        // each is checked.
        for (std::uint64_t z = (x - kOnes) & ~x & kHighs; z != 0; z &= z - 1) {
            const auto at = i + static_cast<std::uint64_t>(std::countr_zero(z)) / 8;
            if (bytes[at] == target) hit(at);
        }
    }
    for (; i < last; ++i) {
        if (bytes[i] == target) hit(i);
    }
}

bool bit_at(const std::uint64_t* bits, std::uint64_t i) noexcept { return ((bits[i / 64] >> (i % 64)) & 1u) != 0; }

}  // namespace

KingsOnlySolver::KingsOnlySolver(SliceId slice, const KingPlacements& kings, const SolvedLookup& smaller, Plies narrow_limit)
    : slice_(slice),
      kings_(kings),
      smaller_(smaller),
      narrow_dtw_(std::min(narrow_limit, kMaxNarrowDtw)),
      narrow_mtc_(std::min(narrow_limit, kMaxNarrowMtc)) {
    if (slice.nbm != 0 || slice.nwm != 0) {
        throw InvalidArgumentError("slice " + slice.to_string() + " has men: its blocks are solved by BlockSolver");
    }
    for (const Color side : {Color::Black, Color::White}) {
        conversion_plies_[static_cast<std::size_t>(side)] = conversion_plies(slice_, side);
    }
}

BlockSolver::Conversions KingsOnlySolver::captures_of(const Position& p, Color side_to_move) const {
    MoveList moves;
    generate_captures(p, side_to_move, moves);
    const Color opponent = opposite(side_to_move);
    BlockSolver::Conversions c{true, true, false, false, 0};
    unsigned win_bound = kMaxPlies;
    unsigned loss_bound = 0;
    for (const Move& move : moves) {
        const DtwValue v = smaller_.dtw_value(apply_move(p, side_to_move, move), opponent);
        const unsigned distance = v.dtw + 1u;
        if (v.wld != WldValue::Draw && distance > kMaxPlies) throw_overflow(slice_);
        if (v.wld == WldValue::Loss) {
            c.winning = true;
            win_bound = std::min(win_bound, distance);
        } else if (v.wld == WldValue::Draw) {
            c.drawing = true;
        } else {
            loss_bound = std::max(loss_bound, distance);
        }
    }
    c.bound = c.winning ? win_bound : loss_bound;
    return c;
}

BlockSolver::Conversions KingsOnlySolver::conversions(std::uint64_t local, Color side_to_move) const {
    const Position p = kings_.position(0, 0, local);
    if (!has_capture(p, side_to_move)) return {};
    return captures_of(p, side_to_move);
}

template <KingsOnlySolver::Pass P>
bool KingsOnlySolver::decided(std::uint64_t local, std::size_t side) const noexcept {
    if constexpr (P == Pass::Dtw) return codes_[side][local] != kDrawCode;
    return bit_at(decided_mtc_[side].data(), local);
}

template <KingsOnlySolver::Pass P>
unsigned KingsOnlySolver::distance(std::uint64_t local, std::size_t side) const {
    const Entry e = 2 * local + side;
    if constexpr (P == Pass::Dtw) {
        const DistanceCode code = codes_[side][local];
        return is_wide_code(code) ? long_[kDtwPass].at(e) : code;
    }
    const std::uint8_t mtc = mtc_[side][local];
    return mtc == kWideMtc ? long_[kMtcPass].at(e) : mtc;
}

bool KingsOnlySolver::won(std::uint64_t local, std::size_t side) const noexcept {
    const DistanceCode code = codes_[side][local];
    return is_wide_code(code) ? code == kWideWinCode : (code & 1u) != 0;
}

template <KingsOnlySolver::Pass P>
void KingsOnlySolver::decide(std::uint64_t local, std::size_t side, bool win, unsigned d) {
    if (d > kMaxPlies) throw_overflow(slice_);
    const Entry e = 2 * local + side;
    if constexpr (P == Pass::Dtw) {
        // Wins are odd and losses even (position_value.hpp): the code's parity is the WLD.
        if (((d & 1u) != 0) != win) throw InternalError("slice " + slice_.to_string() + ": DTW parity broken");
        if (d <= narrow_dtw_) {
            codes_[side][local] = static_cast<DistanceCode>(d);
        } else {
            codes_[side][local] = wide_code(win ? WldValue::Win : WldValue::Loss);
            const std::lock_guard lock(long_mutex_);
            long_[kDtwPass][e] = static_cast<std::uint16_t>(d);
        }
    } else {
        decided_mtc_[side][local / 64] |= std::uint64_t{1} << (local % 64);
        if (d <= narrow_mtc_) {
            mtc_[side][local] = static_cast<std::uint8_t>(d);
        } else {
            mtc_[side][local] = kWideMtc;
            const std::lock_guard lock(long_mutex_);
            long_[kMtcPass][e] = static_cast<std::uint16_t>(d);
        }
    }
}

// Every entry's start, in ranges of whole bit words (each thread owns the capture and decided bits
// of its range): a capture position is decided by its captures in both passes (or stays a draw);
// a position without any move is lost at once; the others have king moves and wait for the plies.
void KingsOnlySolver::classify(std::size_t threads) {
    std::array<std::atomic<unsigned>, 2> largest{};
    parallel_ranges(block_, static_cast<int>(threads), [&](std::uint64_t first, std::uint64_t last) {
        std::array<unsigned, 2> seen{};
        for (std::uint64_t local = first; local < last; ++local) {
            const Position p = kings_.position(0, 0, local);
            for (const Color colour : {Color::Black, Color::White}) {
                const auto side = static_cast<std::size_t>(colour);
                if (has_capture(p, colour)) {
                    captures_[side][local / 64] |= std::uint64_t{1} << (local % 64);
                    const BlockSolver::Conversions c = captures_of(p, colour);
                    if (c.drawing && !c.winning) continue;
                    decide<Pass::Dtw>(local, side, c.winning, c.bound);
                    decide<Pass::Mtc>(local, side, c.winning, conversion_plies_[side]);
                    seen[kDtwPass] = std::max(seen[kDtwPass], c.bound);
                    seen[kMtcPass] = std::max(seen[kMtcPass], conversion_plies_[side]);
                } else if (count_king_non_captures(p, colour) == 0) {
                    decide<Pass::Dtw>(local, side, false, 0);
                    decide<Pass::Mtc>(local, side, false, 0);
                }
            }
        }
        for (std::size_t pass = 0; pass < 2; ++pass) {
            unsigned now = largest[pass].load();
            while (seen[pass] > now && !largest[pass].compare_exchange_weak(now, seen[pass])) {
            }
        }
    });
    for (std::size_t pass = 0; pass < 2; ++pass) largest_seed_[pass] = largest[pass].load();
}

template <KingsOnlySolver::Pass P>
std::uint64_t KingsOnlySolver::ply(unsigned d, Makes makes, std::size_t threads) {
    const unsigned t = d - 1;
    const bool from_losses = makes == Makes::Wins;
    const Plies narrow = P == Pass::Dtw ? narrow_dtw_ : narrow_mtc_;
    const std::size_t pass = P == Pass::Dtw ? kDtwPass : kMtcPass;

    // 1. The entries decided at t with the WLD that makes this ply's kind mark their king-move
    // predecessors (the other side to move) as candidates.
    // The predecessors' words are requested from memory first and set after, so that their cache
    // misses overlap (the bits of a 7-piece slice are far larger than the caches).
    const auto mark_predecessors = [&](std::uint64_t local, std::size_t side) {
        const Position q = kings_.position(0, 0, local);
        const auto mover = static_cast<std::size_t>(opposite(static_cast<Color>(side)));
        std::uint64_t* bits = candidates_[mover].data();
        std::array<std::uint64_t, kMaxKingMoves> preds;
        std::size_t count = 0;
        for_each_king_step(kings_, 0, q, static_cast<Color>(mover), [&](std::uint64_t pred) {
            prefetch_for_write(bits + pred / 64);
            preds[count++] = pred;
            return true;
        });
        for (const std::uint64_t pred : std::span(preds).first(count)) {
            const std::uint64_t mask = std::uint64_t{1} << (pred % 64);
            std::atomic_ref<std::uint64_t> word(bits[pred / 64]);
            if ((word.load(std::memory_order_relaxed) & mask) == 0) word.fetch_or(mask, std::memory_order_relaxed);
        }
    };
    const auto in_frontier = [&](std::uint64_t local, std::size_t side) {
        if constexpr (P == Pass::Dtw) {
            return true;  // the code's parity is the WLD: t's parity is the ply's kind
        } else {
            return bit_at(decided_mtc_[side].data(), local) && won(local, side) != from_losses;
        }
    };
    if (t <= narrow) {
        parallel_ranges(block_, static_cast<int>(threads), [&](std::uint64_t first, std::uint64_t last) {
            for (std::size_t side = 0; side < 2; ++side) {
                const std::uint8_t* bytes = P == Pass::Dtw ? codes_[side] : mtc_[side];
                scan_for(bytes, first, last, static_cast<std::uint8_t>(t), [&](std::uint64_t local) {
                    if (in_frontier(local, side)) mark_predecessors(local, side);
                });
            }
        });
    }
    for (const auto& [e, far] : long_[pass]) {
        const std::uint64_t local = e / 2;
        const auto side = static_cast<std::size_t>(e % 2);
        if (far == t && won(local, side) != from_losses) mark_predecessors(local, side);
    }

    // 2. A candidate is kept when it is undecided and has king moves (a capture position has
    // none: it was decided or drawn by its captures), and, for a loss, when every king move of it
    // leads to a win decided at most t away. Nothing is written to the bytes meanwhile.
    const auto undecided = [&](std::uint64_t local, std::size_t side) {
        return !capture_at(local, side) && !decided<P>(local, side);
    };
    // Walked until one king move leads elsewhere: most candidates have such a move, and their
    // walk stops early (requesting every successor's byte first was slower: 0402 62.9 s
    // against 51.6 s).
    const auto lost_at_d = [&](std::uint64_t local, std::size_t side) {
        const Position p = kings_.position(0, 0, local);
        const auto opponent = static_cast<std::size_t>(opposite(static_cast<Color>(side)));
        return for_each_king_step(kings_, 0, p, static_cast<Color>(side), [&](std::uint64_t next) {
            return decided<P>(next, opponent) && won(next, opponent) && distance<P>(next, opponent) <= t;
        });
    };
    const std::uint64_t words = (block_ + 63) / 64;
    parallel_chunks(words, static_cast<int>(threads), std::max<std::uint64_t>(1, words / (16 * threads)), [&](std::uint64_t first, std::uint64_t last) {
        for (std::size_t side = 0; side < 2; ++side) {
            std::uint64_t* bits = candidates_[side].data();
            for (std::uint64_t w = first; w < last; ++w) {
                for (std::uint64_t b = bits[w]; b != 0; b &= b - 1) {
                    const std::uint64_t local = 64 * w + static_cast<std::uint64_t>(std::countr_zero(b));
                    if (!undecided(local, side) || (!from_losses && !lost_at_d(local, side))) {
                        bits[w] &= ~(std::uint64_t{1} << (local % 64));
                    }
                }
            }
        }
    });

    // 3. The candidates left are decided at d, each by the thread owning its word.
    std::atomic<std::uint64_t> made{0};
    parallel_chunks(words, static_cast<int>(threads), std::max<std::uint64_t>(1, words / (16 * threads)), [&](std::uint64_t first, std::uint64_t last) {
        std::uint64_t count = 0;
        for (std::size_t side = 0; side < 2; ++side) {
            std::uint64_t* bits = candidates_[side].data();
            for (std::uint64_t w = first; w < last; ++w) {
                for (std::uint64_t b = bits[w]; b != 0; b &= b - 1) {
                    const std::uint64_t local = 64 * w + static_cast<std::uint64_t>(std::countr_zero(b));
                    if constexpr (P == Pass::Mtc) {
                        // Pass 2 decides what pass 1 decided, the same way.
                        if (codes_[side][local] == kDrawCode || won(local, side) != from_losses) throw_disagreement(slice_, local, side);
                    }
                    decide<P>(local, side, from_losses, d);
                    ++count;
                }
                bits[w] = 0;
            }
        }
        made.fetch_add(count, std::memory_order_relaxed);
    });
    return made.load();
}

template <KingsOnlySolver::Pass P>
void KingsOnlySolver::run_pass(std::size_t threads) {
    const std::size_t pass = P == Pass::Dtw ? kDtwPass : kMtcPass;
    unsigned last = largest_seed_[pass];
    // Nothing is decided at d once nothing was at d - 1 and no seed lies further.
    for (unsigned d = 1; d <= last + 1; ++d) {
        std::uint64_t made = 0;
        if constexpr (P == Pass::Dtw) {
            made = ply<P>(d, (d - 1) % 2 == 0 ? Makes::Wins : Makes::Losses, threads);
        } else {
            // MTC seeds have both parities: both kinds at every ply, wins first (a candidate of
            // both is won, and a loss must not count a win made at d).
            made = ply<P>(d, Makes::Wins, threads);
            made += ply<P>(d, Makes::Losses, threads);
        }
        if (made != 0) last = std::max(last, d);
    }
}

// Draws in one pass are draws in the other; the values too long for a byte become wide positions
// as BlockSolver stores them (a position wide in DTW or MTC is wide in both).
void KingsOnlySolver::finish_values(std::size_t threads) {
    parallel_ranges(block_, static_cast<int>(threads), [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t local = first; local < last; ++local) {
            for (std::size_t side = 0; side < 2; ++side) {
                const bool drawn = codes_[side][local] == kDrawCode;
                if (drawn == bit_at(decided_mtc_[side].data(), local)) throw_disagreement(slice_, local, side);
                if (drawn) continue;
                const unsigned dtw = distance<Pass::Dtw>(local, side);
                const unsigned mtc = distance<Pass::Mtc>(local, side);
                if (dtw <= narrow_dtw_ && mtc <= narrow_mtc_) continue;
                codes_[side][local] = wide_code(won(local, side) ? WldValue::Win : WldValue::Loss);
                mtc_[side][local] = kWideMtc;
                level_->set_wide(0, local, static_cast<Color>(side), {static_cast<Plies>(dtw), static_cast<Plies>(mtc)});
            }
        }
    });
}

void KingsOnlySolver::solve(SolvedLevel& level, std::size_t threads) {
    if (level.slice() != slice_ || level.configurations().size() != 1) {
        throw InvalidArgumentError("slice " + slice_.to_string() + ": a slice without men is solved as its one block");
    }
    threads = std::max<std::size_t>(threads, 1);
    level_ = &level;
    block_ = level.block_size();
    const std::uint64_t words = (block_ + 63) / 64;
    for (const Color colour : {Color::Black, Color::White}) {
        const auto side = static_cast<std::size_t>(colour);
        codes_[side] = level.block_dtw_codes(0, colour).data();
        mtc_[side] = level.block_mtc(0, colour).data();
        captures_[side] = level.capture_bits(colour).data();
        candidates_[side].assign(words, 0);
        decided_mtc_[side].assign(words, 0);
        long_[side].clear();
    }
    classify(threads);
    run_pass<Pass::Dtw>(threads);
    run_pass<Pass::Mtc>(threads);
    finish_values(threads);
    for (std::size_t side = 0; side < 2; ++side) {
        candidates_[side] = {};
        decided_mtc_[side] = {};
        long_[side] = {};
    }
    level_ = nullptr;
}

}  // namespace egdb
