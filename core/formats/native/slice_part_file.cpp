#include "core/formats/native/slice_part_file.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::native {
namespace {

constexpr std::array<char, 8> kPartMagic{'E', 'G', 'D', 'B', 'P', 'A', 'R', 'T'};
constexpr std::size_t kPartFixedBytes = 8 + 4 + 4 + 4 + 8 + 8 + 4;
constexpr std::size_t kPartSectionBytes = 4 + 4 + 8 + 8 + 4 + 4;

[[noreturn]] void corrupt_part(const std::filesystem::path& path, const std::string& what) {
    throw CorruptDataError("part file " + path.string() + " " + what + "; remove it to encode the part again");
}

unsigned source_bits(const SectionValues& s) { return s.kind == ValueKind::Wld ? 2 : s.values8.empty() ? 16 : 8; }

}  // namespace

std::string slice_part_file_name(SliceId slice, int part) {
    char name[40];
    std::snprintf(name, sizeof name, "part-%s-p%04d.egdbp", slice.to_string().c_str(), part);
    return name;
}

std::uint64_t write_slice_part_file(const std::filesystem::path& path, SliceId slice, int part, std::uint64_t first,
                                    std::uint64_t count, std::span<const SectionValues> sections, const WriteOptions& format) {
    const std::uint64_t positions = slice_size(slice);
    const std::uint64_t alignment = page_run_alignment(format);
    if (part < 0 || first % alignment != 0 || count == 0 || first + count > positions ||
        (first + count != positions && count % alignment != 0)) {
        throw InvalidArgumentError("part " + std::to_string(part) + " of slice " + slice.to_string() + ": positions [" +
                                    std::to_string(first) + ", " + std::to_string(first + count) + ") are not a run of whole pages");
    }
    std::vector<unsigned> value_bits;
    for (const SectionValues& s : sections) {
        if ((s.values8.empty() == s.values16.empty()) || s.size() != count) {
            throw InvalidArgumentError("section " + std::string(to_string(s.kind)) + " of part " + std::to_string(part) + " of slice " +
                                        slice.to_string() + ": expected " + std::to_string(count) + " values");
        }
        value_bits.push_back(source_bits(s));
    }
    const std::vector<EncodedPages> encoded = encode_sections(sections, value_bits, format);
    std::vector<std::byte> header;
    for (const char c : kPartMagic) header.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(header, kPartFileVersion);
    for (const int c : {slice.nbm, slice.nbk, slice.nwm, slice.nwk}) header.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(part));
    append_le<std::uint64_t>(header, first);
    append_le<std::uint64_t>(header, count);
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(sections.size()));
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const EncodedPages& e = encoded[i];
        header.push_back(static_cast<std::byte>(sections[i].kind));
        header.push_back(static_cast<std::byte>(sections[i].side));
        header.push_back(static_cast<std::byte>(source_bits(sections[i])));
        header.push_back(std::byte{0});
        append_le<std::uint32_t>(header, page_positions(sections[i].kind, format));
        append_le<std::uint64_t>(header, e.page_count);
        append_le<std::uint64_t>(header, e.bytes.size());
        append_le<std::uint32_t>(header, e.max_value);
        append_le<std::uint32_t>(header, crc32c(e.bytes, crc32c(e.entries)));
    }
    append_le<std::uint32_t>(header, crc32c(header));
    AtomicFileWriter file(path);
    file.write(header);
    std::uint64_t size = header.size();
    for (const EncodedPages& e : encoded) {
        file.write(e.entries);
        file.write(e.bytes);
        size += e.entries.size() + e.bytes.size();
    }
    file.commit();
    return size;
}

SlicePartFile::SlicePartFile(const std::filesystem::path& path) : file_(path) {
    const std::span<const std::byte> bytes = file_.bytes();
    if (bytes.size() < kPartFixedBytes + 4) corrupt_part(path, "is truncated");
    if (std::memcmp(bytes.data(), kPartMagic.data(), kPartMagic.size()) != 0) corrupt_part(path, "is not a part file");
    if (load_le<std::uint32_t>(bytes, 8) != kPartFileVersion) corrupt_part(path, "has an unknown version");
    slice_ = SliceId{static_cast<int>(bytes[12]), static_cast<int>(bytes[13]), static_cast<int>(bytes[14]), static_cast<int>(bytes[15])};
    part_ = static_cast<int>(load_le<std::uint32_t>(bytes, 16));
    first_ = load_le<std::uint64_t>(bytes, 20);
    count_ = load_le<std::uint64_t>(bytes, 28);
    const std::uint32_t n = load_le<std::uint32_t>(bytes, 36);
    if (n > 6) corrupt_part(path, "has a damaged header");  // two sides, three kinds
    const std::size_t header_bytes = kPartFixedBytes + kPartSectionBytes * n + 4;
    if (bytes.size() < header_bytes) corrupt_part(path, "is truncated");
    if (load_le<std::uint32_t>(bytes, header_bytes - 4) != crc32c(bytes.first(header_bytes - 4))) corrupt_part(path, "has a damaged header");
    std::uint64_t offset = header_bytes;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::size_t at = kPartFixedBytes + kPartSectionBytes * i;
        Section s;
        SectionDescriptor& d = s.descriptor;
        d.kind = static_cast<ValueKind>(bytes[at]);
        d.side = static_cast<Color>(bytes[at + 1]);
        d.value_bits = static_cast<std::uint8_t>(bytes[at + 2]);
        d.positions_per_page = load_le<std::uint32_t>(bytes, at + 4);
        d.page_count = load_le<std::uint64_t>(bytes, at + 8);
        d.pages_bytes = load_le<std::uint64_t>(bytes, at + 16);
        d.max_value = load_le<std::uint32_t>(bytes, at + 24);
        s.crc = load_le<std::uint32_t>(bytes, at + 28);
        if (d.positions_per_page == 0 || d.page_count != (count_ + d.positions_per_page - 1) / d.positions_per_page) {
            corrupt_part(path, "has a section whose pages do not cover its positions");
        }
        const std::uint64_t entry_bytes = kPageEntrySize * d.page_count;
        if (entry_bytes > bytes.size() - offset || d.pages_bytes > bytes.size() - offset - entry_bytes) corrupt_part(path, "is truncated");
        s.entries = bytes.subspan(offset, entry_bytes);
        s.bytes = bytes.subspan(offset + entry_bytes, d.pages_bytes);
        offset += entry_bytes + d.pages_bytes;
        sections_.push_back(s);
    }
    if (offset != bytes.size()) corrupt_part(path, "has the wrong length");
}

