#include "core/formats/kingsrow/directory/identify.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"

namespace egdb::kingsrow {
namespace {

using enum DatabaseType;  // the enum itself: Clang before 17 refuses `using enum` of an alias (DbType)

constexpr std::array<IdentificationRow, 36> kRows{{
    {WldTunV2, "db9-5040.idx1", 9, 0xef847fc5},    {WldRunlen, "db9-5040.idx", 9, 0xa6c3208e},
    {WldRunlen, "db9-5040.idx", 9, 0xa473f0eb},    {WldTunV2, "db8-4040.idx1", 8, 0x40993827},
    {WldTunV1, "db8-4040.idx", 8, 0x97ed951e},     {WldTunV1, "db8-4040.idx", 8, 0xad6ccff2},
    {WldRunlen, "db8-4040.idx", 8, 0x9a9df5bc},    {MtcRunlen, "db8-0503.idx_mtc", 8, 0x7493956f},
    {WldTunV2, "db7-4030.idx1", 7, 0x713fa989},    {WldTunV1, "db7-4030.idx", 7, 0xa1067e2b},
    {WldRunlen, "db7-4030.idx", 7, 0x68913d08},    {Dtw, "db7-4030.idx_dtw", 7, 0x8b0c3395},
    {MtcRunlen, "db7-0412.idx_mtc", 7, 0xb4c92c3e}, {WldTunV2, "db6-3030.idx1", 6, 0xc07467f2},
    {WldTunV1, "db6-3030.idx", 6, 0xf3693c6c},     {Dtw, "db6-3030.idx_dtw", 6, 0xbd75b462},
    {WldRunlen, "db6-3030.idx", 6, 0xd661d188},    {MtcRunlen, "db6-0312.idx_mtc", 6, 0xd764c8ec},
    {WldRunlen, "db6-3030.idx", 6, 0x947dff31},    {WldTunV2, "db5.idx1", 5, 0xc5912d8f},
    {Dtw, "db5.idx_dtw", 5, 0x2889c922},           {WldTunV1, "db5-3020.idx", 5, 0xc008c727},
    {WldRunlen, "db5-3020.idx", 5, 0xeee459ed},    {MtcRunlen, "db5-0311.idx_mtc", 5, 0x582faed7},
    {WldTunV2, "db4.idx1", 4, 0xc3a84295},         {Dtw, "db4.idx_dtw", 4, 0xf4e8d878},
    {WldTunV1, "db4.idx", 4, 0x66389130},          {WldRunlen, "db4.idx", 4, 0xc5f47d67},
    {MtcRunlen, "db4.idx_mtc", 4, 0x2d675cd2},     {WldTunV2, "db3.idx1", 3, 0x8e96b77d},
    {WldTunV1, "db3.idx", 3, 0x85aade3a},          {WldRunlen, "db3.idx", 3, 0x82f1a44e},
    {MtcRunlen, "db3.idx_mtc", 3, 0x2aebac80},     {WldTunV2, "db2.idx1", 2, 0x07a9f0f3},
    {WldTunV1, "db2.idx", 2, 0x1b731f71},          {WldRunlen, "db2.idx", 2, 0xa833eebf},
}};

// ".idx" files: V1 when the first data record has a "#vmap" comment (rule 2).
DbType idx_type(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    bool in_data_record = false;
    while (std::getline(in, line)) {
        const std::size_t colon = line.find(':');
        if (line.rfind("BASE", 0) == 0 && colon != std::string::npos) {
            if (in_data_record) break;
            const char first = colon + 1 < line.size() ? line[colon + 1] : '\0';
            in_data_record = first >= '0' && first <= '9';
            continue;
        }
        if (in_data_record && line.find('#') != std::string::npos && line.find("vmap") != std::string::npos) {
            return WldTunV1;
        }
    }
    return WldRunlen;
}

constexpr bool in_family(DbType type, FileFamily family) noexcept {
    switch (family) {
        case FileFamily::Idx1: return type == WldTunV2;
        case FileFamily::Idx: return type == WldTunV1 || type == WldRunlen;
        case FileFamily::IdxMtc: return type == MtcRunlen;
        case FileFamily::IdxDtw: return type == Dtw;
    }
    return false;
}

// Rule 1 over the rows `accept` takes.
template <class Accept>
std::optional<Identification> upstream_rows(const std::filesystem::path& directory, Accept accept) {
    for (int pieces = 9; pieces >= 2; --pieces) {
        for (const IdentificationRow& row : kRows) {
            if (row.pieces != pieces || !accept(row.type)) continue;
            const std::filesystem::path path = directory / row.file;
            std::error_code ec;
            if (!std::filesystem::is_regular_file(path, ec)) continue;
            if (file_crc32(path) == row.crc) return Identification{row.type, row.pieces, IdentifiedBy::UpstreamCrcTable, std::string(row.file)};
        }
    }
    return std::nullopt;
}

// Rule 2 for one family (its representative type: WldRunlen stands for the ".idx" files) at
// `pieces`.
std::optional<Identification> fallback_rule(const std::filesystem::path& directory, DbType type, int pieces) {
    const FormatTraits& t = traits_of(type);
    if (pieces > t.max_pieces) return std::nullopt;
    for (const DbFile& file : database_files(type, pieces)) {
        if (file.pieces != pieces) continue;
        const std::filesystem::path path = directory / file.index_name(t);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) continue;
        const DbType found = type == WldRunlen ? idx_type(path) : type;
        if (pieces > traits_of(found).max_pieces) continue;
        return Identification{found, pieces, IdentifiedBy::EgdbFallbackRule, path.filename().string()};
    }
    return std::nullopt;
}

constexpr DbType representative(FileFamily family) noexcept {
    switch (family) {
        case FileFamily::Idx1: return WldTunV2;
        case FileFamily::Idx: return WldRunlen;
        case FileFamily::IdxMtc: return MtcRunlen;
        case FileFamily::IdxDtw: return Dtw;
    }
    return WldTunV2;
}

}  // namespace

