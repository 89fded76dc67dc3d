#include "core/formats/kingsrow/solved_export.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "core/formats/kingsrow/database.hpp"
#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/kingsrow/dtw/dtw_solved_source.hpp"
#include "core/formats/kingsrow/file_set.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb::kingsrow {
namespace {

// The per-index arrays of one (slice, side) are filled by `threads` threads over 64-aligned
// ranges, so each bitset word has one writer.

// Bit i set when the side to move must capture at index i (Kingsrow stores nothing useful there).
std::vector<std::uint64_t> capture_bits(SliceId slice, Color side, int threads) {
    const std::uint64_t n = slice_size(slice);
    std::vector<std::uint64_t> bits((n + 63) / 64, 0);
    const SliceIndexer& indexer = slice_indexer(slice);
    parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            if (has_capture(indexer.position_at(i), side)) bits[i / 64] |= std::uint64_t{1} << (i % 64);
        }
    });
    return bits;
}

std::vector<WldResult> wld_results(const SolvedSlice& solved, Color side, int threads) {
    std::vector<WldResult> values(solved.size());
    parallel_ranges(solved.size(), threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            const WldValue v = solved.value(i, side).wld;
            values[i] = v == WldValue::Win ? WldResult::Win : v == WldValue::Loss ? WldResult::Loss : WldResult::Draw;
        }
    });
    return values;
}

std::vector<std::uint16_t> mtc_plies(const SolvedSlice& solved, Color side, int threads) {
    std::vector<std::uint16_t> plies(solved.size());
    parallel_ranges(solved.size(), threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) plies[i] = solved.value(i, side).mtc;
    });
    return plies;
}

// MTC is meaningless at captures and draws (7.1).
std::vector<std::uint64_t> mtc_dont_care(const SolvedSlice& solved, Color side, std::span<const std::uint64_t> captures,
                                         int threads) {
    std::vector<std::uint64_t> bits(captures.begin(), captures.end());
    parallel_ranges(solved.size(), threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            if (solved.value(i, side).wld == WldValue::Draw) bits[i / 64] |= std::uint64_t{1} << (i % 64);
        }
    });
    return bits;
}

}  // namespace

KingsrowExportReport write_kingsrow_databases(const std::filesystem::path& directory, const SolutionStore& store,
                                              const std::vector<SliceId>& slices, const KingsrowExportOptions& options) {
    for (SliceId s : slices) {
        if (store.find(s) == nullptr) throw std::invalid_argument("slice " + s.to_string() + " is not solved");
    }
    // The writers take the tables in file order and finish each file before the next.
    std::vector<SliceId> ordered = slices;
    std::stable_sort(ordered.begin(), ordered.end(), [](SliceId a, SliceId b) {
        return table_place(a, Color::Black) < table_place(b, Color::Black);
    });
    std::optional<WldDatabaseWriter> wld;
    std::optional<MtcDatabaseWriter> mtc;
    std::optional<DtwDatabaseWriter> dtw;
    if (options.wld) wld.emplace(directory, options.wld_type);
    if (options.mtc) mtc.emplace(directory);
    if (options.dtw) dtw.emplace(directory);
    // DTW encoding (Re-Pair) takes far longer than the WLD and MTC writers, and does not depend
    // on where a table lands in its file: up to `threads` tables are encoded at once, each on its
    // own thread, and appended in order. Everything else is one table at a time.
    struct PendingDtw {
        SliceId slice;
        Color side;
        std::future<DtwEncodedTable> encoded;
    };
    std::deque<PendingDtw> pending;
    const auto append_oldest = [&] {
        PendingDtw oldest = std::move(pending.front());
        pending.pop_front();
        dtw->add(oldest.encoded.get());
        if (options.on_table_written) options.on_table_written(oldest.slice, oldest.side);
    };
    for (SliceId s : ordered) {
        const SolvedSlice& solved = *store.find(s);
        for (Color side : {Color::Black, Color::White}) {
            if (side == Color::White && is_color_symmetric(s)) continue;  // never read (1.5)
            auto captures = std::make_shared<const std::vector<std::uint64_t>>(capture_bits(s, side, options.threads));
            if (wld) wld->add({s, side, wld_results(solved, side, options.threads), *captures});
            if (mtc) {
                mtc->add({s, side, mtc_plies(solved, side, options.threads),
                          mtc_dont_care(solved, side, *captures, options.threads)});
            }
            if (!dtw) {
                if (options.on_table_written) options.on_table_written(s, side);
                continue;
            }
            if (pending.size() >= static_cast<std::size_t>(std::max(options.threads, 1))) append_oldest();
            pending.push_back({s, side, std::async(std::launch::async, [&solved, side, captures] {
                                   return encode_dtw_table({solved.slice(), side, dtw_values_from_solved(solved, side, *captures)});
                               })});
        }
    }
    while (!pending.empty()) append_oldest();
    KingsrowExportReport report;
    if (wld) report.wld = wld->finish();
    if (mtc) report.mtc = mtc->finish();
    if (dtw) report.dtw = dtw->finish();
    return report;
}

