// Part files: the encoded pages of one range of positions of a slice, for every section of its
// file (docs/native-format.md, "Part files"). A build encodes the page ranges of a slice solved in
// units as tasks (on many workers when distributed), each into a part file, and one task then
// concatenates them into the slice file; the pages are the same bytes the writer of a whole slice
// produces (page_encoder.hpp), so the slice file is byte-identical to it.
//
// Layout, little-endian:
//   header   "EGDBPART", u32 version (1), u8 nbm nbk nwm nwk, u32 part, u64 first position,
//            u64 positions, u32 n, n x section (u8 kind, u8 side, u8 value bits, u8 0,
//            u32 positions per page, u64 pages, u64 page bytes, u32 largest meaningful value,
//            u32 CRC-32C of the section's entries and page bytes), u32 CRC-32C of the header
//   body     per section: its page-table entries (16 bytes per page, offsets counted from the
//            section's first page in this part), then its page bytes
// A part file is written under a temporary name and renamed into place when complete.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/formats/native/page_encoder.hpp"
#include "core/formats/native/slice_file_writer.hpp"
#include "core/index/slice.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::native {

inline constexpr std::uint32_t kPartFileVersion = 1;

// "part-1212-p0003.egdbp".
std::string slice_part_file_name(SliceId slice, int part);

// Positions [first, first + count) of `slice`: `first` a multiple of page_run_alignment(format),
// `count` too unless the range ends the slice. Each entry of `sections` holds exactly those
// positions; its width is its source's (2 bits for WLD, 8 or 16 as values8 or values16). Throws
// std::invalid_argument for ranges or sections that do not fit, FileError on I/O failure.
// Returns the file's size.
std::uint64_t write_slice_part_file(const std::filesystem::path& path, SliceId slice, int part, std::uint64_t first,
                                    std::uint64_t count, std::span<const SectionValues> sections, const WriteOptions& format);

// A part file, mapped and checked: header, sizes, and (verify_data) the sections' checksums.
class SlicePartFile {
public:
    struct Section {
        SectionDescriptor descriptor;  // kind, side, value bits, positions per page, pages, bytes, max
        std::span<const std::byte> entries;
        std::span<const std::byte> bytes;
        std::uint32_t crc = 0;
    };

    // Throws FileError when it cannot be read, CorruptDataError naming it when it is truncated,
    // damaged (header) or not a part file.
    explicit SlicePartFile(const std::filesystem::path& path);

    SliceId slice() const noexcept { return slice_; }
    int part() const noexcept { return part_; }
    std::uint64_t first() const noexcept { return first_; }
    std::uint64_t count() const noexcept { return count_; }
    const std::vector<Section>& sections() const noexcept { return sections_; }

    // Checks every section's entries and bytes against their checksum; throws CorruptDataError.
    void verify_data() const;

    // Checks that it is part `part` of `slice`, positions [first, first + count), and then
    // verify_data(): what a resumed build asks of a part file it finds. Throws CorruptDataError.
    void verify_holds(SliceId slice, int part, std::uint64_t first, std::uint64_t count) const;

    // The pages of the file read so far leave the process's resident set (MappedFile).
    void release_resident_pages() const noexcept { file_.release_resident_pages(); }

private:
    MappedFile file_;
    SliceId slice_;
    int part_ = 0;
    std::uint64_t first_ = 0;
    std::uint64_t count_ = 0;
    std::vector<Section> sections_;
};

// Writes `directory/slice_file_name(slice)` from its part files `parts` (in order; they cover
// the slice from position 0 to its end), atomically, checking each part's checksums on the way.
// Throws CorruptDataError naming a part that is damaged or does not fit with the others,
// FileError on I/O failure. Returns the slice file's size.
std::uint64_t assemble_slice_file(const std::filesystem::path& directory, SliceId slice,
                                  std::span<const std::filesystem::path> parts);

}  // namespace egdb::native
