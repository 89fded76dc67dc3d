// The striped statistics counter: no increment is lost however many threads add at once, and a
// total read while they run never exceeds what has been added. Run under ThreadSanitizer by
// scripts/test.sh.
#include "core/util/striped_counter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace egdb {
namespace {

TEST(StripedCounterThreads, EveryIncrementIsCounted) {
    StripedCounter counter;
    constexpr int kThreads = 24;  // more threads than stripes: some share one
    constexpr std::uint64_t kAdds = 20000;
    std::atomic<bool> go{false};
    std::atomic<std::uint64_t> highest_seen{0};
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                while (!go.load()) std::this_thread::yield();
                for (std::uint64_t i = 0; i < kAdds; ++i) counter.add(t % 2 == 0 ? 1 : 2);
            });
        }
        threads.emplace_back([&] {
            while (!go.load()) std::this_thread::yield();
            for (int i = 0; i < 1000; ++i) {
                const std::uint64_t seen = counter.total();
                EXPECT_LE(seen, 3 * kAdds * kThreads / 2);
                if (seen > highest_seen.load()) highest_seen.store(seen);
            }
        });
        go = true;
    }
    EXPECT_EQ(counter.total(), kAdds * (kThreads / 2) * 1 + kAdds * (kThreads / 2) * 2);
    EXPECT_LE(highest_seen.load(), counter.total());
}

TEST(StripedCounterThreads, StartsAtZeroAndAddsAmounts) {
    StripedCounter counter;
    EXPECT_EQ(counter.total(), 0U);
    counter.add();
    counter.add(41);
    EXPECT_EQ(counter.total(), 42U);
}

}  // namespace
}  // namespace egdb