std::span<const IdentificationRow> identification_table() noexcept { return kRows; }

std::optional<Identification> identify_as_upstream(const std::filesystem::path& directory) {
    return upstream_rows(directory, [](DbType) { return true; });
}

std::optional<Identification> identify(const std::filesystem::path& directory) {
    if (auto upstream = identify_as_upstream(directory)) return upstream;
    constexpr std::array<FileFamily, 4> kOrder{FileFamily::Idx1, FileFamily::Idx, FileFamily::IdxDtw, FileFamily::IdxMtc};
    for (int pieces = 9; pieces >= 2; --pieces) {
        for (const FileFamily family : kOrder) {
            if (auto found = fallback_rule(directory, representative(family), pieces)) return found;
        }
    }
    return std::nullopt;
}

std::optional<Identification> identify_family(const std::filesystem::path& directory, FileFamily family) {
    if (auto upstream = upstream_rows(directory, [family](DbType type) { return in_family(type, family); })) {
        return upstream;
    }
    for (int pieces = 9; pieces >= 2; --pieces) {
        if (auto found = fallback_rule(directory, representative(family), pieces)) return found;
    }
    return std::nullopt;
}

namespace {

// The piece count and family of an index file name of 3.1, "db<n>.<ext>" or "db<n>-<k>.<ext>".
// Parsed by hand, not with std::regex (native_database.cpp says why).
std::optional<std::pair<int, FileFamily>> index_file_of(std::string_view name) {
    if (!name.starts_with("db")) return std::nullopt;
    std::size_t i = 2;
    int pieces = 0;
    while (i < name.size() && i < 4 && name[i] >= '0' && name[i] <= '9') pieces = pieces * 10 + (name[i++] - '0');
    if (i == 2 || pieces < 2) return std::nullopt;
    if (i < name.size() && name[i] == '-') {
        const std::size_t digits = ++i;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
        if (i == digits) return std::nullopt;
    }
    const std::string_view ext = name.substr(i);
    if (ext == ".idx1") return std::pair{pieces, FileFamily::Idx1};
    if (ext == ".idx") return std::pair{pieces, FileFamily::Idx};
    if (ext == ".idx_mtc") return std::pair{pieces, FileFamily::IdxMtc};
    if (ext == ".idx_dtw") return std::pair{pieces, FileFamily::IdxDtw};
    return std::nullopt;
}

}  // namespace

FamiliesPresent identify_families(const std::filesystem::path& directory) {
    int v2 = 0, idx = 0;
    FamiliesPresent present;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        const auto file = index_file_of(entry.path().filename().string());
        if (!file) continue;
        const auto [pieces, family] = *file;
        int& most = family == FileFamily::Idx1 ? v2 : family == FileFamily::Idx ? idx
                    : family == FileFamily::IdxMtc ? present.mtc_pieces : present.dtw_pieces;
        most = std::max(most, pieces);
    }
    // The directory's own identification may name another family (DTW before V1 at 4 pieces), so
    // the WLD family is typed by its own files only.
    if (v2 > 0 || idx > 0) {
        const FileFamily family = v2 > 0 ? FileFamily::Idx1 : FileFamily::Idx;
        present.wld = identify_family(directory, family);
        if (!present.wld) {
            present.wld = Identification{v2 > 0 ? DbType::WldTunV2 : DbType::WldRunlen, v2 > 0 ? v2 : idx,
                                         IdentifiedBy::EgdbFallbackRule, ""};
        }
    }
    return present;
}

std::optional<IdentificationRow> identification_row_for(const std::filesystem::path& directory, DbType type,
                                                        int max_pieces) {
    for (int pieces = max_pieces; pieces >= 2; --pieces) {
        for (const IdentificationRow& row : kRows) {
            if (row.type != type || row.pieces != pieces) continue;
            if (std::filesystem::exists(directory / row.file)) return row;
        }
    }
    return std::nullopt;
}

bool has_egdb_trailer(const std::filesystem::path& index_file) {
    constexpr std::string_view kMarker = "\n#egdb ";
    constexpr std::size_t kTrailer = 12;  // the marker, a letter, four bytes
    std::ifstream in(index_file, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    if (size < static_cast<std::streamoff>(kTrailer)) return false;
    in.seekg(size - static_cast<std::streamoff>(kTrailer));
    char tail[kTrailer];
    if (!in.read(tail, kTrailer)) return false;
    return std::string_view(tail, kMarker.size()) == kMarker;
}

}  // namespace egdb::kingsrow
