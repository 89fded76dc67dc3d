#include "core/formats/kingsrow/directory/file_crc_check.hpp"

#include <algorithm>

#include "core/formats/kingsrow/directory/identify.hpp"

#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"

namespace egdb::kingsrow {

std::vector<FileCheck> verify_files(const std::filesystem::path& directory, DbType type, int max_pieces,
                                    const std::function<bool(const FileCheck&)>& on_file) {
    std::vector<FileCheck> checks;
    const std::span<const ReferenceCrc> reference = reference_crcs(type);
    if (reference.empty()) return checks;
    const FormatTraits& traits = traits_of(type);
    for (const DbFile& file : database_files(type, max_pieces)) {
        for (const ReferenceCrc& ref : reference) {
            if (ref.base_name != file.base_name) continue;
            const auto check = [&](const std::string& name, std::uint32_t expected) {
                FileCheck c{name, FileStatus::Missing, expected, 0};
                const std::filesystem::path path = directory / name;
                std::error_code ec;
                if (std::filesystem::is_regular_file(path, ec)) {
                    c.actual = file_crc32(path);
                    c.status = c.actual == expected ? FileStatus::Ok : FileStatus::Wrong;
                }
                checks.push_back(c);
                return !on_file || on_file(c);
            };
            if (!check(file.index_name(traits), ref.index_crc)) return checks;
            if (ref.has_data_crc && !check(file.data_name(traits), ref.data_crc)) return checks;
        }
    }
    return checks;
}

std::string_view name_of(FileStatus status) noexcept {
    switch (status) {
        case FileStatus::Ok: return "ok";
        case FileStatus::Wrong: return "wrong";
        case FileStatus::Missing: return "missing";
    }
    return "?";
}

std::string egdb_identifying_file(const std::filesystem::path& directory, DbType type, int max_pieces) {
    const std::optional<IdentificationRow> row = identification_row_for(directory, type, max_pieces);
    return row && has_egdb_trailer(directory / row->file) ? std::string(row->file) : std::string();
}

std::optional<FileCheck> check_identifying_file(const std::filesystem::path& directory, DbType type, int max_pieces) {
    const std::optional<IdentificationRow> row = identification_row_for(directory, type, max_pieces);
    if (!row) return std::nullopt;
    FileCheck c{std::string(row->file), FileStatus::Missing, row->crc, 0};
    std::error_code ec;
    if (std::filesystem::is_regular_file(directory / c.file, ec)) {
        c.actual = file_crc32(directory / c.file);
        c.status = c.actual == c.expected ? FileStatus::Ok : FileStatus::Wrong;
    }
    return c;
}

bool written_by_egdb(const std::filesystem::path& directory, DbType type, int max_pieces) {
    return !egdb_identifying_file(directory, type, max_pieces).empty();
}

bool files_pass(std::span<const FileCheck> checks, std::string_view egdb_identifying) noexcept {
    return std::all_of(checks.begin(), checks.end(), [egdb_identifying](const FileCheck& f) {
        const bool exempt = !egdb_identifying.empty() && f.file != egdb_identifying;
        return f.status == FileStatus::Ok || (exempt && f.status == FileStatus::Wrong);
    });
}

}  // namespace egdb::kingsrow
