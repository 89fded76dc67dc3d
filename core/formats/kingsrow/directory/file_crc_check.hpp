// File verification against the published CRC-32 values (kingsrow-format.md 12.5, Appendix A):
// each file with a published value is reported ok, wrong or missing. Unlike upstream, every type
// is handled the same way (upstream RUNLEN/MTC always report failure and DTW crashes, 16.7): a
// type without published values (MTC, DTW) yields an empty report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/kingsrow/result.hpp"

namespace egdb::kingsrow {

struct ReferenceCrc {
    std::string_view base_name;  // "db6-3030"
    std::uint32_t index_crc;
    std::uint32_t data_crc;
    bool has_data_crc;           // RUNLEN publishes index CRCs only
};

// Appendix A for a type (empty for MTC and DTW).
std::span<const ReferenceCrc> reference_crcs(DbType type) noexcept;

enum class FileStatus : std::uint8_t { Ok, Wrong, Missing };

struct FileCheck {
    std::string file;  // file name
    FileStatus status = FileStatus::Ok;
    std::uint32_t expected = 0;
    std::uint32_t actual = 0;  // 0 when missing
};

// Checks, in the driver's file order, every index and data file of `type` with at most
// `max_pieces` pieces that has a published CRC. `on_file` (optional) is called after each file
// (for progress), and returning false from it stops the verification.
std::vector<FileCheck> verify_files(const std::filesystem::path& directory, DbType type, int max_pieces,
                                    const std::function<bool(const FileCheck&)>& on_file = {});

std::string_view name_of(FileStatus status) noexcept;  // "ok", "wrong", "missing"

// Whether the files of `type` in `directory` were written by egdb: its identifying index file
// (identification_row_for) carries egdb's trailer (12.4, identify.hpp). Such files differ from
// the published ones by construction.
bool written_by_egdb(const std::filesystem::path& directory, DbType type, int max_pieces);

// The identifying index file of a set of `type` written by egdb (written_by_egdb), whose CRC-32
// egdb's trailer forces to the published identification value, so that it must still match; empty
// when the set is not egdb's.
std::string egdb_identifying_file(const std::filesystem::path& directory, DbType type, int max_pieces);

// The check of the identifying index file of a set (identification_row_for) against its
// identification CRC-32, which the upstream driver identifies the set by and egdb's trailer forces:
// it must match in an upstream set and in an egdb one alike, also for the types without published
// values (MTC), whose files verify_files does not list, and also when damage took egdb's trailer
// off. nullopt when the type has no identification row for the files in `directory`.
std::optional<FileCheck> check_identifying_file(const std::filesystem::path& directory, DbType type, int max_pieces);

// A type's checks pass when every file is ok, or, for a set written by egdb (its identifying file
// named by `egdb_identifying`, else empty), when none is missing and the identifying file is ok:
// the other files differ from the published ones by construction. The identifying file (in
// `checks` when check_identifying_file found it) is never exempt.
bool files_pass(std::span<const FileCheck> checks, std::string_view egdb_identifying) noexcept;

}  // namespace egdb::kingsrow