std::vector<std::string> check_kingsrow_export(const std::filesystem::path& directory, const SolutionStore& store,
                                               const std::vector<SliceId>& slices, const KingsrowExportOptions& options,
                                               std::uint64_t* mismatches, std::uint64_t* checked) {
    int max_pieces = 0;
    for (SliceId s : slices) max_pieces = std::max(max_pieces, s.total());
    OpenOptions open;
    open.cache_mb = 64;
    std::unique_ptr<Database> wld, mtc;
    std::unique_ptr<DtwDatabase> dtw;
    if (options.wld) wld = open_database(directory, options.wld_type, max_pieces, open);
    if (options.mtc) mtc = open_database(directory, DbType::MtcRunlen, max_pieces, open);
    if (options.dtw) dtw = std::make_unique<DtwDatabase>(directory);
    std::vector<std::string> problems;
    std::mutex problems_mutex;
    std::atomic<std::uint64_t> bad{0}, count{0};
    auto report = [&](const Position& p, Color side, const std::string& what) {
        bad.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(problems_mutex);
        if (problems.size() < 20) problems.push_back(to_fen(p, side) + ": " + what);
    };
    for (SliceId s : slices) {
        const SolvedSlice& solved = *store.find(s);
        const SliceIndexer indexer(s);
        const std::uint64_t n = solved.size();
        std::atomic<std::uint64_t> next{0};
        auto work = [&] {
            constexpr std::uint64_t kChunk = 1 << 14;
            for (std::uint64_t first = next.fetch_add(kChunk); first < n; first = next.fetch_add(kChunk)) {
                for (std::uint64_t i = first; i < std::min(n, first + kChunk); ++i) {
                    const Position p = indexer.position_at(i);
                    for (Color side : {Color::Black, Color::White}) {
                        if (has_capture(p, side)) continue;
                        count.fetch_add(1, std::memory_order_relaxed);
                        const PositionValue v = solved.value(i, side);
                        if (wld) {
                            const int want = v.wld == WldValue::Win ? 1 : v.wld == WldValue::Loss ? 2 : 3;
                            const int got = wld->lookup_code(p, side, Conditional::No);
                            if (got != want) report(p, side, "WLD " + std::to_string(got) + ", expected " + std::to_string(want));
                        }
                        if (v.wld == WldValue::Draw) continue;
                        if (mtc) {
                            const int want = v.mtc >= MtcValue::kThreshold ? (v.mtc + 1) / 2 * 2 : MtcValue::kLessThanThresholdCode;
                            const int got = mtc->lookup_code(p, side, Conditional::No);
                            if (got != want) report(p, side, "MTC " + std::to_string(got) + ", expected " + std::to_string(want));
                        }
                        if (dtw) {
                            const int got = dtw->lookup(p, side);
                            if (got != v.dtw / 2) report(p, side, "DTW " + std::to_string(got) + ", expected " + std::to_string(v.dtw / 2));
                        }
                    }
                }
            }
        };
        std::vector<std::jthread> workers;
        for (int t = 1; t < options.threads; ++t) workers.emplace_back(work);
        work();
    }
    if (mismatches != nullptr) *mismatches = bad.load();
    if (checked != nullptr) *checked = count.load();
    return problems;
}

}  // namespace egdb::kingsrow
