// `verify` as one workflow for every caller (the CLI's `egdb verify`, the C ABI's egdb_verify, the
// read-back at the end of a build): a native directory gets every page checksum and every stored
// position against its successors (core/build/verify_database.hpp); a Kingsrow set every
// file's CRC-32 against the published table (kingsrow-format.md 12.5, Appendix A; a set egdb wrote
// differs by construction and only has to be complete) and then random positions of every table
// against their successors (consistency_check.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/formats/kingsrow/directory/file_crc_check.hpp"
#include "core/build/verify_database.hpp"
#include "core/probe/database.hpp"
#include "core/workflow/consistency_check.hpp"
#include "core/util/resources.hpp"

namespace egdb::workflow {

// One finished unit of a verification: a native slice, a Kingsrow file or a Kingsrow table.
struct VerifyItem {
    std::string label;  // "2110", "db4.idx1", "2110 b"
    std::uint64_t positions = 0;
    std::uint64_t mismatches = 0;
    bool checked = true;  // false: the unit could not be checked (the report says why)
    bool verified_earlier = false;  // native, with a journal: found consistent by an earlier run
    double seconds = 0;
    std::int64_t done = 0;   // units finished so far
    std::int64_t total = 0;  // units in all, 0 when not known in advance
    // native: of `seconds`, the time spent decoding the slice (its capture positions resolved);
    // for a slice verified earlier, decoding it again for the slices that read it.
    double decode_seconds = 0;
};

struct VerifyRequest {
    Resources resources = Resources::machine();  // memory: native only, see native::NativeVerifyOptions
    std::uint64_t samples = 20000;  // Kingsrow: random positions per table (0: files only)
    std::optional<std::uint64_t> assumed_process_bytes;  // native: see native::NativeVerifyOptions
    std::filesystem::path journal;          // native: see native::NativeVerifyOptions (empty: none)
    // Called after each unit; returning false cancels (the workflow then throws ErrorKind::Cancelled).
    std::function<bool(const VerifyItem&)> on_item;
};

struct KingsrowFilesReport {
    DatabaseType type = DatabaseType::WldTunV2;
    std::vector<kingsrow::FileCheck> files;
    bool written_by_egdb = false;
    std::string egdb_identifying_file;  // of a set written by egdb: its CRC-32 must still match
    std::string identifying_file;       // the file the set is identified by (empty: none), checked in every set
    bool ok = true;
};

struct VerifyResult {
    std::filesystem::path directory;
    bool native = false;
    native::VerifyReport native_report;    // native directories
    std::vector<KingsrowFilesReport> kingsrow_files;  // Kingsrow sets: one per file family checked
    // Kingsrow sets: nullopt when not run (no WLD data, or no samples asked for).
    std::optional<ConsistencyReport> consistency;
    bool consistency_needs_wld = false;  // not run because the directory holds no WLD data
    double seconds = 0;

    bool files_ok() const noexcept;
    bool ok() const noexcept;
    // Every problem in words (bad files, bad pages, mismatches with FENs), the first ones only
    // where the underlying check keeps the first ones.
    std::vector<std::string> problems() const;
};

// Verifies the database in `directory`. Throws DatabaseError (kind NoDatabase) when there is none.
VerifyResult verify_directory(const std::filesystem::path& directory, const VerifyRequest& request = {});

// The same for a database already open (the C ABI's handles); native data is verified from its
// files, as verify_directory does.
VerifyResult verify_database(const Database& db, const VerifyRequest& request = {});

// The thread count a request of 0 means.

}  // namespace egdb::workflow
