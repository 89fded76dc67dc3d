#include "core/workflow/build.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <span>

#include "core/formats/kingsrow/codecs/tunstall_tables.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/build/build_directory.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/store_then_files.hpp"
#include "core/build/unit_directory.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/error.hpp"
#include "core/util/stopwatch.hpp"
#include "core/util/peak_memory.hpp"

namespace egdb::workflow {
namespace {

// " (Black to move)" for a slice brought back for one side to move, "" for both.
std::string sides_text(SideSet sides) {
    if (sides.count() != 1) return "";
    return std::string(" (") + std::string(color_name(sides.contains(Color::Black) ? Color::Black : Color::White)) + " to move)";
}


using Clock = std::chrono::steady_clock;


constexpr std::array<std::string_view, 4> kFormatNames{"native", "kingsrow-v2", "kingsrow-v1", "kingsrow-runlen"};

kingsrow::DbType wld_type_of(OutputFormat format) noexcept {
    return format == OutputFormat::KingsrowV2   ? kingsrow::DbType::WldTunV2
           : format == OutputFormat::KingsrowV1 ? kingsrow::DbType::WldTunV1
                                                : kingsrow::DbType::WldRunlen;
}

// Calls the observer; a false answer cancels.
void report(const BuildObserver& observer, const BuildItem& item) {
    if (observer.on_item && !observer.on_item(item)) {
        throw RuntimeError(ErrorKind::Cancelled, "build cancelled; run it again to resume");
    }
}

void start_stage(const BuildObserver& observer, BuildStage stage, std::uint64_t total) {
    if (observer.on_stage) observer.on_stage(stage, total);
}

void create_output(const std::filesystem::path& out) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) throw FileError("cannot create output directory " + out.string() + ": " + ec.message());
}

// Which slices a native build holds when (its residency). A slice must be in memory at some point when it is still
// to be solved, or when a later slice in memory reads it (solving reads the successors; restoring
// a finished file reads them too, to give its "don't care" positions their values). A finished
// slice that no later slice reads is never loaded: rerunning a finished build loads nothing.
// A slice in memory is released once the last slice that reads it is done.
struct SliceResidency {
    std::vector<bool> load;
    std::vector<std::ptrdiff_t> last_reader;  // index in the order of the last slice that reads it; -1: none
};

// With `restore_readers` false (a build under a memory budget, which reads finished slices from
// their files instead of restoring them), only the slices still to be solved are loaded.
SliceResidency plan_residency(const std::vector<SliceId>& order, const std::vector<bool>& finished, bool restore_readers) {
    const std::size_t n = order.size();
    std::vector<std::vector<SliceId>> successors(n);
    for (std::size_t i = 0; i < n; ++i) successors[i] = successor_slices(order[i]);
    const auto reads = [&](std::size_t j, std::size_t i) {
        return std::find(successors[j].begin(), successors[j].end(), order[i]) != successors[j].end();
    };
    SliceResidency plan{std::vector<bool>(n, false), std::vector<std::ptrdiff_t>(n, -1)};
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t j = n; j-- > i + 1;) {
            if (plan.load[j] && reads(j, i)) {
                plan.last_reader[i] = static_cast<std::ptrdiff_t>(j);
                break;
            }
        }
        plan.load[i] = !finished[i] || (restore_readers && plan.last_reader[i] >= 0);
    }
    return plan;
}

std::uint64_t budgeted_parts(std::uint64_t part_positions, std::uint64_t budget, std::uint64_t threads) {
    if (budget == 0) return part_positions;
    return std::max<std::uint64_t>(1, std::min(part_positions, budget / (64 * threads)));
}

