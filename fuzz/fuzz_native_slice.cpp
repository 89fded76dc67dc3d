// A native slice file from arbitrary bytes, through SliceFileReader (header, descriptors, page
// tables, every page) and then through the native database that probes it.
//
// Checksums stop almost every random change at the first CRC, so the fuzzer would never get past
// them. When the first input byte is odd the harness therefore repairs every checksum the bytes
// claim (header, page tables, pages) before writing the file: those inputs test what lies behind
// the CRCs (geometry checks, zstd frames, decoded values), the even ones the checks themselves.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/probe/database.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

namespace native = egdb::native;

void require(bool condition) {
    if (!condition) std::abort();
}

void require_expected(const egdb::Error& e) {
    require(e.kind() == egdb::ErrorKind::CorruptData || e.kind() == egdb::ErrorKind::LookupNotPossible ||
            e.kind() == egdb::ErrorKind::NoDatabase || e.kind() == egdb::ErrorKind::Io);
}

void store_crc(std::span<std::byte> file, std::uint64_t at, std::span<const std::byte> covered) {
    if (at + 4 <= file.size()) egdb::store_le<std::uint32_t>(file, at, egdb::crc32c(covered));
}

// Recomputes the checksums where the bytes themselves say they are, as far as they say it
// consistently (anything out of range is left as it is, for the reader to reject).
void repair_checksums(std::span<std::byte> file) {
    if (file.size() < native::kFixedHeaderSize + 4) return;
    const auto header_size = egdb::load_le<std::uint32_t>(file, 12);
    const auto sections = egdb::load_le<std::uint32_t>(file, 20);
    if (sections > 6 || header_size != native::kFixedHeaderSize + native::kSectionDescriptorSize * sections + 4 ||
        header_size > file.size()) {
        return;
    }
    for (std::uint32_t s = 0; s < sections; ++s) {
        const std::size_t o = native::kFixedHeaderSize + native::kSectionDescriptorSize * s;
        const auto page_count = egdb::load_le<std::uint64_t>(file, o + 8);
        const auto table_offset = egdb::load_le<std::uint64_t>(file, o + 16);
        const auto pages_offset = egdb::load_le<std::uint64_t>(file, o + 24);
        const auto pages_bytes = egdb::load_le<std::uint64_t>(file, o + 32);
        if (page_count > file.size() || table_offset > file.size() ||
            page_count * native::kPageEntrySize + 4 > file.size() - table_offset) {
            continue;
        }
        for (std::uint64_t p = 0; p < page_count; ++p) {
            const std::uint64_t entry = table_offset + p * native::kPageEntrySize;
            const auto offset = egdb::load_le<std::uint64_t>(file, entry);
            const auto bytes = egdb::load_le<std::uint32_t>(file, entry + 8);
            if (bytes == 0 || pages_offset > file.size() || offset > pages_bytes || bytes > pages_bytes - offset ||
                pages_offset + offset > file.size() || bytes > file.size() - pages_offset - offset) {
                continue;
            }
            store_crc(file, entry + 12, file.subspan(pages_offset + offset, bytes));
        }
        const std::uint64_t table_bytes = page_count * native::kPageEntrySize;
        store_crc(file, table_offset + table_bytes, file.subspan(table_offset, table_bytes));
    }
    store_crc(file, header_size - 4, file.first(header_size - 4));
}

// Every page of every section decoded, every value read (a page count comes from the file, so
// the loop is bounded by the file's own size through the reader's geometry checks).
void read_every_page(const native::SliceFileReader& reader) {
    (void)reader.check_page_crcs([](int, std::uint64_t) {});
    std::vector<std::byte> page;
    for (int s = 0; s < static_cast<int>(reader.sections().size()); ++s) {
        const native::SectionDescriptor& d = reader.sections()[static_cast<std::size_t>(s)];
        for (std::uint64_t p = 0; p < d.page_count; ++p) {
            try {
                reader.load_page(s, p, page);
            } catch (const egdb::Error& e) {
                require_expected(e);
                continue;
            }
            const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, reader.positions() - p * d.positions_per_page);
            require(page.size() == native::packed_size(count, d.value_bits));
            std::uint32_t sink = 0;
            for (std::uint64_t i = 0; i < count; ++i) sink ^= native::packed_value(page, d.value_bits, i);
            (void)sink;
        }
    }
}

struct Reference {
    std::filesystem::path directory = egdb::fuzz::build_reference("native", egdb::workflow::OutputFormat::Native, 2);
    std::vector<std::pair<egdb::Position, egdb::Color>> positions = egdb::fuzz::all_positions(2);
};

const Reference& reference() {
    static const Reference r;
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    reference();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const Reference& ref = reference();
    std::vector<std::byte> file(size - 1);
    std::copy_n(reinterpret_cast<const std::byte*>(data + 1), size - 1, file.begin());
    if (data[0] & 1U) repair_checksums(file);
    // The file replaces the one slice of the reference database that the probes below read most
    // (the others stay intact and answer as before).
    const std::filesystem::path path = ref.directory / native::slice_file_name(1, 0, 1, 0);
    egdb::fuzz::write_file(path, std::span(reinterpret_cast<const std::uint8_t*>(file.data()), file.size()));
    try {
        const native::SliceFileReader reader(path);
        read_every_page(reader);
    } catch (const egdb::Error& e) {
        require_expected(e);
    }
    std::unique_ptr<egdb::Database> db;
    try {
        egdb::DatabaseOptions options;
        options.cache_bytes = std::size_t{1} << 20;  // the data is a few KB; a large cache only costs time
        db = egdb::Database::open(ref.directory, options);
    } catch (const egdb::Error& e) {
        require_expected(e);
        return 0;
    }
    for (std::size_t i = size % 31; i < ref.positions.size(); i += 31) {
        const auto& [position, side] = ref.positions[i];
        try {
            (void)db->lookup(position, side);
            (void)db->wld(position, side);
            (void)db->dtw(position, side);
            (void)db->mtc(position, side);
        } catch (const egdb::Error& e) {
            require_expected(e);
        }
    }
    return 0;
}
