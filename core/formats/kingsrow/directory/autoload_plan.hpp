// The driver's memory plan (kingsrow-format.md 12.2): which files are autoloaded (read whole and
// served without the cache) and how many bytes the LRU block cache may hold.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/formats/kingsrow/open_options.hpp"
#include "core/formats/kingsrow/text_index/stream_table.hpp"

namespace egdb::kingsrow {

struct AutoloadPlan {
    std::vector<bool> autoloaded;          // by StreamTable file number
    std::vector<std::uint32_t> load_order; // file numbers in the autoload order (also preload order)
    std::uint64_t cache_bytes = 0;         // LRU capacity
    std::uint64_t all_blocks_bytes = 0;    // cache pages of every block not autoloaded
    std::uint64_t held_bytes = 0;          // index tables and autoloaded files, out of cache_mb
    static constexpr std::uint64_t kMinimumCacheBytes = 10 * 1024 * 1024;  // the driver's floor
};

// Per-piece-count files first, then per-slice files by total kings, pieces, black kings, black
// men (ascending). Autoload budget in MiB from avail = cache_mb - table MiB and total = MiB of data
// files: everything if total - avail < 20, else 2 if avail < 15, else 0.35 avail if avail > 1000,
// else avail (0.18 + 0.17 avail / 1000). The cache gets what is left of cache_mb, at least 10 MiB,
// at most what the other files need.
AutoloadPlan plan_autoload(const StreamTable& table, DbType type, const KingsrowOpenOptions& options);

}  // namespace egdb::kingsrow