void SlicePartFile::verify_data() const {
    for (const Section& s : sections_) {
        if (crc32c(s.bytes, crc32c(s.entries)) != s.crc) corrupt_part(file_.path(), "fails its checksum");
    }
}

void SlicePartFile::verify_holds(SliceId slice, int part, std::uint64_t first, std::uint64_t count) const {
    if (slice_ != slice || part_ != part || first_ != first || count_ != count) {
        corrupt_part(file_.path(), "holds other positions than part " + std::to_string(part) + " of slice " + slice.to_string() +
                                       " in this build");
    }
    verify_data();
}

std::uint64_t assemble_slice_file(const std::filesystem::path& directory, SliceId slice,
                                  std::span<const std::filesystem::path> parts) {
    const std::uint64_t positions = slice_size(slice);
    std::vector<SlicePartFile> files;
    files.reserve(parts.size());
    std::uint64_t next_first = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        files.emplace_back(parts[p]);
        const SlicePartFile& f = files.back();
        if (f.slice() != slice || f.part() != static_cast<int>(p) || f.first() != next_first) {
            corrupt_part(parts[p], "is not part " + std::to_string(p) + " of slice " + slice.to_string() + " from position " +
                                  std::to_string(next_first));
        }
        if (f.sections().size() != files.front().sections().size()) corrupt_part(parts[p], "has other sections than part 0");
        for (std::size_t i = 0; i < f.sections().size(); ++i) {
            const SectionDescriptor& a = f.sections()[i].descriptor;
            const SectionDescriptor& b = files.front().sections()[i].descriptor;
            if (a.kind != b.kind || a.side != b.side || a.value_bits != b.value_bits || a.positions_per_page != b.positions_per_page) {
                corrupt_part(parts[p], "has other sections than part 0");
            }
            if (p + 1 < parts.size() && f.count() % a.positions_per_page != 0) corrupt_part(parts[p], "does not end on a page boundary");
        }
        next_first += f.count();
    }
    if (files.empty() || next_first != positions) {
        throw CorruptDataError("the part files of slice " + slice.to_string() + " cover " + std::to_string(next_first) + " of its " +
                               std::to_string(positions) + " positions");
    }
    const std::size_t n = files.front().sections().size();
    std::vector<SectionDescriptor> descriptors(n);
    std::uint64_t offset = slice_header_size(n);
    for (std::size_t i = 0; i < n; ++i) {
        SectionDescriptor& d = descriptors[i];
        d = files.front().sections()[i].descriptor;
        d.page_count = 0;
        d.pages_bytes = 0;
        d.max_value = 0;
        for (const SlicePartFile& f : files) {
            const SectionDescriptor& part = f.sections()[i].descriptor;
            d.page_count += part.page_count;
            d.pages_bytes += part.pages_bytes;
            d.max_value = std::max(d.max_value, part.max_value);
        }
        d.page_table_offset = offset;
        offset += kPageEntrySize * d.page_count + 4;
        d.pages_offset = offset;
        offset += d.pages_bytes;
    }
    AtomicFileWriter out(directory / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk));
    out.write(encode_slice_header(slice, positions, descriptors));
    std::vector<std::byte> entries;
    for (std::size_t i = 0; i < n; ++i) {
        // The page table: each part's entries with offsets moved behind the pages before it.
        std::uint32_t table_crc = 0;
        std::uint64_t base = 0;
        for (const SlicePartFile& f : files) {
            const SlicePartFile::Section& s = f.sections()[i];
            if (crc32c(s.bytes, crc32c(s.entries)) != s.crc) corrupt_part(parts[static_cast<std::size_t>(f.part())], "fails its checksum");
            entries.assign(s.entries.begin(), s.entries.end());
            for (std::size_t e = 0; e < entries.size(); e += kPageEntrySize) {
                const std::uint64_t page_offset = load_le<std::uint64_t>(entries, e);
                const std::uint32_t page_bytes = load_le<std::uint32_t>(entries, e + 8);
                if (page_offset > s.bytes.size() || page_bytes > s.bytes.size() - page_offset) {
                    corrupt_part(parts[static_cast<std::size_t>(f.part())], "has a page outside its bytes");
                }
                store_le<std::uint64_t>(entries, e, page_offset + base);
            }
            table_crc = crc32c(entries, table_crc);
            out.write(entries);
            base += s.bytes.size();
        }
        std::vector<std::byte> crc;
        append_le<std::uint32_t>(crc, table_crc);
        out.write(crc);
        for (const SlicePartFile& f : files) {
            out.write(f.sections()[i].bytes);
            // Copied: its pages need not stay resident while the other sections are (the parts
            // of a 6-piece slice are up to 1.3 GB together).
            f.release_resident_pages();
        }
    }
    out.commit();
    return offset;
}

}  // namespace egdb::native
