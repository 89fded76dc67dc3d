#include "core/formats/native/verify_database.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "core/formats/native/native_database.hpp"
#include "core/formats/native/solved_slice_io.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/one_ply_check.hpp"
#include "core/generate/solution_store.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::native {
namespace {

const char* side_name(Color c) { return c == Color::Black ? "black" : "white"; }

// Collects mismatch descriptions from worker threads, keeping the first `limit`.
class MessageSink {
public:
    MessageSink(VerifyReport& report, std::size_t limit) : report_(report), limit_(limit) {}
    void add(std::string message) {
        std::lock_guard lock(mutex_);
        if (report_.messages.size() < limit_) report_.messages.push_back(std::move(message));
    }

private:
    std::mutex mutex_;
    VerifyReport& report_;
    std::size_t limit_;
};

// Checks every position of `slice` with side `side` to move in [0, n) on `threads` threads;
// `claimed(index, position)` gives the stored value, `derive(position)` the one-ply value, and
// `same(a, b)` compares them for the kinds stored.
template <class Claimed, class Derive, class Same>
std::uint64_t check_slice_side(SliceId slice, Color side, int threads, MessageSink& sink, Claimed&& claimed,
                               Derive&& derive, Same&& same) {
    const SliceIndexer indexer(slice);
    const std::uint64_t n = slice_size(slice);
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> mismatches{0};
    constexpr std::uint64_t kChunk = 1 << 14;
    auto work = [&] {
        for (std::uint64_t first = next.fetch_add(kChunk); first < n; first = next.fetch_add(kChunk)) {
            const std::uint64_t last = std::min(n, first + kChunk);
            for (std::uint64_t i = first; i < last; ++i) {
                const Position p = indexer.position_at(i);
                if (has_capture(p, side)) continue;  // stored as "don't care"
                const PositionValue stored = claimed(i, p);
                const PositionValue derived = derive(p);
                if (!same(stored, derived)) {
                    mismatches.fetch_add(1, std::memory_order_relaxed);
                    sink.add("slice " + slice.to_string() + " index " + std::to_string(i) + " " + to_fen(p, side) +
                             ": stored " + describe(stored) + ", successors give " + describe(derived));
                }
            }
        }
    };
    {
        std::vector<std::jthread> workers;
        for (int t = 1; t < threads; ++t) workers.emplace_back(work);
        work();
    }
    return mismatches.load();
}

}  // namespace

VerifyReport verify_native_database(const std::filesystem::path& directory, const VerifyOptions& options) {
    VerifyReport report;
    MessageSink sink(report, options.max_messages + 1000);
    const NativeDatabase db(directory, OpenOptions{16});
    const std::vector<const SliceFileReader*> files = db.files();
    report.files = files.size();
    bool restorable = true;
    for (const SliceFileReader* f : files) {
        for (const SectionDescriptor& d : f->sections()) report.pages += d.page_count;
        report.bad_pages += f->check_page_crcs([&](int section, std::uint64_t page) {
            const SectionDescriptor& d = f->sections()[static_cast<std::size_t>(section)];
            sink.add(f->path().filename().string() + ": section " + to_string(d.kind) + "/" + side_name(d.side) +
                     " page " + std::to_string(page) + ": checksum mismatch");
        });
        restorable = restorable && can_restore(*f);
    }
    if (report.bad_pages > 0) return report;

    int max_total = 0;
    for (const SliceFileReader* f : files) max_total = std::max(max_total, f->slice().total());
    std::vector<SliceId> order;
    for (SliceId s : build_order(max_total)) {
        if (db.has_slice(s)) order.push_back(s);
    }
    const int threads = std::max(1, options.threads);
    const bool has_dtw = db.has_kind(ValueKind::Dtw), has_mtc = db.has_kind(ValueKind::Mtc);
    auto same = [&](const PositionValue& a, const PositionValue& b) {
        if (a.wld != b.wld) return false;
        if (a.wld == WldValue::Draw) return true;
        return (!has_dtw || a.dtw == b.dtw) && (!has_mtc || a.mtc == b.mtc);
    };

    // With every kind stored, load the slices into memory (smaller first) and check there: array
    // lookups instead of page-cache lookups. Otherwise probe the files.
    SolutionStore store;
    std::size_t done = 0;
    for (SliceId slice : order) {
        const auto start = std::chrono::steady_clock::now();
        std::uint64_t checked = 0, bad = 0;
        const std::vector<Color> sides =
            is_color_symmetric(slice) ? std::vector<Color>{Color::Black} : std::vector<Color>{Color::Black, Color::White};
        try {
            if (restorable) {
                store.add(restore_solved_slice(*db.file(slice), store, threads));
                const SolvedSlice& solved = *store.find(slice);
                for (Color side : sides) {
                    bad += check_slice_side(
                        slice, side, threads, sink, [&](std::uint64_t i, const Position&) { return solved.value(i, side); },
                        [&](const Position& p) { return value_from_successors(p, side, store); }, same);
                }
            } else {
                for (Color side : sides) {
                    bad += check_slice_side(
                        slice, side, threads, sink, [&](std::uint64_t, const Position& p) { return db.value(p, side); },
                        [&](const Position& p) { return value_from_successors(p, side, db); }, same);
                }
            }
            checked = slice_size(slice) * sides.size();
        } catch (const std::out_of_range& e) {
            ++bad;
            sink.add("slice " + slice.to_string() + ": cannot be checked: " + e.what());
        }
        report.positions_checked += checked;
        report.mismatches += bad;
        ++done;
        if (options.on_slice_done) {
            const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            options.on_slice_done({slice, checked, bad, elapsed.count(), done, order.size()});
        }
    }
    if (report.messages.size() > options.max_messages) report.messages.resize(options.max_messages);
    return report;
}

}  // namespace egdb::native
