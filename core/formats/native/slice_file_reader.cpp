#include "core/formats/native/slice_file_reader.hpp"

#include <algorithm>
#include <string>
#include <zstd.h>

#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::native {
namespace {

[[noreturn]] void corrupt(const std::filesystem::path& path, const std::string& what) {
    throw CorruptDataError(path.string() + ": " + what);
}

}  // namespace

SliceFileReader::SliceFileReader(const std::filesystem::path& path) : file_(path) {
    const auto bytes = file_.bytes();
    if (bytes.size() < kFixedHeaderSize + 4) corrupt(path, "file too short for a header (truncated?)");
    if (!std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) corrupt(path, "not an egdb native slice file");
    const auto version = load_le<std::uint32_t>(bytes, 8);
    if (version != kFormatVersion) {
        corrupt(path, "format version " + std::to_string(version) + " is not supported (this build reads " +
                          std::to_string(kFormatVersion) + ")");
    }
    const auto header_size = load_le<std::uint32_t>(bytes, 12);
    const auto section_count = load_le<std::uint32_t>(bytes, 20);
    if (section_count > 6 || header_size != kFixedHeaderSize + kSectionDescriptorSize * section_count + 4 ||
        header_size > bytes.size()) {
        corrupt(path, "inconsistent header size (truncated or damaged)");
    }
    if (crc32c(bytes.first(header_size - 4)) != load_le<std::uint32_t>(bytes, header_size - 4)) {
        corrupt(path, "header checksum mismatch");
    }
    slice_ = SliceId{static_cast<int>(bytes[16]), static_cast<int>(bytes[17]), static_cast<int>(bytes[18]),
                     static_cast<int>(bytes[19])};
    if (!is_indexable(slice_)) corrupt(path, "slice " + slice_.to_string() + " out of range");
    positions_ = load_le<std::uint64_t>(bytes, 24);
    if (positions_ != slice_size(slice_)) corrupt(path, "position count does not match slice " + slice_.to_string());
    for (std::uint32_t s = 0; s < section_count; ++s) {
        const std::size_t o = kFixedHeaderSize + kSectionDescriptorSize * s;
        SectionDescriptor d;
        const auto kind = static_cast<std::uint8_t>(bytes[o]);
        const auto side = static_cast<std::uint8_t>(bytes[o + 1]);
        d.value_bits = static_cast<std::uint8_t>(bytes[o + 2]);
        d.codec = static_cast<std::uint8_t>(bytes[o + 3]);
        d.positions_per_page = load_le<std::uint32_t>(bytes, o + 4);
        d.page_count = load_le<std::uint64_t>(bytes, o + 8);
        d.page_table_offset = load_le<std::uint64_t>(bytes, o + 16);
        d.pages_offset = load_le<std::uint64_t>(bytes, o + 24);
        d.pages_bytes = load_le<std::uint64_t>(bytes, o + 32);
        d.max_value = load_le<std::uint32_t>(bytes, o + 40);
        if (kind > 2 || side > 1 || d.codec != kCodecZstd || (d.value_bits != 2 && d.value_bits != 8 && d.value_bits != 16) ||
            (kind == 0) != (d.value_bits == 2)) {
            corrupt(path, "bad section descriptor " + std::to_string(s));
        }
        d.kind = static_cast<ValueKind>(kind);
        d.side = static_cast<Color>(side);
        if (d.positions_per_page == 0 || (d.positions_per_page & (d.positions_per_page - 1)) != 0 ||
            d.page_count != (positions_ + d.positions_per_page - 1) / d.positions_per_page ||
            packed_size(d.positions_per_page, d.value_bits) > kMaxPageBytes) {
            corrupt(path, "bad page geometry in section " + std::to_string(s));
        }
        const std::uint64_t table_bytes = d.page_count * kPageEntrySize + 4;
        if (d.page_table_offset > bytes.size() || table_bytes > bytes.size() - d.page_table_offset ||
            d.pages_offset > bytes.size() || d.pages_bytes > bytes.size() - d.pages_offset) {
            corrupt(path, "section " + std::to_string(s) + " extends past the end of the file (truncated?)");
        }
        const auto table = bytes.subspan(d.page_table_offset, table_bytes);
        if (crc32c(table.first(table_bytes - 4)) != load_le<std::uint32_t>(table, table_bytes - 4)) {
            corrupt(path, "page table checksum mismatch in section " + std::to_string(s));
        }
        const std::size_t unpacked_max = packed_size(d.positions_per_page, d.value_bits);
        for (std::uint64_t p = 0; p < d.page_count; ++p) {
            const auto off = load_le<std::uint64_t>(table, p * kPageEntrySize);
            const auto size = load_le<std::uint32_t>(table, p * kPageEntrySize + 8);
            if (size != 0 && (off > d.pages_bytes || size > d.pages_bytes - off || size > 2 * unpacked_max + 64)) {
                corrupt(path, "page " + std::to_string(p) + " of section " + std::to_string(s) + " out of bounds");
            }
        }
        sections_.push_back(d);
    }
}

int SliceFileReader::find_section(ValueKind kind, Color side) const noexcept {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
        if (sections_[i].kind == kind && sections_[i].side == side) return static_cast<int>(i);
    }
    return -1;
}

PageRef SliceFileReader::page(int section, std::uint64_t page) const noexcept {
    const SectionDescriptor& d = sections_[static_cast<std::size_t>(section)];
    const auto entry = file_.bytes().subspan(d.page_table_offset + page * kPageEntrySize, kPageEntrySize);
    return {d.pages_offset + load_le<std::uint64_t>(entry, 0), load_le<std::uint32_t>(entry, 8),
            load_le<std::uint32_t>(entry, 12)};
}

void SliceFileReader::load_page(int section, std::uint64_t page_number, std::vector<std::byte>& out) const {
    const SectionDescriptor& d = sections_[static_cast<std::size_t>(section)];
    const std::uint64_t first = page_number * d.positions_per_page;
    const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, positions_ - first);
    const std::size_t size = packed_size(count, d.value_bits);
    out.resize(size);
    const PageRef ref = page(section, page_number);
    if (ref.size == 0) {
        const std::uint32_t v = ref.crc_or_value;
        if (d.value_bits == 2) {
            std::fill(out.begin(), out.end(), static_cast<std::byte>(v * 0x55U));
        } else if (d.value_bits == 8) {
            std::fill(out.begin(), out.end(), static_cast<std::byte>(v));
        } else {
            for (std::size_t i = 0; i < count; ++i) store_le<std::uint16_t>(out, 2 * i, static_cast<std::uint16_t>(v));
        }
        return;
    }
    const auto compressed = file_.bytes().subspan(ref.offset, ref.size);
    if (crc32c(compressed) != ref.crc_or_value) {
        corrupt(path(), "checksum mismatch in page " + std::to_string(page_number) + " of section " +
                            to_string(d.kind) + "/" + (d.side == Color::Black ? "black" : "white"));
    }
    // Creating a context per page would dominate a page miss: the file keeps a few (zstd_contexts.hpp).
    const std::size_t n = contexts_.decompress(out, compressed);
    if (ZSTD_isError(n) || n != size) {
        corrupt(path(), "page " + std::to_string(page_number) + " does not decompress to its size");
    }
}

}  // namespace egdb::native
