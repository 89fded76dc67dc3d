#include "core/generate/memory_plan.hpp"

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

std::uint64_t DecodedSlicePlan::held(const SolutionStore& store, SliceId slice, std::uint64_t step_bytes) const {
    const std::vector<SliceId> reads = successor_slices(slice);
    return held(store, reads, step_bytes);
}

std::uint64_t DecodedSlicePlan::held(const SolutionStore& store, std::span<const SliceId> reads, std::uint64_t step_bytes) const {
    std::uint64_t bytes = process_bytes_ + store.memory_bytes() + step_bytes + cache_;
    for (const SliceId t : reads) {
        if (store.find(t) == nullptr) bytes += file_bytes_(t);
    }
    return bytes;
}

std::uint64_t DecodedSlicePlan::make_room(SolutionStore& store, SliceId slice, std::uint64_t step_bytes,
                                          std::span<const SliceId> earlier, const std::function<bool(SliceId)>& available,
                                          const std::function<void(SliceId)>& restore) const {
    const std::vector<SliceId> reads = successor_slices(slice);
    const auto is_read = [&](SliceId t) { return std::find(reads.begin(), reads.end(), t) != reads.end(); };
    for (const bool drop_read : {false, true}) {
        for (const SliceId t : earlier) {
            if (held(store, reads, step_bytes) <= budget_) break;
            if (is_read(t) == drop_read) store.remove(t);
        }
    }
    for (const SliceId t : reads) {
        if (store.find(t) != nullptr || !available(t)) continue;
        // Decoded, t costs its values instead of its file's pages.
        if (held(store, reads, step_bytes) - file_bytes_(t) + 4 * slice_size(t) > budget_) continue;
        restore(t);
    }
    return held(store, reads, step_bytes);
}

}  // namespace egdb
