#include "core/formats/kingsrow/verify.hpp"

#include "core/formats/kingsrow/crc32.hpp"
#include "core/formats/kingsrow/file_set.hpp"

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

}  // namespace egdb::kingsrow
