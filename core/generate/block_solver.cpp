#include "core/generate/block_solver.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/prefetch.hpp"
#include "core/util/error.hpp"

namespace egdb {

namespace {

// Outcome codes kept from pass 1 to check pass 2.
constexpr std::uint8_t kOutcomeDraw = 0;
constexpr std::uint8_t kOutcomeLoss = 1;
constexpr std::uint8_t kOutcomeWin = 2;

[[noreturn]] void throw_distance_overflow(SliceId slice) {
    throw DistanceOverflowError("slice " + slice.to_string() + ": a distance exceeds " +
                              std::to_string(kMaxPlies) + " plies, the most the solver counts");
}

[[noreturn]] void throw_no_next_level(SliceId slice) {
    throw InternalError("slice " + slice.to_string() + ": a man move leads to a level that is not solved");
}

}  // namespace

BlockSolver::BlockSolver(SliceId slice, const KingPlacements& kings, const SolvedLookup& smaller, Plies narrow_limit,
                         BlockSharing sharing)
    : slice_(slice),
      kings_(kings),
      smaller_(smaller),
      indexer_(slice_indexer(slice)),
      block_divisor_(kings.block_size()),
      narrow_dtw_(std::min(narrow_limit, kMaxNarrowDtw)),
      narrow_mtc_(std::min(narrow_limit, kMaxNarrowMtc)),
      sharing_(sharing) {
    const std::uint64_t entries = 2 * kings.block_size();
    if (entries > std::numeric_limits<Entry>::max()) {
        throw LimitError("slice " + slice_.to_string() + ": block too large for 32-bit entries");
    }
    for (const Color side : {Color::Black, Color::White}) {
        conversion_plies_[static_cast<std::size_t>(side)] = static_cast<std::uint8_t>(conversion_plies(slice_, side));
    }
    state_.resize(entries);
    buckets_.resize(std::size_t{kMaxNarrowDtw} + 2);
}

Position BlockSolver::position_of(Entry e) const noexcept {
    return kings_.position(black_men_, white_men_, e >> 1);
}

void BlockSolver::classify_range(std::uint64_t first, std::uint64_t last, const SolvedLevel* next, const SolvedSlice* whole,
                                 SlotCache& cache) {
    for (std::uint64_t local = first; local < last; ++local) {
        const Position p = kings_.position(black_men_, white_men_, local);
        classify_moves(local, Color::Black, p, next, whole, cache);
        classify_moves(local, Color::White, p, next, whole, cache);
    }
}

void BlockSolver::solve(SolvedLevel& level, std::size_t slot, const SolvedLevel* next, const SolvedSlice* whole,
                        std::size_t block_threads) {
    const std::uint64_t block = kings_.block_size();
    const std::uint64_t men = level.configurations()[slot];
    const Position first = indexer_.position_at(men * block);
    black_men_ = first.men(Color::Black);
    white_men_ = first.men(Color::White);
    if (cached_advancement_ != level.advancement()) {
        // The slots cached are those of the level above the previous level solved.
        slot_cache_.fill(CachedSlot{});
        cached_advancement_ = level.advancement();
    }

    // Classifying writes only the entries of its own positions and reads only solved data, so a
    // large block is split into ranges taken by the threads in turn; each range has its own slot
    // cache.
    const std::size_t threads = shares_block(block_threads) ? block_threads : 1;
    if (threads > 1) {
        parallel_ranges(block, static_cast<int>(threads), [&](std::uint64_t from, std::uint64_t to) {
            SlotCache cache{};
            classify_range(from, to, next, whole, cache);
        });
    } else {
        classify_range(0, block, next, whole, slot_cache_);
    }

    propagate<true>(threads);
    store_dtw(level, slot, threads);
    propagate<false>(threads);
    store_mtc(level, slot, threads);
}

// The block's entries are independent here: threads sharing a block take ranges of it. The wide
// DTWs are kept in entry order (store_mtc reads them so): each chunk lists its own, joined in order.
void BlockSolver::store_dtw(SolvedLevel& level, std::size_t slot, std::size_t threads) {
    const auto range = [&](std::uint64_t first, std::uint64_t last, std::vector<std::pair<Entry, std::uint16_t>>& wide) {
        for (std::uint64_t local = first; local < last; ++local) {
            for (const Color side : {Color::Black, Color::White}) {
                const Entry e = static_cast<Entry>(2 * local + static_cast<std::uint64_t>(side));
                const std::uint8_t f = state_[e].flags;
                const bool finished = (f & kFinished) != 0;
                const bool won = (f & kWon) != 0;
                // Wins are odd and losses even (position_value.hpp): the code's parity is the WLD.
                const unsigned dtw = state_[e].distance;
                if (finished && ((dtw & 1u) != 0) != won) {
                    throw InternalError("slice " + slice_.to_string() + ": DTW parity broken");
                }
                // A DTW that does not fit is made wide here; one whose MTC does not fit, in store_mtc.
                level.block_dtw_codes(slot, side)[local] = !finished             ? kDrawCode
                                                           : dtw <= narrow_dtw_ ? static_cast<DistanceCode>(dtw)
                                                                                : wide_code(won ? WldValue::Win : WldValue::Loss);
                state_[e].dtw_outcome = !finished ? kOutcomeDraw : won ? kOutcomeWin : kOutcomeLoss;
                if (finished && dtw > narrow_dtw_) wide.emplace_back(e, static_cast<std::uint16_t>(dtw));
            }
        }
    };
    const std::uint64_t block = kings_.block_size();
    wide_dtw_.clear();
    if (threads <= 1) {
        range(0, block, wide_dtw_);
        return;
    }
    constexpr std::uint64_t kChunk = std::uint64_t{1} << 16;
    std::vector<std::vector<std::pair<Entry, std::uint16_t>>> wide((block + kChunk - 1) / kChunk);
    parallel_chunks(block, static_cast<int>(threads), kChunk,
                    [&](std::uint64_t first, std::uint64_t last) { range(first, last, wide[first / kChunk]); });
    for (const auto& chunk : wide) wide_dtw_.insert(wide_dtw_.end(), chunk.begin(), chunk.end());
}

void BlockSolver::store_mtc(SolvedLevel& level, std::size_t slot, std::size_t threads) {
    const std::uint64_t block = kings_.block_size();
    // Capture bits of the block, a word at a time: level offsets from slot * block. A word that
    // two ranges share is or-ed into atomically (SolvedLevel::add_capture_bits).
    const std::uint64_t at = slot * block;
    const auto range = [&](std::uint64_t first, std::uint64_t last) {
        std::array<std::uint64_t, 2> word_bits{};
        std::uint64_t word = (at + first) / 64;
        const auto flush_capture_word = [&] {
            for (const Color side : {Color::Black, Color::White}) {
                const auto s = static_cast<std::size_t>(side);
                if (word_bits[s] != 0) level.add_capture_bits(side, word, word_bits[s]);
                word_bits[s] = 0;
            }
        };
        // Pass 1's wide DTWs of the range, in entry order as this loop goes.
        auto next_wide = std::lower_bound(wide_dtw_.begin(), wide_dtw_.end(), static_cast<Entry>(2 * first),
                                          [](const auto& wide, Entry e) { return wide.first < e; });
        for (std::uint64_t local = first; local < last; ++local) {
            if ((at + local) / 64 != word) {
                flush_capture_word();
                word = (at + local) / 64;
            }
            for (const Color side : {Color::Black, Color::White}) {
                const Entry e = static_cast<Entry>(2 * local + static_cast<std::uint64_t>(side));
                const std::uint8_t f = state_[e].flags;
                const bool finished = (f & kFinished) != 0;
                const bool won = (f & kWon) != 0;
                const std::uint8_t outcome = !finished ? kOutcomeDraw : won ? kOutcomeWin : kOutcomeLoss;
                if ((f & kCapture) != 0) word_bits[static_cast<std::size_t>(side)] |= std::uint64_t{1} << ((at + local) % 64);
                if (outcome != state_[e].dtw_outcome) {
                    throw InternalError("slice " + slice_.to_string() + ": MTC pass disagrees with DTW pass");
                }
                const DistanceCode code = level.block_dtw_codes(slot, side)[local];
                const Plies dtw = !is_wide_code(code) ? code : (next_wide++)->second;
                const Plies mtc = state_[e].distance;
                if (!finished) {
                    level.block_mtc(slot, side)[local] = 0;
                } else if (dtw <= narrow_dtw_ && mtc <= narrow_mtc_) {
                    level.block_mtc(slot, side)[local] = static_cast<std::uint8_t>(mtc);
                } else {
                    level.block_dtw_codes(slot, side)[local] = wide_code(won ? WldValue::Win : WldValue::Loss);
                    level.block_mtc(slot, side)[local] = kWideMtc;
                    level.set_wide(slot, local, side, {dtw, mtc});
                }
            }
        }
        flush_capture_word();
    };
    if (threads <= 1) {
        range(0, block);
    } else {
        parallel_ranges(block, static_cast<int>(threads), range);
    }
}

void BlockSolver::classify_moves(std::uint64_t local, Color side, const Position& position, const SolvedLevel* next,
                                 const SolvedSlice* whole, SlotCache& cache) {
    const Entry e = static_cast<Entry>(2 * local + static_cast<std::uint64_t>(side));
    const Color opponent = opposite(side);
    const Bitboard own_men = position.men(side);
    const Bitboard promotion_row = side == Color::Black ? kRow10 : kRow1;

    // With a capture only captures are legal; otherwise every man move is a conversion and the
    // king moves, which stay in the block, are only counted.
    MoveList moves;
    unsigned king_moves = 0;
    std::uint8_t flags = 0;
    if (has_capture(position, side)) {
        flags = kCapture;
        generate_captures(position, side, moves);
    } else {
        king_moves = static_cast<unsigned>(count_king_non_captures(position, side));
        if (own_men != 0) generate_man_non_captures(position, side, moves);
    }
    unsigned win_bound = kMaxPlies;
    unsigned loss_bound = 0;
    for (const Move& move : moves) {
        // A conversion: the successor lies in an already-solved block or slice.
        const Position child = apply_move(position, side, move);
        const bool stays_in_slice = !move.is_capture() && (move.to & promotion_row) == 0;
        // A conversion's MTC is a fixed count (pass 2): its successor's WLD and DTW are all it needs.
        DtwValue v;
        if (!stays_in_slice) {
            v = smaller_.dtw_value(child, opponent);
        } else if (whole != nullptr) {
            v = whole->dtw_value(indexer_.index_of(child), opponent);
        } else {
            v = next_level_value(next, indexer_.index_of(child), opponent, cache);
        }
        flags |= kAnyConversion;
        const unsigned distance = v.dtw + 1u;
        switch (v.wld) {
            case WldValue::Loss:
                if (distance > kMaxPlies) throw_distance_overflow(slice_);
                flags |= kWinningConversion;
                win_bound = std::min(win_bound, distance);
                break;
            case WldValue::Draw:
                flags |= kDrawingConversion;
                break;
            case WldValue::Win:
                if (distance > kMaxPlies) throw_distance_overflow(slice_);
                loss_bound = std::max(loss_bound, distance);
                break;
        }
    }
    state_[e].flags = flags;
    state_[e].king_moves = static_cast<std::uint8_t>(king_moves);
    state_[e].bound = static_cast<std::uint16_t>((flags & kWinningConversion) != 0 ? win_bound : loss_bound);
}

void BlockSolver::cache_next_slot(const SolvedLevel* next, CachedSlot& cached, std::uint64_t men) const {
    const std::uint64_t slot = next == nullptr ? SolvedLevel::kAbsent : next->slot_of(men);
    if (slot == SolvedLevel::kAbsent) throw_no_next_level(slice_);
    cached = {men, slot};
}

void BlockSolver::finish(Entry e, bool won, unsigned distance) {
    if (distance > kMaxPlies) throw_distance_overflow(slice_);
    state_[e].flags = static_cast<std::uint8_t>(state_[e].flags | kFinished | (won ? kWon : 0));
    state_[e].distance = static_cast<std::uint16_t>(distance);
}

template <bool kDistanceToWin>
void BlockSolver::propagate(std::size_t threads) {
    // Every entry's start: entries finished by their conversions alone, on the threads sharing
    // the block (each entry its own); then, on this thread, in entry order, those and the winning
    // conversions of the others queued at their bound (a second pass over the states, read in
    // order, instead of lists of pushes as long as the block).
    const auto start = [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            const auto e = static_cast<Entry>(i);
            EntryState& s = state_[e];
            s.flags = static_cast<std::uint8_t>(s.flags & ~(kFinished | kExpanded | kWon));
            s.remaining = s.king_moves;
            if (s.king_moves != 0) continue;
            // Only conversions (or no move at all: a loss in 0).
            if ((s.flags & kWinningConversion) != 0) {
                finish(e, true, win_seed<kDistanceToWin>(s, e));
            } else if ((s.flags & kDrawingConversion) == 0) {
                finish(e, false, loss_seed<kDistanceToWin>(s, e));
            }
        }
    };
    const std::uint64_t entries = state_.size();
    if (threads <= 1) {
        start(0, entries);
    } else {
        parallel_chunks(entries, static_cast<int>(threads), std::uint64_t{1} << 17, start);
    }
    for (std::uint64_t i = 0; i < entries; ++i) {
        const auto e = static_cast<Entry>(i);
        const EntryState& s = state_[e];
        if ((s.flags & kFinished) != 0) {
            push(s.distance, e);
        } else if ((s.flags & kWinningConversion) != 0) {
            // A win at most this far; a king move may still find a shorter one.
            push(win_seed<kDistanceToWin>(s, e), e);
        }
    }

