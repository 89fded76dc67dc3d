// `egdb build`: solves every slice up to N pieces and writes a native database, resumably.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "core/util/peak_memory.hpp"
#include "core/workflow/build.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kBuildHelp =
    "usage: egdb build --pieces N --out DIR [--threads T] [--kinds wld,dtw,mtc] [--no-verify]\n"
    "                  [--format native|kingsrow-v2|kingsrow-v1|kingsrow-runlen] [--zstd-level L]\n"
    "                  [--sample S]\n"
    "       egdb build --slices S1,S2,... --out DIR [options]\n"
    "Solves every endgame with at most N pieces (at most 5 a side) by retrograde analysis and\n"
    "writes one native file per slice to DIR (docs/native-format.md). A slice file appears only\n"
    "when it is complete, so an interrupted build resumes where it stopped when run again.\n"
    "Only the slice being solved and the slices later ones read are kept in memory, and finished\n"
    "files are read back only when a slice still to be solved needs them.\n"
    "Unless --no-verify is given, every level is checked against its successors as it is solved,\n"
    "every page is read back as it is written, and the build ends with 'egdb verify' on what it\n"
    "built: page checksums and the manifest, and the one-ply check of the slices not checked\n"
    "while solved (resumed from an earlier run); it keeps its journal in DIR.\n"
    "  --slices S    build only these slices (<nbm><nbk><nwm><nwk>, comma-separated, e.g.\n"
    "                0501,1212) and the slices they depend on, reusing those already built\n"
    "                (native format only)\n"
    "  --memory-gb G memory the process plans to hold at most, in GiB (decimals allowed;\n"
    "                native builds of every kind): solutions, page cache, files read, and what\n"
    "                it measures of itself. Solved slices that do not fit are read back from\n"
    "                their files when later slices need them; the files are the same. Default:\n"
    "                two thirds of this machine's memory (printed at the start). Before\n"
    "                solving, the largest slice to solve is printed with the memory planned\n"
    "                for it; a slice that needs more than the machine has is refused\n"
    "  --units-from N  native: slices of at least N positions are solved one advancement level\n"
    "                at a time, each level kept as a checksummed unit file in DIR/units until\n"
    "                the slice file is written, so an interrupted build (even kill -9) resumes at\n"
    "                the first unfinished level; the files are the same (default 8388608:\n"
    "                the larger 5-piece slices and every 6-piece one; 0: every slice)\n"
    "  --chunk-positions P  native: cut each level of a slice solved in units into units of about\n"
    "                P positions, each reading only the blocks of the level above that its men\n"
    "                reach, so that memory follows P rather than the size of a level (default 0:\n"
    "                a level is one unit); the files are the same\n"
    "  --threads T   worker threads (default: all cores)\n"
    "  --zstd-level L  native: zstd level of the WLD pages (default 12); DTW and MTC pages use\n"
    "                at most 6 (docs/native-format.md)\n"
    "  --kinds K     value kinds to store, comma-separated (default wld,dtw,mtc)\n"
    "  --format F    native (default), or Kingsrow files that the Kingsrow driver opens: WLD in\n"
    "                Tunstall V2 (.idx1/.cpr1), V1 or run-length (.idx/.cpr), with MTC\n"
    "                (.idx_mtc/.cpr_mtc) and DTW (.idx_dtw/.cpr_dtw) alongside. Kingsrow output is\n"
    "                written when every slice is solved (no resume), one slice and side to move at\n"
    "                a time; it is then read back through the Kingsrow readers and compared with\n"
    "                the solution: every stored position, then S random positions of every slice\n"
    "                in both orientations (colour-reversed lookups included), both sides to move.\n"
    "  --sample S    positions sampled per slice in that check (default 100000; 0: none)\n";

