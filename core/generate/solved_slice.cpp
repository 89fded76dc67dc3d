#include "core/generate/solved_slice.hpp"

#include <cstring>
#include <stdexcept>

#include "core/util/error.hpp"

namespace egdb {

SolvedSlice::SolvedSlice(SliceId slice, SideSet sides) : slice_(slice), size_(slice_size(slice)), sides_(sides) {
    for (const Color side : {Color::Black, Color::White}) {
        if (!sides_.contains(side)) continue;
        dtw_codes_[static_cast<std::size_t>(side)].assign(size_, kDrawCode);
        mtc_[static_cast<std::size_t>(side)].assign(size_, 0);
    }
}

SideSet SolvedSlice::sides_to_hold(SliceId slice, SideSet needed) noexcept {
    if (is_color_symmetric(slice) && needed.count() == 1) return SideSet::only(Color::Black);
    return needed;
}

void SolvedSlice::keep(SideSet sides) {
    sides = sides_to_hold(slice_, sides);
    for (const Color side : {Color::Black, Color::White}) {
        if (sides.contains(side) || !sides_.contains(side)) continue;
        const auto s = static_cast<std::size_t>(side);
        dtw_codes_[s] = {};
        mtc_[s] = {};
        wide_[s] = {};
    }
    sides_ = sides_ & sides;
}

void SolvedSlice::store(const SolvedLevel& level) {
    if (sides_ != SideSet::both()) throw InternalError("a level is stored into a solution of both sides to move");
    if (level.slice() != slice_) throw InvalidArgumentError("a level of slice " + level.slice().to_string() + " is not part of " + slice_.to_string());
    const std::uint64_t block = level.block_size();
    const auto& configurations = level.configurations();
    for (std::size_t side = 0; side < 2; ++side) {
        const auto dtw = level.dtw_codes(static_cast<Color>(side));
        const auto mtc = level.mtc(static_cast<Color>(side));
        for (std::size_t k = 0; k < configurations.size(); ++k) {
            std::memcpy(dtw_codes_[side].data() + configurations[k] * block, dtw.data() + k * block, block);
            std::memcpy(mtc_[side].data() + configurations[k] * block, mtc.data() + k * block, block);
        }
        // The level's table is keyed by level offset: slot * block + offset in the block.
        for (const auto& [offset, distances] : level.wide(static_cast<Color>(side))) {
            wide_[side].set(configurations[offset / block] * block + offset % block, distances);
        }
    }
}

void SolvedSlice::set_value(std::uint64_t index, Color side_to_move, const PositionValue& value) {
    const auto s = static_cast<std::size_t>(side_to_move);
    if (value.wld == WldValue::Draw) {
        dtw_codes_[s][index] = kDrawCode;
        mtc_[s][index] = 0;
        wide_[s].erase(index);
    } else if (fits_narrow(value.dtw, value.mtc)) {
        dtw_codes_[s][index] = static_cast<DistanceCode>(value.dtw);
        mtc_[s][index] = static_cast<std::uint8_t>(value.mtc);
        wide_[s].erase(index);
    } else {
        dtw_codes_[s][index] = wide_code(value.wld);
        mtc_[s][index] = kWideMtc;
        wide_[s].set(index, {value.dtw, value.mtc});
    }
}

}  // namespace egdb