    for (unsigned d = 0; d <= top_bucket_; ++d) {
        // Expanding distance d only adds entries at d + 1 or beyond, so bucket d does not grow
        // while it is expanded.
        if (threads > 1 && buckets_[d].size() >= sharing_.min_bucket_entries) {
            expand_shared<kDistanceToWin>(d, threads);
        } else {
            expand<kDistanceToWin>(d);
        }
        buckets_[d].clear();
    }
    top_bucket_ = 0;
}

std::size_t BlockSolver::predecessors(Entry e, std::array<Entry, kMaxKingMoves>& out) const noexcept {
    const Color mover = opposite(static_cast<Color>(e & 1u));
    // The predecessors first, with their states requested from memory, then the visits: the block
    // is far larger than the caches, and the loads then overlap instead of waiting one after
    // another. A king un-moves to any square it slides to (for_each_king_step).
    std::size_t count = 0;
    for_each_king_step(kings_, black_men_ | white_men_, position_of(e), mover, [&](std::uint64_t local) {
        const auto pred = static_cast<Entry>(2 * local + static_cast<std::uint64_t>(mover));
        prefetch_for_write(&state_[pred]);
        out[count++] = pred;
        return true;
    });
    return count;
}

template <bool kDistanceToWin>
void BlockSolver::expand(unsigned d) {
    // Pushing may move the buckets (a new highest one), so bucket d is indexed, not held.
    for (std::size_t k = 0; k < buckets_[d].size(); ++k) {
        constexpr std::size_t kLookahead = 8;  // entries whose state is requested ahead
        if (k + kLookahead < buckets_[d].size()) prefetch_for_read(&state_[buckets_[d][k + kLookahead]]);
        const Entry e = buckets_[d][k];
        const std::uint8_t f = state_[e].flags;
        if ((f & kExpanded) != 0) continue;
        if ((f & kFinished) == 0) {
            finish(e, true, d);  // its winning conversion is the fastest win
        } else if (state_[e].distance != d) {
            continue;
        }
        state_[e].flags = static_cast<std::uint8_t>(state_[e].flags | kExpanded);

        const bool e_won = (state_[e].flags & kWon) != 0;
        std::array<Entry, kMaxKingMoves> preds;
        const std::size_t count = predecessors(e, preds);
        for (std::size_t j = 0; j < count; ++j) {
            const Entry pred = preds[j];
            const EntryState& ps = state_[pred];
            // Finished already, or a capture position: its king moves are illegal (a king that
            // just arrived could always go back, so only a capture leaves a predecessor without
            // king moves).
            if ((ps.flags & kFinished) != 0 || ps.king_moves == 0) continue;
            if (!e_won) {
                // A pending winning conversion at distance d (still queued in this bucket) beats
                // the king move.
                if ((ps.flags & kWinningConversion) != 0 && win_seed<kDistanceToWin>(ps, pred) <= d) {
                    finish(pred, true, d);
                } else {
                    finish(pred, true, d + 1);
                    push(d + 1, pred);
                }
            } else if ((ps.flags & (kWinningConversion | kDrawingConversion)) == 0 && --state_[pred].remaining == 0) {
                const unsigned v = std::max(loss_seed<kDistanceToWin>(ps, pred), d + 1);
                finish(pred, false, v);
                push(v, pred);
            }
        }
    }
}

