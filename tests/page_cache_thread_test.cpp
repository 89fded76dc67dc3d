// The shared page cache under concurrent use: many threads reading, missing and evicting at once
// must always see the right bytes, and the byte budget must hold. Run under ThreadSanitizer by
// scripts/test.sh.
#include "core/cache/page_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/rules/perft.hpp"

namespace egdb {
namespace {

std::byte content_of(const PageKey& key, std::size_t i) {
    return static_cast<std::byte>((key.owner * 31 + key.page * 7 + i) & 0xFF);
}

TEST(PageCacheThreads, ConcurrentReadersSeeCorrectPagesWithinBudget) {
    constexpr std::size_t kPageBytes = 256;
    PageCache cache(64 * kPageBytes, kPageBytes);  // far fewer slots than keys: constant eviction
    std::atomic<int> wrong{0};
    std::atomic<std::uint64_t> loads{0};
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                std::mt19937_64 rng(static_cast<std::uint64_t>(t) + 1);
                for (int i = 0; i < 20000; ++i) {
                    const PageKey key{rng() % 3, rng() % 100};
                    const std::size_t probe = rng() % kPageBytes;
                    const std::byte got = cache.access(
                        key,
                        [&](std::vector<std::byte>& page) {
                            loads.fetch_add(1, std::memory_order_relaxed);
                            page.resize(kPageBytes);
                            for (std::size_t k = 0; k < kPageBytes; ++k) page[k] = content_of(key, k);
                        },
                        [&](std::span<const std::byte> page) { return page[probe]; });
                    if (got != content_of(key, probe)) wrong.fetch_add(1);
                    if (auto cached = cache.access_if_cached(key, [&](std::span<const std::byte> page) {
                            return page[probe];
                        })) {
                        if (*cached != content_of(key, probe)) wrong.fetch_add(1);
                    }
                }
            });
        }
    }
    EXPECT_EQ(wrong.load(), 0);
    const PageCacheStats s = cache.stats();
    EXPECT_LE(s.bytes, cache.capacity_bytes());
    EXPECT_EQ(s.misses, loads.load());
    EXPECT_GT(s.hits, 0U);
    EXPECT_GT(s.misses, 300U) << "the test should force evictions";
}

TEST(PageCacheThreads, FailedLoadCachesNothing) {
    PageCache cache(1 << 16);
    const PageKey key{1, 2};
    EXPECT_THROW(cache.access(
                     key, [](std::vector<std::byte>&) { throw std::runtime_error("disk error"); },
                     [](std::span<const std::byte>) { return 0; }),
                 std::runtime_error);
    EXPECT_FALSE(cache.access_if_cached(key, [](std::span<const std::byte>) { return 0; }).has_value());
}

// Pages of many lengths from many threads: each read sees its own page's length and bytes, never
// those of a page that shared the slot before it.
TEST(PageCacheThreads, PagesOfEveryLengthKeepTheirLengthAndBytes) {
    constexpr std::size_t kPageBytes = 300;  // not a multiple of the cache line
    PageCache cache(40 * kPageBytes, kPageBytes);
    const auto length_of = [](const PageKey& key) { return 1 + (key.owner * 131 + key.page * 13) % kPageBytes; };
    std::atomic<int> wrong{0};
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                std::mt19937_64 rng(static_cast<std::uint64_t>(t) + 11);
                for (int i = 0; i < 20000; ++i) {
                    const PageKey key{rng() % 5, rng() % 200};
                    const bool ok = cache.access(
                        key,
                        [&](std::vector<std::byte>& page) {
                            page.resize(length_of(key));
                            for (std::size_t k = 0; k < page.size(); ++k) page[k] = content_of(key, k);
                        },
                        [&](std::span<const std::byte> page) {
                            if (page.size() != length_of(key)) return false;
                            for (std::size_t k = 0; k < page.size(); ++k) {
                                if (page[k] != content_of(key, k)) return false;
                            }
                            return true;
                        });
                    if (!ok) wrong.fetch_add(1);
                }
            });
        }
    }
    EXPECT_EQ(wrong.load(), 0);
    const PageCacheStats s = cache.stats();
    EXPECT_LE(s.bytes, cache.capacity_bytes());
    EXPECT_LE(s.pages * kPageBytes, cache.capacity_bytes());
    EXPECT_GT(s.pages, 0U);
}

// CLOCK: a page read again between two insertions into its set is never evicted, however many
// other pages pass through the cache.
TEST(PageCacheThreads, APageReadBetweenInsertionsStays) {
    PageCache cache(4 * PageCache::kWays * 64, 64);
    const PageKey hot{7, 7};
    int hot_loads = 0;
    const auto fill = [](std::vector<std::byte>& page) { page.assign(64, std::byte{1}); };
    const auto read = [](std::span<const std::byte> page) { return page.size(); };
    for (std::uint64_t k = 0; k < 2000; ++k) {
        cache.access(hot, [&](std::vector<std::byte>& page) { ++hot_loads, fill(page); }, read);
        cache.access(PageKey{1, k}, fill, read);
    }
    EXPECT_EQ(hot_loads, 1);
    EXPECT_EQ(cache.stats().misses, 2001U);
}

TEST(PageCacheThreads, OversizedPagesAndBadKeysAreErrorsThatCacheNothing) {
    PageCache cache(1 << 16, 100);
    const PageKey key{1, 2};
    const auto read = [](std::span<const std::byte> page) { return page.size(); };
    EXPECT_THROW(cache.access(key, [](std::vector<std::byte>& page) { page.resize(101); }, read), std::length_error);
    EXPECT_FALSE(cache.access_if_cached(key, read).has_value());
    EXPECT_EQ(cache.access(key, [](std::vector<std::byte>& page) { page.resize(100); }, read), 100U);
    EXPECT_THROW(cache.access(PageKey{1ULL << 24, 0}, [](std::vector<std::byte>&) {}, read), std::out_of_range);
    EXPECT_THROW(cache.access_if_cached(PageKey{0, 1ULL << 40}, read), std::out_of_range);
    EXPECT_THROW(PageCache(1 << 20, 1 << 16), std::length_error);
}

// A budget smaller than one set still caches (one set); an empty page is a page.
TEST(PageCacheThreads, TinyBudgetStillCaches) {
    PageCache cache(10, 4096);
    const auto read = [](std::span<const std::byte> page) { return page.size(); };
    EXPECT_EQ(cache.access(PageKey{0, 0}, [](std::vector<std::byte>&) {}, read), 0U);
    EXPECT_EQ(cache.access_if_cached(PageKey{0, 0}, read), std::optional<std::size_t>(0));
    EXPECT_EQ(cache.stats().pages, 1U);
}

TEST(PerftThreads, ParallelPerftIsDeterministic) {
    Position start;
    start.black = squares_bb(1, 20);
    start.white = squares_bb(31, 50);
    EXPECT_EQ(perft_parallel(start, Color::White, 5, 3), perft(start, Color::White, 5));
}

}  // namespace
}  // namespace egdb
