#include "core/generate/decoded_slice_plan.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/generate/build_driver.hpp"

namespace egdb {

DecodedSlicePlan::DecodedSlicePlan(std::uint64_t budget_bytes, std::uint64_t cache_bytes,
                                   std::function<std::uint64_t(SliceId)> file_bytes)
    : budget_(budget_bytes), cache_(cache_bytes), file_bytes_(std::move(file_bytes)) {}

void DecodedSlicePlan::measure(std::uint64_t resident_bytes, const SolutionStore& store, std::uint64_t cache_filled_bytes) {
    if (assumed_) return;
    const std::uint64_t itemised = store.memory_bytes() + cache_filled_bytes;
    if (resident_bytes > itemised) process_bytes_ = std::max(process_bytes_, resident_bytes - itemised);
}

std::size_t DecodedSlicePlan::cache_bytes(std::uint64_t budget_bytes) noexcept {
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(budget_bytes / 8, std::uint64_t{8} << 20, std::uint64_t{1} << 30));
}

bool answers_every_side_read(const SolutionStore& store, const SuccessorRead& r) {
    for (const Color side : {Color::Black, Color::White}) {
        if (r.sides.contains(side) && !store.answers(r.slice, side)) return false;
    }
    return true;
}

std::uint64_t DecodedSlicePlan::decoded_bytes(SliceId t, SideSet sides) noexcept {
    return 2 * slice_size(t) * static_cast<std::uint64_t>(SolvedSlice::sides_to_hold(t, sides).count());
}

std::uint64_t DecodedSlicePlan::held(const SolutionStore& store, SliceId slice, std::uint64_t step_bytes) const {
    const std::vector<SuccessorRead> reads = successor_reads(slice);
    return held(store, reads, step_bytes);
}

std::uint64_t DecodedSlicePlan::held(const SolutionStore& store, std::span<const SuccessorRead> reads,
                                     std::uint64_t step_bytes) const {
    std::uint64_t bytes = process_bytes_ + store.memory_bytes() + step_bytes + cache_;
    for (const SuccessorRead& r : reads) {
        if (!answers_every_side_read(store, r)) bytes += file_bytes_(r.slice);
    }
    return bytes;
}

std::uint64_t DecodedSlicePlan::make_room(SolutionStore& store, SliceId slice, std::uint64_t step_bytes,
                                          std::span<const SliceId> earlier, const std::function<bool(SliceId)>& available,
                                          const std::function<void(SliceId, SideSet)>& restore) const {
    const std::vector<SuccessorRead> reads = successor_reads(slice);
    // A slice held for a side the step does not read it at serves the step no more than one
    // not read at all.
    const auto is_read = [&](SliceId t) {
        return std::any_of(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return r.slice == t && answers_every_side_read(store, r); });
    };
    for (const bool drop_read : {false, true}) {
        for (const SliceId t : earlier) {
            if (held(store, reads, step_bytes) <= budget_) break;
            if (store.find(t) != nullptr && is_read(t) == drop_read) store.remove(t);
        }
    }
    for (const SuccessorRead& r : reads) {
        if (answers_every_side_read(store, r) || !available(r.slice)) continue;
        // Decoded, t costs its values instead of its file's pages (and of what it holds now).
        const SolvedSlice* partial = store.find(r.slice);
        const std::uint64_t before = held(store, reads, step_bytes) - file_bytes_(r.slice) - (partial ? partial->memory_bytes() : 0);
        SideSet sides = r.sides;
        if (partial != nullptr && before + decoded_bytes(r.slice, sides | partial->sides()) <= budget_) sides |= partial->sides();
        if (before + decoded_bytes(r.slice, sides) > budget_) continue;
        if (partial != nullptr) store.remove(r.slice);
        restore(r.slice, sides);
    }
    return held(store, reads, step_bytes);
}

}  // namespace egdb
