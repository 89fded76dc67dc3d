#include "core/formats/kingsrow/directory/autoload_plan.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace egdb::kingsrow {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr std::uint64_t kMinimumCacheBytes = AutoloadPlan::kMinimumCacheBytes;


double autoload_budget_mib(double avail, double total) noexcept {
    if (total - avail < 20) return total + 1;
    if (avail < 15) return 2;
    if (avail > 1000) return 0.35 * avail;
    return avail * (0.18 + avail * 0.17 / 1000);
}

}  // namespace

AutoloadPlan plan_autoload(const StreamTable& table, DbType type, const KingsrowOpenOptions& options) {
    const auto files = table.files();
    AutoloadPlan plan;
    plan.autoloaded.assign(files.size(), false);
    plan.load_order.resize(files.size());
    std::iota(plan.load_order.begin(), plan.load_order.end(), 0U);
    const auto key = [&](std::uint32_t f) {
        const DbFile& info = files[f].info;
        const SliceId s = info.slices.front();
        if (info.per_piece_count) return std::tuple(0, 0, info.pieces, 0, 0);
        return std::tuple(1, s.nbk + s.nwk, info.pieces, s.nbk, s.nbm);
    };
    std::stable_sort(plan.load_order.begin(), plan.load_order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });

    std::uint64_t total_bytes = 0;
    for (const TableFile& f : files) total_bytes += f.data.size();
    const double avail = (static_cast<double>(options.cache_bytes) - static_cast<double>(table.table_bytes())) / kMiB;
    const double budget = autoload_budget_mib(avail, static_cast<double>(total_bytes) / kMiB);

    std::uint64_t running = 0;
    std::uint64_t autoloaded_bytes = 0;
    for (const std::uint32_t f : plan.load_order) {
        running += files[f].data.size();
        bool load = false;
        switch (options.autoload) {
            case AutoloadPolicy::All: load = true; break;
            case AutoloadPolicy::None: load = false; break;
            case AutoloadPolicy::AsUpstream:
                load = type != DbType::MtcRunlen &&
                       (files[f].info.per_piece_count || static_cast<double>(running) / kMiB <= budget);
                break;
        }
        plan.autoloaded[f] = load;
        if (load) autoloaded_bytes += files[f].data.size();
    }

    std::uint64_t needed = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (!plan.autoloaded[f]) needed += (files[f].data.size() / kBlockBytes + 2) * kCachedBlockBytes;
    }
    const std::uint64_t budget_bytes = options.cache_bytes;
    const std::uint64_t used = table.table_bytes() + autoloaded_bytes;
    const std::uint64_t left = budget_bytes > used + kMinimumCacheBytes ? budget_bytes - used : kMinimumCacheBytes;
    plan.cache_bytes = std::min(needed, left);
    plan.all_blocks_bytes = needed;
    plan.held_bytes = used;
    return plan;
}

}  // namespace egdb::kingsrow
