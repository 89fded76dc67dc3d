#include "core/cache/page_cache.hpp"

namespace egdb {

PageCache::PageCache(std::size_t capacity_bytes, std::size_t shards)
    : capacity_bytes_(capacity_bytes),
      shard_capacity_(capacity_bytes / (shards == 0 ? 1 : shards)),
      shards_(shards == 0 ? 1 : shards) {}

std::unordered_map<PageKey, std::list<PageCache::Entry>::iterator, PageCache::KeyHash>::iterator PageCache::insert(
    Shard& shard, const PageKey& key, std::vector<std::byte> data) {
    const std::size_t size = data.size();
    // Evict least recently used pages until the new one fits; a shard always keeps the new page.
    while (!shard.lru.empty() && shard.bytes + size > shard_capacity_) {
        Entry& victim = shard.lru.back();
        shard.bytes -= victim.data.size();
        shard.index.erase(victim.key);
        shard.lru.pop_back();
    }
    shard.lru.push_front(Entry{key, std::move(data)});
    shard.bytes += size;
    return shard.index.emplace(key, shard.lru.begin()).first;
}

PageCacheStats PageCache::stats() const {
    PageCacheStats s;
    s.hits = hits_.load(std::memory_order_relaxed);
    s.misses = misses_.load(std::memory_order_relaxed);
    for (const Shard& shard : shards_) {
        std::lock_guard lock(shard.mutex);
        s.pages += shard.lru.size();
        s.bytes += shard.bytes;
    }
    return s;
}

}  // namespace egdb
