// A bounded, thread-safe cache of decompressed database pages shared by all the files of a
// database handle; memory is bounded by the byte budget given at construction.
//
// The hit path is what probing speed depends on, and a random probe of a large database is bound
// by dependent cache misses, not by instructions (bench/probe_table.cpp prints the machine's
// dependent-load latency beside the probe rates). So a hit touches two cache lines beyond the
// lock: the line of its set, which holds the keys, lengths and replacement bits of all its ways,
// and the line of the value in the page itself. The cache is set-associative (kWays pages per set,
// CLOCK replacement inside a set), and every page has a fixed slot in one arena backed by 2 MiB
// pages (resident_buffer.hpp), so no hit follows a pointer to a separately allocated page or
// walks the page tables for it.
//
// Sets are guarded by a fixed number of striped mutexes. Callers read a cached page inside a
// callback while its stripe is locked, which avoids reference counting on the hot path; the
// callbacks must be short (extract a value, no I/O). Loading a missing page runs outside any lock.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/util/prefetch.hpp"
#include "core/util/resident_buffer.hpp"
#include "core/util/striped_counter.hpp"
#include "core/util/error.hpp"

namespace egdb {

struct PageKey {
    std::uint64_t owner = 0;  // which file and section (chosen by the caller, unique per cache; < 2^24)
    std::uint64_t page = 0;   // < 2^40
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
    static constexpr std::size_t kWays = 6;  // what fits one 64-byte set line with its keys and lengths

    // `capacity_bytes` bounds the bytes of the slots (at least one set of kWays pages is kept);
    // `page_bytes` is the largest page a load may produce (at most 65535 bytes).
    explicit PageCache(std::size_t capacity_bytes, std::size_t page_bytes = 4096);
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    // Calls read(span of the page) and returns its result. On a miss, load(std::vector<std::byte>&)
    // fills the page first (outside any lock; it may throw, and then nothing is cached). Throws
    // std::length_error for a page larger than page_bytes() and std::out_of_range for a key
    // outside the ranges of PageKey.
    template <class Load, class Read>
    auto access(const PageKey& key, Load&& load, Read&& read) {
        const std::uint64_t packed = pack(key);
        const std::size_t set = set_of(packed);
        {
            std::lock_guard lock(lock_of(set));
            if (const int way = find(set, packed); way >= 0) {
                hits_.add();
                return read(touch(set, way));
            }
        }
        misses_.add();
        std::vector<std::byte> data;
        load(data);
        if (data.size() > page_bytes_) {
            throw ErrorOf<std::length_error, ErrorKind::Internal>("page of " + std::to_string(data.size()) + " bytes in a cache of " +
                                    std::to_string(page_bytes_) + "-byte slots");
        }
        std::lock_guard lock(lock_of(set));
        if (const int way = find(set, packed); way >= 0) return read(touch(set, way));  // loaded meanwhile
        // A page read once is not marked referenced, so that a scan of pages read once each
        // evicts its own pages before those read again.
        const int way = insert(set, packed, data);
        return read(std::span<const std::byte>(slot(set, way), data.size()));
    }

    // Calls read on the page only if it is cached (conditional lookups); nullopt otherwise.
    template <class Read>
    auto access_if_cached(const PageKey& key, Read&& read)
        -> std::optional<decltype(read(std::span<const std::byte>()))> {
        const std::uint64_t packed = pack(key);
        const std::size_t set = set_of(packed);
        std::lock_guard lock(lock_of(set));
        const int way = find(set, packed);
        if (way < 0) return std::nullopt;
        hits_.add();
        return read(touch(set, way));
    }

    // Hints for pipelines of lookups, with no effect on what is cached or read: request the line
    // of the key's set; later, when that line has arrived, the line holding byte `byte` of the
    // page if it is cached (this takes the set's lock for the few instructions of the search).
    void prefetch_set(const PageKey& key) const noexcept {
        if (!fits(key)) return;
        prefetch_for_read(&sets_[set_of(pack(key))]);
    }
    void prefetch_page_byte(const PageKey& key, std::size_t byte) noexcept {
        if (!fits(key)) return;
        const std::uint64_t packed = pack(key);
        const std::size_t set = set_of(packed);
        std::lock_guard lock(lock_of(set));
        if (const int way = find(set, packed); way >= 0) prefetch_for_read(slot(set, way) + std::min(byte, page_bytes_ - 1));
    }

    PageCacheStats stats() const;
    // stats().bytes alone, without summing the hit and miss counters.
    std::uint64_t held_bytes() const noexcept { return bytes_.load(std::memory_order_relaxed); }
    std::size_t capacity_bytes() const noexcept { return capacity_bytes_; }
    std::size_t page_bytes() const noexcept { return page_bytes_; }

private:
    static constexpr std::size_t kLocks = 64;

    // One cache line: the ways' packed keys and page lengths, which ways hold a page, which were
    // read since the CLOCK hand last passed them, and the hand.
    struct alignas(64) Set {
        std::array<std::uint64_t, kWays> keys{};
        std::array<std::uint16_t, kWays> lengths{};
        std::uint8_t used = 0;
        std::uint8_t referenced = 0;
        std::uint8_t hand = 0;
    };
    static_assert(sizeof(Set) == 64);

    struct alignas(128) Lock {
        std::mutex mutex;
    };

    static constexpr bool fits(const PageKey& key) noexcept {
        return key.owner < (std::uint64_t{1} << 24) && key.page < (std::uint64_t{1} << 40);
    }
    static std::uint64_t pack(const PageKey& key) {
        if (!fits(key)) throw OutOfRangeError("page key out of range");
        return key.owner << 40 | key.page;
    }
    std::size_t set_of(std::uint64_t packed) const noexcept {
        // The high 32 bits of a multiplicative hash, scaled to the number of sets (any count, not
        // only powers of two, so that the whole budget is used).
        const std::uint64_t h = (packed * 0x9E3779B97F4A7C15ULL) >> 32;
        return static_cast<std::size_t>((h * static_cast<std::uint64_t>(sets_.size())) >> 32);
    }
    std::mutex& lock_of(std::size_t set) const noexcept { return locks_[set % kLocks].mutex; }

    int find(std::size_t set, std::uint64_t packed) const noexcept {
        const Set& s = sets_[set];
        for (std::size_t w = 0; w < kWays; ++w) {
            if (s.keys[w] == packed && (s.used >> w & 1U) != 0) return static_cast<int>(w);
        }
        return -1;
    }
    std::span<const std::byte> touch(std::size_t set, int way) noexcept {
        Set& s = sets_[set];
        const auto bit = static_cast<std::uint8_t>(1U << way);
        if ((s.referenced & bit) == 0) s.referenced = static_cast<std::uint8_t>(s.referenced | bit);  // no store on repeat hits
        return {slot(set, way), s.lengths[static_cast<std::size_t>(way)]};
    }
    std::byte* slot(std::size_t set, int way) noexcept {
        return arena_.data() + (set * kWays + static_cast<std::size_t>(way)) * slot_bytes_;
    }
    int insert(std::size_t set, std::uint64_t packed, const std::vector<std::byte>& data) noexcept;

    std::size_t capacity_bytes_;
    std::size_t page_bytes_;
    std::size_t slot_bytes_;  // page_bytes_ rounded up to whole cache lines
    std::vector<Set> sets_;
    ResidentBuffer arena_;
    mutable std::array<Lock, kLocks> locks_;
    StripedCounter hits_;
    StripedCounter misses_;
    std::atomic<std::uint64_t> pages_{0};  // changed on insertions only, off the hit path
    std::atomic<std::uint64_t> bytes_{0};
};

}  // namespace egdb
