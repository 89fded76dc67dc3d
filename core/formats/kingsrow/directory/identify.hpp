// Which Kingsrow database a directory holds (kingsrow-format.md 12.4).
//
// 1. Exactly as the driver (egdb_identify): for pieces 9 down to 2, for each row of its table with
//    that piece count, in table order, if the file exists and its CRC-32 equals the row's value,
//    the row gives the type and the piece count. Genuine sets are typed this way only, and so are
//    directories written by egdb's writers, which force the CRC of one identifying file (12.4).
// 2. Only when no row matches, egdb's own rule for directories it wrote without a forced CRC
//    (for example when the identifying slice was not written): the highest piece count n with an
//    index file present among the files of section 3.1 wins; for that n the types are tried in
//    the order TUN_V2 (".idx1"), TUN_V1 / RUNLEN (".idx": V1 when its first data record carries a
//    "#vmap" comment, RUNLEN otherwise), DTW (".idx_dtw"), MTC (".idx_mtc").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/formats/kingsrow/result.hpp"

namespace egdb::kingsrow {

struct IdentificationRow {
    DbType type;
    std::string_view file;
    int pieces;
    std::uint32_t crc;
};

// The driver's table of 12.4, in its order.
std::span<const IdentificationRow> identification_table() noexcept;

enum class IdentifiedBy : std::uint8_t { UpstreamCrcTable, EgdbFallbackRule };

struct Identification {
    DbType type = DbType::WldTunV2;
    int max_pieces = 0;
    IdentifiedBy by = IdentifiedBy::UpstreamCrcTable;
    std::string file;  // the file that decided it
};

// Rule 1 only: what upstream egdb_identify returns.
std::optional<Identification> identify_as_upstream(const std::filesystem::path& directory);

// Rule 1, then rule 2.
std::optional<Identification> identify(const std::filesystem::path& directory);

// The file families of 3.1 that can sit side by side in one directory: a Kingsrow installation
// may hold WLD, MTC and DTW files together, and then identify() names only one of them (the first
// row of the table that matches, so DTW before V1 at 4 pieces). What the files of one family are
// must be decided by that family's own files, never by another family's identification.
enum class FileFamily : std::uint8_t {
    Idx1,    // ".idx1": TUN_V2
    Idx,     // ".idx": TUN_V1 or RUNLEN
    IdxMtc,  // ".idx_mtc": MTC_RUNLEN
    IdxDtw,  // ".idx_dtw": DTW
};

// Rules 1 and 2 restricted to the rows and files of one family: for FileFamily::Idx, V1 or
// RUNLEN by the published CRC of a ".idx" file, else by the "#vmap" rule on the ".idx" file of
// the highest piece count. nullopt when the directory holds no index file of the family.
std::optional<Identification> identify_family(const std::filesystem::path& directory, FileFamily family);

// The Kingsrow families a directory holds, each as it is opened: the WLD family typed by
// identify_family (".idx1" files: TUN_V2; else ".idx" files: TUN_V1 or RUNLEN), MTC and DTW by the
// largest piece count of their index files. The file names are those of 3.1 (db<n>.<ext> and the
// per-slice db<n>-<k>.<ext>); nothing else in the directory counts.
struct FamiliesPresent {
    std::optional<Identification> wld;
    int mtc_pieces = 0;  // 0: no ".idx_mtc" file
    int dtw_pieces = 0;  // 0: no ".idx_dtw" file
    bool empty() const noexcept { return !wld && mtc_pieces == 0 && dtw_pieces == 0; }
};
FamiliesPresent identify_families(const std::filesystem::path& directory);

// Whether a text index file ends with the trailer egdb's writers append to force its CRC-32
// ("\n#egdb ", a letter and four bytes: 12.4): the set was written by egdb, so its files differ
// from the published ones by construction. False for a missing or unreadable file.
bool has_egdb_trailer(const std::filesystem::path& index_file);

// The identification row a writer forces for a database of `type` holding up to `max_pieces`:
// the first row of the type with the largest piece count <= max_pieces whose file exists in
// `directory`. nullopt when there is none.
std::optional<IdentificationRow> identification_row_for(const std::filesystem::path& directory, DbType type,
                                                        int max_pieces);

}  // namespace egdb::kingsrow
