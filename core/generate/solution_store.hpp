// An in-memory collection of solved slices (SolvedSlice), the store the build driver fills and
// the solver reads through SolvedLookup. Only canonical slices (section 1.5) are kept; positions
// of the other orientation are answered by colour reversal (section 1.4), which leaves values
// relative to the side to move unchanged.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/generate/solved_lookup.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice.hpp"

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

    // The solution of a canonical slice, or nullptr.
    const SolvedSlice* find(SliceId slice) const noexcept;

    // Canonical slices held, in insertion order.
    const std::vector<SliceId>& slices() const noexcept { return order_; }

    // Bytes of value storage held.
    std::uint64_t memory_bytes() const noexcept;

    // SolvedLookup. Thread-safe (read-only) while no add() runs.
    PositionValue value(const Position& position, Color side_to_move) const override;

private:
    static constexpr int kCountsPerGroup = kMaxPiecesPerSide + 1;
    static constexpr std::size_t slot_of(SliceId s) noexcept {
        return static_cast<std::size_t>(((s.nbm * kCountsPerGroup + s.nbk) * kCountsPerGroup + s.nwm) *
                                            kCountsPerGroup +
                                        s.nwk);
    }

    std::array<std::unique_ptr<SolvedSlice>,
               kCountsPerGroup * kCountsPerGroup * kCountsPerGroup * kCountsPerGroup>
        slots_;
    std::vector<SliceId> order_;
};

}  // namespace egdb
