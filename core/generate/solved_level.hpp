// The solution of one advancement level of a slice: the men configurations whose men have
// advanced the same total number of rows (men_order.hpp), for both sides to move, with the same
// per-position bytes as SolvedSlice (a DTW code that also carries WLD, and MTC) and the same
// table of wide positions (wide_values.hpp).
//
// A level is the unit the solver works in. A man move that stays in the slice raises the
// advancement by exactly one, so solving level a reads only level a + 1 of the same slice (and
// other, already-solved slices): a slice can be solved with two levels in memory instead of the
// whole slice, and a finished level can be stored as a unit file (build/unit_file.hpp)
// from which a build resumes or which another machine solves.
//
// Each men configuration is one contiguous block of KB * KW indices (king_placements.hpp); the
// level keeps its blocks one after another in increasing configuration order.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "core/board/position.hpp"
#include "core/values/position_value.hpp"
#include "core/values/wide_values.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb {

class SolvedLevel {
public:
    // Every entry of `configurations` (increasing, each < men_configurations of the slice) starts
    // as a draw with MTC 0 and no capture. Throws std::invalid_argument for configurations out of order or range.
    SolvedLevel(SliceId slice, int advancement, std::vector<std::uint64_t> configurations);

    SliceId slice() const noexcept { return slice_; }
    int advancement() const noexcept { return advancement_; }
    const std::vector<std::uint64_t>& configurations() const noexcept { return configurations_; }
    std::uint64_t block_size() const noexcept { return block_size_; }
    // Positions held for each side to move: configurations * block size.
    std::uint64_t size() const noexcept { return configurations_.size() * block_size_; }

    // The position of men configuration `men` among configurations(), or kAbsent.
    static constexpr std::uint64_t kAbsent = ~std::uint64_t{0};
    std::uint64_t slot_of(std::uint64_t men) const noexcept {
        const std::uint64_t bucket = men >> bucket_shift_;
        if (bucket + 1 >= directory_.size()) return kAbsent;
        // A bucket holds a few configurations (the directory has about one bucket per
        // configuration of the level): a short scan.
        for (std::uint32_t k = directory_[bucket], end = directory_[bucket + 1]; k < end; ++k) {
            if (configurations_[k] == men) return k;
            if (configurations_[k] > men) break;
        }
        return kAbsent;
    }

    // True when the level holds the configuration of slice index `index`.
    bool holds(std::uint64_t index) const noexcept { return slot_of(men_divisor_.quotient(index)) != kAbsent; }

    // Value at slice index `index`. Throws std::logic_error when the level does not hold it (a
    // solver reading a level other than the next more advanced one).
    PositionValue value(std::uint64_t index, Color side_to_move) const {
        const std::uint64_t men = men_divisor_.quotient(index);
        const std::uint64_t slot = slot_of(men);
        if (slot == kAbsent) throw_not_held(index);
        const std::uint64_t offset = slot * block_size_ + (index - men * block_size_);
        const auto s = static_cast<std::size_t>(side_to_move);
        return decode_value(dtw_codes_[s][offset], mtc_[s][offset], wide_[s], offset);
    }

    // WLD and DTW at slice index `index`, without reading MTC; throws like value().
    DtwValue dtw_value(std::uint64_t index, Color side_to_move) const {
        const std::uint64_t men = men_divisor_.quotient(index);
        const std::uint64_t slot = slot_of(men);
        if (slot == kAbsent) throw_not_held(index);
        return dtw_value_at(slot, index - men * block_size_, side_to_move);
    }

    // Value at `offset` of the block at `slot` (< configurations().size(); offset < block_size()).
    PositionValue value_at(std::uint64_t slot, std::uint64_t offset, Color side_to_move) const noexcept {
        const auto s = static_cast<std::size_t>(side_to_move);
        const std::uint64_t i = slot * block_size_ + offset;
        return decode_value(dtw_codes_[s][i], mtc_[s][i], wide_[s], i);
    }
    DtwValue dtw_value_at(std::uint64_t slot, std::uint64_t offset, Color side_to_move) const noexcept {
        const auto s = static_cast<std::size_t>(side_to_move);
        const std::uint64_t i = slot * block_size_ + offset;
        return decode_dtw(dtw_codes_[s][i], wide_[s], i);
    }

    // value_at and dtw_value_at for a reader of its own block while other threads still solve
    // other blocks of the level: a wide code's distances are read under the lock set_wide takes.
    PositionValue value_at_while_solving(std::uint64_t slot, std::uint64_t offset, Color side_to_move) const {
        const auto s = static_cast<std::size_t>(side_to_move);
        const std::uint64_t i = slot * block_size_ + offset;
        if (!is_wide_code(dtw_codes_[s][i])) [[likely]] return decode_value(dtw_codes_[s][i], mtc_[s][i]);
        const std::lock_guard lock(wide_mutex_.mutex);
        return decode_value(dtw_codes_[s][i], mtc_[s][i], wide_[s], i);
    }
    DtwValue dtw_value_at_while_solving(std::uint64_t slot, std::uint64_t offset, Color side_to_move) const {
        const auto s = static_cast<std::size_t>(side_to_move);
        const std::uint64_t i = slot * block_size_ + offset;
        if (!is_wide_code(dtw_codes_[s][i])) [[likely]] return decode_dtw(dtw_codes_[s][i]);
        const std::lock_guard lock(wide_mutex_.mutex);
        return decode_dtw(dtw_codes_[s][i], wide_[s], i);
    }

