// What a database directory holds, for `egdb info` (and any caller that shows it: a server, a
// GUI): for native data every slice with its positions, file size, compressed bytes of each kind
// and longest distances; for a Kingsrow set its type, kinds and files. Sizes per position are
// over both sides to move (a colour-symmetric slice stores one side for both).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/formats/database_type.hpp"
#include "core/index/slice.hpp"

namespace egdb::workflow {

struct SliceInfo {
    SliceId slice;
    std::uint64_t positions = 0;
    std::uint64_t file_bytes = 0;
    std::array<std::uint64_t, 3> kind_bytes{};  // compressed pages of WLD, DTW, MTC
    std::uint32_t max_dtw = 0;
    std::uint32_t max_mtc = 0;
};

struct FileInfo {
    std::string name;
    std::uint64_t bytes = 0;
};

struct DatabaseInfo {
    std::filesystem::path directory;
    DatabaseType type = DatabaseType::Native;
    int max_pieces = 0;
    bool has_wld = false, has_dtw = false, has_mtc = false;
    std::vector<SliceInfo> slices;  // native
    std::vector<FileInfo> files;    // Kingsrow: every regular file of the directory, by name
    // Positions over both sides to move: of the native slices, or the stored tables of a Kingsrow set.
    std::uint64_t positions_both_sides = 0;
    std::uint64_t total_bytes = 0;

    // Bits per position over both sides to move of `bytes`.
    double bits_per_position(std::uint64_t bytes) const noexcept;
};

// Throws DatabaseError (NoDatabase) when there is no database in `directory`.
DatabaseInfo describe_database(const std::filesystem::path& directory);

}  // namespace egdb::workflow
