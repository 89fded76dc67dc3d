// Writes one slice of a native database (docs/native-format.md): values are packed, cut into
// pages, compressed page by page with zstd and checksummed; the file appears under its final
// name only once it is complete and synced.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/page_encoder.hpp"
#include "core/index/slice.hpp"

namespace egdb::native {

struct WriteOptions {
    int zstd_level = 12;
    std::uint32_t wld_page_positions = 16384;      // 4 KiB packed
    std::uint32_t distance_page_positions = 4096;  // 4 KiB at 8 bits
    int threads = 1;  // runs of pages are compressed in parallel (the output does not depend on it)
};

// Positions per page of a section of `kind`.
constexpr std::uint32_t page_positions(ValueKind kind, const WriteOptions& options) noexcept {
    return kind == ValueKind::Wld ? options.wld_page_positions : options.distance_page_positions;
}

// Positions of a run of whole pages of every section: a multiple of both page sizes.
std::uint64_t page_run_alignment(const WriteOptions& options);

// Writes `directory/slice_file_name(slice)` atomically (temporary file, fsync, rename, directory
// fsync). Throws FileError on I/O failure (full disk, unwritable directory) and
// std::invalid_argument on inconsistent input. Returns the file's size in bytes.
std::uint64_t write_slice_file(const std::filesystem::path& directory, SliceId slice,
                               std::span<const SectionValues> sections, const WriteOptions& options = {});

// The pages of each section of `sections` (values of `value_bits` bits), encoded in runs of pages
// on options.threads threads; the bytes do not depend on the threads (page_encoder.hpp).
std::vector<EncodedPages> encode_sections(std::span<const SectionValues> sections, std::span<const unsigned> value_bits,
                                          const WriteOptions& options);

// The header of a slice file (docs/native-format.md, "Header") whose sections are `sections`,
// in this order, with their offsets set; the page tables and pages follow it in the same order.
std::vector<std::byte> encode_slice_header(SliceId slice, std::uint64_t positions, std::span<const SectionDescriptor> sections);

// Bytes of the header for `sections` sections: where the first page table starts.
std::uint64_t slice_header_size(std::size_t sections) noexcept;

}  // namespace egdb::native
