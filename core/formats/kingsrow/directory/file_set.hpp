// Which files make up a Kingsrow database of each type and what each holds
// (kingsrow-format.md section 3.1): `db<n>` files hold every canonical slice with n pieces,
// `db<n>-<nbm><nbk><nwm><nwk>` files hold one slice.
#pragma once

#include <compare>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/kingsrow/result.hpp"
#include "core/index/slice.hpp"

namespace egdb::kingsrow {

struct FormatTraits {
    DbType type = DbType::WldTunV2;
    std::string_view index_extension;  // ".idx1"
    std::string_view data_extension;   // ".cpr1"
    int max_per_count_pieces = 0;      // db2 .. db<this> hold a whole piece count
    int max_pieces = 0;                // MAXPIECES: the most pieces the driver reads
    int index_unit = 0;                // bytes of the file blocks the text index lists (0: binary index)
};

// Throws std::invalid_argument for EGDB_WLD_HUFFMAN, which has no files.
const FormatTraits& traits_of(DbType type);

struct DbFile {
    std::string base_name;  // "db4", "db6-3030"
    int pieces = 0;
    bool per_piece_count = false;
    std::vector<SliceId> slices;  // the canonical slices it holds, in the driver's order

    std::string index_name(const FormatTraits& t) const { return base_name + std::string(t.index_extension); }
    std::string data_name(const FormatTraits& t) const { return base_name + std::string(t.data_extension); }
};

// The files the driver tries for pieces 2 .. min(max_pieces, MAXPIECES), in its order.
std::vector<DbFile> database_files(DbType type, int max_pieces);

// The base name of the file holding a canonical slice.
std::string file_base_name(DbType type, SliceId slice);

// Where the table of a (canonical slice, side to move) comes in the files of every type: files
// by number of pieces, slices in the driver's enumeration order (1.5), Black before White. Every
// file of 3.1 then holds consecutive tables, so a writer that receives tables in increasing
// TablePlace order finishes each file before it starts the next.
struct TablePlace {
    int pieces = 0;
    int slice_rank = 0;  // position in canonical_slices(pieces)
    Color side = Color::Black;

    friend constexpr auto operator<=>(const TablePlace&, const TablePlace&) = default;
};

// Throws std::invalid_argument for a slice that is not canonical or has an empty side.
TablePlace table_place(SliceId slice, Color side_to_move);

}  // namespace egdb::kingsrow
