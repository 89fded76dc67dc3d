#include "core/workflow/consistency_check.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "core/values/one_ply_check.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"

namespace egdb {
namespace {

constexpr std::size_t kMessagesKept = 20;

// The database's values with MTC left out, so that value_over_moves derives WLD and DTW only.
class WldDtwLookup {
public:
    WldDtwLookup(const Database& db, bool dtw) : db_(db), dtw_(dtw) {}
    PositionValue value(const Position& p, Color side) const {
        PositionValue v{db_.wld(p, side), 0, 0};
        if (dtw_ && v.wld != WldValue::Draw) v.dtw = static_cast<Plies>(*db_.dtw(p, side));
        return v;
    }

private:
    const Database& db_;
    bool dtw_;
};

// splitmix64's finaliser: a well-spread 64-bit hash of a counter.
std::uint64_t mix(std::uint64_t x) noexcept {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

std::string wld_dtw_text(const PositionValue& v, bool dtw) {
    const char* wld = v.wld == WldValue::Win ? "win" : v.wld == WldValue::Loss ? "loss" : "draw";
    return v.wld == WldValue::Draw || !dtw ? wld : std::string(wld) + " dtw=" + std::to_string(v.dtw);
}

}  // namespace

ConsistencyReport check_consistency(const Database& db, const ConsistencyOptions& options) {
    ConsistencyReport report;
    report.checked_dtw = db.has_dtw();
    const WldDtwLookup lookup(db, report.checked_dtw);
    std::mutex report_mutex;
    const auto note = [&](std::string message) {
        std::lock_guard lock(report_mutex);
        if (report.messages.size() < kMessagesKept) report.messages.push_back(std::move(message));
    };
    for (const SliceId slice : all_slices(db.max_pieces())) {
        if (!is_canonical(slice)) continue;
        const SliceIndexer indexer(slice);
        for (const Color side : {Color::Black, Color::White}) {
            if (is_color_symmetric(slice) && side == Color::White) continue;  // the same table
            const std::uint64_t size = indexer.size();
            const std::uint64_t count = std::min(size, options.samples_per_table);
            std::atomic<std::uint64_t> checked{0}, mismatches{0}, next{0};
            std::atomic<bool> failed{false};
            // Sample k of a table is a hash of (seed, table, k): the same positions whatever the
            // number of threads, so that a reported mismatch can be found again.
            const std::uint64_t table_key =
                options.seed * 0x9E3779B97F4A7C15ULL ^
                (static_cast<std::uint64_t>(slice.nbm * 1000 + slice.nbk * 100 + slice.nwm * 10 + slice.nwk) * 2 +
                 static_cast<std::uint64_t>(side)) * 0xD1B54A32D192ED03ULL;
            const auto work = [&](int) {
                for (std::uint64_t k = next.fetch_add(1); k < count && !failed; k = next.fetch_add(1)) {
                    const std::uint64_t index = count == size ? k : mix(table_key + k) % size;
                    const Position p = indexer.position_at(index);
                    if (has_capture(p, side)) continue;
                    try {
                        const PositionValue claimed = lookup.value(p, side);
                        const PositionValue derived = value_from_successors(p, side, lookup);
                        checked.fetch_add(1, std::memory_order_relaxed);
                        // Without DTW data both distances are those of successors valued 0, not data.
                        if (derived.wld != claimed.wld || (report.checked_dtw && derived.dtw != claimed.dtw)) {
                            mismatches.fetch_add(1, std::memory_order_relaxed);
                            note(to_fen(p, side) + ": stored " + wld_dtw_text(claimed, report.checked_dtw) +
                                 ", successors give " + wld_dtw_text(derived, report.checked_dtw));
                        }
                    } catch (const std::exception& e) {
                        if (!failed.exchange(true)) {
                            note("slice " + slice.to_string() + (side == Color::Black ? " black" : " white") +
                                 " to move not checked: " + e.what());
                        }
                    }
                }
            };
            {
                std::vector<std::jthread> workers;
                for (int t = 1; t < std::max(1, options.threads); ++t) workers.emplace_back(work, t);
                work(0);
            }
            ++report.tables;
            if (failed) ++report.unchecked_tables;
            report.positions_checked += checked;
            report.mismatches += mismatches;
            if (options.on_table) options.on_table(slice, side, checked, mismatches);
        }
    }
    return report;
}

}  // namespace egdb
