// `egdb verify DIR`: page checksums and one-ply consistency of every stored position (native), or
// published CRCs and the one-ply consistency of random positions (Kingsrow).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "core/formats/kingsrow/identify.hpp"
#include "core/formats/kingsrow/verify.hpp"
#include "core/formats/native/verify_database.hpp"
#include "core/probe/consistency_check.hpp"
#include "core/probe/database.hpp"

namespace egdb::cli {

namespace {

bool is_native_directory(const std::filesystem::path& dir) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string n = e.path().filename().string();
        if (n.starts_with("slice-") && n.ends_with(".egdb")) return true;
    }
    return false;
}

// A Kingsrow set: every file's CRC-32 against the published table (kingsrow-format.md 12.5,
// Appendix A), one line per file; then random positions of every table against their successors
// (consistency_check.hpp). A set egdb wrote (its identifying index file carries egdb's trailer)
// has no published CRCs to match, so for it only the second check decides.
int verify_kingsrow(const std::filesystem::path& dir, int threads, std::uint64_t samples) {
    std::unique_ptr<Database> db;
    try {
        db = Database::open(dir);
    } catch (const DatabaseError& e) {
        throw UsageError(e.what());
    }
    std::vector<std::pair<kingsrow::DbType, int>> types;
    const int type = static_cast<int>(db->type());
    if (db->has_wld()) types.emplace_back(static_cast<kingsrow::DbType>(type), db->max_pieces());
    if (db->has_mtc() && db->type() != DatabaseType::MtcRunlen) types.emplace_back(kingsrow::DbType::MtcRunlen, db->max_pieces());
    if (db->type() == DatabaseType::MtcRunlen) types.emplace_back(kingsrow::DbType::MtcRunlen, db->max_pieces());
    std::uint64_t ok = 0, wrong = 0, missing = 0;
    bool files_ok = true, by_egdb = false;
    for (const auto& [t, pieces] : types) {
        const std::vector<kingsrow::FileCheck> checks = kingsrow::verify_files(dir, t, pieces);
        for (const kingsrow::FileCheck& f : checks) {
            std::printf("%-24s %s", f.file.c_str(), std::string(kingsrow::name_of(f.status)).c_str());
            if (f.status == kingsrow::FileStatus::Wrong) std::printf(" (crc %08x, published %08x)", f.actual, f.expected);
            std::printf("\n");
            (f.status == kingsrow::FileStatus::Ok ? ok : f.status == kingsrow::FileStatus::Wrong ? wrong : missing) += 1;
        }
        const bool written_by_egdb = kingsrow::written_by_egdb(dir, t, pieces);
        by_egdb = by_egdb || written_by_egdb;
        files_ok = files_ok && kingsrow::files_pass(checks, written_by_egdb);
    }
    std::printf("files %s: %s, %llu ok, %llu wrong, %llu missing%s: %s\n", dir.string().c_str(), to_string(db->type()),
                static_cast<unsigned long long>(ok), static_cast<unsigned long long>(wrong),
                static_cast<unsigned long long>(missing),
                by_egdb ? " (written by egdb: its files differ from the published ones by construction)" : "",
                files_ok ? "OK" : "FAILED");
    if (samples == 0) return files_ok ? kExitOk : kExitFailure;
    if (!db->has_wld()) {
        std::printf("consistency %s: not checked (it needs WLD data, which this directory does not hold)\n",
                    dir.string().c_str());
        return files_ok ? kExitOk : kExitFailure;
    }

    const auto start = std::chrono::steady_clock::now();
    Progress progress("consistency", 0);
    ConsistencyOptions options;
    options.samples_per_table = samples;
    options.threads = threads;
    options.on_table = [&](SliceId slice, Color side, std::uint64_t checked, std::uint64_t mismatches) {
        progress.item_done(slice.to_string() + (side == Color::Black ? " b" : " w"), checked, 0,
                           mismatches == 0 ? "ok" : std::to_string(mismatches) + " MISMATCHES");
    };
    const ConsistencyReport report = check_consistency(*db, options);
    progress.finish();
    for (const std::string& m : report.messages) std::cout << "error: " << m << '\n';
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("consistency %s: %llu tables, %llu positions checked against their successors (%s), %llu mismatches,"
                " %llu tables not checked, %.1f s: %s\n",
                dir.string().c_str(), static_cast<unsigned long long>(report.tables),
                static_cast<unsigned long long>(report.positions_checked), report.checked_dtw ? "wld,dtw" : "wld",
                static_cast<unsigned long long>(report.mismatches), static_cast<unsigned long long>(report.unchecked_tables),
                seconds, report.ok() ? "OK" : "FAILED");
    return files_ok && report.ok() ? kExitOk : kExitFailure;
}

}  // namespace

