// Retrograde analysis of a slice without men (0502, 0403, ...) in the bytes of its solution, for
// slices whose one block is too large for BlockSolver's 8-byte entry states and distance buckets
// (0403 at 7 pieces: 7.0e9 entries, 56 GB of states; the solution itself is 14 GB).
//
// A slice without men is one block, and its only conversions are captures: a position either
// has a capture (all its moves are captures, its value comes from smaller slices alone) or has
// only king moves, which stay in the block. So the values are found ply by ply, as chess
// tablebase generators do, holding per entry (a position and a side to move) only:
//  * the DTW code (pass 1) and the MTC byte (pass 2) the level stores anyway;
//  * one candidate bit, and in pass 2 one decided bit (an MTC of 0 is a value).
// Ply d of a pass: the entries decided at distance d - 1 (found by scanning the bytes, or in the
// table of distances too long for a byte) mark their king-move predecessors as candidates; a
// candidate of a loss is won at d; a candidate of a win is lost at d when every king move of it
// leads to a win decided at most d - 1 away (checked by walking its moves, where BlockSolver
// keeps a count). Wins and losses come out at the same distances as BlockSolver's propagation
// (block_solver.hpp), so the bytes are the same (tests compare both on every slice without men
// of up to 5 pieces).
// Pass 2 (MTC) takes each entry's WLD from pass 1 and stops on any position it decides the other
// way, or does not decide (InternalError): the same check BlockSolver makes between its passes.
//
// Every step is shared by the threads: scans and verification in ranges of entries, candidate
// bits set by atomic or; no byte is written while another thread reads bytes.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/generate/block_solver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/solved_level.hpp"
#include "core/values/solved_lookup.hpp"

namespace egdb {

class KingsOnlySolver {
public:
    // `slice` has no men; `kings` are its king placements; `smaller` answers for every slice its
    // captures reach. `narrow_limit` as BlockSolver's.
    KingsOnlySolver(SliceId slice, const KingPlacements& kings, const SolvedLookup& smaller, Plies narrow_limit = kMaxNarrowMtc);

    // Solves the one block of the slice into `level` (its only configuration, as constructed:
    // draws, MTC 0, no capture bits) on `threads` threads. Throws DistanceOverflowError when a
    // distance exceeds kMaxPlies, InternalError when the passes disagree.
    void solve(SolvedLevel& level, std::size_t threads);

    // Bytes held besides the level, for a block of `block` positions: the candidate and decided
    // bits of both sides to move (the table of long distances is small and not counted).
    static std::uint64_t workspace_bytes(std::uint64_t block) noexcept { return 4 * ((block + 63) / 64) * 8; }

    // What block_check.hpp asks of a solver. The conversions (captures) are generated and
    // looked up again here: keeping their bounds would cost 2 bytes an entry.
    SliceId slice() const noexcept { return slice_; }
    const KingPlacements& kings() const noexcept { return kings_; }
    Bitboard black_men() const noexcept { return 0; }
    Bitboard white_men() const noexcept { return 0; }
    bool shares_block(std::size_t threads) const noexcept { return threads > 1; }
    BlockSolver::Conversions conversions(std::uint64_t local, Color side_to_move) const;

private:
    using Entry = std::uint64_t;  // 2 * local + side to move (Black = 0, White = 1)

    // The pass being run: DTW in the level's codes, or MTC in its bytes with the decided bits.
    enum class Pass { Dtw, Mtc };
    // What a ply makes: wins (from losses at d - 1) or losses (from wins at d - 1).
    enum class Makes { Wins, Losses };

    // What the captures of `p` (whose side to move has one) give: the seeds of both passes.
    BlockSolver::Conversions captures_of(const Position& p, Color side_to_move) const;
    void classify(std::size_t threads);
    template <Pass P>
    void run_pass(std::size_t threads);
    // Ply d of pass P making `makes`; returns how many entries it decided.
    template <Pass P>
    std::uint64_t ply(unsigned d, Makes makes, std::size_t threads);
    void finish_values(std::size_t threads);

    // Pass P's view of an entry.
    template <Pass P>
    bool decided(std::uint64_t local, std::size_t side) const noexcept;
    template <Pass P>
    unsigned distance(std::uint64_t local, std::size_t side) const;
    bool won(std::uint64_t local, std::size_t side) const noexcept;  // by pass 1's code (decided ones)
    bool capture_at(std::uint64_t local, std::size_t side) const noexcept {
        return ((captures_[side][local / 64] >> (local % 64)) & 1u) != 0;
    }
    // Records entry (local, side) as decided by pass P at distance d, won or lost. Only the
    // thread that owns the entry's range calls it.
    template <Pass P>
    void decide(std::uint64_t local, std::size_t side, bool win, unsigned d);

    SliceId slice_;
    const KingPlacements& kings_;
    const SolvedLookup& smaller_;
    Plies narrow_dtw_;
    Plies narrow_mtc_;
    std::array<unsigned, 2> conversion_plies_{};

    // The level being solved: its bytes and capture bits, by side to move.
    std::array<DistanceCode*, 2> codes_{};
    std::array<std::uint8_t*, 2> mtc_{};
    std::array<std::uint64_t*, 2> captures_{};
    SolvedLevel* level_ = nullptr;
    std::uint64_t block_ = 0;
    std::array<std::vector<std::uint64_t>, 2> candidates_;
    std::array<std::vector<std::uint64_t>, 2> decided_mtc_;
    // Distances too long for the byte, by entry, of each pass (rare: none at 7 pieces in Kingsrow's
    // tables; tests lower the limit). Written under the mutex while a ply decides.
    std::array<std::unordered_map<Entry, std::uint16_t>, 2> long_;
    std::mutex long_mutex_;
    std::array<unsigned, 2> largest_seed_{};  // of each pass: the classification's largest distance
};

}  // namespace egdb