std::uint64_t solve_need_bytes(SliceId s, const BuildRequest& request, int threads, std::uint64_t part_positions) {
    return native::solve_need_bytes(s, slice_size(s) >= request.unit_file_min_positions, threads, part_positions);
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

void build_native(const BuildRequest& request, const BuildObserver& observer, int threads,
                  const std::vector<SliceId>& order, BuildReport& result) {
    const native::BuildDirectory directory(request.out, observer.on_warning);
    const std::filesystem::path unit_directory = native::unit_folder(request.out);
    native::SolvedWriteOptions write;
    write.kinds = request.kinds;
    write.format.zstd_level = request.zstd_level;
    write.threads = threads;
    std::uint64_t done = 0;
    start_stage(observer, BuildStage::Solve, result.positions);
    const auto start = Clock::now();
    std::vector<bool> finished(order.size(), false);
    std::vector<std::filesystem::path> paths(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        paths[i] = directory.slice_path(order[i]);
        finished[i] = directory.finished(order[i]);
    }
    const bool budgeted = request.resources.memory_bytes > 0;
    const SliceResidency plan = plan_residency(order, finished, !budgeted);
    // The unit files of a finished slice stay while a slice still to be solved reads it: reading
    // a slice back from its units is a decompression, from its slice file also a capture search
    // for every "don't care" position (solved_slice_io.hpp), 200 s for slice 0303.
    std::vector<bool> kept_units(order.size(), false);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!finished[i] || !directory.has_units(order[i])) continue;
        if (plan.last_reader[i] >= 0) {
            kept_units[i] = true;
        } else {
            directory.remove_units(order[i]);
        }
    }
    // A slice file is written from its units a part per thread at a time, about 8 bytes a
    // position (the part's values, its WLD bytes and its compressed pages): under a budget, the
    // parts take an eighth of it at most.
    const std::uint64_t part_positions =
        budgeted_parts(request.part_positions, request.resources.memory_bytes, static_cast<std::uint64_t>(threads));
    const std::size_t file_cache = DecodedSlicePlan::cache_bytes(request.resources.memory_bytes);
    // The largest slice still to solve, planned before anything is solved: a slice that needs more
    // than the machine has would end in an allocation failure hours later, so it is refused now.
    std::vector<SliceId> to_solve;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!finished[i]) to_solve.push_back(order[i]);
    }
    const std::optional<native::SliceNeed> peak =
        native::largest_need(to_solve, [&](SliceId s) { return solve_need_bytes(s, request, threads, part_positions); });
    if (peak) {
        const auto [largest, need] = *peak;
        try {
            native::refuse_beyond_machine(*peak, request.assumed_machine_bytes.value_or(physical_memory_bytes()));
        } catch (const RuntimeError&) {
            std::error_code ec;
            std::filesystem::remove(unit_directory, ec);  // only when empty: nothing else was written
            throw;
        }
        if (observer.on_note) {
            std::string note = "largest slice to solve: " + largest.to_string() + ", planned at " + mebibytes(need);
            if (budgeted) {
                note += need > request.resources.memory_bytes ? ", more than the memory budget of " : " within the memory budget of ";
                note += mebibytes(request.resources.memory_bytes);
            }
            observer.on_note(note);
        }
    }
    {
        // Scoped: the solutions are on disk when this block ends and verification reads the files
        // back, so their memory is freed before it starts.
        SolutionStore store;
        // Under a budget, the slices dropped from the store are read from the files written so far.
        std::unique_ptr<native::NativeDatabase> files;
        native::StoreThenFiles memory_or_files(store, nullptr);
        const auto index_in_order = [&](SliceId t) {
            return static_cast<std::size_t>(std::find(order.begin(), order.end(), t) - order.begin());
        };
        // A finished slice back in memory: from its unit files when they were kept, else from its
        // slice file (its successors in `lookup` give the "don't care" positions their values).
        // `sides`: the sides to move to bring back (SolvedSlice::sides_to_hold).
        const auto restore = [&](std::size_t k, const SolvedLookup& lookup, SideSet sides) -> SolvedSlice {
            bool from_units = kept_units[k];
            SolvedSlice restored = directory.restore(order[k], lookup, sides, threads, from_units);
            kept_units[k] = from_units;
            return restored;
        };
        // Verification in the build (docs/architecture.md, step 6): with `verify`, every block is checked
        // against its successors as it is solved (block_check.hpp) and every page is read back as
        // it is written (page_encoder.hpp), so a slice solved whole in this run goes into the
        // journal of the closing verification as consistent, and that verification checks its
        // pages' checksums but does not decode and check it again. A slice with levels resumed
        // from an earlier run, or with a mismatch, is left to the closing verification.
        std::optional<native::VerifyJournal> journal;
        if (request.verify) {
            try {
                journal.emplace(request.out / native::kBuildVerifyJournalName);
            } catch (const std::exception& e) {
                // The closing verification reports the damaged journal; the build goes on.
                if (observer.on_warning) observer.on_warning(std::string(e.what()) + "; slices are checked after the build only");
            }
        }
        LevelChecks checks;
        native::SliceFileIdentities file_identities(request.out);
        const std::string kinds_text = native::journal_kinds(request.kinds.dtw, request.kinds.mtc);
        const auto record_checked = [&](SliceId s, std::size_t k, double seconds) {
            result.checked_in_build_seconds += checks.seconds;
            if (!checks.whole_slice_consistent()) {
                journal->forget(s);
                if (checks.result.mismatches > 0 && observer.on_warning) {
                    std::string text = "slice " + s.to_string() + ": " + std::to_string(checks.result.mismatches) +
                                       " positions disagree with their successors";
                    for (const std::string& m : checks.result.messages) text += "\n  " + m;
                    observer.on_warning(text);
                }
                return;
            }
            const std::uint64_t stored = slice_size(s) * (is_color_symmetric(s) ? 1 : 2);
            // The slice was checked against the files its moves reach as they are now (written
            // earlier in build order): the entry names them by their digest.
            file_identities.forget(s);
            const std::optional<native::SliceFileIdentity> own = file_identities.of(s);
            if (!own) throw FileError("slice file " + paths[k].string() + " vanished after it was written");
            journal->record({s, own->bytes, own->crc, kinds_text, stored, seconds, file_identities.successors_digest(successor_slices(s))});
            ++result.slices_checked_in_build;
            result.positions_checked_in_build += checks.result.positions;
            result.positions_mirrored_in_build += checks.positions_mirrored;
        };
        // A slice solved in units has counted its positions unit by unit.
        bool counted_by_units = false;
        std::optional<native::UnitDirectory> units;
        const auto on_unit = [&](const native::UnitDirectory::UnitDone& u) {
            done += u.positions;
            char detail[160];
            std::snprintf(detail, sizeof detail, "%s, %.1f MiB unit file", u.resumed ? "resumed" : "solved",
                          static_cast<double>(u.file_bytes) / (1024.0 * 1024.0));
            report(observer, BuildItem{u.resumed ? BuildStage::Resume : BuildStage::Solve,
                                       u.slice.to_string() + " a" + std::to_string(u.advancement), u.positions, u.seconds, detail,
                                       done, result.positions});
        };
        // Solves slice `s` in memory, or unit by unit through the unit files when it is large
        // enough for an interruption to be worth resuming from inside it. A slice solved in units
        // is never held whole: nothing is returned, and its file is written from its units.
        const auto solve_slice = [&](SliceId s, const SolvedLookup& lookup) -> std::optional<SolvedSlice> {
            counted_by_units = slice_size(s) >= request.unit_file_min_positions;
            checks = LevelChecks{};
            SolveOptions solve{threads, request.narrow_limit};
            if (journal) solve.checks = &checks;
            if (!counted_by_units) return SliceSolver(s, lookup, solve).solve();
            units.emplace(unit_directory, s, native::UnitDirectory::Callbacks{on_unit, observer.on_warning}, threads);
            SliceSolver(s, lookup, solve).solve_levels(*units);
            return std::nullopt;
        };
        // Writes the slice just solved: from `solved`, or part by part from its unit files.
        const auto write_slice = [&](SliceId s, double solve_seconds, const SolvedSlice* solved) {
            const auto t0 = Clock::now();
            const native::WrittenSlice w = solved != nullptr ? native::write_solved_slice(request.out, *solved, write)
                                                             : units->write_slice_file(request.out, write, part_positions);
            // The slice file is complete (it can be read back); its units are kept only while a
            // later slice reads it.
            const std::size_t k = index_in_order(s);
            finished[k] = true;
            if (counted_by_units && units) {
                kept_units[k] = plan.last_reader[k] > static_cast<std::ptrdiff_t>(k);
                if (!kept_units[k]) units->remove_units();
            }
            units.reset();
            const double written = seconds_since(t0);
            if (journal) record_checked(s, k, solve_seconds + written);
            result.solve_seconds += solve_seconds;
            result.write_seconds += written;
            if (!counted_by_units) done += slice_size(s);
            char detail[160];
            std::snprintf(detail, sizeof detail, "solve %.2f s, write %.2f s, %.3f WLD bits/position", solve_seconds, written,
                          8.0 * static_cast<double>(w.wld_bytes) / (2.0 * static_cast<double>(slice_size(s))));
            report(observer, BuildItem{BuildStage::Solve, s.to_string(), slice_size(s), solve_seconds + written, detail, done,
                                       result.positions});
        };
        // Solves and writes slice `order[i]` reading `lookup`; with `keep`, the solution stays in
        // the store for the slices that read it (a slice solved in units is assembled from them).
        const auto solve_and_write = [&](std::size_t i, const SolvedLookup& lookup, bool keep) {
            const SliceId s = order[i];
            const auto t0 = Clock::now();
            std::optional<SolvedSlice> solved = solve_slice(s, lookup);
            write_slice(s, seconds_since(t0), solved ? &*solved : nullptr);
            if (!keep) return;
            if (solved) {
                store.add(std::move(*solved));
            } else if (kept_units[i]) {
                store.add(native::UnitDirectory(unit_directory, s).assemble(SideSet::both(), threads));
            }
        };
        // Under a budget (decoded_slice_plan.hpp), with what the slice holds itself (solve_need_bytes).
        const std::uint64_t budget = request.resources.memory_bytes;
        const auto file_bytes = [&](SliceId t) -> std::uint64_t {
            std::error_code ec;
            const std::uintmax_t bytes = std::filesystem::file_size(paths[index_in_order(t)], ec);
            return ec ? 0 : bytes;
        };
        DecodedSlicePlan memory_plan(budget, file_cache, file_bytes);
        if (request.assumed_process_bytes) memory_plan.assume(*request.assumed_process_bytes);
        const auto solve_within_budget = [&](std::size_t i) {
            const SliceId s = order[i];
            const std::vector<SuccessorRead> reads = successor_reads(s);
            const bool by_units = slice_size(s) >= request.unit_file_min_positions;
            const std::uint64_t solve_need = solve_need_bytes(s, request, threads, part_positions);
            // The files of the previous slice are closed first: the process is then measured
            // without their pages or page cache (decoded_slice_plan.hpp).
            memory_or_files.set_files(nullptr);
            files.reset();
            memory_plan.measure(resident_memory_bytes(), store, 0);
            const auto earlier = std::span<const SliceId>(order).first(i);
            const auto available = [&](SliceId t) { return finished[index_in_order(t)]; };
            const auto bring_back = [&](SliceId t, SideSet sides) {
                const std::size_t k = index_in_order(t);
                const auto t0 = Clock::now();
                // Restoring reads t's successors for its "don't care" positions: open the files
                // written so far for those not in memory.
                memory_or_files.set_files(nullptr);
                files = std::make_unique<native::NativeDatabase>(request.out, native::NativeOpenOptions{file_cache});
                memory_or_files.set_files(files.get());
                const bool from_units = kept_units[k];
                store.add(restore(k, memory_or_files, sides));
                files->release_resident_pages();
                ++result.resumed_slices;
                report(observer, BuildItem{BuildStage::Resume, t.to_string(), slice_size(t), seconds_since(t0),
                                           "resumed from " + (from_units ? std::string("its unit files") : paths[k].filename().string()) +
                                               sides_text(SolvedSlice::sides_to_hold(t, sides)) + " for " + s.to_string(),
                                           done,
                                           result.positions});
            };
            const std::uint64_t held = memory_plan.make_room(store, s, solve_need, earlier, available, bring_back);
            if (held > budget && observer.on_warning) {
                observer.on_warning("slice " + s.to_string() + " needs " + std::to_string(held >> 20) +
                                    " MiB, more than the memory budget of " + std::to_string(budget >> 20) + " MiB");
            }
            // The files written since the last slice are seen by opening them again, which is
            // needed only when a slice this one reads is not in memory.
            if (!std::all_of(reads.begin(), reads.end(), [&](const SuccessorRead& r) { return answers_every_side_read(store, r); })) {
                memory_or_files.set_files(nullptr);
                files = std::make_unique<native::NativeDatabase>(request.out, native::NativeOpenOptions{file_cache});
                memory_or_files.set_files(files.get());
            }
            // A slice solved in memory stays in the store for the slices that read it (they may
            // drop it), for the sides to move they read it at; one solved in units is brought in
            // by them when it fits.
            solve_and_write(i, memory_or_files, !by_units);
            store.keep_sides(s, sides_read_by(s, std::span<const SliceId>(order).subspan(i + 1)));
        };
        for (std::size_t i = 0; i < order.size(); ++i) {
            const SliceId s = order[i];
            if (finished[i]) {
                const auto t0 = Clock::now();
                std::string detail = "already built";
                if (plan.load[i]) {
                    // Restoring reads the successors, which are in the store (they are loaded
                    // for every slice that reads them, and released only after it).
                    detail = "resumed from " + (kept_units[i] ? std::string("its unit files") : paths[i].filename().string());
                    store.add(restore(i, store, SideSet::both()));
                    ++result.resumed_slices;
                }
                done += slice_size(s);
                report(observer, BuildItem{BuildStage::Resume, s.to_string(), slice_size(s), seconds_since(t0), detail, done,
                                           result.positions});
            } else if (!budgeted) {
                solve_and_write(i, store, true);
            } else {
                solve_within_budget(i);
            }
            result.peak_solution_bytes = std::max(result.peak_solution_bytes, store.memory_bytes());
            // Release what no later slice reads: the memory of a build is then the slice being
            // solved and the slices its moves reach, not everything solved so far.
            for (std::size_t k = 0; k <= i; ++k) {
                if (plan.last_reader[k] > static_cast<std::ptrdiff_t>(i)) continue;
                store.remove(order[k]);
                if (kept_units[k]) {
                    directory.remove_units(order[k]);
                    kept_units[k] = false;
                }
            }
        }
        result.solve_peak_memory_mib = peak_memory_mib();
    }
    directory.finish();
    result.seconds = seconds_since(start);
    result.peak_memory_mib = peak_memory_mib();
    if (!request.verify) return;
    start_stage(observer, BuildStage::Verify, 0);
    VerifyRequest verify;
    verify.resources = {threads, request.resources.memory_bytes};
    verify.assumed_process_bytes = request.assumed_process_bytes;
    verify.journal = request.out / native::kBuildVerifyJournalName;
    verify.on_item = [&](const VerifyItem& item) {
        std::string detail = !item.checked            ? "NOT CHECKED"
                             : item.verified_earlier  ? "ok (verified earlier, journal)"
                             : item.mismatches == 0   ? "ok"
                                                      : std::to_string(item.mismatches) + " MISMATCHES";
        report(observer, BuildItem{BuildStage::Verify, item.label, item.positions, item.seconds, detail,
                                   static_cast<std::uint64_t>(item.done), static_cast<std::uint64_t>(item.total)});
        return true;
    };
    result.verify = verify_directory(request.out, verify);
    result.check_seconds = result.verify->seconds;
}

