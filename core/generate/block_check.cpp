#include "core/generate/block_check.hpp"

#include <mutex>
#include <utility>

#include "core/generate/block_successors.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/kings_only_solver.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/values/position_value.hpp"
#include "core/notation/fen.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/prefetch.hpp"

namespace egdb {
namespace block_check_detail {

// The block being checked, as the level stores it (fold_king_moves reads it).
class StoredBlock {
public:
    StoredBlock(const SolvedLevel& level, std::size_t slot, Bitboard black_men, Bitboard white_men)
        : level_(level), slot_(slot), black_men_(black_men), white_men_(white_men) {}
    Bitboard black_men() const noexcept { return black_men_; }
    Bitboard white_men() const noexcept { return white_men_; }
    PositionValue value(std::uint64_t local, Color side_to_move) const {
        return level_.value_at_while_solving(slot_, local, side_to_move);
    }
    DtwValue dtw_value(std::uint64_t local, Color side_to_move) const {
        return level_.dtw_value_at_while_solving(slot_, local, side_to_move);
    }
    void prefetch(std::uint64_t local, Color side_to_move) const noexcept {
        prefetch_for_read(level_.dtw_codes(side_to_move).data() + slot_ * level_.block_size() + local);
    }

private:
    const SolvedLevel& level_;
    std::size_t slot_;
    Bitboard black_men_;
    Bitboard white_men_;
};

// Adds a position's conversions to `fold` as one successor per kind that matters, which gives what
// adding each conversion gives: the rule keeps of the successors lost for the opponent only the
// smallest DTW (`bound` when one wins), of the drawn ones only that there is one, and of those won
// by the opponent only the largest DTW, which counts only when nothing wins or draws (`bound`
// then). A conversion's MTC is the fixed count whichever it is.
void add_conversions(const BlockSolver::Conversions& c, SuccessorFold& fold) {
    if (c.winning) fold.add_conversion({WldValue::Loss, static_cast<Plies>(c.bound - 1)});
    if (c.drawing) fold.add_conversion({WldValue::Draw, 0});
    if (c.any && !c.winning && !c.drawing) fold.add_conversion({WldValue::Win, static_cast<Plies>(c.bound - 1)});
}

bool same_value(const PositionValue& stored, const PositionValue& derived) noexcept {
    // Draws carry no distances (position_value.hpp).
    return stored.wld == derived.wld && (stored.wld == WldValue::Draw || (stored.dtw == derived.dtw && stored.mtc == derived.mtc));
}

}  // namespace block_check_detail

using namespace block_check_detail;

void CheckTally::add(CheckTally&& other, std::size_t max_messages) {
    positions += other.positions;
    mismatches += other.mismatches;
    for (std::string& m : other.messages) {
        if (messages.size() < max_messages) messages.push_back(std::move(m));
    }
}

template <class Solver>
void check_solved_block(const Solver& solver, const SolvedLevel& level, std::size_t slot, std::size_t threads,
                        CheckTally& tally, std::size_t max_messages) {
    const KingPlacements& kings = solver.kings();
    const SliceId slice = solver.slice();
    const StoredBlock block(level, slot, solver.black_men(), solver.white_men());
    const std::uint64_t size = level.block_size();
    const std::array<unsigned, 2> conversion{conversion_plies(slice, Color::Black), conversion_plies(slice, Color::White)};

    const auto check_range = [&](std::uint64_t first, std::uint64_t last, CheckTally& out) {
        for (std::uint64_t local = first; local < last; ++local) {
            const Position p = kings.position(block.black_men(), block.white_men(), local);
            for (const Color side : {Color::Black, Color::White}) {
                const BlockSolver::Conversions c = solver.conversions(local, side);
                SuccessorFold fold(conversion[static_cast<std::size_t>(side)]);
                add_conversions(c, fold);
                // With a capture, king moves are illegal (compulsory capture).
                if (!c.capture) fold_king_moves(kings, block, p, side, fold);
                const PositionValue derived = fold.result();
                const PositionValue stored = block.value(local, side);
                if (same_value(stored, derived)) [[likely]] continue;
                if (++out.mismatches > max_messages) continue;
                const std::uint64_t index = level.configurations()[slot] * size + local;
                out.messages.push_back("slice " + slice.to_string() + " index " + std::to_string(index) + " " + to_fen(p, side) +
                                       ": solved " + describe(stored) + ", successors give " + describe(derived));
            }
        }
        out.positions += 2 * (last - first);
    };

    if (solver.shares_block(threads)) {
        std::mutex merge;
        parallel_ranges(size, static_cast<int>(threads), [&](std::uint64_t first, std::uint64_t last) {
            CheckTally part;
            check_range(first, last, part);
            const std::lock_guard lock(merge);
            tally.add(std::move(part), max_messages);
        });
    } else {
        CheckTally part;
        check_range(0, size, part);
        tally.add(std::move(part), max_messages);
    }
}

template void check_solved_block(const BlockSolver&, const SolvedLevel&, std::size_t, std::size_t, CheckTally&, std::size_t);
template void check_solved_block(const KingsOnlySolver&, const SolvedLevel&, std::size_t, std::size_t, CheckTally&, std::size_t);

}  // namespace egdb
