#include "core/formats/kingsrow/solved_export.hpp"

#include <thread>

#include <atomic>
#include <mutex>

#include "core/formats/kingsrow/database.hpp"
#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/kingsrow/dtw/dtw_solved_source.hpp"
#include "core/notation/fen.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb::kingsrow {
namespace {

// Per (slice, side) arrays the writers read through spans; kept alive until all files are written.
struct SideData {
    SliceId slice;
    Color side = Color::Black;
    std::vector<WldResult> wld;
    std::vector<std::uint16_t> mtc;
    std::vector<std::uint64_t> capture_bits;   // side to move must capture
    std::vector<std::uint64_t> mtc_dont_care;  // captures and draws
};

SideData prepare(const SolvedSlice& solved, Color side, int threads) {
    SideData d;
    d.slice = solved.slice();
    d.side = side;
    const std::uint64_t n = solved.size();
    d.wld.resize(n);
    d.mtc.resize(n);
    d.capture_bits.assign((n + 63) / 64, 0);
    d.mtc_dont_care.assign((n + 63) / 64, 0);
    const SliceIndexer indexer(d.slice);
    // Threads own 64-aligned ranges, so each bitset word has one writer.
    parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
            const PositionValue v = solved.value(i, side);
            d.wld[i] = v.wld == WldValue::Win ? WldResult::Win : v.wld == WldValue::Loss ? WldResult::Loss : WldResult::Draw;
            d.mtc[i] = v.mtc;
            const std::uint64_t bit = std::uint64_t{1} << (i % 64);
            if (has_capture(indexer.position_at(i), side)) {
                d.capture_bits[i / 64] |= bit;
                d.mtc_dont_care[i / 64] |= bit;
            } else if (v.wld == WldValue::Draw) {
                d.mtc_dont_care[i / 64] |= bit;
            }
        }
    });
    return d;
}

}  // namespace

KingsrowExportReport write_kingsrow_databases(const std::filesystem::path& directory, const SolutionStore& store,
                                              const std::vector<SliceId>& slices, const KingsrowExportOptions& options) {
    std::vector<SideData> data;
    std::vector<DtwTableSource> dtw_tables;
    for (SliceId s : slices) {
        const SolvedSlice* solved = store.find(s);
        if (solved == nullptr) throw std::invalid_argument("slice " + s.to_string() + " is not solved");
        // Colour-symmetric slices are only read with Black to move (section 1.5).
        for (Color side : {Color::Black, Color::White}) {
            if (side == Color::White && is_color_symmetric(s)) continue;
            data.push_back(prepare(*solved, side, options.threads));
            if (options.dtw) dtw_tables.push_back({s, side, dtw_values_from_solved(*solved, side)});
        }
    }
    KingsrowExportReport report;
    if (options.wld) {
        std::vector<WldTable> tables;
        for (const SideData& d : data) tables.push_back({d.slice, d.side, d.wld, d.capture_bits});
        report.wld = write_wld_database(directory, options.wld_type, tables);
    }
    if (options.mtc) {
        std::vector<MtcTable> tables;
        for (const SideData& d : data) tables.push_back({d.slice, d.side, d.mtc, d.mtc_dont_care});
        report.mtc = write_mtc_database(directory, tables);
    }
    if (options.dtw) report.dtw = write_dtw_database(directory, dtw_tables);
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