void build_kingsrow(const BuildRequest& request, const BuildObserver& observer, int threads,
                    const std::vector<SliceId>& order, BuildReport& result) {
    std::uint64_t tables_positions = 0;
    for (SliceId s : order) tables_positions += (is_color_symmetric(s) ? 1 : 2) * slice_size(s);
    SolutionStore store;
    std::uint64_t done = 0;
    start_stage(observer, BuildStage::Solve, result.positions);
    const auto start = Clock::now();
    BuildOptions options;
    options.threads = threads;
    options.on_slice_done = [&](const SliceProgress& p) {
        done += p.positions;
        report(observer, BuildItem{BuildStage::Solve, p.slice.to_string(), p.positions, p.seconds, "", done, result.positions});
    };
    solve_slices(order, store, options);
    result.peak_solution_bytes = store.memory_bytes();
    result.solve_seconds = seconds_since(start);
    result.solve_peak_memory_mib = peak_memory_mib();

    kingsrow::KingsrowExportOptions k;
    k.wld_type = wld_type_of(request.format);
    k.wld = request.kinds.wld;
    k.mtc = request.kinds.mtc;
    k.dtw = request.kinds.dtw;
    k.threads = threads;
    start_stage(observer, BuildStage::Write, tables_positions);
    done = 0;
    auto table_start = Clock::now();
    // The export calls back from its writer thread, in table order; a cancellation is rethrown
    // once the export has returned (it cannot stop half-way through a file).
    bool cancelled = false;
    k.on_table_written = [&](SliceId s, Color side) {
        done += slice_size(s);
        const BuildItem item{BuildStage::Write, s.to_string() + (side == Color::Black ? " b" : " w"), slice_size(s),
                             seconds_since(table_start), "", done, tables_positions};
        if (!cancelled && observer.on_item && !observer.on_item(item)) cancelled = true;
        table_start = Clock::now();
    };
    const auto write_start = Clock::now();
    result.kingsrow_sizes = kingsrow::write_kingsrow_databases(request.out, store, order, k);
    result.write_seconds = seconds_since(write_start);
    result.seconds = seconds_since(start);
    result.peak_memory_mib = peak_memory_mib();
    if (cancelled) throw RuntimeError(ErrorKind::Cancelled, "build cancelled");
    if (!request.verify) return;
    start_stage(observer, BuildStage::Verify, 0);
    ExportCheckOptions check;
    check.samples_per_slice = request.read_back_samples;
    check.threads = threads;
    const auto check_start = Clock::now();
    result.read_back = check_kingsrow_export(request.out, store, order, k, check);
    result.check_seconds = seconds_since(check_start);
}

}  // namespace

