// An in-memory collection of solved slices (SolvedSlice), the store the build driver fills and
// the solver reads through SolvedLookup. Only canonical slices (section 1.5) are kept; positions
// of the other orientation are answered by colour reversal (section 1.4), which leaves values
// relative to the side to move unchanged.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/values/solved_lookup.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb {

class SolutionStore final : public SolvedLookup {
public:
    SolutionStore() = default;

    // Takes a solved canonical slice; replaces an earlier solution of the same slice.
    // Throws std::invalid_argument for a non-canonical slice. Not thread-safe against lookups.
    void add(SolvedSlice solved);

    // Drops the solution of `slice` and frees its memory; nothing happens when it is not held.
    // Not thread-safe against lookups.
    void remove(SliceId slice);
    // Frees the values of `slice` at the sides to move outside `sides` (SolvedSlice::keep); drops
    // it when `sides` is empty. Nothing happens when it is not held. Not thread-safe against lookups.
    void keep_sides(SliceId slice, SideSet sides);

    // The solution of a canonical slice, or nullptr.
    const SolvedSlice* find(SliceId slice) const noexcept;
    // Whether value() answers positions of canonical slice `slice` with `side_to_move`: the
    // slice is held for that side (or, colour-symmetric, for the other: SolvedSlice::sides_to_hold).
    bool answers(SliceId slice, Color side_to_move) const noexcept {
        const SolvedSlice* solved = find(slice);
        return solved != nullptr && (solved->holds(side_to_move) || (is_color_symmetric(slice) && solved->holds(opposite(side_to_move))));
    }

    // Canonical slices held, in insertion order.
    const std::vector<SliceId>& slices() const noexcept { return order_; }

    // Bytes of value storage held.
    std::uint64_t memory_bytes() const noexcept;

    // SolvedLookup. Thread-safe (read-only) while no add() or remove() runs. Defined here so that
    // callers holding a SolutionStore (the verifier, restoring a slice) have it inlined.
    PositionValue value(const Position& position, Color side_to_move) const override;

    // The value of `position` when the store answers it (an empty side, or its slice held for
    // that side to move): true, with `out` set. False when it does not, without throwing. One
    // slice computation and one slot read: a lookup that falls back to files (StoreThenFiles)
    // asks this first for every successor, and asking answers() and then value() did both twice.
    bool value_if_held(const Position& position, Color side_to_move, PositionValue& out) const noexcept;
    // SolvedLookup::dtw_value and its form that does not throw: the DTW byte alone is read.
    DtwValue dtw_value(const Position& position, Color side_to_move) const override;
    bool dtw_value_if_held(const Position& position, Color side_to_move, DtwValue& out) const noexcept;

private:
    struct Held {
        std::unique_ptr<SolvedSlice> solved;
        const SliceIndexer* indexer = nullptr;
    };

    static constexpr int kCountsPerGroup = kMaxPiecesPerSide + 1;
    static constexpr std::size_t slot_of(SliceId s) noexcept {
        return static_cast<std::size_t>(((s.nbm * kCountsPerGroup + s.nbk) * kCountsPerGroup + s.nwm) *
                                            kCountsPerGroup +
                                        s.nwk);
    }
    // The value `read` gives from the slice that holds `position` (its canonical form and side),
    // or false when the store does not hold it for that side to move.
    template <class Value, class Read>
    bool answer(const Position& position, Color side_to_move, Value& out, Read read) const noexcept;
    // Why value_if_held() did not answer: the slice is not solved, or held without that side.
    [[noreturn]] void throw_not_answered(const Position& position, Color side_to_move) const;

    std::array<Held, kCountsPerGroup * kCountsPerGroup * kCountsPerGroup * kCountsPerGroup> slots_;
    std::vector<SliceId> order_;
};

template <class Value, class Read>
inline bool SolutionStore::answer(const Position& position, Color side_to_move, Value& out, Read read) const noexcept {
    // Both colours of a canonical slice are stored, so only non-canonical slices are reversed.
    const SliceId slice = slice_of(position);
    const bool reverse = !is_canonical(slice);
    const SliceId canonical = reverse ? color_reversed(slice) : slice;
    if (!is_indexable(canonical)) [[unlikely]] return false;
    const Held& held = slots_[slot_of(canonical)];
    if (!held.solved) return false;
    const Position in_canonical = reverse ? reversed(position) : position;
    const Color side = reverse ? opposite(side_to_move) : side_to_move;
    if (held.solved->holds(side)) [[likely]] {
        out = read(*held.solved, held.indexer->index_of(in_canonical), side);
        return true;
    }
    // Held for one side only: a colour-symmetric slice answers the other in the reversed position.
    if (!is_color_symmetric(canonical)) return false;
    out = read(*held.solved, held.indexer->index_of(reversed(in_canonical)), opposite(side));
    return true;
}

inline bool SolutionStore::value_if_held(const Position& position, Color side_to_move, PositionValue& out) const noexcept {
    if (has_empty_side(position)) [[unlikely]] {
        out = empty_side_value(position, side_to_move);
        return true;
    }
    return answer(position, side_to_move, out,
                  [](const SolvedSlice& solved, std::uint64_t index, Color side) { return solved.value(index, side); });
}

inline bool SolutionStore::dtw_value_if_held(const Position& position, Color side_to_move, DtwValue& out) const noexcept {
    if (has_empty_side(position)) [[unlikely]] {
        out = dtw_part(empty_side_value(position, side_to_move));
        return true;
    }
    return answer(position, side_to_move, out,
                  [](const SolvedSlice& solved, std::uint64_t index, Color side) { return solved.dtw_value(index, side); });
}

inline PositionValue SolutionStore::value(const Position& position, Color side_to_move) const {
    PositionValue v;
    if (!value_if_held(position, side_to_move, v)) [[unlikely]] throw_not_answered(position, side_to_move);
    return v;
}

inline DtwValue SolutionStore::dtw_value(const Position& position, Color side_to_move) const {
    DtwValue v;
    if (!dtw_value_if_held(position, side_to_move, v)) [[unlikely]] throw_not_answered(position, side_to_move);
    return v;
}

}  // namespace egdb
