#include "core/cache/shared_page_cache.hpp"

#include <algorithm>

#include "core/util/error.hpp"

namespace egdb {

std::uint64_t SharedPageCache::join(const PageCacheDemand& demand) {
    if (cache_) throw InternalError("a database joined the handle's page cache after it was made");
    constexpr std::uint64_t kOwners = std::uint64_t{1} << 24;  // PageKey::owner
    if (demand.owners > kOwners - owners_) throw LimitError("too many database files for one page cache");
    const std::uint64_t first = owners_;
    owners_ += demand.owners;
    page_bytes_ = std::max(page_bytes_, demand.page_bytes);
    all_pages_bytes_ += demand.all_pages_bytes;
    held_outside_ += demand.held_outside;
    minimum_bytes_ = std::max(minimum_bytes_, demand.minimum_bytes);
    return first;
}

std::uint64_t SharedPageCache::planned_capacity() const noexcept {
    const std::uint64_t left = budget_ > held_outside_ ? budget_ - held_outside_ : 0;
    const std::uint64_t capacity = std::max(left, std::min(minimum_bytes_, budget_));
    return std::min(capacity, all_pages_bytes_);
}

std::shared_ptr<PageCache> SharedPageCache::make() {
    if (!cache_) cache_ = std::make_shared<PageCache>(planned_capacity(), std::max<std::size_t>(page_bytes_, 1));
    return cache_;
}

}  // namespace egdb
