#include "core/probe/consistency_check.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "core/generate/one_ply_check.hpp"
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

std::string wld_dtw_text(const PositionValue& v) {
    const char* wld = v.wld == WldValue::Win ? "win" : v.wld == WldValue::Loss ? "loss" : "draw";
    return v.wld == WldValue::Draw ? wld : std::string(wld) + " dtw=" + std::to_string(v.dtw);
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
            const auto work = [&](int worker) {
                std::mt19937_64 rng(options.seed * 1000003 + static_cast<std::uint64_t>(worker) * 7919 +
                                    (static_cast<std::uint64_t>(slice.nbm * 1000 + slice.nbk * 100 + slice.nwm * 10 + slice.nwk) << 1) +
                                    static_cast<std::uint64_t>(side));
                for (std::uint64_t k = next.fetch_add(1); k < count && !failed; k = next.fetch_add(1)) {
                    const std::uint64_t index = count == size ? k : rng() % size;
                    const Position p = indexer.position_at(index);
                    if (has_capture(p, side)) continue;
                    try {
                        const PositionValue claimed = lookup.value(p, side);
                        const PositionValue derived = value_from_successors(p, side, lookup);
                        checked.fetch_add(1, std::memory_order_relaxed);
                        if (derived.wld != claimed.wld || derived.dtw != claimed.dtw) {
                            mismatches.fetch_add(1, std::memory_order_relaxed);
                            note(to_fen(p, side) + ": stored " + wld_dtw_text(claimed) + ", successors give " +
                                 wld_dtw_text(derived));
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