OutputFormat parse_output_format(std::string_view text) {
    for (std::size_t i = 0; i < kFormatNames.size(); ++i) {
        if (text == kFormatNames[i]) return static_cast<OutputFormat>(i);
    }
    throw RuntimeError(ErrorKind::InvalidArgument,
                       "unknown format \"" + std::string(text) + "\" (native, kingsrow-v2, kingsrow-v1, kingsrow-runlen)");
}

std::string_view to_string(OutputFormat format) noexcept { return kFormatNames[static_cast<std::size_t>(format)]; }

native::ValueKinds parse_value_kinds(std::string_view text) {
    native::ValueKinds k{false, false, false};
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string_view item = text.substr(start, end - start);
        bool* slot = item == "wld" ? &k.wld : item == "dtw" ? &k.dtw : item == "mtc" ? &k.mtc : nullptr;
        if (slot == nullptr) {
            throw RuntimeError(ErrorKind::InvalidArgument,
                               "unknown value kind \"" + std::string(item) + "\" in \"" + std::string(text) + "\" (expected wld, dtw, mtc)");
        }
        if (*slot) throw RuntimeError(ErrorKind::InvalidArgument, "value kind \"" + std::string(item) + "\" given twice");
        *slot = true;
        start = end + 1;
    }
    if (!k.wld) throw RuntimeError(ErrorKind::InvalidArgument, "the kinds must include wld (DTW and MTC are read together with WLD)");
    return k;
}

