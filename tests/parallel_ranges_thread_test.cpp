// The parallel loop helpers: every index is visited once, bitset words have one writer, and an
// exception thrown by a worker reaches the caller instead of ending the process. Run under
// ThreadSanitizer by scripts/test.sh.
#include "core/util/parallel_ranges.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace egdb {
namespace {

TEST(ParallelRangesThreads, EveryIndexOnceInChunksOfTheRequestedSize) {
    for (const std::uint64_t n : {0ULL, 1ULL, 63ULL, 64ULL, 1000ULL, 100003ULL}) {
        for (const int threads : {1, 2, 5}) {
            for (const std::uint64_t chunk : {1ULL, 7ULL, 64ULL, 4096ULL}) {
                std::vector<std::atomic<int>> visits(n);
                std::mutex ranges_mutex;
                std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
                parallel_chunks(n, threads, chunk, [&](std::uint64_t first, std::uint64_t last) {
                    for (std::uint64_t i = first; i < last; ++i) visits[i].fetch_add(1);
                    std::lock_guard lock(ranges_mutex);
                    ranges.emplace_back(first, last);
                });
                for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(visits[i].load(), 1) << n << " " << threads << " " << i;
                for (const auto& [first, last] : ranges) {
                    EXPECT_EQ(first % chunk, 0U);
                    EXPECT_TRUE(last - first == chunk || last == n) << first << " " << last;
                }
            }
        }
    }
}

TEST(ParallelRangesThreads, RangesOwnWholeBitsetWords) {
    constexpr std::uint64_t kN = 200001;
    std::vector<std::uint64_t> bits((kN + 63) / 64, 0);
    parallel_ranges(kN, 2, [&](std::uint64_t first, std::uint64_t last) {
        EXPECT_EQ(first % 64, 0U);
        for (std::uint64_t i = first; i < last; ++i) {
            if (i % 3 == 0) bits[i / 64] |= std::uint64_t{1} << (i % 64);
        }
    });
    for (std::uint64_t i = 0; i < kN; ++i) ASSERT_EQ((bits[i / 64] >> (i % 64)) & 1, i % 3 == 0 ? 1U : 0U) << i;
}

TEST(ParallelRangesThreads, WorkerExceptionReachesTheCaller) {
    auto throw_at_chunk_100 = [](std::uint64_t first, std::uint64_t last) {
        if (first <= 64 * 100 && 64 * 100 < last) throw std::out_of_range("slice 0101 is not solved");
    };
    EXPECT_THROW(parallel_chunks(1 << 20, 2, 64, throw_at_chunk_100), std::out_of_range);
    EXPECT_THROW(parallel_ranges(1 << 20, 3, throw_at_chunk_100), std::out_of_range);
    // One thread: the chunks after the failing one are skipped.
    std::uint64_t calls = 0;
    EXPECT_THROW(parallel_chunks(1 << 20, 1, 64,
                                 [&](std::uint64_t first, std::uint64_t last) {
                                     ++calls;
                                     throw_at_chunk_100(first, last);
                                 }),
                 std::out_of_range);
    EXPECT_EQ(calls, 101U);
}

}  // namespace
}  // namespace egdb
