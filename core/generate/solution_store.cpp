#include "core/generate/solution_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/util/error.hpp"

namespace egdb {

void SolutionStore::add(SolvedSlice solved) {
    const SliceId slice = solved.slice();
    if (!is_indexable(slice) || !is_canonical(slice)) {
        throw InvalidArgumentError("SolutionStore holds canonical slices only, got " + slice.to_string());
    }
    Held& held = slots_[slot_of(slice)];
    if (!held.solved) order_.push_back(slice);
    held.solved = std::make_unique<SolvedSlice>(std::move(solved));
    held.indexer = &slice_indexer(slice);
}

void SolutionStore::remove(SliceId slice) {
    if (!is_indexable(slice) || !slots_[slot_of(slice)].solved) return;
    slots_[slot_of(slice)] = Held{};
    order_.erase(std::find(order_.begin(), order_.end(), slice));
}

void SolutionStore::keep_sides(SliceId slice, SideSet sides) {
    if (!is_indexable(slice) || !slots_[slot_of(slice)].solved) return;
    if (sides.empty()) {
        remove(slice);
        return;
    }
    slots_[slot_of(slice)].solved->keep(sides);
}

const SolvedSlice* SolutionStore::find(SliceId slice) const noexcept {
    if (!is_indexable(slice)) return nullptr;
    return slots_[slot_of(slice)].solved.get();
}

std::uint64_t SolutionStore::memory_bytes() const noexcept {
    std::uint64_t bytes = 0;
    for (const SliceId s : order_) bytes += slots_[slot_of(s)].solved->memory_bytes();
    return bytes;
}

void SolutionStore::throw_not_answered(const Position& position, Color side_to_move) const {
    const SliceId slice = slice_of(position);
    const bool reverse = !is_canonical(slice);
    const SliceId canonical = reverse ? color_reversed(slice) : slice;
    if (find(canonical) == nullptr) throw OutOfRangeError("slice " + canonical.to_string() + " is not solved");
    const Color side = reverse ? opposite(side_to_move) : side_to_move;
    throw OutOfRangeError("slice " + canonical.to_string() + " is held without " + std::string(color_name(side)) +
                            " to move");
}

}  // namespace egdb
