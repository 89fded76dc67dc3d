// The manifest of a native database (docs/native-format.md, "Manifest"): the slice files a build
// left in the directory, each with its size and the CRC-32C of its bytes. Every slice file checks
// itself (header, page tables and pages carry CRC-32C), but a deleted file leaves nothing to
// check: without a list, losing the slices of the top piece count (which no other slice reads)
// looks like a smaller database. `egdb build` writes the manifest last; `egdb verify` reports a
// listed file that is missing, of another size or other bytes, and a damaged manifest.
//
// Text, one record a line:
//   egdb-manifest 1
//   slice-0101.egdb 2950 1a2b3c4d          file name, size in bytes, CRC-32C in hex
//   ...
//   end 5e6f7081                            CRC-32C of every byte before this line
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/index/slice.hpp"

namespace egdb::native {

inline constexpr std::string_view kManifestFileName = "egdb-manifest.txt";

struct ManifestEntry {
    std::string file;  // slice_file_name of the slice
    std::uint64_t bytes = 0;
    std::uint32_t crc = 0;  // CRC-32C of the whole file
    friend bool operator==(const ManifestEntry&, const ManifestEntry&) = default;
};

// CRC-32C of every byte of the file at `path` (as the manifest lists it). Throws FileError.
std::uint32_t file_crc32c(const std::filesystem::path& path);

// Lists every slice file of `directory` (in build order) and writes the manifest atomically.
// Throws FileError on I/O failure. Returns what it listed.
std::vector<ManifestEntry> write_manifest(const std::filesystem::path& directory);

// The manifest of `directory`; nullopt when there is none (a database written before manifests,
// or by hand). Throws CorruptDataError naming the line for a damaged or truncated manifest,
// FileError when it cannot be read.
std::optional<std::vector<ManifestEntry>> read_manifest(const std::filesystem::path& directory);

// What is wrong with the listed files of `directory`: one sentence per file that is missing, has
// another size or other bytes. Slice files not listed are not a problem (built later by hand).
std::vector<std::string> check_manifest(const std::filesystem::path& directory, const std::vector<ManifestEntry>& entries);

}  // namespace egdb::native
