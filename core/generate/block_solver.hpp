// Retrograde analysis of one men configuration of a slice (a "block": all king placements of
// those men, both sides to move). Inside a block only king moves are possible without leaving it;
// every other move (a capture, any man move including a promotion) is a conversion whose
// successor is already solved: captures and promotions in smaller slices (SolvedLookup), man
// moves in the next more advanced level of the same slice (men_order.hpp, solved_level.hpp).
//
// The block is solved in two passes over the same move graph:
//  1. DTW (and WLD): a bucket queue by distance. Conversions give every entry a bound: the
//     smallest 1 + DTW of a conversion successor lost for the opponent (a win), or the largest
//     1 + DTW over conversion successors all won by the opponent (for a loss). Entries leave the
//     queue in increasing distance; a finished loss makes each king-move predecessor a win at
//     distance + 1 (the first one found is the shortest); a finished win removes one king move
//     from each predecessor's count, and the predecessor whose last king move is removed is a
//     loss at max(conversion bound, distance + 1) unless a conversion draws or wins for it.
//     Entries never finished are draws.
//  2. MTC: the same propagation with a conversion counting Kingsrow's fixed number of plies
//     (position_value.hpp conversion_plies: 3 for the slice's canonical Black, 2 for White, 2 for
//     both in a colour-symmetric slice; 0 without moves). The WLD found must equal pass 1
//     (checked).
// Predecessors are found by un-moving the kings of the side that just moved (a king slides back
// over empty squares); a predecessor whose side to move has a capture is skipped, since its king
// moves are illegal (compulsory capture, section 14): such entries are finished from their
// captures before the passes begin.
//
// A large block may be shared by several threads (BlockSharing): they classify it in ranges and
// expand each large distance bucket together (expand_shared; the result does not depend on the
// order within a bucket).
//
// What classification finds of a position's conversions stays in the solver until the next block
// (conversions()): the in-build check of the block (block_check.hpp) folds it with the king moves
// instead of generating and looking up every conversion a second time.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/generate/king_placements.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/generate/solved_level.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb {

// When the threads a level gives one block share its work: a level with fewer configurations than
// threads (the one block of a kings-only slice), or the last count % workers blocks of a level
// (slice_solver.cpp). Below these sizes starting threads costs more than it saves; tests lower
// them so that small slices take the shared paths.
struct BlockSharing {
    // Blocks from this size are classified, propagated and checked by those threads.
    std::uint64_t min_block_positions = std::uint64_t{1} << 20;
    // In such a block, a distance bucket of at least this many entries is expanded by all of them.
    std::size_t min_bucket_entries = std::size_t{1} << 14;
};

class BlockSolver {
public:
    // `kings` are the king placements of `slice`; `smaller` answers for every other slice.
    // Positions with a DTW or MTC above `narrow_limit` (at most the byte encoding's limits,
    // position_value.hpp) are stored as wide: tests lower it to exercise the wide path on small
    // slices, whose distances never reach the real limit.
    BlockSolver(SliceId slice, const KingPlacements& kings, const SolvedLookup& smaller, Plies narrow_limit = kMaxNarrowMtc,
                BlockSharing sharing = {});

    // Solves the men configuration at `slot` of `level` and writes its block there. Man moves
    // that stay in the slice are read from `next`, the level one row of advancement higher
    // (nullptr when there is none), or from `whole` when given (the slice with every level solved
    // so far). Throws std::overflow_error when a distance exceeds kMaxPlies,
    // std::logic_error when a man move leads outside `next`.
    // `block_threads` threads (this one among them) share the block when it is large
    // (BlockSharing): the level's configurations are then fewer than the build's threads (a
    // kings-only slice is one block). They classify its moves (a lookup per conversion) in ranges
    // and expand its large distance buckets together. The result does not depend on it.
    void solve(SolvedLevel& level, std::size_t slot, const SolvedLevel* next, const SolvedSlice* whole = nullptr,
               std::size_t block_threads = 1);

    // Whether a block of this solver's size is shared by `threads` threads.
    bool shares_block(std::size_t threads) const noexcept {
        return threads > 1 && kings_.block_size() >= sharing_.min_block_positions;
    }

    // What classification found of the conversions (the moves that leave the block: captures and
    // man moves) of the position at `local` of the block solve() last solved, with `side` to move:
    // all the one-ply rule (one_ply_check.hpp) needs of them. A winning conversion decides a win
    // at most `bound` plies away (the smallest 1 + DTW of a successor lost for the opponent); if
    // none wins and none draws, every conversion's successor is won by the opponent, the largest
    // 1 + DTW of them being `bound`.
    struct Conversions {
        bool capture = false;  // the side to move has a capture: every legal move is one (king moves are illegal)
        bool any = false;
        bool winning = false;
        bool drawing = false;
        unsigned bound = 0;
    };
    Conversions conversions(std::uint64_t local, Color side_to_move) const noexcept {
        const EntryState& s = state_[2 * local + static_cast<std::uint64_t>(side_to_move)];
        return {(s.flags & kCapture) != 0, (s.flags & kAnyConversion) != 0, (s.flags & kWinningConversion) != 0,
                (s.flags & kDrawingConversion) != 0, s.bound};
    }
    // The block solve() last solved: its slice, king placements and men.
    SliceId slice() const noexcept { return slice_; }
    const KingPlacements& kings() const noexcept { return kings_; }
    Bitboard black_men() const noexcept { return black_men_; }
    Bitboard white_men() const noexcept { return white_men_; }

private:
    // Entry e = 2 * local index + side to move (Black = 0, White = 1).
    using Entry = std::uint32_t;

