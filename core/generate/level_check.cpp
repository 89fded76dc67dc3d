#include "core/generate/level_check.hpp"

#include <atomic>
#include <mutex>

#include "core/generate/king_placements.hpp"
#include "core/generate/one_ply_check.hpp"
#include "core/notation/fen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb {
namespace {

// Successor values while one block (men configuration) of the level is checked. A successor
// with the block's men and all its pieces is a king move, answered from the block; one in the
// slice otherwise is a man move, answered from the level above; the rest leave the slice.
class LevelSuccessors {
public:
    LevelSuccessors(const SolvedLevel& level, const SolvedLevel* next, const SolvedSlice* whole, const SolvedLookup& smaller,
                    const KingPlacements& kings)
        : level_(level),
          next_(next),
          whole_(whole),
          smaller_(smaller),
          kings_(kings),
          indexer_(slice_indexer(level.slice())),
          pieces_(level.slice().total()) {}

    void enter_block(std::uint64_t slot, Bitboard black_men, Bitboard white_men) noexcept {
        slot_ = slot;
        black_men_ = black_men;
        white_men_ = white_men;
    }

    PositionValue value(const Position& p, Color side_to_move) const {
        const Bitboard black_men = p.men(Color::Black), white_men = p.men(Color::White);
        if (black_men == black_men_ && white_men == white_men_ && popcount(p.occupied()) == pieces_) {
            const std::uint64_t local = kings_.local_index(black_men | white_men, p.kings(Color::Black), p.kings(Color::White));
            return level_.value_at(slot_, local, side_to_move);
        }
        if (slice_of(p) != level_.slice()) return smaller_.value(p, side_to_move);
        const std::uint64_t index = indexer_.index_of(p);
        if (whole_ != nullptr) return whole_->value(index, side_to_move);
        if (next_ == nullptr) {
            throw std::logic_error("slice " + level_.slice().to_string() + " level " + std::to_string(level_.advancement()) +
                                   ": a man move leads to a level that is not solved");
        }
        return next_->value(index, side_to_move);
    }

private:
    const SolvedLevel& level_;
    const SolvedLevel* next_;
    const SolvedSlice* whole_;
    const SolvedLookup& smaller_;
    const KingPlacements& kings_;
    const SliceIndexer& indexer_;
    int pieces_;
    std::uint64_t slot_ = 0;
    Bitboard black_men_ = 0;
    Bitboard white_men_ = 0;
};

}  // namespace

LevelCheckResult check_level(const SolvedLevel& level, const SolvedLevel* next, const SolvedSlice* whole,
                             const SolvedLookup& smaller, int threads, std::size_t max_messages) {
    const SliceId slice = level.slice();
    const KingPlacements kings(slice);
    const SliceIndexer& indexer = slice_indexer(slice);
    const std::uint64_t block = level.block_size();
    LevelCheckResult result;
    std::atomic<std::uint64_t> mismatches{0};
    std::mutex messages_mutex;
    // Chunks of positions rather than whole blocks: a kings-only slice is one block.
    parallel_ranges(level.size(), threads, [&](std::uint64_t first, std::uint64_t last) {
        LevelSuccessors successors(level, next, whole, smaller, kings);
        MoveList moves;
        std::uint64_t slot = ~std::uint64_t{0};
        Bitboard black_men = 0, white_men = 0;
        for (std::uint64_t i = first; i < last; ++i) {
            if (i / block != slot) {
                slot = i / block;
                const Position men = indexer.position_at(level.configurations()[slot] * block);
                black_men = men.men(Color::Black);
                white_men = men.men(Color::White);
                successors.enter_block(slot, black_men, white_men);
            }
            const std::uint64_t local = i - slot * block;
            const Position p = kings.position(black_men, white_men, local);
            for (const Color side : {Color::Black, Color::White}) {
                generate_moves(p, side, moves);
                const PositionValue stored = level.value_at(slot, local, side);
                const PositionValue derived = value_over_moves(p, side, moves.view(), successors);
                // Draws carry no distances (position_value.hpp).
                const bool same = stored.wld == derived.wld &&
                                  (stored.wld == WldValue::Draw || (stored.dtw == derived.dtw && stored.mtc == derived.mtc));
                if (same) continue;
                if (mismatches.fetch_add(1, std::memory_order_relaxed) < max_messages) {
                    std::string message = "slice " + slice.to_string() + " index " +
                                          std::to_string(level.configurations()[slot] * block + local) + " " + to_fen(p, side) +
                                          ": solved " + describe(stored) + ", successors give " + describe(derived);
                    const std::lock_guard lock(messages_mutex);
                    result.messages.push_back(std::move(message));
                }
            }
        }
    });
    result.positions = 2 * level.size();
    result.mismatches = mismatches.load();
    return result;
}

}  // namespace egdb