// Bucket d expanded by `threads` threads, each taking chunks of it in turn. Every read and change
// of an entry's state is atomic (one compare-and-swap of its 8 bytes), and the result is the one
// expand() gives, whatever the order:
//  - an entry of the bucket is expanded once: the thread whose swap sets kExpanded expands it;
//    one still unfinished (its winning conversion) is finished at d by that swap, or before it by
//    a lost successor in the same bucket, with the same value either way;
//  - a predecessor of a lost entry is won at d + 1, or at d by its own winning conversion:
//    whichever thread finishes it, the value is the same, and only the swap that finished it
//    pushes it;
//  - a predecessor's count of king moves goes down once per won successor expanded, so exactly
//    one swap takes it to 0 and finishes it as lost; one with a king move to a lost entry never
//    reaches 0, so no entry is finished both ways.
// Entries are pushed to buckets above d only, so the bucket does not change while it is read;
// each chunk keeps its pushes, queued once every thread has stopped.
template <bool kDistanceToWin>
void BlockSolver::expand_shared(unsigned d, std::size_t threads) {
    const std::vector<Entry>& bucket = buckets_[d];
    constexpr std::uint64_t kChunk = 4096;
    struct Pushes {
        std::vector<Entry> next;                          // finished at d + 1, the most of them
        std::vector<std::pair<unsigned, Entry>> further;  // lost further away (a conversion's bound)
        bool overflow = false;
    };
    std::vector<Pushes> pushes((bucket.size() + kChunk - 1) / kChunk);
    constexpr auto relaxed = std::memory_order_relaxed;
    parallel_chunks(bucket.size(), static_cast<int>(threads), kChunk, [&](std::uint64_t first, std::uint64_t last) {
        Pushes& out = pushes[first / kChunk];
        for (std::uint64_t k = first; k < last; ++k) {
            constexpr std::uint64_t kLookahead = 8;
            if (k + kLookahead < last) prefetch_for_read(&state_[bucket[k + kLookahead]]);
            const Entry e = bucket[k];
            std::atomic_ref<EntryState> self(state_[e]);
            EntryState s = self.load(relaxed);
            bool claimed = false;
            while (true) {
                if ((s.flags & kExpanded) != 0) break;
                const bool finished = (s.flags & kFinished) != 0;
                if (finished && s.distance != d) break;
                EntryState c = s;
                c.flags = static_cast<std::uint8_t>(c.flags | kExpanded | (finished ? 0 : kFinished | kWon));
                if (!finished) c.distance = static_cast<std::uint16_t>(d);
                if (self.compare_exchange_weak(s, c, relaxed, relaxed)) {
                    s = c;
                    claimed = true;
                    break;
                }
            }
            if (!claimed) continue;

            const bool e_won = (s.flags & kWon) != 0;
            std::array<Entry, kMaxKingMoves> preds;
            const std::size_t count = predecessors(e, preds);
            for (std::size_t j = 0; j < count; ++j) {
                const Entry pred = preds[j];
                std::atomic_ref<EntryState> ref(state_[pred]);
                EntryState ps = ref.load(relaxed);
                while (true) {
                    if ((ps.flags & kFinished) != 0 || ps.king_moves == 0) break;
                    EntryState n = ps;
                    unsigned pushed_at = 0;  // 0: not pushed (a push is always above d >= 0)
                    if (!e_won) {
                        n.flags = static_cast<std::uint8_t>(n.flags | kFinished | kWon);
                        if ((ps.flags & kWinningConversion) != 0 && win_seed<kDistanceToWin>(ps, pred) <= d) {
                            n.distance = static_cast<std::uint16_t>(d);
                        } else {
                            pushed_at = d + 1;
                        }
                    } else if ((ps.flags & (kWinningConversion | kDrawingConversion)) == 0) {
                        n.remaining = static_cast<std::uint8_t>(ps.remaining - 1);
                        if (n.remaining == 0) {
                            n.flags = static_cast<std::uint8_t>(n.flags | kFinished);
                            pushed_at = std::max(loss_seed<kDistanceToWin>(ps, pred), d + 1);
                        }
                    } else {
                        break;
                    }
                    if (pushed_at > kMaxPlies) {
                        out.overflow = true;
                        break;
                    }
                    if (pushed_at != 0) n.distance = static_cast<std::uint16_t>(pushed_at);
                    if (ref.compare_exchange_weak(ps, n, relaxed, relaxed)) {
                        if (pushed_at == d + 1) {
                            out.next.push_back(pred);
                        } else if (pushed_at != 0) {
                            out.further.emplace_back(pushed_at, pred);
                        }
                        break;
                    }
                }
            }
        }
    });
    for (Pushes& p : pushes) {
        if (p.overflow) throw_distance_overflow(slice_);
        for (const Entry e : p.next) push(d + 1, e);
        for (const auto& [distance, e] : p.further) push(distance, e);
        p = Pushes{};  // its memory back before the next chunk's pushes are queued
    }
}

}  // namespace egdb
