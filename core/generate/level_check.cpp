#include "core/generate/level_check.hpp"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

#include "core/generate/block_successors.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/one_ply_check.hpp"
#include "core/notation/fen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb {
namespace {

// Where the successors of a level's positions lie (block_successors.hpp): king moves in the
// block being checked, man moves in the level above (or the slice solved so far), the rest in
// the smaller slices.
class LevelBlock {
public:
    explicit LevelBlock(const SolvedLevel& level) : level_(level) {}
    void enter(std::uint64_t slot, const SliceIndexer& indexer) {
        slot_ = slot;
        const Position men = indexer.position_at(level_.configurations()[slot] * level_.block_size());
        black_men_ = men.men(Color::Black);
        white_men_ = men.men(Color::White);
    }
    std::uint64_t slot() const noexcept { return slot_; }
    Bitboard black_men() const noexcept { return black_men_; }
    Bitboard white_men() const noexcept { return white_men_; }
    PositionValue value(std::uint64_t local, Color side_to_move) const { return level_.value_at(slot_, local, side_to_move); }
    DtwValue dtw_value(std::uint64_t local, Color side_to_move) const {
        return level_.dtw_value_at(slot_, local, side_to_move);
    }

private:
    const SolvedLevel& level_;
    std::uint64_t slot_ = ~std::uint64_t{0};
    Bitboard black_men_ = 0;
    Bitboard white_men_ = 0;
};

struct LevelAbove {
    const SolvedLevel& level;
    const SolvedLevel* next;
    const SolvedSlice* whole;
    PositionValue value(std::uint64_t index, Color side_to_move) const {
        if (whole != nullptr) return whole->value(index, side_to_move);
        if (next == nullptr) throw_not_solved();
        return next->value(index, side_to_move);
    }
    DtwValue dtw_value(std::uint64_t index, Color side_to_move) const {
        if (whole != nullptr) return whole->dtw_value(index, side_to_move);
        if (next == nullptr) throw_not_solved();
        return next->dtw_value(index, side_to_move);
    }
    [[noreturn]] void throw_not_solved() const {
        throw std::logic_error("slice " + level.slice().to_string() + " level " + std::to_string(level.advancement()) +
                               ": a man move leads to a level that is not solved");
    }
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
        LevelBlock in_block(level);
        const LevelAbove above{level, next, whole};
        const BlockSuccessors successors(slice, kings, in_block, above, smaller);
        MoveList moves;
        for (std::uint64_t i = first; i < last; ++i) {
            if (i / block != in_block.slot()) in_block.enter(i / block, indexer);
            const std::uint64_t slot = in_block.slot();
            const std::uint64_t local = i - slot * block;
            const Position p = kings.position(in_block.black_men(), in_block.white_men(), local);
            for (const Color side : {Color::Black, Color::White}) {
                const PositionValue stored = level.value_at(slot, local, side);
                const PositionValue derived = successors.value_of(p, side, moves);
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
