// Writes one slice of a native database (docs/native-format.md): values are packed, cut into
// pages, compressed page by page with zstd and checksummed; the file appears under its final
// name only once it is complete and synced.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "core/formats/native/native_layout.hpp"
#include "core/index/slice.hpp"

namespace egdb::native {

// The values of one (kind, side) section. Exactly one of `values8` / `values16` is non-empty and
// holds one value per index of the slice. WLD values use the stored codes (kStoredLoss...).
// `dont_care` (optional) is a bitset, bit i set when position i's value is irrelevant (the side
// to move has a capture, or a draw for DTW/MTC): the writer stores whatever compresses best there.
struct SectionValues {
    ValueKind kind = ValueKind::Wld;
    Color side = Color::Black;
    std::span<const std::uint8_t> values8;
    std::span<const std::uint16_t> values16;
    std::span<const std::uint64_t> dont_care;
};

struct WriteOptions {
    int zstd_level = 12;
    std::uint32_t wld_page_positions = 16384;      // 4 KiB packed
    std::uint32_t distance_page_positions = 4096;  // 4 KiB at 8 bits
    int threads = 1;  // sections are compressed in parallel (the output does not depend on it)
};

// Writes `directory/slice_file_name(slice)` atomically (temporary file, fsync, rename, directory
// fsync). Throws FileError on I/O failure (full disk, unwritable directory) and
// std::invalid_argument on inconsistent input. Returns the file's size in bytes.
std::uint64_t write_slice_file(const std::filesystem::path& directory, SliceId slice,
                               std::span<const SectionValues> sections, const WriteOptions& options = {});

}  // namespace egdb::native
