// `egdb verify DIR`: page checksums and one-ply consistency of every stored position (native), or
// published CRCs and the one-ply consistency of random positions (Kingsrow).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "core/formats/native/manifest.hpp"
#include "core/util/peak_memory.hpp"
#include "core/workflow/kingsrow_oracles.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/workflow/verify.hpp"

namespace egdb::cli {

void print_verify_result(const workflow::VerifyResult& r) {
    const std::string dir = r.directory.string();
    if (r.native) {
        const native::VerifyReport& report = r.native_report;
        for (const std::string& m : report.messages) std::cout << "error: " << m << '\n';
        std::cout.flush();
        const std::string kinds = native::journal_kinds(report.checked_dtw, report.checked_mtc);
        const std::string unchecked =
            report.unchecked_slices == 0 ? "" : ", " + std::to_string(report.unchecked_slices) + " slices not checked";
        char earlier[128] = "";
        if (report.slices_verified_earlier > 0) {
            std::snprintf(earlier, sizeof earlier, " (and %llu in %llu slices verified earlier, journal)",
                          static_cast<unsigned long long>(report.positions_verified_earlier),
                          static_cast<unsigned long long>(report.slices_verified_earlier));
        }
        std::printf("verify %s: %llu files, %llu pages (%llu bad), %llu positions checked%s (%s), %llu mismatches%s, %.1f s"
                    " (decoding %.1f s, checking %.1f s); peak memory %.0f MiB, decoded values %.0f MiB at most: %s\n",
                    dir.c_str(), static_cast<unsigned long long>(report.files),
                    static_cast<unsigned long long>(report.pages), static_cast<unsigned long long>(report.bad_pages),
                    static_cast<unsigned long long>(report.positions_checked), earlier, kinds.c_str(),
                    static_cast<unsigned long long>(report.mismatches), unchecked.c_str(), r.seconds,
                    report.restore_seconds, report.check_seconds, peak_memory_mib(),
                    static_cast<double>(report.peak_memory_bytes) / (1024.0 * 1024.0), report.ok() ? "OK" : "FAILED");
        if (!report.manifest_found) {
            std::printf("note: %s has no %s (databases built before manifests): a deleted slice file that no other slice"
                        " reads cannot be noticed; egdb build on the directory writes one\n",
                        dir.c_str(), std::string(native::kManifestFileName).c_str());
        }
        std::fflush(stdout);
        return;
    }
    // A Kingsrow set: one line per file, then the files' verdict, then the consistency check. The
    // files of a set egdb wrote are egdb's own encoding: only their identifying file must carry
    // the published CRC-32 (the driver recognises the set by it), the rest are judged by the
    // consistency check, so the lines say so instead of calling them wrong.
    for (const workflow::KingsrowFilesReport& files : r.kingsrow_files) {
        std::uint64_t ok = 0, differ = 0, missing = 0;
        for (const kingsrow::FileCheck& f : files.files) {
            const bool identifying = !files.identifying_file.empty() && f.file == files.identifying_file;
            std::printf("%-24s ", f.file.c_str());
            if (f.status == kingsrow::FileStatus::Missing) {
                std::printf("missing");
            } else if (f.status == kingsrow::FileStatus::Ok) {
                std::printf("ok (published CRC-32 %08x)%s", f.expected, identifying ? ", identifies the set" : "");
            } else if (files.written_by_egdb && !identifying) {
                std::printf("egdb's encoding (crc %08x; Kingsrow's file is %08x)", f.actual, f.expected);
            } else {
                std::printf("WRONG (crc %08x, published %08x)%s", f.actual, f.expected, identifying ? ", identifies the set" : "");
            }
            std::printf("\n");
            (f.status == kingsrow::FileStatus::Ok ? ok : f.status == kingsrow::FileStatus::Wrong ? differ : missing) += 1;
        }
        const auto count = [](std::uint64_t n) { return static_cast<unsigned long long>(n); };
        if (files.written_by_egdb) {
            std::printf("files %s: %s written by egdb: %llu of %llu present; the identifying file %s %s; %llu equal to"
                        " Kingsrow's, %llu egdb's own encoding (checked below, position by position): %s\n",
                        dir.c_str(), to_string(files.type), count(ok + differ), count(ok + differ + missing),
                        files.identifying_file.empty() ? "(none)" : files.identifying_file.c_str(),
                        files.ok ? "has the published CRC-32" : "does NOT have the published CRC-32", count(ok),
                        count(differ), files.ok ? "OK" : "FAILED");
        } else {
            std::printf("files %s: %s, %llu match the published CRC-32, %llu wrong, %llu missing: %s\n", dir.c_str(),
                        to_string(files.type), count(ok), count(differ), count(missing), files.ok ? "OK" : "FAILED");
        }
    }
    if (r.consistency_needs_wld) {
        std::printf("consistency %s: not checked (it needs WLD data, which this directory does not hold)\n", dir.c_str());
    }
    if (r.consistency) {
        const ConsistencyReport& report = *r.consistency;
        for (const std::string& m : report.messages) std::cout << "error: " << m << '\n';
        std::cout.flush();
        std::printf("consistency %s: %llu tables, %llu positions checked against their successors (%s), %llu mismatches,"
                    " %llu tables not checked, %.1f s: %s\n",
                    dir.c_str(), static_cast<unsigned long long>(report.tables),
                    static_cast<unsigned long long>(report.positions_checked), report.checked_dtw ? "wld,dtw" : "wld",
                    static_cast<unsigned long long>(report.mismatches),
                    static_cast<unsigned long long>(report.unchecked_tables), r.seconds, report.ok() ? "OK" : "FAILED");
    }
    std::fflush(stdout);
}

namespace {

constexpr const char* kVerifyHelp =
    "usage: egdb verify DIR [--threads T] [--sample S] [--memory-gb G] [--journal FILE]\n"
    "Native database: checks the files listed in egdb-manifest.txt (present, same size and\n"
    "CRC-32C), every page checksum, then every stored position against its\n"
    "successors (WLD, DTW and MTC one-ply consistency), printing each problem with the\n"
    "position's FEN. Kingsrow set: checks every file's CRC-32 against the published table and\n"
    "reports each file as ok, wrong or missing (a set written by egdb: its identifying file must\n"
    "match, the others are egdb's own encoding and are judged by the consistency check),\n"
    "then S random positions (default 20000, 0: none) of every table against their successors\n"
    "(WLD, and DTW when present; positions with a capture are skipped). Exit code 0 when all is\n"
    "well, 1 otherwise.\n"
    "  --memory-gb G  native: memory the process plans to hold at most, in GiB (decoded values,\n"
    "                 page cache, files read, and what it measures of itself); slices that do\n"
    "                 not fit are read from their files when later slices reach them\n"
    "  --journal FILE native: record each slice found consistent in FILE (created when missing),\n"
    "                 and skip the slices it lists whose file, and the files of the slices they\n"
    "                 reach, are unchanged: a run stopped at any moment goes on where it stopped\n"
    "  --kingsrow-values DIR  native: instead, compare with values Kingsrow published, in DIR's\n"
    "                 kingsrow_example_wld.txt (positions and their WLD) and kingsrow_high_mtc.txt\n"
    "                 (the highest MTC of each Kingsrow subslice and side to move): every listed\n"
    "                 value of a slice held must match, and every pair not listed stay below 10\n";

int run_oracle_check(const workflow::KingsrowOracleRequest& request) {
    const workflow::KingsrowOracleReport r = workflow::check_kingsrow_oracles(request);
    for (const std::string& m : r.messages) std::printf("mismatch: %s\n", m.c_str());
    std::printf("kingsrow values %s (slices of up to %d pieces): %llu WLD positions, %llu mismatches; %llu MTC maxima"
                " listed, %llu mismatches; %llu pairs not listed, %llu of them at 10 or more; highest MTC %llu;"
                " %.1f s: %s\n",
                request.database.string().c_str(), r.max_pieces, static_cast<unsigned long long>(r.wld_positions),
                static_cast<unsigned long long>(r.wld_mismatches), static_cast<unsigned long long>(r.mtc_maxima_checked),
                static_cast<unsigned long long>(r.mtc_mismatches), static_cast<unsigned long long>(r.unlisted_pairs),
                static_cast<unsigned long long>(r.unlisted_above_threshold), static_cast<unsigned long long>(r.highest_mtc),
                r.seconds, r.ok() ? "OK" : "FAILED");
    return r.ok() ? kExitOk : kExitFailure;
}

int run_verify(const std::string& dir, workflow::VerifyRequest request) {
    Progress progress("verify", 0);
    request.on_item = [&](const workflow::VerifyItem& item) {
        // Where a slice's time goes: decoding it (capture positions resolved) and checking it.
        char decoding[64] = "";
        if (item.decode_seconds > 0) {
            std::snprintf(decoding, sizeof decoding, item.verified_earlier ? ", decoded again in %.1f s" : ", decoding %.1f s",
                          item.decode_seconds);
        }
        progress.item_done(item.label, item.positions, item.seconds,
                           (!item.checked           ? std::string("NOT CHECKED")
                            : item.verified_earlier ? std::string("ok (verified earlier, journal)")
                            : item.mismatches == 0  ? std::string("ok")
                                                    : std::to_string(item.mismatches) + " MISMATCHES") +
                               decoding,
                           0, item.verified_earlier);
        return true;
    };
    const workflow::VerifyResult result = workflow::verify_directory(dir, request);
    progress.finish();
    print_verify_result(result);
    return result.ok() ? kExitOk : kExitFailure;
}

struct VerifyOptions {
    std::string dir;
    workflow::VerifyRequest request;
    std::string kingsrow_values;
};

}  // namespace

void add_verify(CLI::App& app) {
    const auto o = std::make_shared<VerifyOptions>();
    CLI::App& command = add_command(app, "verify", kVerifyHelp, [o] {
        if (!o->kingsrow_values.empty()) {
            return run_oracle_check({o->dir, o->kingsrow_values, o->request.resources});
        }
        return run_verify(o->dir, o->request);
    });
    command.add_option("DIR", o->dir)->required();
    add_integer(command, "--threads", o->request.resources.threads, 1, 256);
    add_integer(command, "--sample", o->request.samples, 0, std::int64_t{1} << 40);
    add_gibibytes(command, "--memory-gb", o->request.resources.memory_bytes);
    command.add_option("--journal", o->request.journal)->type_name("FILE");
    command.add_option("--kingsrow-values", o->kingsrow_values)->type_name("DIR");
}

}  // namespace egdb::cli
