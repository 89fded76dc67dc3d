#include "core/generate/solution_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/index/slice_indexer.hpp"

namespace egdb {

void SolutionStore::add(SolvedSlice solved) {
    const SliceId slice = solved.slice();
    if (!is_indexable(slice) || !is_canonical(slice)) {
        throw std::invalid_argument("SolutionStore holds canonical slices only, got " + slice.to_string());
    }
    auto& slot = slots_[slot_of(slice)];
    if (!slot) order_.push_back(slice);
    slot = std::make_unique<SolvedSlice>(std::move(solved));
}

void SolutionStore::remove(SliceId slice) {
    if (!is_indexable(slice) || !slots_[slot_of(slice)]) return;
    slots_[slot_of(slice)].reset();
    order_.erase(std::find(order_.begin(), order_.end(), slice));
}

const SolvedSlice* SolutionStore::find(SliceId slice) const noexcept {
    if (!is_indexable(slice)) return nullptr;
    return slots_[slot_of(slice)].get();
}

std::uint64_t SolutionStore::memory_bytes() const noexcept {
    std::uint64_t bytes = 0;
    for (const SliceId s : order_) bytes += slots_[slot_of(s)]->memory_bytes();
    return bytes;
}

PositionValue SolutionStore::value(const Position& position, Color side_to_move) const {
    if (has_empty_side(position)) return *empty_side_value(position, side_to_move);
    // Both colours of a canonical slice are stored, so only non-canonical slices are reversed.
    const SliceId slice = slice_of(position);
    const bool reverse = !is_canonical(slice);
    const SliceId canonical = reverse ? color_reversed(slice) : slice;
    const SolvedSlice* solved = find(canonical);
    if (solved == nullptr) throw std::out_of_range("slice " + canonical.to_string() + " is not solved");
    if (reverse) {
        return solved->value(slice_indexer(canonical).index_of(reversed(position)), opposite(side_to_move));
    }
    return solved->value(slice_indexer(canonical).index_of(position), side_to_move);
}

}  // namespace egdb
