// `egdb build`: solves every slice up to N pieces and writes a native database, resumably.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "core/formats/kingsrow/export_check.hpp"
#include "core/formats/kingsrow/solved_export.hpp"
#include "core/formats/native/solved_slice_io.hpp"
#include "core/formats/native/verify_database.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kBuildHelp =
    "usage: egdb build --pieces N --out DIR [--threads T] [--kinds wld,dtw,mtc] [--no-verify]\n"
    "                  [--format native|kingsrow-v2|kingsrow-v1|kingsrow-runlen] [--zstd-level L]\n"
    "                  [--sample S]\n"
    "Solves every endgame with at most N pieces (at most 5 a side) by retrograde analysis and\n"
    "writes one native file per slice to DIR (docs/native-format.md). A slice file appears only\n"
    "when it is complete, so an interrupted build resumes where it stopped when run again.\n"
    "The build ends with 'egdb verify' on what it built unless --no-verify is given.\n"
    "  --threads T   worker threads (default: all cores)\n"
    "  --kinds K     value kinds to store, comma-separated (default wld,dtw,mtc)\n"
    "  --format F    native (default), or Kingsrow files that the Kingsrow driver opens: WLD in\n"
    "                Tunstall V2 (.idx1/.cpr1), V1 or run-length (.idx/.cpr), with MTC\n"
    "                (.idx_mtc/.cpr_mtc) and DTW (.idx_dtw/.cpr_dtw) alongside. Kingsrow output is\n"
    "                written when every slice is solved (no resume), one slice and side to move at\n"
    "                a time; it is then read back through the Kingsrow readers and compared with\n"
    "                the solution: every stored position, then S random positions of every slice\n"
    "                in both orientations (colour-reversed lookups included), both sides to move.\n"
    "  --sample S    positions sampled per slice in that check (default 100000; 0: none)\n";

native::ValueKinds parse_kinds(std::string_view text) {
    native::ValueKinds k{false, false, false};
    std::stringstream ss{std::string(text)};
    for (std::string item; std::getline(ss, item, ',');) {
        if (item == "wld") k.wld = true;
        else if (item == "dtw") k.dtw = true;
        else if (item == "mtc") k.mtc = true;
        else throw UsageError("unknown value kind \"" + item + "\" in --kinds (expected wld, dtw, mtc)");
    }
    if (!k.wld) throw UsageError("--kinds must include wld (DTW and MTC are read together with WLD)");
    return k;
}

int default_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace

int run_verify_report(const std::filesystem::path& dir, int threads);

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Solves everything in memory, then writes the Kingsrow files a table at a time and reads them
// back: every stored position, then a sample of every slice in both orientations.
int run_kingsrow_build(int pieces, const std::filesystem::path& out, int threads, native::ValueKinds kinds,
                       const std::string& format, bool verify, std::uint64_t samples_per_slice) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) throw std::runtime_error("cannot create output directory " + out.string() + ": " + ec.message());
    const std::vector<SliceId> order = build_order(pieces);
    std::uint64_t total_positions = 0, stored_tables_positions = 0;
    for (SliceId s : order) {
        total_positions += slice_size(s);
        stored_tables_positions += (is_color_symmetric(s) ? 1 : 2) * slice_size(s);
    }
    SolutionStore store;
    Progress solving("solve", total_positions);
    BuildOptions options;
    options.threads = threads;
    options.on_slice_done = [&](const SliceProgress& p) { solving.item_done(p.slice.to_string(), p.positions, p.seconds); };
    const auto start = std::chrono::steady_clock::now();
    solve_slices(pieces, store, options);
    solving.finish();
    const double solve_seconds = seconds_since(start);
    const double solve_peak = peak_memory_mib();

    kingsrow::KingsrowExportOptions k;
    k.wld_type = format == "kingsrow-v2"   ? kingsrow::DbType::WldTunV2
                 : format == "kingsrow-v1" ? kingsrow::DbType::WldTunV1
                                           : kingsrow::DbType::WldRunlen;
    k.wld = kinds.wld;
    k.mtc = kinds.mtc;
    k.dtw = kinds.dtw;
    k.threads = threads;
    Progress writing("write", stored_tables_positions);
    auto table_start = std::chrono::steady_clock::now();
    k.on_table_written = [&](SliceId s, Color side) {
        writing.item_done(s.to_string() + (side == Color::Black ? " b" : " w"), slice_size(s), seconds_since(table_start));
        table_start = std::chrono::steady_clock::now();
    };
    const auto write_start = std::chrono::steady_clock::now();
    const auto report = kingsrow::write_kingsrow_databases(out, store, order, k);
    writing.finish();
    const double write_seconds = seconds_since(write_start);
    // Per position of the canonical slices, both sides to move (symmetric slices store one side).
    const double positions = 2.0 * static_cast<double>(total_positions);
    const auto size = [&](std::uint64_t bytes) {
        char text[80];
        std::snprintf(text, sizeof text, "%llu bytes (%.4f bits/position)", static_cast<unsigned long long>(bytes),
                      8.0 * static_cast<double>(bytes) / positions);
        return std::string(text);
    };
    std::printf("wrote %s for %d pieces into %s in %.1f s (solve %.1f s, write %.1f s): WLD %s, MTC %s, DTW %s; "
                "peak memory %.0f MiB (%.0f MiB after solving)\n",
                format.c_str(), pieces, out.string().c_str(), solve_seconds + write_seconds, solve_seconds, write_seconds,
                size(report.wld.index_bytes + report.wld.data_bytes).c_str(),
                size(report.mtc.index_bytes + report.mtc.data_bytes).c_str(),
                size(report.dtw.index_bytes + report.dtw.data_bytes).c_str(), peak_memory_mib(), solve_peak);
    std::fflush(stdout);
    if (!verify) return kExitOk;
    kingsrow::ExportCheckOptions check;
    check.samples_per_slice = samples_per_slice;
    check.threads = threads;
    const auto check_start = std::chrono::steady_clock::now();
    const kingsrow::ExportCheckReport result = kingsrow::check_kingsrow_export(out, store, order, k, check);
    for (const std::string& p : result.problems) std::cout << "error: " << p << '\n';
    std::printf("read back through the Kingsrow readers in %.1f s: %llu stored positions, %llu sampled positions of "
                "%llu slices (both orientations, both sides to move): %llu mismatches: %s\n",
                seconds_since(check_start), static_cast<unsigned long long>(result.stored_positions),
                static_cast<unsigned long long>(result.sampled_positions),
                static_cast<unsigned long long>(result.sampled_slices), static_cast<unsigned long long>(result.mismatches),
                result.mismatches == 0 ? "OK" : "FAILED");
    return result.mismatches == 0 ? kExitOk : kExitFailure;
}

}  // namespace