std::vector<SliceId> parse_slice_list(std::string_view text) {
    std::vector<SliceId> slices;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string_view item = text.substr(start, end - start);
        const bool digits = item.size() == 4 && std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits) {
            throw RuntimeError(ErrorKind::InvalidArgument, "slice \"" + std::string(item) + "\" in \"" + std::string(text) +
                                                               "\" is not four digits <nbm><nbk><nwm><nwk>");
        }
        const SliceId s{item[0] - '0', item[1] - '0', item[2] - '0', item[3] - '0'};
        if (!is_indexable(s) || s.black() == 0 || s.white() == 0) {
            throw RuntimeError(ErrorKind::InvalidArgument, "slice " + std::string(item) + " needs 1 to " +
                                                               std::to_string(kMaxPiecesPerSide) + " pieces a side");
        }
        slices.push_back(s);
        start = end + 1;
    }
    return slices;
}

bool BuildReport::ok() const noexcept {
    if (verify && !verify->ok()) return false;
    if (read_back && read_back->mismatches != 0) return false;
    return true;
}

BuildReport build_database(const BuildRequest& request, const BuildObserver& observer) {
    if (request.slices.empty() && (request.pieces < 2 || request.pieces > 2 * kMaxPiecesPerSide)) {
        throw RuntimeError(ErrorKind::InvalidArgument, "pieces must be in 2.." + std::to_string(2 * kMaxPiecesPerSide) +
                                                           ", got " + std::to_string(request.pieces));
    }
    for (SliceId s : request.slices) {
        if (!is_indexable(s) || s.black() == 0 || s.white() == 0) {
            throw RuntimeError(ErrorKind::InvalidArgument, "slice " + s.to_string() + " cannot be built: it needs 1 to " +
                                                               std::to_string(kMaxPiecesPerSide) + " pieces a side");
        }
        if (request.pieces > 0 && s.total() > request.pieces) {
            throw RuntimeError(ErrorKind::InvalidArgument, "slice " + s.to_string() + " has more than --pieces " +
                                                               std::to_string(request.pieces) + " pieces");
        }
    }
    if (request.out.empty()) throw RuntimeError(ErrorKind::InvalidArgument, "no output directory given");
    if (request.resources.memory_bytes > 0 && request.format != OutputFormat::Native) {
        throw RuntimeError(ErrorKind::InvalidArgument, "a memory budget applies to native builds only");
    }
    if (request.resources.memory_bytes > 0 && !(request.kinds.dtw && request.kinds.mtc)) {
        // Slices read from their files must give the solver their distances (solved_slice_io.hpp).
        throw RuntimeError(ErrorKind::InvalidArgument, "a memory budget needs every kind in the files (wld,dtw,mtc)");
    }
    if (!request.slices.empty() && request.format != OutputFormat::Native) {
        // A Kingsrow db<n> file holds every slice of n pieces (3.1): a part of them is no such file.
        throw RuntimeError(ErrorKind::InvalidArgument, "slices can be built alone in the native format only");
    }
    if (!request.kinds.wld) throw RuntimeError(ErrorKind::InvalidArgument, "the kinds must include wld");
    if (request.zstd_level < 1 || request.zstd_level > 22) {
        throw RuntimeError(ErrorKind::InvalidArgument, "the zstd level must be in 1..22");
    }
    if (request.format == OutputFormat::KingsrowV1 || request.format == OutputFormat::KingsrowV2) {
        // Refused before solving (minutes at 5 pieces) rather than when the first file is encoded.
        const kingsrow::TunstallTableData tables = kingsrow::builtin_tunstall_tables(
            request.format == OutputFormat::KingsrowV1 ? kingsrow::TunstallVersion::V1 : kingsrow::TunstallVersion::V2);
        if (!tables.available()) {
            throw RuntimeError(ErrorKind::Unsupported, "cannot write the Kingsrow " +
                                                           std::string(request.format == OutputFormat::KingsrowV1 ? "V1" : "V2") +
                                                           " format: " + std::string(tables.unavailable_reason));
        }
    }
    const int threads = request.resources.thread_count();
    create_output(request.out);
    BuildReport result;
    result.out = request.out;
    result.format = request.format;
    const std::vector<SliceId> order = request.slices.empty() ? build_order(request.pieces) : dependency_closure(request.slices);
    for (SliceId s : order) result.pieces = std::max(result.pieces, s.total());
    result.slices = order.size();
    for (SliceId s : order) result.positions += slice_size(s);
    if (request.format == OutputFormat::Native) {
        build_native(request, observer, threads, order, result);
    } else {
        build_kingsrow(request, observer, threads, order, result);
    }
    return result;
}

}  // namespace egdb::workflow
