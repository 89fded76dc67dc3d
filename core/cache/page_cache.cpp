#include "core/cache/page_cache.hpp"

#include <algorithm>
#include <bit>

#include "core/util/error.hpp"

namespace egdb {

PageCache::PageCache(std::size_t capacity_bytes, std::size_t page_bytes)
    : capacity_bytes_(capacity_bytes),
      page_bytes_(page_bytes),
      slot_bytes_((std::max<std::size_t>(page_bytes, 1) + 63) / 64 * 64) {
    if (page_bytes > 0xFFFF) throw LimitError("page cache slots hold at most 65535 bytes");
    const std::size_t sets = std::clamp<std::size_t>(capacity_bytes / (slot_bytes_ * kWays), 1, 0xFFFFFFFFU);
    sets_.resize(sets);
    arena_ = ResidentBuffer(sets * kWays * slot_bytes_);
}

// CLOCK inside the set: a free way if there is one, else the first way after the hand that was not
// read since the hand last passed it (clearing the bits it passes).
int PageCache::insert(std::size_t set, std::uint64_t packed, const std::vector<std::byte>& data) noexcept {
    Set& s = sets_[set];
    int way = -1;
    for (std::size_t w = 0; w < kWays; ++w) {
        if ((s.used >> w & 1U) == 0) {
            way = static_cast<int>(w);
            break;
        }
    }
    if (way < 0) {
        for (;;) {
            const std::uint8_t w = s.hand;
            s.hand = static_cast<std::uint8_t>((w + 1) % kWays);
            const auto bit = static_cast<std::uint8_t>(1U << w);
            if ((s.referenced & bit) == 0) {
                way = w;
                break;
            }
            s.referenced = static_cast<std::uint8_t>(s.referenced & ~bit);
        }
        pages_.fetch_sub(1, std::memory_order_relaxed);
        bytes_.fetch_sub(s.lengths[static_cast<std::size_t>(way)], std::memory_order_relaxed);
    }
    const auto w = static_cast<std::size_t>(way);
    if (!data.empty()) std::memcpy(slot(set, way), data.data(), data.size());
    s.keys[w] = packed;
    s.lengths[w] = static_cast<std::uint16_t>(data.size());
    s.used = static_cast<std::uint8_t>(s.used | 1U << w);
    s.referenced = static_cast<std::uint8_t>(s.referenced & ~(1U << w));
    pages_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(data.size(), std::memory_order_relaxed);
    return way;
}

PageCacheStats PageCache::stats() const {
    PageCacheStats s;
    s.hits = hits_.total();
    s.misses = misses_.total();
    s.pages = pages_.load(std::memory_order_relaxed);
    s.bytes = bytes_.load(std::memory_order_relaxed);
    return s;
}

}  // namespace egdb