    enum Flag : std::uint8_t {
        kFinished = 1,     // value and outcome known in the current pass
        kExpanded = 2,     // predecessors visited in the current pass
        kWon = 4,          // finished as a win (otherwise as a loss)
        kWinningConversion = 8,
        kDrawingConversion = 16,
        kAnyConversion = 32,
        kCapture = 64,     // the side to move has a capture
    };

    // The man moves of a block lead to a handful of configurations of the next level (one per
    // man and direction): their slots, direct-mapped by configuration, kept for one level (each
    // classifying thread has its own).
    struct CachedSlot {
        std::uint64_t men = ~std::uint64_t{0};
        std::uint64_t slot = 0;
    };
    using SlotCache = std::array<CachedSlot, 64>;

    void classify_moves(std::uint64_t local, Color side, const Position& position, const SolvedLevel* next,
                        const SolvedSlice* whole, SlotCache& cache);
    void classify_range(std::uint64_t first, std::uint64_t last, const SolvedLevel* next, const SolvedSlice* whole,
                        SlotCache& cache);
    template <bool kDistanceToWin>
    void propagate(std::size_t threads);
    // After pass 1: the DTW codes of the block (wide ones listed in wide_dtw_) and the outcomes
    // pass 2 is checked against. After pass 2: the MTC bytes, wide positions and capture bits.
    void store_dtw(SolvedLevel& level, std::size_t slot, std::size_t threads);
    void store_mtc(SolvedLevel& level, std::size_t slot, std::size_t threads);
    template <bool kDistanceToWin>
    void expand(unsigned d);
    template <bool kDistanceToWin>
    void expand_shared(unsigned d, std::size_t threads);
    // The king-move predecessors of e (the side not to move in e un-moves a king), their states
    // requested from memory; returns how many.
    std::size_t predecessors(Entry e, std::array<Entry, kMaxKingMoves>& out) const noexcept;
    void finish(Entry e, bool won, unsigned distance);
    DtwValue next_level_value(const SolvedLevel* next, std::uint64_t index, Color side_to_move, SlotCache& cache) const {
        const std::uint64_t men = block_divisor_.quotient(index);
        CachedSlot& cached = cache[men % cache.size()];
        if (cached.men != men) [[unlikely]] cache_next_slot(next, cached, men);
        return next->dtw_value_at(cached.slot, index - men * kings_.block_size(), side_to_move);
    }
    Position position_of(Entry e) const noexcept;

    SliceId slice_;
    const KingPlacements& kings_;
    const SolvedLookup& smaller_;
    const SliceIndexer& indexer_;
    std::array<std::uint8_t, 2> conversion_plies_{};  // MTC of a conversion, by side to move

    // The block being solved.
    Bitboard black_men_ = 0;
    Bitboard white_men_ = 0;

    SlotCache slot_cache_{};  // this thread's, kept across the blocks of a level
    [[gnu::noinline]] void cache_next_slot(const SolvedLevel* next, CachedSlot& cached, std::uint64_t men) const;
    int cached_advancement_ = -1;
    detail::FastDivisor block_divisor_;

    // Per entry, sized 2 * block size once. Everything propagation reads or writes about a
    // predecessor sits in one 8-byte record: a visit costs one cache line, where separate arrays
    // cost up to four misses (the block is far larger than the caches). Threads expanding one
    // bucket together change a record by one compare-and-swap of all 8 bytes (expand_shared).
    struct alignas(8) EntryState {
        std::uint8_t flags;
        std::uint8_t king_moves;  // legal king moves (0 when a capture exists)
        std::uint8_t remaining;   // king moves not yet known to lose
        std::uint8_t dtw_outcome; // outcome of pass 1, to check pass 2
        std::uint16_t distance;   // result of the current pass
        // The DTW bound from conversions, of the winning ones when there is one (the smallest),
        // else of the losing ones (the largest; it matters only without a drawing or winning
        // conversion). Pass 1 seeds from it; it is kept to the end (conversions()).
        std::uint16_t bound;
    };
    static_assert(sizeof(EntryState) == 8);
    static_assert(std::atomic_ref<EntryState>::is_always_lock_free);
    static_assert(std::atomic_ref<EntryState>::required_alignment <= alignof(EntryState));
    // The bounds conversions give: their DTW (pass 1), or Kingsrow's fixed count for a conversion
    // by the side to move of e (pass 2, position_value.hpp). Entry e's side to move is e & 1
    // (Black = 0, White = 1).
    template <bool kDistanceToWin>
    unsigned win_seed(const EntryState& s, Entry e) const noexcept {
        return kDistanceToWin ? s.bound : conversion_plies_[e & 1u];
    }
    template <bool kDistanceToWin>
    unsigned loss_seed(const EntryState& s, Entry e) const noexcept {
        if constexpr (kDistanceToWin) return s.bound;
        return (s.flags & kAnyConversion) != 0 ? conversion_plies_[e & 1u] : 0u;
    }
    std::vector<EntryState> state_;
    // The DTWs of pass 1 too long for the byte (wide_code), by entry in increasing order: pass 2
    // needs them to store the wide position. Others are their DTW code.
    std::vector<std::pair<Entry, std::uint16_t>> wide_dtw_;
    // Entries by distance; buckets above the largest distance met so far are never visited.
    std::vector<std::vector<Entry>> buckets_;
    unsigned top_bucket_ = 0;  // the highest bucket pushed to in the current pass
    Plies narrow_dtw_ = kMaxNarrowDtw;
    Plies narrow_mtc_ = kMaxNarrowMtc;
    BlockSharing sharing_;
    void push(unsigned distance, Entry e) {
        if (distance >= buckets_.size()) buckets_.resize(distance + 1);
        buckets_[distance].push_back(e);
        top_bucket_ = std::max(top_bucket_, distance);
    }
};

}  // namespace egdb