int run_build(Args args) {
    if (wants_help(args)) {
        std::cout << kBuildHelp;
        return kExitOk;
    }
    int pieces = 0;
    std::filesystem::path out;
    int threads = default_threads();
    native::SolvedWriteOptions write_options;
    bool verify = true;
    std::uint64_t samples_per_slice = 100'000;
    std::string format = "native";
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        auto value = [&]() -> std::string_view {
            if (i + 1 >= args.size()) throw UsageError(std::string(a) + " needs a value\n" + kBuildHelp);
            return args[++i];
        };
        if (a == "--pieces") pieces = static_cast<int>(parse_integer(value(), "--pieces", 2, 2 * kMaxPiecesPerSide));
        else if (a == "--out") out = std::string(value());
        else if (a == "--threads") threads = static_cast<int>(parse_integer(value(), "--threads", 1, 256));
        else if (a == "--kinds") write_options.kinds = parse_kinds(value());
        else if (a == "--zstd-level") write_options.format.zstd_level = static_cast<int>(parse_integer(value(), "--zstd-level", 1, 22));
        else if (a == "--no-verify") verify = false;
        else if (a == "--sample") samples_per_slice = static_cast<std::uint64_t>(parse_integer(value(), "--sample", 0, 1'000'000'000));
        else if (a == "--format") {
            format = std::string(value());
            if (format != "native" && format != "kingsrow-v2" && format != "kingsrow-v1" && format != "kingsrow-runlen") {
                throw UsageError("unknown --format \"" + format + "\" (native, kingsrow-v2, kingsrow-v1, kingsrow-runlen)");
            }
        }
        else throw UsageError("unexpected argument \"" + std::string(a) + "\"\n" + kBuildHelp);
    }
    if (pieces == 0 || out.empty()) throw UsageError(std::string("--pieces and --out are required\n") + kBuildHelp);
    write_options.threads = threads;
    if (format != "native") return run_kingsrow_build(pieces, out, threads, write_options.kinds, format, verify, samples_per_slice);

    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) throw std::runtime_error("cannot create output directory " + out.string() + ": " + ec.message());
    // Leftovers of an interrupted write are never valid files; remove them.
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
        if (entry.path().extension() == ".tmp") std::filesystem::remove(entry.path());
    }

    const std::vector<SliceId> order = build_order(pieces);
    std::uint64_t total_positions = 0;
    for (SliceId s : order) total_positions += slice_size(s);
    Progress progress("build", total_positions);
    const auto start = std::chrono::steady_clock::now();
    double solve_seconds = 0, write_seconds = 0;
    {
        // Scoped: the solutions are on disk when this block ends, and verification reads the
        // files back, so the memory of the solutions is freed before it starts.
        SolutionStore store;
        // Resume: finished slice files are loaded instead of solved again (smaller slices first, as
        // restoring a slice reads the slices its captures lead to).
        for (SliceId s : order) {
            const auto path = out / native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
            if (!std::filesystem::exists(path)) continue;
            try {
                const native::SliceFileReader file(path);
                if (!native::can_restore(file)) continue;
                const auto t0 = std::chrono::steady_clock::now();
                store.add(native::restore_solved_slice(file, store, threads));
                progress.item_done(s.to_string(), slice_size(s),
                                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                                   "resumed from " + path.filename().string());
            } catch (const std::exception& e) {
                std::cerr << "egdb build: " << e.what() << "; solving slice " << s.to_string() << " again\n";
            }
        }

        BuildOptions options;
        options.threads = threads;
        options.on_slice_done = [&](const SliceProgress& p) {
            const auto t0 = std::chrono::steady_clock::now();
            const native::WrittenSlice w = native::write_solved_slice(out, *p.solved, write_options);
            const double written = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            solve_seconds += p.seconds;
            write_seconds += written;
            char extra[160];
            std::snprintf(extra, sizeof extra, "solve %.2f s, write %.2f s, %.3f WLD bits/position", p.seconds, written,
                          8.0 * static_cast<double>(w.wld_bytes) / (2.0 * static_cast<double>(p.positions)));
            progress.item_done(p.slice.to_string(), p.positions, p.seconds + written, extra);
        };
        solve_slices(pieces, store, options);
    }
    progress.finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("built %zu slices (%llu positions, both sides to move) in %.1f s (solve %.1f s, write %.1f s) into %s;"
                " peak memory %.0f MiB\n",
                order.size(), static_cast<unsigned long long>(total_positions), seconds, solve_seconds, write_seconds,
                out.string().c_str(), peak_memory_mib());
    std::fflush(stdout);
    if (!verify) return kExitOk;
    return run_verify_report(out, threads);
}

}  // namespace egdb::cli
