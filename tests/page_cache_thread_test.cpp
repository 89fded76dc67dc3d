// The shared page cache under concurrent use: many threads reading, missing and evicting at once
// must always see the right bytes, and the byte budget must hold. Run under ThreadSanitizer by
// scripts/test.sh.
#include "core/cache/page_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
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
    PageCache cache(64 * kPageBytes, 4);  // far fewer slots than keys: constant eviction
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

TEST(PerftThreads, ParallelPerftIsDeterministic) {
    Position start;
    start.black = squares_bb(1, 20);
    start.white = squares_bb(31, 50);
    EXPECT_EQ(perft_parallel(start, Color::White, 5, 3), perft(start, Color::White, 5));
}

}  // namespace
}  // namespace egdb
