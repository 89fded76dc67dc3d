// Reads one slice file of a native database (docs/native-format.md). Opening validates the
// header, the section descriptors and every page table against the file size and their CRCs, so
// a truncated or damaged file is rejected up front; each page's CRC is checked when it is read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/zstd_contexts.hpp"
#include "core/index/slice.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::native {

struct PageRef {
    std::uint64_t offset = 0;    // absolute file offset
    std::uint32_t size = 0;      // 0: constant page
    std::uint32_t crc_or_value = 0;
};

class SliceFileReader {
public:
    explicit SliceFileReader(const std::filesystem::path& path);  // throws FileError, CorruptDataError

    SliceId slice() const noexcept { return slice_; }
    std::uint64_t positions() const noexcept { return positions_; }
    std::span<const SectionDescriptor> sections() const noexcept { return sections_; }
    const std::filesystem::path& path() const noexcept { return file_.path(); }
    std::uint64_t file_size() const noexcept { return file_.size(); }
    // The pages of the file read so far leave the process's resident set (MappedFile).
    void release_resident_pages() const noexcept { file_.release_resident_pages(); }

    // Index of the section holding (kind, side), or -1.
    int find_section(ValueKind kind, Color side) const noexcept;

    PageRef page(int section, std::uint64_t page) const noexcept;

    // Decompresses page `page` of `section` into `out` (packed values, see the format), checking
    // its CRC. A constant page is expanded. Throws CorruptDataError on a checksum or codec error.
    void load_page(int section, std::uint64_t page, std::vector<std::byte>& out) const;

    // CRC check of every page of every section without decompressing; returns the number of bad
    // pages and reports each one through `on_bad(section, page)`.
    template <class OnBad>
    std::uint64_t check_page_crcs(OnBad&& on_bad) const;

private:
    MappedFile file_;
    SliceId slice_;
    std::uint64_t positions_ = 0;
    std::vector<SectionDescriptor> sections_;
    mutable ZstdContexts contexts_;  // load_page is const and may run in many threads at once
};

// The value of position `index_in_page` in a packed page of `bits`-bit values.
inline std::uint32_t packed_value(std::span<const std::byte> page, unsigned bits, std::uint64_t index_in_page) noexcept {
    if (bits == 2) return (static_cast<std::uint32_t>(page[index_in_page / 4]) >> (2 * (index_in_page % 4))) & 3U;
    if (bits == 8) return static_cast<std::uint32_t>(page[index_in_page]);
    return static_cast<std::uint32_t>(page[2 * index_in_page]) |
           (static_cast<std::uint32_t>(page[2 * index_in_page + 1]) << 8);
}

}  // namespace egdb::native

#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

template <class OnBad>
std::uint64_t SliceFileReader::check_page_crcs(OnBad&& on_bad) const {
    std::uint64_t bad = 0;
    for (int s = 0; s < static_cast<int>(sections_.size()); ++s) {
        for (std::uint64_t p = 0; p < sections_[static_cast<std::size_t>(s)].page_count; ++p) {
            const PageRef ref = page(s, p);
            if (ref.size == 0) continue;
            if (crc32c(file_.bytes().subspan(ref.offset, ref.size)) != ref.crc_or_value) {
                ++bad;
                on_bad(s, p);
            }
        }
    }
    return bad;
}

}  // namespace egdb::native
