#include "core/workflow/verify.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/formats/native/native_layout.hpp"
#include "core/util/error.hpp"
#include "core/util/stopwatch.hpp"
#include "core/util/directory_problem.hpp"

namespace egdb::workflow {
namespace {

void report_item(const VerifyRequest& request, const VerifyItem& item) {
    if (request.on_item && !request.on_item(item)) throw RuntimeError(ErrorKind::Cancelled, "verification cancelled");
}

VerifyResult verify_native(const std::filesystem::path& directory, const VerifyRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    VerifyResult result;
    result.directory = directory;
    result.native = true;
    native::NativeVerifyOptions options;
    options.resources = {request.resources.thread_count(), request.resources.memory_bytes};
    options.assumed_process_bytes = request.assumed_process_bytes;
    options.journal = request.journal;
    options.on_slice_done = [&](const native::VerifyProgress& p) {
        report_item(request, VerifyItem{p.slice.to_string(), p.positions, p.mismatches, p.checked, p.verified_earlier, p.seconds,
                                        static_cast<std::int64_t>(p.slices_done), static_cast<std::int64_t>(p.slices_total),
                                        p.restore_seconds});
    };
    result.native_report = native::verify_native_database(directory, options);
    result.seconds = seconds_since(start);
    return result;
}

// The file families a Kingsrow handle holds whose CRCs are published: WLD and MTC (DTW files are
// checked by their consistency only, as upstream's driver does not verify them either).
VerifyResult verify_kingsrow(const Database& db, const VerifyRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    VerifyResult result;
    result.directory = db.directory();
    std::vector<kingsrow::DbType> types;
    if (db.has_wld()) types.push_back(db.type());
    if (db.has_mtc()) types.push_back(kingsrow::DbType::MtcRunlen);
    std::int64_t done = 0;
    for (const kingsrow::DbType type : types) {
        KingsrowFilesReport files;
        files.type = type;
        files.files = kingsrow::verify_files(db.directory(), type, db.max_pieces());
        files.egdb_identifying_file = kingsrow::egdb_identifying_file(db.directory(), type, db.max_pieces());
        files.written_by_egdb = !files.egdb_identifying_file.empty();
        const std::optional<kingsrow::FileCheck> identifying = kingsrow::check_identifying_file(db.directory(), type, db.max_pieces());
        if (identifying && std::none_of(files.files.begin(), files.files.end(),
                                        [&](const kingsrow::FileCheck& f) { return f.file == identifying->file; })) {
            files.files.push_back(*identifying);
        }
        if (identifying) files.identifying_file = identifying->file;
        files.ok = kingsrow::files_pass(files.files, files.egdb_identifying_file);
        for (const kingsrow::FileCheck& f : files.files) {
            // A file of an egdb set that differs from the published one by construction is no mismatch.
            const bool passes = kingsrow::files_pass(std::span(&f, 1), files.egdb_identifying_file);
            report_item(request, VerifyItem{f.file, 0, passes ? 0u : 1u, true, false, 0, ++done, 0});
        }
        result.kingsrow_files.push_back(std::move(files));
    }
    if (request.samples > 0 && !db.has_wld()) result.consistency_needs_wld = true;
    if (request.samples > 0 && db.has_wld()) {
        ConsistencyOptions options;
        options.samples_per_table = request.samples;
        options.threads = request.resources.thread_count();
        auto table_start = std::chrono::steady_clock::now();
        std::int64_t tables = 0;
        options.on_table = [&](SliceId slice, Color side, std::uint64_t checked, std::uint64_t mismatches) {
            report_item(request, VerifyItem{slice.to_string() + (side == Color::Black ? " b" : " w"), checked, mismatches,
                                            true, false, seconds_since(table_start), ++tables, 0});
            table_start = std::chrono::steady_clock::now();
        };
        result.consistency = check_consistency(db, options);
    }
    result.seconds = seconds_since(start);
    return result;
}

}  // namespace

bool VerifyResult::files_ok() const noexcept {
    for (const KingsrowFilesReport& f : kingsrow_files) {
        if (!f.ok) return false;
    }
    return true;
}

bool VerifyResult::ok() const noexcept {
    if (native) return native_report.ok();
    return files_ok() && (!consistency || consistency->ok());
}

std::vector<std::string> VerifyResult::problems() const {
    std::vector<std::string> out;
    if (native) {
        out = native_report.messages;
        if (!native_report.ok() && out.empty()) out.push_back("verification of " + directory.string() + " failed");
        return out;
    }
    for (const KingsrowFilesReport& files : kingsrow_files) {
        for (const kingsrow::FileCheck& f : files.files) {
            if (kingsrow::files_pass(std::span(&f, 1), files.egdb_identifying_file)) continue;
            out.push_back(f.file + ": " + std::string(kingsrow::name_of(f.status)) +
                          (f.file == files.egdb_identifying_file
                               ? " (egdb forces this identifying file's CRC-32 to the published value: it was changed)"
                           : f.file == files.identifying_file
                               ? " (the CRC-32 the set is identified by expected: the file was changed, or lost egdb's trailer)"
                               : " (CRC-32 of the published Kingsrow file expected)"));
        }
    }
    if (consistency) {
        out.insert(out.end(), consistency->messages.begin(), consistency->messages.end());
        if (!consistency->ok() && consistency->messages.empty()) out.push_back("one-ply consistency check failed");
    }
    return out;
}

VerifyResult verify_directory(const std::filesystem::path& directory, const VerifyRequest& request) {
    if (const std::string problem = directory_problem(directory); !problem.empty()) {
        throw DatabaseError("cannot verify " + directory.string() + ": " + problem);
    }
    if (native::has_slice_files(directory)) return verify_native(directory, request);
    const std::unique_ptr<Database> db = Database::open(directory);
    return verify_kingsrow(*db, request);
}

VerifyResult verify_database(const Database& db, const VerifyRequest& request) {
    if (db.type() == DatabaseType::Native) return verify_native(db.directory(), request);
    return verify_kingsrow(db, request);
}

}  // namespace egdb::workflow
