// The one page cache of a database handle, shared by every file of every database the handle
// opens (folders, WLD, DTW, MTC), so that the handle's cache_mb bounds them together (egdb.h,
// egdb_open) instead of each database holding a cache of the whole budget.
//
// Opening is two steps. While the handle opens its databases, each joins with what it asks of
// the cache (PageCacheDemand) and gets a range of owner ids of its own; then the handle makes the
// cache once and gives it to every database. The cache's slots fit the largest page asked for; its
// capacity is the budget less the bytes the databases hold outside it (Kingsrow's autoloaded
// files, which come out of cache_mb as with the driver, kingsrow-format.md 12.2), never more than
// all the joined databases' pages together, and at least the largest minimum asked for (bounded by
// the budget).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/cache/page_cache.hpp"

namespace egdb {

struct PageCacheDemand {
    std::uint64_t owners = 0;         // owner ids the database keys its pages with
    std::size_t page_bytes = 0;       // its largest page
    std::uint64_t all_pages_bytes = 0;  // all its pages: more cache is of no use to it
    std::uint64_t held_outside = 0;   // bytes it holds in memory outside the cache, out of the budget
    std::uint64_t minimum_bytes = 0;  // cache it keeps whatever it holds outside (at most the budget)
};

class SharedPageCache {
public:
    explicit SharedPageCache(std::uint64_t budget_bytes) noexcept : budget_(budget_bytes) {}

    // Before make(): records the demand and returns the first of its owner ids. Throws
    // InternalError after make(), LimitError when the owners run out (2^24 in all).
    std::uint64_t join(const PageCacheDemand& demand);

    // Makes the cache on the first call and returns it on every call.
    std::shared_ptr<PageCache> make();

    std::uint64_t budget_bytes() const noexcept { return budget_; }
    // The capacity make() gives the cache for what has joined so far.
    std::uint64_t planned_capacity() const noexcept;

private:
    std::uint64_t budget_;
    std::uint64_t owners_ = 0;
    std::size_t page_bytes_ = 0;
    std::uint64_t all_pages_bytes_ = 0;
    std::uint64_t held_outside_ = 0;
    std::uint64_t minimum_bytes_ = 0;
    std::shared_ptr<PageCache> cache_;
};

}  // namespace egdb