int run_verify_report(const std::filesystem::path& dir, int threads) {
    const auto start = std::chrono::steady_clock::now();
    Progress progress("verify", 0);
    native::VerifyOptions options;
    options.threads = threads;
    options.on_slice_done = [&](const native::VerifyProgress& p) {
        progress.item_done(p.slice.to_string(), p.positions, p.seconds,
                           !p.checked            ? "NOT CHECKED"
                           : p.mismatches == 0 ? "ok"
                                               : std::to_string(p.mismatches) + " MISMATCHES");
    };
    const native::VerifyReport report = native::verify_native_database(dir, options);
    progress.finish();
    for (const std::string& m : report.messages) std::cout << "error: " << m << '\n';
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string kinds = std::string("wld") + (report.checked_dtw ? ",dtw" : "") + (report.checked_mtc ? ",mtc" : "");
    const std::string unchecked =
        report.unchecked_slices == 0 ? "" : ", " + std::to_string(report.unchecked_slices) + " slices not checked";
    std::printf("verify %s: %llu files, %llu pages (%llu bad), %llu positions checked (%s), %llu mismatches%s, %.1f s;"
                " peak memory %.0f MiB, decoded values %.0f MiB at most: %s\n",
                dir.string().c_str(), static_cast<unsigned long long>(report.files),
                static_cast<unsigned long long>(report.pages), static_cast<unsigned long long>(report.bad_pages),
                static_cast<unsigned long long>(report.positions_checked), kinds.c_str(),
                static_cast<unsigned long long>(report.mismatches), unchecked.c_str(), seconds, peak_memory_mib(),
                static_cast<double>(report.peak_memory_bytes) / (1024.0 * 1024.0), report.ok() ? "OK" : "FAILED");
    return report.ok() ? kExitOk : kExitFailure;
}

int run_verify(Args args) {
    constexpr const char* kHelp =
        "usage: egdb verify DIR [--threads T] [--sample S]\n"
        "Native database: checks every page checksum, then every stored position against its\n"
        "successors (WLD, DTW and MTC one-ply consistency), printing each problem with the\n"
        "position's FEN. Kingsrow set: checks every file's CRC-32 against the published table and\n"
        "reports each file as ok, wrong or missing (a set written by egdb differs by construction),\n"
        "then S random positions (default 20000, 0: none) of every table against their successors\n"
        "(WLD, and DTW when present; positions with a capture are skipped). Exit code 0 when all is\n"
        "well, 1 otherwise.\n";
    if (wants_help(args)) {
        std::cout << kHelp;
        return kExitOk;
    }
    std::filesystem::path dir;
    unsigned hw = std::thread::hardware_concurrency();
    int threads = hw == 0 ? 1 : static_cast<int>(hw);
    std::uint64_t samples = 20000;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--threads" && i + 1 < args.size()) {
            threads = static_cast<int>(parse_integer(args[++i], "--threads", 1, 256));
        } else if (args[i] == "--sample" && i + 1 < args.size()) {
            samples = static_cast<std::uint64_t>(parse_integer(args[++i], "--sample", 0, 1LL << 40));
        } else if (dir.empty() && !args[i].starts_with("--")) {
            dir = std::string(args[i]);
        } else {
            throw UsageError("unexpected argument \"" + std::string(args[i]) + "\"\n" + kHelp);
        }
    }
    if (dir.empty()) throw UsageError(std::string("missing DIR\n") + kHelp);
    if (!std::filesystem::is_directory(dir)) throw UsageError("not a directory: " + dir.string());
    if (!is_native_directory(dir)) return verify_kingsrow(dir, threads, samples);
    return run_verify_report(dir, threads);
}

}  // namespace egdb::cli
