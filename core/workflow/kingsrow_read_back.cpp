#include "core/workflow/kingsrow_read_back.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"

namespace egdb::workflow {

using kingsrow::KingsrowExportOptions;
using kingsrow::MtcValue;
namespace {

// The k-th random index of a slice's sample: a counter-based generator (SplitMix64's finaliser),
// so that any thread can draw any part of the sample and the sample does not depend on threads.
std::uint64_t sample_index(std::uint64_t seed, SliceId slice, std::uint64_t k, std::uint64_t size) noexcept {
    std::uint64_t z = seed + (static_cast<std::uint64_t>(slice.nbm) << 56) + (static_cast<std::uint64_t>(slice.nbk) << 48) +
                      (static_cast<std::uint64_t>(slice.nwm) << 40) + (static_cast<std::uint64_t>(slice.nwk) << 32) +
                      (k + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z % size;
}

class Checker {
public:
    // Opens the directory as egdb_open does (capi/egdb_capi.cpp: Database::open with the
    // caller's options; none here) and checks that it found what was written.
    Checker(const std::filesystem::path& directory, const KingsrowExportOptions& kinds) {
        try {
            db_ = Database::open(directory);
        } catch (const std::exception& e) {
            open_problem_ = std::string("the written directory does not open as egdb_open opens it: ") + e.what();
            return;
        }
        if (kinds.wld && db_->type() != kinds.wld_type) {
            open_problem_ = "the written directory opens as " + std::string(name_of(db_->type())) + ", not as " +
                            std::string(name_of(kinds.wld_type));
        } else if (db_->has_wld() != kinds.wld || db_->has_mtc() != kinds.mtc || db_->has_dtw() != kinds.dtw) {
            open_problem_ = "the written directory opens with other kinds than were written";
        }
    }

    const std::string& open_problem() const noexcept { return open_problem_; }

    // Compares one position (unless the side to move must capture); returns whether it counted.
    bool compare(const Position& p, Color side, const PositionValue& v) {
        if (has_capture(p, side)) return false;
        if (db_->has_wld()) {
            const int want = v.wld == WldValue::Win ? 1 : v.wld == WldValue::Loss ? 2 : 3;
            const int got = db_->lookup_stored(StoredKind::Wld, p, side);
            if (got != want) report(p, side, "WLD", got, want);
        }
        if (v.wld == WldValue::Draw) return true;
        if (db_->has_mtc()) {
            const int want = v.mtc >= MtcValue::kThreshold ? (v.mtc + 1) / 2 * 2 : MtcValue::kLessThanThresholdCode;
            const int got = db_->lookup_stored(StoredKind::Mtc, p, side);
            if (got != want) report(p, side, "MTC", got, want);
        }
        if (db_->has_dtw()) {
            const int got = db_->lookup_stored(StoredKind::Dtw, p, side);
            if (got != v.dtw / 2) report(p, side, "DTW", got, v.dtw / 2);
        }
        return true;
    }

    std::uint64_t mismatches() const noexcept { return mismatches_.load(); }
    std::vector<std::string> problems() const {
        std::lock_guard lock(problems_mutex_);
        return problems_;
    }

private:
    void report(const Position& p, Color side, const char* kind, int got, int want) {
        mismatches_.fetch_add(1, std::memory_order_relaxed);
        std::lock_guard lock(problems_mutex_);
        if (problems_.size() < 20) {
            problems_.push_back(to_fen(p, side) + ": " + kind + " " + std::to_string(got) + ", expected " + std::to_string(want));
        }
    }

    std::unique_ptr<Database> db_;
    std::string open_problem_;
    std::atomic<std::uint64_t> mismatches_{0};
    mutable std::mutex problems_mutex_;
    std::vector<std::string> problems_;
};

// The sum of what body(first, last) returns over chunks of [0, n) run on `threads` threads
// (parallel_chunks: a worker's exception reaches the caller).
template <class Body>
std::uint64_t parallel_sum(std::uint64_t n, int threads, Body&& body) {
    std::atomic<std::uint64_t> total{0};
    parallel_chunks(n, threads, std::uint64_t{1} << 14, [&](std::uint64_t first, std::uint64_t last) {
        total.fetch_add(body(first, last), std::memory_order_relaxed);
    });
    return total.load();
}

}  // namespace

ExportCheckReport check_kingsrow_export(const std::filesystem::path& directory, const SolutionStore& store,
                                        const std::vector<SliceId>& slices, const KingsrowExportOptions& kinds,
                                        const ExportCheckOptions& options) {
    Checker checker(directory, kinds);
    ExportCheckReport report;
    if (!checker.open_problem().empty()) {
        report.mismatches = 1;
        report.problems.push_back(checker.open_problem());
        return report;
    }
    if (options.every_stored_position) {
        for (SliceId s : slices) {
            const SolvedSlice& solved = *store.find(s);
            const SliceIndexer& indexer = slice_indexer(s);
            report.stored_positions += parallel_sum(solved.size(), options.threads, [&](std::uint64_t first, std::uint64_t last) {
                std::uint64_t counted = 0;
                for (std::uint64_t i = first; i < last; ++i) {
                    const Position p = indexer.position_at(i);
                    for (Color side : {Color::Black, Color::White}) counted += checker.compare(p, side, solved.value(i, side)) ? 1 : 0;
                }
                return counted;
            });
        }
    }
    if (options.samples_per_slice > 0) {
        int max_pieces = 0;
        for (SliceId s : slices) max_pieces = std::max(max_pieces, s.total());
        const std::set<SliceId> written(slices.begin(), slices.end());
        for (SliceId s : all_slices(max_pieces)) {
            if (written.count(is_canonical(s) ? s : color_reversed(s)) == 0) continue;
            const SliceIndexer& indexer = slice_indexer(s);
            const std::uint64_t size = indexer.size();
            const bool whole = size <= options.samples_per_slice;
            const std::uint64_t count = whole ? size : options.samples_per_slice;
            ++report.sampled_slices;
            report.sampled_positions += parallel_sum(count, options.threads, [&](std::uint64_t first, std::uint64_t last) {
                std::uint64_t counted = 0;
                for (std::uint64_t k = first; k < last; ++k) {
                    const Position p = indexer.position_at(whole ? k : sample_index(options.seed, s, k, size));
                    for (Color side : {Color::Black, Color::White}) counted += checker.compare(p, side, store.value(p, side)) ? 1 : 0;
                }
                return counted;
            });
        }
    }
    report.mismatches = checker.mismatches();
    report.problems = checker.problems();
    return report;
}

}  // namespace egdb::workflow