// Prints the lines of a finished build (and of its check) that scripts and users read.
int print_report(const workflow::BuildReport& r) {
    if (r.format == workflow::OutputFormat::Native) {
        std::printf("built %zu slices (%llu positions, both sides to move) in %.1f s (solve %.1f s, write %.1f s) into %s;"
                    " peak memory %.0f MiB, solutions %.0f MiB at most\n",
                    r.slices, static_cast<unsigned long long>(r.positions), r.seconds, r.solve_seconds, r.write_seconds,
                    r.out.string().c_str(), r.peak_memory_mib, static_cast<double>(r.peak_solution_bytes) / (1024.0 * 1024.0));
        std::fflush(stdout);
        if (!r.verify) return kExitOk;
        std::printf("checked in the build: %zu slices, %llu positions (both sides to move) against their successors as"
                    " they were solved, %llu filled by colour reversal from checked ones, %.1f s of the solve\n",
                    r.slices_checked_in_build, static_cast<unsigned long long>(r.positions_checked_in_build),
                    static_cast<unsigned long long>(r.positions_mirrored_in_build), r.checked_in_build_seconds);
        print_verify_result(*r.verify);
        return r.verify->ok() ? kExitOk : kExitFailure;
    }
    // Per position of the canonical slices, both sides to move (symmetric slices store one side).
    const double positions = 2.0 * static_cast<double>(r.positions);
    const auto size = [&](std::uint64_t bytes) {
        char text[80];
        std::snprintf(text, sizeof text, "%llu bytes (%.4f bits/position)", static_cast<unsigned long long>(bytes),
                      8.0 * static_cast<double>(bytes) / positions);
        return std::string(text);
    };
    const kingsrow::KingsrowExportReport& k = r.kingsrow_sizes;
    std::printf("wrote %s for %d pieces into %s in %.1f s (solve %.1f s, write %.1f s): WLD %s, MTC %s, DTW %s; "
                "peak memory %.0f MiB (%.0f MiB after solving)\n",
                std::string(workflow::to_string(r.format)).c_str(), r.pieces, r.out.string().c_str(),
                r.seconds, r.solve_seconds, r.write_seconds, size(k.wld.index_bytes + k.wld.data_bytes).c_str(),
                size(k.mtc.index_bytes + k.mtc.data_bytes).c_str(), size(k.dtw.index_bytes + k.dtw.data_bytes).c_str(),
                r.peak_memory_mib, r.solve_peak_memory_mib);
    std::fflush(stdout);
    if (!r.read_back) return kExitOk;
    const workflow::ExportCheckReport& check = *r.read_back;
    for (const std::string& p : check.problems) std::cout << "error: " << p << '\n';
    std::printf("read back through egdb_open's path in %.1f s: %llu stored positions, %llu sampled positions of "
                "%llu slices (both orientations, both sides to move): %llu mismatches: %s\n",
                r.check_seconds, static_cast<unsigned long long>(check.stored_positions),
                static_cast<unsigned long long>(check.sampled_positions),
                static_cast<unsigned long long>(check.sampled_slices), static_cast<unsigned long long>(check.mismatches),
                check.mismatches == 0 ? "OK" : "FAILED");
    return check.mismatches == 0 ? kExitOk : kExitFailure;
}

int run_build(workflow::BuildRequest request) {
    if (request.pieces == 0 && request.slices.empty()) throw UsageError("--pieces or --slices is required");
    const bool can_budget = request.format == workflow::OutputFormat::Native && request.kinds.dtw && request.kinds.mtc;
    if (request.resources.memory_bytes == 0 && can_budget) {
        // Two thirds of the machine: room for the page cache of the files and for other programs.
        const std::uint64_t physical = physical_memory_bytes();
        request.resources.memory_bytes = physical / 3 * 2;
        if (request.resources.memory_bytes > 0) {
            std::fprintf(stderr, "egdb build: memory budget %.1f GiB, two thirds of this machine's %.1f GiB (--memory-gb sets it)\n",
                         static_cast<double>(request.resources.memory_bytes) / 1073741824.0,
                         static_cast<double>(physical) / 1073741824.0);
        }
    }
    std::unique_ptr<Progress> progress;
    workflow::BuildObserver observer;
    observer.on_stage = [&](workflow::BuildStage stage, std::uint64_t total) {
        if (progress) progress->finish();
        const char* name = stage == workflow::BuildStage::Verify ? "verify"
                           : stage == workflow::BuildStage::Write ? "write"
                           : request.format == workflow::OutputFormat::Native ? "build" : "solve";
        progress = std::make_unique<Progress>(name, total);
    };
    observer.on_item = [&](const workflow::BuildItem& item) {
        if (progress) {
            progress->item_done(item.label, item.positions, item.seconds, item.detail, item.stage_done,
                                item.stage == workflow::BuildStage::Resume);
        }
        return true;
    };
    observer.on_warning = [](const std::string& m) { std::cerr << "egdb build: " << m << '\n'; };
    observer.on_note = [](const std::string& m) { std::cerr << "egdb build: " << m << '\n'; };
    const workflow::BuildReport report = workflow::build_database(request, observer);
    if (progress) progress->finish();
    return print_report(report);
}

}  // namespace

void add_build(CLI::App& app) {
    const auto request = std::make_shared<workflow::BuildRequest>();
    CLI::App& command = add_command(app, "build", kBuildHelp, [request] { return run_build(*request); });
    workflow::BuildRequest& r = *request;
    add_integer(command, "--pieces", r.pieces, 2, 2 * kMaxPiecesPerSide);
    command.add_option_function<std::string>("--slices", [&r](const std::string& list) { r.slices = workflow::parse_slice_list(list); })
        ->type_name("S");
    command.add_option_function<std::string>("--out", [&r](const std::string& dir) { r.out = dir; })->type_name("DIR")->required();
    add_integer(command, "--threads", r.resources.threads, 1, 256);
    add_gibibytes(command, "--memory-gb", r.resources.memory_bytes);
    add_integer(command, "--units-from", r.unit_file_min_positions, 0, std::int64_t{1} << 62);
    add_integer(command, "--chunk-positions", r.chunk_positions, 0, std::int64_t{1} << 62);
    command.add_option_function<std::string>("--kinds", [&r](const std::string& k) { r.kinds = workflow::parse_value_kinds(k); })
        ->type_name("K");
    add_integer(command, "--zstd-level", r.zstd_level, 1, 22);
    command.add_flag_callback("--no-verify", [&r] { r.verify = false; });
    add_integer(command, "--sample", r.read_back_samples, 0, 1'000'000'000);
    command.add_option_function<std::string>("--format", [&r](const std::string& f) { r.format = workflow::parse_output_format(f); })
        ->type_name("F");
}

}  // namespace egdb::cli
