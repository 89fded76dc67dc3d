// The handle's one page cache (core/cache/shared_page_cache.hpp): owners apart, slots of the
// largest page, capacity from the budget, and no joining once it is made.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/cache/shared_page_cache.hpp"

namespace egdb {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

TEST(SharedPageCache, OwnersOfEachDatabaseAreApart) {
    SharedPageCache shared(64 * kMiB);
    EXPECT_EQ(shared.join({.owners = 10, .page_bytes = 4096, .all_pages_bytes = kMiB}), 0U);
    EXPECT_EQ(shared.join({.owners = 3, .page_bytes = 4352, .all_pages_bytes = kMiB}), 10U);
    EXPECT_EQ(shared.join({.owners = 1, .page_bytes = 512, .all_pages_bytes = kMiB}), 13U);
    EXPECT_THROW(shared.join({.owners = std::uint64_t{1} << 24}), LimitError);
    const auto cache = shared.make();
    EXPECT_EQ(cache->page_bytes(), 4352U);
    EXPECT_EQ(shared.make(), cache);
    EXPECT_THROW(shared.join({.owners = 1, .page_bytes = 4096}), std::logic_error);
}

TEST(SharedPageCache, CapacityIsTheBudgetLessWhatIsHeldOutside) {
    SharedPageCache shared(64 * kMiB);
    shared.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 1000 * kMiB, .held_outside = 20 * kMiB});
    shared.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 1000 * kMiB, .held_outside = 4 * kMiB});
    EXPECT_EQ(shared.planned_capacity(), 40 * kMiB);
    EXPECT_LE(shared.make()->capacity_bytes(), 40 * kMiB);
}

TEST(SharedPageCache, AMinimumHoldsWithinTheBudget) {
    SharedPageCache shared(64 * kMiB);
    shared.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 1000 * kMiB, .held_outside = 60 * kMiB,
                 .minimum_bytes = 10 * kMiB});
    EXPECT_EQ(shared.planned_capacity(), 10 * kMiB);
    SharedPageCache small(4 * kMiB);
    small.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 1000 * kMiB, .minimum_bytes = 10 * kMiB});
    EXPECT_EQ(small.planned_capacity(), 4 * kMiB);
}

TEST(SharedPageCache, NoMoreThanAllPagesOfTheDatabases) {
    SharedPageCache shared(64 * kMiB);
    shared.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 3 * kMiB});
    shared.join({.owners = 1, .page_bytes = 4096, .all_pages_bytes = 2 * kMiB});
    EXPECT_EQ(shared.planned_capacity(), 5 * kMiB);
}

}  // namespace
}  // namespace egdb
