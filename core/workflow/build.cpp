#include "core/workflow/build.hpp"

#include <array>
#include <chrono>
#include <cstdio>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"

namespace egdb::workflow {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

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

void build_native(const BuildRequest& request, const BuildObserver& observer, int threads,
                  const std::vector<SliceId>& order, BuildReport& result) {
    // Leftovers of an interrupted write are never valid files (util/atomic_file_writer.hpp).
    for (const auto& entry : std::filesystem::directory_iterator(request.out)) {
        if (entry.path().extension() == ".tmp") std::filesystem::remove(entry.path());
    }
    native::SolvedWriteOptions write;
    write.kinds = request.kinds;
    write.format.zstd_level = request.zstd_level;
    write.threads = threads;
    std::uint64_t done = 0;
    start_stage(observer, BuildStage::Solve, result.positions);
    const auto start = Clock::now();
    {
        // Scoped: the solutions are on disk when this block ends and verification reads the files
        // back, so their memory is freed before it starts.
        SolutionStore store;
        // Resume: finished slice files are loaded instead of solved again (smaller slices first,
        // as restoring a slice reads the slices its captures lead to).
        for (SliceId s : order) {
            const auto path = request.out / native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
            std::error_code ec;
            if (!std::filesystem::exists(path, ec)) continue;
            try {
                const native::SliceFileReader file(path);
                if (!native::can_restore(file)) continue;
                const auto t0 = Clock::now();
                store.add(native::restore_solved_slice(file, store, threads));
                done += slice_size(s);
                ++result.resumed_slices;
                report(observer, BuildItem{BuildStage::Resume, s.to_string(), slice_size(s), seconds_since(t0),
                                           "resumed from " + path.filename().string(), done, result.positions});
            } catch (const std::exception& e) {
                if (kind_of(e) == ErrorKind::Cancelled) throw;
                if (observer.on_warning) observer.on_warning(std::string(e.what()) + "; solving slice " + s.to_string() + " again");
            }
        }
        BuildOptions options;
        options.threads = threads;
        options.on_slice_done = [&](const SliceProgress& p) {
            const auto t0 = Clock::now();
            const native::WrittenSlice w = native::write_solved_slice(request.out, *p.solved, write);
            const double written = seconds_since(t0);
            result.solve_seconds += p.seconds;
            result.write_seconds += written;
            done += p.positions;
            char detail[160];
            std::snprintf(detail, sizeof detail, "solve %.2f s, write %.2f s, %.3f WLD bits/position", p.seconds, written,
                          8.0 * static_cast<double>(w.wld_bytes) / (2.0 * static_cast<double>(p.positions)));
            report(observer,
                   BuildItem{BuildStage::Solve, p.slice.to_string(), p.positions, p.seconds + written, detail, done, result.positions});
        };
        solve_slices(request.pieces, store, options);
        result.solve_peak_memory_mib = peak_memory_mib();
    }
    result.seconds = seconds_since(start);
    result.peak_memory_mib = peak_memory_mib();
    if (!request.verify) return;
    start_stage(observer, BuildStage::Verify, 0);
    VerifyRequest verify;
    verify.threads = threads;
    verify.on_item = [&](const VerifyItem& item) {
        std::string detail = !item.checked ? "NOT CHECKED" : item.mismatches == 0 ? "ok" : std::to_string(item.mismatches) + " MISMATCHES";
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
    solve_slices(request.pieces, store, options);
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

bool BuildReport::ok() const noexcept {
    if (verify && !verify->ok()) return false;
    if (read_back && read_back->mismatches != 0) return false;
    return true;
}

BuildReport build_database(const BuildRequest& request, const BuildObserver& observer) {
    if (request.pieces < 2 || request.pieces > 2 * kMaxPiecesPerSide) {
        throw RuntimeError(ErrorKind::InvalidArgument, "pieces must be in 2.." + std::to_string(2 * kMaxPiecesPerSide) +
                                                           ", got " + std::to_string(request.pieces));
    }
    if (request.out.empty()) throw RuntimeError(ErrorKind::InvalidArgument, "no output directory given");
    if (!request.kinds.wld) throw RuntimeError(ErrorKind::InvalidArgument, "the kinds must include wld");
    if (request.zstd_level < 1 || request.zstd_level > 22) {
        throw RuntimeError(ErrorKind::InvalidArgument, "the zstd level must be in 1..22");
    }
    const int threads = request.threads > 0 ? request.threads : default_threads();
    create_output(request.out);
    BuildReport result;
    result.out = request.out;
    result.format = request.format;
    result.pieces = request.pieces;
    const std::vector<SliceId> order = build_order(request.pieces);
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
