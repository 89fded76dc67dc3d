#include "core/build/kingsrow_export.hpp"

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/build/kingsrow_dtw_source.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

// The per-index arrays of one (slice, side) below are filled by `threads` threads over
// 64-aligned ranges, so each bitset word has one writer.
//
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
        if (store.find(s) == nullptr) throw InvalidArgumentError("slice " + s.to_string() + " is not solved");
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

}  // namespace egdb::kingsrow
