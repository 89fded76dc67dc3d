// A bounded, thread-safe cache of decompressed database pages shared by all the files of a
// database handle. It is split into shards, each under its own mutex, so lookups from several
// threads rarely contend; memory is bounded by the byte budget given at construction.
//
// The hit path is what probing speed depends on, so a shard is two flat arrays: an
// open-addressing index (key -> slot, linear probing) and the slots themselves. Replacement is
// CLOCK (a referenced bit per slot, a sweeping hand) rather than an LRU list: a hit only sets a
// bit instead of relinking list nodes scattered over the heap.
//
// Callers read a cached page inside a callback while the shard lock is held, which avoids
// reference counting on the hot path; the callbacks must be short (extract a value, no I/O).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
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
    // `capacity_bytes` bounds the bytes of cached pages (each shard keeps at least one page).
    // `typical_page_bytes` sizes the slot arrays (pages may be larger or smaller).
    explicit PageCache(std::size_t capacity_bytes, std::size_t shards = 16, std::size_t typical_page_bytes = 4096);
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    // Calls read(span of the page) and returns its result. On a miss, load(std::vector<std::byte>&)
    // fills the page first (outside any lock; it may throw, and then nothing is cached).
    template <class Load, class Read>
    auto access(const PageKey& key, Load&& load, Read&& read) {
        Shard& shard = shard_of(key);
        {
            std::lock_guard lock(shard.mutex);
            if (const std::uint32_t slot = shard.find(key); slot != kNone) {
                hits_.fetch_add(1, std::memory_order_relaxed);
                return read(shard.touch(slot));
            }
        }
        misses_.fetch_add(1, std::memory_order_relaxed);
        std::vector<std::byte> data;
        load(data);
        std::lock_guard lock(shard.mutex);
        std::uint32_t slot = shard.find(key);
        if (slot == kNone) slot = shard.insert(key, std::move(data));
        return read(shard.touch(slot));
    }

    // Calls read on the page only if it is cached (conditional lookups); nullopt otherwise.
    template <class Read>
    auto access_if_cached(const PageKey& key, Read&& read)
        -> std::optional<decltype(read(std::span<const std::byte>()))> {
        Shard& shard = shard_of(key);
        std::lock_guard lock(shard.mutex);
        const std::uint32_t slot = shard.find(key);
        if (slot == kNone) return std::nullopt;
        hits_.fetch_add(1, std::memory_order_relaxed);
        return read(shard.touch(slot));
    }

    PageCacheStats stats() const;
    std::size_t capacity_bytes() const noexcept { return capacity_bytes_; }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFU;

    static std::uint64_t hash_of(const PageKey& k) noexcept {
        std::uint64_t h = k.owner * 0x9E3779B97F4A7C15ULL ^ (k.page + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
        return h ^ (h >> 29);
    }

    struct Slot {
        PageKey key;
        bool used = false;
        bool referenced = false;
        std::vector<std::byte> data;
    };

    class Shard {
    public:
        void init(std::size_t capacity_bytes, std::size_t slots);
        std::uint32_t find(const PageKey& key) const noexcept;
        std::span<const std::byte> touch(std::uint32_t slot) noexcept {
            Slot& s = slots_[slot];
            s.referenced = true;
            return s.data;
        }
        std::uint32_t insert(const PageKey& key, std::vector<std::byte> data);
        std::size_t pages() const noexcept { return pages_; }
        std::size_t bytes() const noexcept { return bytes_; }

        mutable std::mutex mutex;

    private:
        std::uint32_t victim() noexcept;  // CLOCK: the next unreferenced used slot
        void index_insert(const PageKey& key, std::uint32_t slot) noexcept;
        void index_erase(const PageKey& key) noexcept;

        std::vector<Slot> slots_;
        std::vector<std::uint32_t> index_;  // slot numbers, kNone = empty; size is a power of two
        std::size_t capacity_bytes_ = 0;
        std::size_t bytes_ = 0;
        std::size_t pages_ = 0;
        std::size_t hand_ = 0;
        std::size_t next_free_ = 0;
    };

    Shard& shard_of(const PageKey& key) noexcept { return shards_[(hash_of(key) >> 56) % shards_.size()]; }

    std::size_t capacity_bytes_;
    std::vector<Shard> shards_;
    std::atomic<std::uint64_t> hits_{0};
    std::atomic<std::uint64_t> misses_{0};
};

}  // namespace egdb
