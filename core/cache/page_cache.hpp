// A bounded, thread-safe cache of decompressed database pages shared by all the files of a
// database handle. It is split into shards, each an LRU list under its own mutex, so lookups from
// several threads rarely contend; memory is bounded by the byte budget given at construction.
//
// Callers read a cached page inside a callback while the shard lock is held, which avoids
// reference counting on the hot path; the callbacks must be short (extract a value, no I/O).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace egdb {

struct PageKey {
    std::uint64_t owner = 0;  // which file and section (chosen by the caller, unique per cache)
    std::uint64_t page = 0;
    friend constexpr bool operator==(const PageKey&, const PageKey&) = default;
};

struct PageCacheStats {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t pages = 0;
    std::uint64_t bytes = 0;
};

class PageCache {
public:
    // `capacity_bytes` bounds the bytes of cached pages (at least one page per shard is kept).
    explicit PageCache(std::size_t capacity_bytes, std::size_t shards = 16);
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    // Calls read(span of the page) and returns its result. On a miss, load(std::vector<std::byte>&)
    // fills the page first (outside any lock; it may throw, and then nothing is cached).
    template <class Load, class Read>
    auto access(const PageKey& key, Load&& load, Read&& read) {
        Shard& shard = shard_of(key);
        {
            std::lock_guard lock(shard.mutex);
            if (auto it = shard.index.find(key); it != shard.index.end()) {
                shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
                hits_.fetch_add(1, std::memory_order_relaxed);
                return read(std::span<const std::byte>(it->second->data));
            }
        }
        misses_.fetch_add(1, std::memory_order_relaxed);
        std::vector<std::byte> data;
        load(data);
        std::lock_guard lock(shard.mutex);
        auto it = shard.index.find(key);
        if (it == shard.index.end()) it = insert(shard, key, std::move(data));
        return read(std::span<const std::byte>(it->second->data));
    }

    // Calls read on the page only if it is cached (conditional lookups); nullopt otherwise.
    template <class Read>
    auto access_if_cached(const PageKey& key, Read&& read)
        -> std::optional<decltype(read(std::span<const std::byte>()))> {
        Shard& shard = shard_of(key);
        std::lock_guard lock(shard.mutex);
        auto it = shard.index.find(key);
        if (it == shard.index.end()) return std::nullopt;
        shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
        hits_.fetch_add(1, std::memory_order_relaxed);
        return read(std::span<const std::byte>(it->second->data));
    }

    PageCacheStats stats() const;
    std::size_t capacity_bytes() const noexcept { return capacity_bytes_; }

private:
    struct Entry {
        PageKey key;
        std::vector<std::byte> data;
    };
    struct KeyHash {
        std::size_t operator()(const PageKey& k) const noexcept {
            return static_cast<std::size_t>((k.owner * 0x9E3779B97F4A7C15ULL) ^ (k.page * 0xC2B2AE3D27D4EB4FULL));
        }
    };
    struct Shard {
        mutable std::mutex mutex;
        std::list<Entry> lru;  // most recently used first
        std::unordered_map<PageKey, std::list<Entry>::iterator, KeyHash> index;
        std::size_t bytes = 0;
    };

    Shard& shard_of(const PageKey& key) noexcept { return shards_[KeyHash{}(key) % shards_.size()]; }
    std::unordered_map<PageKey, std::list<Entry>::iterator, KeyHash>::iterator insert(Shard& shard,
                                                                                    const PageKey& key,
                                                                                    std::vector<std::byte> data);

    std::size_t capacity_bytes_;
    std::size_t shard_capacity_;
    std::vector<Shard> shards_;
    std::atomic<std::uint64_t> hits_{0};
    std::atomic<std::uint64_t> misses_{0};
};

}  // namespace egdb
