#include "core/formats/kingsrow/directory/file_set.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

constexpr std::array<FormatTraits, 5> kTraits{{
    {DbType::WldRunlen, ".idx", ".cpr", 4, 9, 1024},
    {DbType::MtcRunlen, ".idx_mtc", ".cpr_mtc", 4, 8, 4096},
    {DbType::WldTunV1, ".idx", ".cpr", 4, 8, 1024},
    {DbType::WldTunV2, ".idx1", ".cpr1", 5, 9, 4096},
    {DbType::Dtw, ".idx_dtw", ".cpr_dtw", 5, 7, 0},
}};

}  // namespace

const FormatTraits& traits_of(DbType type) {
    for (const FormatTraits& t : kTraits) {
        if (t.type == type) return t;
    }
    throw InvalidArgumentError(std::string(name_of(type)) + " has no files");
}

std::vector<DbFile> database_files(DbType type, int max_pieces) {
    const FormatTraits& t = traits_of(type);
    std::vector<DbFile> files;
    for (int n = 2; n <= std::min(max_pieces, t.max_pieces); ++n) {
        const std::vector<SliceId> slices = canonical_slices(n);
        if (n <= t.max_per_count_pieces) {
            files.push_back({"db" + std::to_string(n), n, true, slices});
            continue;
        }
        for (const SliceId s : slices) files.push_back({"db" + std::to_string(n) + "-" + s.to_string(), n, false, {s}});
    }
    return files;
}

std::string file_base_name(DbType type, SliceId slice) {
    const int n = slice.total();
    if (n <= traits_of(type).max_per_count_pieces) return "db" + std::to_string(n);
    return "db" + std::to_string(n) + "-" + slice.to_string();
}

TablePlace table_place(SliceId slice, Color side_to_move) {
    const std::vector<SliceId> slices = canonical_slices(slice.total());
    const auto at = std::find(slices.begin(), slices.end(), slice);
    if (at == slices.end()) {
        throw InvalidArgumentError("slice " + slice.to_string() + " is not a canonical slice with both sides present");
    }
    return {slice.total(), static_cast<int>(at - slices.begin()), side_to_move};
}

}  // namespace egdb::kingsrow
