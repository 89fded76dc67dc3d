#include "core/workflow/build.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

#include "core/build/build_directory.hpp"
#include "core/formats/kingsrow/codecs/tunstall_tables.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"
#include "core/util/stopwatch.hpp"
#include "core/workflow/build_engine.hpp"
#include "core/workflow/in_process_transport.hpp"

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

std::uint64_t budgeted_parts(std::uint64_t part_positions, std::uint64_t budget, std::uint64_t threads) {
    if (budget == 0) return part_positions;
    return std::max<std::uint64_t>(1, std::min(part_positions, budget / (64 * threads)));
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The single-process build as the engine runs it (build_engine.hpp): units of whole levels (or of
// chunk_positions), slices below unit_file_min_positions solved whole in memory, slices taken in
// build order, one worker of every thread.
engine::EngineRequest engine_request(const BuildRequest& request, int threads, const std::vector<SliceId>& order) {
    engine::EngineRequest r;
    r.order = order;
    r.out = request.out;
    r.chunk_positions = request.chunk_positions;
    r.whole_slice_below = request.unit_file_min_positions;
    // A slice file is written from its units a part at a time, about 8 bytes a position per
    // thread (the part's values, its WLD bytes and its compressed pages): under a budget, the
    // parts take an eighth of it at most.
    r.part_positions = budgeted_parts(request.part_positions, request.resources.memory_bytes, static_cast<std::uint64_t>(threads));
    r.in_order = true;
    r.check_in_build = request.verify;
    r.narrow_limit = request.narrow_limit;
    r.worker = Resources{threads, request.resources.memory_bytes};
    r.assumed_process_bytes = request.assumed_process_bytes;
    r.assumed_machine_bytes = request.assumed_machine_bytes;
    r.write.kinds = request.kinds;
    r.write.format.zstd_level = request.zstd_level;
    r.write.threads = threads;
    return r;
}

std::string slice_detail(double solve_seconds, double write_seconds, std::uint64_t wld_bytes, SliceId s) {
    char detail[160];
    std::snprintf(detail, sizeof detail, "solve %.2f s, write %.2f s, %.3f WLD bits/position", solve_seconds, write_seconds,
                  8.0 * static_cast<double>(wld_bytes) / (2.0 * static_cast<double>(slice_size(s))));
    return detail;
}

// "0211 a3" for a unit of a whole level, "0211 a3 c2" for a chunk of one.
std::string unit_label(const engine::Task& task, std::uint64_t chunk_positions) {
    std::string label = task.slice.to_string() + " a" + std::to_string(task.advancement);
    if (chunk_positions > 0) label += " c" + std::to_string(task.chunk);
    return label;
}

std::string unit_detail(bool resumed, std::uint64_t file_bytes) {
    char detail[160];
    std::snprintf(detail, sizeof detail, "%s, %.1f MiB unit file", resumed ? "resumed" : "solved",
                  static_cast<double>(file_bytes) / (1024.0 * 1024.0));
    return detail;
}

void build_native(const BuildRequest& request, const BuildObserver& observer, int threads,
                  const std::vector<SliceId>& order, BuildReport& result) {
    const engine::EngineRequest plan = engine_request(request, threads, order);
    start_stage(observer, BuildStage::Solve, result.positions);
    const auto start = Clock::now();
    // Plans the largest slice still to solve before anything is solved, and refuses one that
    // needs more than the machine has (it would end in an allocation failure hours later).
    engine::Scheduler scheduler(plan, observer.on_warning);
    if (const auto& peak = scheduler.largest_unit(); peak && observer.on_note) {
        const std::uint64_t budget = request.resources.memory_bytes;
        std::string note = "largest slice to solve: " + peak->slice.to_string() + ", planned at " + mebibytes(peak->bytes);
        if (budget > 0) {
            note += peak->bytes > budget ? ", more than the memory budget of " : " within the memory budget of ";
            note += mebibytes(budget);
        }
        observer.on_note(note);
    }
    // What is on disk already. Positions done so far are read by the worker's thread too.
    std::atomic<std::uint64_t> done{0};
    for (const SliceId s : order) {
        if (!scheduler.finished(s)) continue;
        done += slice_size(s);
        report(observer, BuildItem{BuildStage::Resume, s.to_string(), slice_size(s), 0, "already built", done, result.positions});
    }
    for (const engine::Scheduler::ResumedUnit& u : scheduler.resumed_units()) {
        done += u.positions;
        report(observer, BuildItem{BuildStage::Resume, unit_label(u.task, request.chunk_positions), u.positions,
                                   0, unit_detail(true, u.file_bytes), done, result.positions});
    }
    // Items come from the coordinator's thread (tasks done) and the worker's (slices brought back
    // into memory), one at a time; a false answer stops the build after the task in flight.
    std::mutex observer_mutex;
    bool cancelled = false;
    const auto tell = [&](const BuildItem& item) {
        const std::lock_guard lock(observer_mutex);
        if (!cancelled && observer.on_item && !observer.on_item(item)) cancelled = true;
    };
    engine::WorkerObserver worker_observer;
    worker_observer.on_restored = [&](SliceId t, SideSet sides, bool from_units, SliceId reader, double seconds) {
        ++result.resumed_slices;
        const std::string from = from_units ? std::string("its unit files") : native::slice_file_path(request.out, t).filename().string();
        tell(BuildItem{BuildStage::Resume, t.to_string(), slice_size(t), seconds,
                       "resumed from " + from + sides_text(SolvedSlice::sides_to_hold(t, sides)) + " for " + reader.to_string(),
                       done, result.positions});
    };
    worker_observer.on_warning = [&](const std::string& text) {
        const std::lock_guard lock(observer_mutex);
        if (observer.on_warning) observer.on_warning(text);
    };
    // Per slice solved in units: its units' solve time and its parts' write time.
    std::map<SliceId, std::pair<double, double>> unit_seconds;
    engine::CoordinatorObserver coordinator;
    coordinator.keep_going = [&] {
        const std::lock_guard lock(observer_mutex);
        return !cancelled;
    };
    coordinator.on_done = [&](int, const engine::Task& task, const engine::TaskOutcome& outcome) {
        const SliceId s = task.slice;
        const std::uint64_t before = done.exchange(scheduler.positions_done());
        switch (task.kind) {
            case engine::TaskKind::SolveUnit:
                unit_seconds[s].first += outcome.seconds;
                result.solve_seconds += outcome.seconds;
                tell(BuildItem{BuildStage::Solve, unit_label(task, request.chunk_positions), done - before, outcome.seconds,
                               unit_detail(false, outcome.bytes), done, result.positions});
                break;
            case engine::TaskKind::EncodePart:
                unit_seconds[s].second += outcome.seconds;
                result.write_seconds += outcome.seconds;
                break;
            case engine::TaskKind::WriteSlice: {
                const auto [solve, write] = unit_seconds[s];
                result.write_seconds += outcome.seconds;
                tell(BuildItem{BuildStage::Solve, s.to_string(), slice_size(s), solve + write + outcome.seconds,
                               slice_detail(solve, write + outcome.seconds, outcome.wld_bytes, s), done, result.positions});
                unit_seconds.erase(s);
                break;
            }
            case engine::TaskKind::SolveSlice:
                result.solve_seconds += outcome.seconds - outcome.write_seconds;
                result.write_seconds += outcome.write_seconds;
                tell(BuildItem{BuildStage::Solve, s.to_string(), slice_size(s), outcome.seconds,
                               slice_detail(outcome.seconds - outcome.write_seconds, outcome.write_seconds, outcome.wld_bytes, s),
                               done, result.positions});
                break;
        }
    };
    {
        // Scoped: the solutions are on disk when this block ends and verification reads the files
        // back, so the worker's memory is freed before it starts.
        engine::UnitWorker worker(plan, worker_observer);
        const std::array<engine::UnitWorker*, 1> workers{&worker};
        engine::run_in_process(scheduler, workers, coordinator);
        result.peak_solution_bytes = worker.peak_decoded_bytes();
        result.solve_peak_memory_mib = peak_memory_mib();
    }
    result.slices_checked_in_build = scheduler.slices_checked();
    result.positions_checked_in_build = scheduler.positions_checked();
    result.positions_mirrored_in_build = scheduler.positions_mirrored();
    result.checked_in_build_seconds = scheduler.check_seconds();
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
