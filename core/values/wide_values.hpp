// The distances of the "wide" positions of a solution (position_value.hpp): those whose DTW or
// MTC does not fit the byte encoding. They are rare (none up to 6 pieces; the longest wins of 7
// and 8 pieces), so they live in an ordered map beside the byte arrays, keyed by the position's
// index in those arrays, and are looked up only when a byte says so (kWideWinCode, kWideLossCode).
#pragma once

#include <cstdint>
#include <map>

#include "core/values/position_value.hpp"

namespace egdb {

struct WideDistances {
    Plies dtw = 0;
    Plies mtc = 0;
    friend constexpr bool operator==(const WideDistances&, const WideDistances&) = default;
};

class WideValues {
public:
    using Map = std::map<std::uint64_t, WideDistances>;

    void set(std::uint64_t index, WideDistances distances) { map_[index] = distances; }
    void erase(std::uint64_t index) { map_.erase(index); }
    void clear() noexcept { map_.clear(); }

    // The distances at `index`, or nullptr when it holds none.
    const WideDistances* find(std::uint64_t index) const noexcept {
        const auto it = map_.find(index);
        return it == map_.end() ? nullptr : &it->second;
    }

    bool empty() const noexcept { return map_.empty(); }
    std::size_t size() const noexcept { return map_.size(); }
    // Entries with an index in [first, first + count), in increasing index order.
    Map::const_iterator lower(std::uint64_t first) const { return map_.lower_bound(first); }
    Map::const_iterator end() const noexcept { return map_.end(); }
    Map::const_iterator begin() const noexcept { return map_.begin(); }

    // A node of a red-black tree with its key and value, about.
    std::uint64_t memory_bytes() const noexcept { return 64 * map_.size(); }

    friend bool operator==(const WideValues&, const WideValues&) = default;

private:
    Map map_;
};

// The value a byte pair encodes, with `wide` answering for wide codes. A wide code without an
// entry is a broken invariant of the writer; it reads as the code's WLD with distances 0 rather
// than crash (the verifier then reports the position).
inline PositionValue decode_value(DistanceCode dtw_code, std::uint8_t mtc, const WideValues& wide,
                                  std::uint64_t index) noexcept {
    if (!is_wide_code(dtw_code)) [[likely]] return decode_value(dtw_code, mtc);
    const WideDistances* d = wide.find(index);
    if (d == nullptr) return {wld_of_code(dtw_code), 0, 0};
    return {wld_of_code(dtw_code), d->dtw, d->mtc};
}

// The same without MTC: the DTW byte alone is read (and the table for a wide code).
inline DtwValue decode_dtw(DistanceCode dtw_code, const WideValues& wide, std::uint64_t index) noexcept {
    if (!is_wide_code(dtw_code)) [[likely]] return decode_dtw(dtw_code);
    const WideDistances* d = wide.find(index);
    return {wld_of_code(dtw_code), d == nullptr ? Plies{0} : d->dtw};
}

}  // namespace egdb
