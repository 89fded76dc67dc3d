#include "core/cache/page_cache.hpp"

#include <algorithm>
#include <bit>

namespace egdb {

PageCache::PageCache(std::size_t capacity_bytes, std::size_t shards, std::size_t typical_page_bytes)
    : capacity_bytes_(capacity_bytes), shards_(std::max<std::size_t>(shards, 1)) {
    const std::size_t per_shard = capacity_bytes / shards_.size();
    const std::size_t slots = std::max<std::size_t>(2, per_shard / std::max<std::size_t>(typical_page_bytes, 1) + 1);
    for (Shard& s : shards_) s.init(per_shard, slots);
}

void PageCache::Shard::init(std::size_t capacity_bytes, std::size_t slots) {
    capacity_bytes_ = capacity_bytes;
    slots_.resize(slots);
    // At most half full, so that linear probing stays short.
    index_.assign(std::bit_ceil(2 * slots), kNone);
}

std::uint32_t PageCache::Shard::find(const PageKey& key) const noexcept {
    const std::size_t mask = index_.size() - 1;
    for (std::size_t i = hash_of(key) & mask;; i = (i + 1) & mask) {
        const std::uint32_t s = index_[i];
        if (s == kNone || slots_[s].key == key) return s;
    }
}

void PageCache::Shard::index_insert(const PageKey& key, std::uint32_t slot) noexcept {
    const std::size_t mask = index_.size() - 1;
    std::size_t i = hash_of(key) & mask;
    while (index_[i] != kNone) i = (i + 1) & mask;
    index_[i] = slot;
}

// Removes `key` from the linear-probing index by backward shifting, so no tombstones build up.
void PageCache::Shard::index_erase(const PageKey& key) noexcept {
    const std::size_t mask = index_.size() - 1;
    std::size_t i = hash_of(key) & mask;
    while (slots_[index_[i]].key != key) i = (i + 1) & mask;
    index_[i] = kNone;
    for (std::size_t j = (i + 1) & mask; index_[j] != kNone; j = (j + 1) & mask) {
        const std::size_t home = hash_of(slots_[index_[j]].key) & mask;
        // The entry at j may move into the hole at i unless its home lies cyclically in (i, j].
        const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            index_[i] = index_[j];
            index_[j] = kNone;
            i = j;
        }
    }
}

std::uint32_t PageCache::Shard::victim() noexcept {
    for (;;) {
        Slot& s = slots_[hand_];
        const auto current = static_cast<std::uint32_t>(hand_);
        hand_ = (hand_ + 1) % slots_.size();
        if (!s.used) continue;
        if (s.referenced) {
            s.referenced = false;
            continue;
        }
        return current;
    }
}

std::uint32_t PageCache::Shard::insert(const PageKey& key, std::vector<std::byte> data) {
    const std::size_t size = data.size();
    // Evict until the page fits in the byte budget and a slot is free; the new page is always
    // kept, even alone over the budget.
    while (pages_ > 0 && (bytes_ + size > capacity_bytes_ || pages_ == slots_.size())) {
        const std::uint32_t v = victim();
        Slot& s = slots_[v];
        index_erase(s.key);
        bytes_ -= s.data.size();
        s.data = std::vector<std::byte>();
        s.used = false;
        --pages_;
    }
    std::uint32_t slot = kNone;
    for (std::size_t k = 0; k < slots_.size(); ++k) {
        const std::size_t candidate = (next_free_ + k) % slots_.size();
        if (!slots_[candidate].used) {
            slot = static_cast<std::uint32_t>(candidate);
            break;
        }
    }
    next_free_ = (static_cast<std::size_t>(slot) + 1) % slots_.size();
    Slot& s = slots_[slot];
    s.key = key;
    s.used = true;
    s.referenced = false;
    s.data = std::move(data);
    index_insert(key, slot);
    bytes_ += size;
    ++pages_;
    return slot;
}

PageCacheStats PageCache::stats() const {
    PageCacheStats s;
    s.hits = hits_.load(std::memory_order_relaxed);
    s.misses = misses_.load(std::memory_order_relaxed);
    for (const Shard& shard : shards_) {
        std::lock_guard lock(shard.mutex);
        s.pages += shard.pages();
        s.bytes += shard.bytes();
    }
    return s;
}

}  // namespace egdb