    // Records the distances of a wide position (position_value.hpp) at `offset` of the block at
    // `slot`, whose bytes the caller sets to the wide codes. Thread-safe: the blocks of a level
    // are solved on several threads.
    void set_wide(std::uint64_t slot, std::uint64_t offset, Color side_to_move, WideDistances distances) {
        const std::lock_guard lock(wide_mutex_.mutex);
        wide_[static_cast<std::size_t>(side_to_move)].set(slot * block_size_ + offset, distances);
    }
    // The wide positions, keyed by their index in dtw_codes() and mtc(). Not thread-safe.
    const WideValues& wide(Color side_to_move) const noexcept { return wide_[static_cast<std::size_t>(side_to_move)]; }
    WideValues& wide(Color side_to_move) noexcept { return wide_[static_cast<std::size_t>(side_to_move)]; }

    // The bytes of the block at `slot` (< configurations().size()).
    std::span<DistanceCode> block_dtw_codes(std::uint64_t slot, Color side_to_move) noexcept {
        return std::span(dtw_codes_[static_cast<std::size_t>(side_to_move)]).subspan(slot * block_size_, block_size_);
    }
    std::span<std::uint8_t> block_mtc(std::uint64_t slot, Color side_to_move) noexcept {
        return std::span(mtc_[static_cast<std::size_t>(side_to_move)]).subspan(slot * block_size_, block_size_);
    }

    // Bit i (word i / 64, bit i % 64) is set when the position at level offset i has a capture
    // for the side to move: all its legal moves are captures (section 14). The solver finds it
    // while classifying, and a slice file needs it for every position (its capture bits and
    // "don't care" marks, docs/native-format.md): kept, the file's writer need not generate moves.
    std::span<const std::uint64_t> capture_bits(Color side_to_move) const noexcept {
        return captures_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<std::uint64_t> capture_bits(Color side_to_move) noexcept { return captures_[static_cast<std::size_t>(side_to_move)]; }
    bool has_capture_at(std::uint64_t slot, std::uint64_t offset, Color side_to_move) const noexcept {
        const std::uint64_t i = slot * block_size_ + offset;
        return ((captures_[static_cast<std::size_t>(side_to_move)][i / 64] >> (i % 64)) & 1u) != 0;
    }
    // Sets the bits `bits` of word `word` of capture_bits(side_to_move). Thread-safe: two blocks
    // solved on different threads can share a word.
    void add_capture_bits(Color side_to_move, std::uint64_t word, std::uint64_t bits) noexcept {
        std::atomic_ref<std::uint64_t>(captures_[static_cast<std::size_t>(side_to_move)][word]).fetch_or(bits, std::memory_order_relaxed);
    }

    // Every block of the level in configuration order (what a unit file stores).
    std::span<const DistanceCode> dtw_codes(Color side_to_move) const noexcept {
        return dtw_codes_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<const std::uint8_t> mtc(Color side_to_move) const noexcept {
        return mtc_[static_cast<std::size_t>(side_to_move)];
    }
    std::span<DistanceCode> dtw_codes(Color side_to_move) noexcept { return dtw_codes_[static_cast<std::size_t>(side_to_move)]; }
    std::span<std::uint8_t> mtc(Color side_to_move) noexcept { return mtc_[static_cast<std::size_t>(side_to_move)]; }

    std::uint64_t memory_bytes() const noexcept {
        return 4 * size() + 16 * captures_[0].size() + 8 * configurations_.size() + 4 * directory_.size() + wide_[0].memory_bytes() +
               wide_[1].memory_bytes();
    }

    friend bool operator==(const SolvedLevel& a, const SolvedLevel& b) noexcept {
        return a.slice_ == b.slice_ && a.advancement_ == b.advancement_ && a.configurations_ == b.configurations_ &&
               a.dtw_codes_ == b.dtw_codes_ && a.mtc_ == b.mtc_ && a.captures_ == b.captures_ && a.wide_ == b.wide_;
    }

private:
    [[noreturn]] void throw_not_held(std::uint64_t index) const;

    SliceId slice_;
    int advancement_ = 0;
    std::vector<std::uint64_t> configurations_;
    std::uint64_t block_size_ = 0;
    detail::FastDivisor men_divisor_;
    // Slots of the configurations in [b << bucket_shift_, (b + 1) << bucket_shift_) are
    // directory_[b] .. directory_[b + 1] - 1. A dense table over every configuration of the slice
    // would cost 4 bytes per configuration of the whole slice at every level (800 MB at 3030).
    int bucket_shift_ = 0;
    std::vector<std::uint32_t> directory_;
    std::array<std::vector<DistanceCode>, 2> dtw_codes_;
    std::array<std::vector<std::uint8_t>, 2> mtc_;
    std::array<std::vector<std::uint64_t>, 2> captures_;
    std::array<WideValues, 2> wide_;
    // Guards wide_ while the blocks of the level are solved; a copy of the level gets its own.
    struct CopyableMutex {
        std::mutex mutex;
        CopyableMutex() = default;
        CopyableMutex(const CopyableMutex&) noexcept {}
        CopyableMutex& operator=(const CopyableMutex&) noexcept { return *this; }
    };
    mutable CopyableMutex wide_mutex_;
};

}  // namespace egdb
