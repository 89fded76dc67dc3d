#include "core/build/verify_database.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/build/store_then_files.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/generate/block_successors.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/generate/solution_store.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/peak_memory.hpp"
#include "core/util/stopwatch.hpp"

namespace egdb::native {
namespace {

const char* section_side(Color c) { return c == Color::Black ? "black" : "white"; }

// Collects problem descriptions from worker threads, keeping the first `limit`.
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

// The kinds every file stores for each side it stores: those are compared. (A directory whose
// files differ, e.g. assembled by hand, is checked for what all of them hold.)
struct CheckedKinds {
    bool dtw = true;
    bool mtc = true;
};

CheckedKinds kinds_in_every_file(const std::vector<const SliceFileReader*>& files) {
    CheckedKinds kinds;
    for (const SliceFileReader* f : files) {
        for (const Color side : {Color::Black, Color::White}) {
            if (side == Color::White && is_color_symmetric(f->slice())) continue;
            kinds.dtw = kinds.dtw && f->find_section(ValueKind::Dtw, side) >= 0;
            kinds.mtc = kinds.mtc && f->find_section(ValueKind::Mtc, side) >= 0;
        }
    }
    return kinds;
}

// Checks every stored position of `solved` (both stored sides to move) against its successors on
// `threads` threads; returns the number of mismatches. Positions flagged in `must_capture` are
// "don't care" in the file (their value in `solved` was derived, not read).
template <class Others>
std::uint64_t check_slice(const SolvedSlice& solved, const std::array<CaptureBits, 2>& must_capture,
                          const Others& store, CheckedKinds kinds, int threads, MessageSink& sink) {
    const SliceId slice = solved.slice();
    const KingPlacements kings(slice);
    const SliceIndexer& indexer = slice_indexer(slice);
    const std::uint64_t n = solved.size();
    const std::size_t sides = is_color_symmetric(slice) ? 1 : 2;
    auto same = [&](const PositionValue& a, const PositionValue& b) {
        if (a.wld != b.wld) return false;
        if (a.wld == WldValue::Draw) return true;
        return (!kinds.dtw || a.dtw == b.dtw) && (!kinds.mtc || a.mtc == b.mtc);
    };
    std::atomic<std::uint64_t> mismatches{0};
    parallel_chunks(n, threads, 1 << 14, [&](std::uint64_t first, std::uint64_t last) {
        BlockWalk walk(indexer, kings, first);
        const WalkBlock in_block{solved, walk};
        const WholeSlice in_slice{solved};
        const BlockSuccessors successors(slice, kings, in_block, in_slice, store);
        MoveList moves;
        for (std::uint64_t i = first; i < last; ++i, walk.next()) {
            const Position p = walk.position();
            for (std::size_t s = 0; s < sides; ++s) {
                const auto side = static_cast<Color>(s);
                if ((must_capture[s][i / 64] >> (i % 64) & 1) != 0) continue;  // stored as "don't care"
                const PositionValue stored = solved.value(i, side);
                const PositionValue derived = successors.value_without_capture(p, side, moves);
                if (!same(stored, derived)) {
                    mismatches.fetch_add(1, std::memory_order_relaxed);
                    sink.add("slice " + slice.to_string() + " index " + std::to_string(i) + " " + to_fen(p, side) +
                             ": stored " + describe(stored) + ", successors give " + describe(derived));
                }
            }
        }
    });
    return mismatches.load();
}

// Why `slice` cannot be checked yet, or "": a slice its moves can reach is not in the directory,
// or could not be checked itself (its values are then not at hand).
std::string missing_successor(SliceId slice, const NativeDatabase& db, const std::vector<SliceId>& checked) {
    for (const SliceId t : successor_slices(slice)) {
        if (!db.has_slice(t)) return "slice " + t.to_string() + ", which its moves reach, is missing";
        if (std::find(checked.begin(), checked.end(), t) == checked.end()) {
            return "slice " + t.to_string() + ", which its moves reach, could not be checked";
        }
    }
    return "";
}

}  // namespace

VerifyReport verify_native_database(const std::filesystem::path& directory, const NativeVerifyOptions& options) {
    VerifyReport report;
    MessageSink sink(report, options.max_messages);
    const std::uint64_t budget = options.resources.memory_bytes;
    const std::size_t file_cache = budget > 0 ? DecodedSlicePlan::cache_bytes(budget) : std::size_t{16} << 20;
    // First what the manifest lists: a deleted slice file leaves nothing else to check.
    try {
        if (const std::optional<std::vector<ManifestEntry>> manifest = read_manifest(directory)) {
            report.manifest_found = true;
            for (std::string& problem : check_manifest(directory, *manifest)) {
                ++report.manifest_problems;
                sink.add(std::move(problem));
            }
        }
    } catch (const CorruptDataError& e) {
        report.manifest_found = true;
        ++report.manifest_problems;
        sink.add(e.what());
    }
    const NativeDatabase db(directory, NativeOpenOptions{file_cache});
    const std::vector<const SliceFileReader*> files = db.files();
    report.files = files.size();
    for (const SliceFileReader* f : files) {
        for (const SectionDescriptor& d : f->sections()) report.pages += d.page_count;
        report.bad_pages += f->check_page_crcs([&](int section, std::uint64_t page) {
            const SectionDescriptor& d = f->sections()[static_cast<std::size_t>(section)];
            sink.add(f->path().filename().string() + ": section " + to_string(d.kind) + "/" + section_side(d.side) +
                     " page " + std::to_string(page) + ": checksum mismatch");
        });
        // Every byte was read: without this the whole directory would stay resident.
        f->release_resident_pages();
    }
    if (report.bad_pages > 0) return report;

    int max_total = 0;
    for (const SliceFileReader* f : files) max_total = std::max(max_total, f->slice().total());
    std::vector<SliceId> order;
    for (SliceId s : build_order(max_total)) {
        if (db.has_slice(s)) order.push_back(s);
    }
    const int threads = std::max(1, options.resources.thread_count());
    const CheckedKinds kinds = kinds_in_every_file(files);
    report.checked_dtw = kinds.dtw;
    report.checked_mtc = kinds.mtc;

    // The journal's entries that may still hold (verify_journal.hpp): the entry's file, and the
    // files its moves reach, are those it was checked with. Whether it counts is decided when its
    // turn comes: every slice it reaches must have been found consistent by then, earlier or in
    // this run. (An entry of version 1 has no digest of those files: it may hold only while every
    // slice it reaches may hold from the journal, decided in one pass in build order.)
    std::optional<VerifyJournal> journal;
    if (!options.journal.empty()) journal.emplace(options.journal);
    const std::string kinds_text = journal_kinds(kinds.dtw, kinds.mtc);
    SliceFileIdentities identities(directory);
    const auto position_in_order = [&](SliceId t) -> std::optional<std::size_t> {
        const auto at = std::find(order.begin(), order.end(), t);
        return at == order.end() ? std::nullopt : std::optional<std::size_t>(static_cast<std::size_t>(at - order.begin()));
    };
    std::vector<char> journaled(order.size(), 0);
    if (journal) {
        for (std::size_t k = 0; k < order.size(); ++k) {
            const VerifiedSlice* entry = journal->find(order[k]);
            if (entry == nullptr || entry->kinds != kinds_text) continue;
            const std::optional<SliceFileIdentity> own = identities.of(order[k]);
            if (!own || entry->file_bytes != own->bytes || entry->file_crc != own->crc) continue;
            const std::vector<SliceId> successors = successor_slices(order[k]);
            bool holds = true;
            if (entry->successors_digest) {
                holds = identities.successors_digest(successors) == entry->successors_digest;
            } else {
                for (const SliceId t : successors) {
                    const std::optional<std::size_t> at = position_in_order(t);
                    holds = holds && at && journaled[*at];
                }
            }
            journaled[k] = holds ? 1 : 0;
        }
    }
    // Slices to decode: those to check and, again and again, the slices they read.
    std::vector<char> decode(order.size(), 0);
    std::vector<SliceId> read_later;
    for (std::size_t k = order.size(); k-- > 0;) {
        decode[k] = (!journaled[k] || std::find(read_later.begin(), read_later.end(), order[k]) != read_later.end()) ? 1 : 0;
        if (!decode[k]) continue;
        for (const SliceId t : successor_slices(order[k])) read_later.push_back(t);
    }

    // Smaller slices first, each decoded into memory once: its successors lie in itself and in
    // slices checked before it. A slice is dropped as soon as no slice still to be decoded can
    // reach it, which bounds the memory by what one slice's successors need.
    SolutionStore store;
    // Slices already checked: decoded in the store, or (under a budget, once dropped) from files.
    const StoreThenFiles checked_slices(store, &db);
    std::vector<SliceId> checked_ok;  // slices checked without an obstacle: later slices may read them
    const auto is_checked = [&](SliceId t) { return std::find(checked_ok.begin(), checked_ok.end(), t) != checked_ok.end(); };
    // Under a budget, before slice order[k] is decoded (decoded_slice_plan.hpp): the step holds this
    // slice's values (4 bytes a position), its capture flags (1 bit a position and side) and its
    // own file's pages; the slices it reads that fit are decoded again, for the sides to move they
    // are read at.
    DecodedSlicePlan plan(budget, file_cache, [&](SliceId t) -> std::uint64_t {
        const SliceFileReader* f = db.file(t);
        return f != nullptr ? f->file_size() : 0;
    });
    if (options.assumed_process_bytes) plan.assume(*options.assumed_process_bytes);
    // The slices decoded after order[k]: what they read stays decoded, for the sides they read it at.
    const auto decoded_after = [&](std::size_t k) {
        std::vector<SliceId> later;
        for (std::size_t j = k + 1; j < order.size(); ++j) {
            if (decode[j]) later.push_back(order[j]);
        }
        return later;
    };
    // A slice to check is decoded for both sides with its capture flags; one verified earlier is
    // decoded again only to be read, for the sides later slices read it at.
    const auto make_room = [&](std::size_t k, SideSet sides, bool to_check) {
        const SliceId slice = order[k];
        plan.measure(resident_memory_bytes(), store, db.cache_stats().bytes);
        const std::uint64_t step = DecodedSlicePlan::decoded_bytes(slice, sides) + (to_check ? slice_size(slice) / 4 : 0) +
                                   db.file(slice)->file_size();
        plan.make_room(store, slice, step, std::span<const SliceId>(order).first(k), is_checked, [&](SliceId t, SideSet t_sides) {
            store.add(restore_solved_slice(*db.file(t), checked_slices, threads, nullptr, t_sides));
            ++report.slices_decoded_again;
            db.release_resident_pages();
        });
    };
    // Slices found consistent, earlier or in this run: a journal entry counts only when every
    // slice its moves reach is one of them.
    std::vector<char> consistent(order.size(), 0);
    // Why the journal entry of order[k] cannot count, or "": a slice its moves reach was not found consistent.
    const auto inconsistent_successor = [&](std::size_t k) -> std::string {
        for (const SliceId t : successor_slices(order[k])) {
            const std::optional<std::size_t> at = position_in_order(t);
            if (!at || !consistent[*at]) return "slice " + t.to_string() + ", which its moves reach, was not found consistent";
        }
        return "";
    };
    for (std::size_t k = 0; k < order.size(); ++k) {
        const SliceId slice = order[k];
        const auto start = std::chrono::steady_clock::now();
        bool earlier = false;
        if (journaled[k]) {
            const std::string why = inconsistent_successor(k);
            earlier = why.empty();
            // Its entry says nothing of a slice whose successors are wrong; checking it again
            // needs their values, at hand only when a later slice reads it too.
            if (!earlier && !decode[k]) {
                ++report.unchecked_slices;
                sink.add("slice " + slice.to_string() + " cannot be checked: " + why);
                if (options.on_slice_done) options.on_slice_done({slice, 0, 0, false, false, 0, 0, k + 1, order.size()});
                continue;
            }
        }
        if (earlier) checked_ok.push_back(slice);
        if (earlier && !decode[k]) {
            const VerifiedSlice& entry = *journal->find(slice);
            consistent[k] = 1;
            ++report.slices_verified_earlier;
            report.positions_verified_earlier += entry.positions;
            if (options.on_slice_done) {
                options.on_slice_done({slice, entry.positions, 0, true, true, entry.seconds, 0, k + 1, order.size()});
            }
            continue;
        }
        std::uint64_t checked = 0, bad = 0;
        double restore_seconds = 0;
        // Under a budget, what this step decodes or keeps is for the sides these slices read.
        const std::vector<SliceId> later = budget > 0 ? decoded_after(k) : std::vector<SliceId>{};
        std::string obstacle = earlier ? "" : missing_successor(slice, db, checked_ok);
        if (obstacle.empty()) {
            try {
                const bool to_check = !earlier;
                SideSet sides = SideSet::both();
                if (budget > 0 && !to_check) {
                    const SideSet read = sides_read_by(slice, later);
                    if (!read.empty()) sides = read;
                }
                if (budget > 0) make_room(k, sides, to_check);
                std::array<CaptureBits, 2> must_capture;
                std::array<CaptureBits, 2>* capture_flags = to_check ? &must_capture : nullptr;
                store.add(budget > 0 ? restore_solved_slice(*db.file(slice), checked_slices, threads, capture_flags, sides)
                                     : restore_solved_slice(*db.file(slice), store, threads, capture_flags));
                restore_seconds = seconds_since(start);
                std::uint64_t held = store.memory_bytes();
                for (const CaptureBits& bits : must_capture) held += bits.size() * sizeof(std::uint64_t);
                report.peak_memory_bytes = std::max(report.peak_memory_bytes, held);
                if (!earlier) {
                    bad = budget > 0 ? check_slice(*store.find(slice), must_capture, checked_slices, kinds, threads, sink)
                                     : check_slice(*store.find(slice), must_capture, store, kinds, threads, sink);
                    checked = slice_size(slice) * (is_color_symmetric(slice) ? 1 : 2);
                    checked_ok.push_back(slice);
                }
            } catch (const std::exception& e) {
                // Thrown by reading the file (the slice is then not in the store, and slices that
                // reach it are not checked either) or by the check itself.
                obstacle = e.what();
                bad = 0;
            }
        }
        if (!obstacle.empty()) {
            ++report.unchecked_slices;
            sink.add("slice " + slice.to_string() + " cannot be checked: " + obstacle);
            if (earlier) checked_ok.pop_back();
        }
        std::vector<SliceId> needed;
        for (std::size_t j = k + 1; j < order.size(); ++j) {
            if (!decode[j]) continue;
            needed.push_back(order[j]);
            for (const SliceId t : successor_slices(order[j])) needed.push_back(t);
        }
        for (const SliceId held : std::vector<SliceId>(store.slices())) {
            if (std::find(needed.begin(), needed.end(), held) == needed.end()) store.remove(held);
        }
        if (budget > 0) {
            // What stays is kept for the sides to move the slices still to decode read it at (a
            // side asked for later anyway comes from its file, StoreThenFiles).
            for (const SliceId held : std::vector<SliceId>(store.slices())) store.keep_sides(held, sides_read_by(held, later));
            db.release_resident_pages();
        }
        const double seconds = seconds_since(start);
        report.restore_seconds += restore_seconds;
        report.check_seconds += seconds - restore_seconds;
        report.positions_checked += checked;
        report.mismatches += bad;
        if (obstacle.empty() && bad == 0) consistent[k] = 1;
        if (earlier && obstacle.empty()) {
            const VerifiedSlice& entry = *journal->find(slice);
            ++report.slices_verified_earlier;
            report.positions_verified_earlier += entry.positions;
            if (options.on_slice_done) {
                options.on_slice_done({slice, entry.positions, 0, true, true, entry.seconds, restore_seconds, k + 1, order.size()});
            }
            continue;
        }
        if (journal) {
            // Only a slice found consistent is recorded; one with mismatches loses its old entry.
            // An entry that still matches the files but could not count (a slice it reaches was
            // not found consistent) stays: it is true of the bytes it names.
            if (obstacle.empty() && bad == 0) {
                const std::optional<SliceFileIdentity> own = identities.of(slice);
                if (own) {
                    journal->record({slice, own->bytes, own->crc, kinds_text, checked, seconds,
                                     identities.successors_digest(successor_slices(slice))});
                }
            } else if (bad > 0 || !journaled[k]) {
                journal->forget(slice);
            }
        }
        if (options.on_slice_done) {
            options.on_slice_done({slice, checked, bad, obstacle.empty(), false, seconds, restore_seconds, k + 1, order.size()});
        }
    }
    return report;
}

}  // namespace egdb::native
