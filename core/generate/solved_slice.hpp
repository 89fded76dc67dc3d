// The solution of one slice, in memory: for both sides to move and every index of the slice
// (kingsrow-format.md section 2), one DTW code byte (which also carries WLD) and one MTC byte
// (position_value.hpp), and the rare wide positions in a table (wide_values.hpp). A writer
// serialises these; the solver fills them. A slice brought back from its file only to be read
// may hold one side to move (sides()): the other side's values are then absent, not draws.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/board/position.hpp"
#include "core/values/position_value.hpp"
#include "core/index/side_set.hpp"
#include "core/generate/solved_level.hpp"
#include "core/index/slice.hpp"

namespace egdb {

class SolvedSlice {
public:
    // All entries of `sides` start as draws with MTC 0; the other side has no values.
    explicit SolvedSlice(SliceId slice, SideSet sides = SideSet::both());

    // The sides to hold so that `needed` can be answered. A colour-symmetric slice holds Black
    // alone for either side: White to move there is Black to move in the colour-reversed
    // position, in the same slice (kingsrow-format.md 1.5), which SolutionStore answers.
    static SideSet sides_to_hold(SliceId slice, SideSet needed) noexcept;

    SideSet sides() const noexcept { return sides_; }
    bool holds(Color side_to_move) const noexcept { return sides_.contains(side_to_move); }
    // Frees the values of the sides that sides_to_hold(slice(), sides) leaves out.
    void keep(SideSet sides);

    SliceId slice() const noexcept { return slice_; }
    std::uint64_t size() const noexcept { return size_; }

    PositionValue value(std::uint64_t index, Color side_to_move) const noexcept {
        const auto s = static_cast<std::size_t>(side_to_move);
        return decode_value(dtw_codes_[s][index], mtc_[s][index], wide_[s], index);
    }
    // WLD and DTW at `index`, without reading MTC (position_value.hpp DtwValue).
    DtwValue dtw_value(std::uint64_t index, Color side_to_move) const noexcept {
        const auto s = static_cast<std::size_t>(side_to_move);
        return decode_dtw(dtw_codes_[s][index], wide_[s], index);
    }

    // Sets the value at `index`: its bytes, and for a wide position (position_value.hpp) its
    // entry in wide(). Not thread-safe for wide values (callers that set values on several
    // threads collect those and set them after).
    void set_value(std::uint64_t index, Color side_to_move, const PositionValue& value);

    // The wide positions, keyed by slice index.
    const WideValues& wide(Color side_to_move) const noexcept { return wide_[static_cast<std::size_t>(side_to_move)]; }
    WideValues& wide(Color side_to_move) noexcept { return wide_[static_cast<std::size_t>(side_to_move)]; }

    std::span<const DistanceCode> dtw_codes(Color side_to_move) const noexcept {
        return dtw_codes_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<const std::uint8_t> mtc(Color side_to_move) const noexcept {
        return mtc_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<DistanceCode> dtw_codes(Color side_to_move) noexcept {
        return dtw_codes_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<std::uint8_t> mtc(Color side_to_move) noexcept {
        return mtc_[static_cast<std::size_t>(side_to_move)];
    }

    // Copies the blocks of a level of this slice into place.
    void store(const SolvedLevel& level);

    std::uint64_t memory_bytes() const noexcept {
        return 2 * size_ * static_cast<std::uint64_t>(sides_.count()) + wide_[0].memory_bytes() + wide_[1].memory_bytes();
    }

    friend bool operator==(const SolvedSlice&, const SolvedSlice&) = default;

private:
    SliceId slice_;
    std::uint64_t size_ = 0;
    SideSet sides_;
    std::array<std::vector<DistanceCode>, 2> dtw_codes_;
    std::array<std::vector<std::uint8_t>, 2> mtc_;
    std::array<WideValues, 2> wide_;
};

}  // namespace egdb
