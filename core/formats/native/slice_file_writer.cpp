#include "core/formats/native/slice_file_writer.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
// ZSTD_c_literalCompressionMode is in zstd's experimental section (stable since 1.4.5); with an
// older library setting it fails and pages keep Huffman literals, which every reader decodes.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::native {
namespace {

bool is_dont_care(std::span<const std::uint64_t> bits, std::uint64_t i) noexcept {
    return !bits.empty() && ((bits[i / 64] >> (i % 64)) & 1U) != 0;
}

std::uint32_t raw_value(const SectionValues& s, std::uint64_t i) noexcept {
    return s.values8.empty() ? s.values16[i] : s.values8[i];
}

// A compressed section: page table entries and the concatenated page bytes.
struct EncodedSection {
    SectionDescriptor descriptor;
    std::vector<std::byte> page_table;  // entries + CRC
    std::vector<std::byte> pages;
};

EncodedSection encode_section(const SectionValues& s, std::uint64_t positions, const WriteOptions& options) {
    EncodedSection out;
    SectionDescriptor& d = out.descriptor;
    d.kind = s.kind;
    d.side = s.side;
    std::uint32_t max_value = 0;
    for (std::uint64_t i = 0; i < positions; ++i) {
        if (!is_dont_care(s.dont_care, i)) max_value = std::max(max_value, raw_value(s, i));
    }
    d.max_value = max_value;
    d.value_bits = s.kind == ValueKind::Wld ? 2 : (max_value > 0xFF ? 16 : 8);
    if (s.kind == ValueKind::Wld && max_value > kStoredWin) throw std::invalid_argument("WLD value out of range");
    d.positions_per_page = s.kind == ValueKind::Wld ? options.wld_page_positions : options.distance_page_positions;
    d.page_count = (positions + d.positions_per_page - 1) / d.positions_per_page;

    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, options.zstd_level);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 0);
    if (s.kind != ValueKind::Dtw) {
        // A 4 KiB page decompresses in a few microseconds, most of them spent rebuilding the
        // page's Huffman table for literals. WLD and MTC pages are mostly matches, so raw literals
        // cost little space and make a page miss about 30% faster (measured on slice 2201: WLD
        // +17% bytes, MTC +1%); DTW pages are literal-heavy and keep Huffman coding.
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
    }

    std::vector<std::byte> packed;
    std::vector<std::byte> compressed;
    // "Don't care" positions repeat the last meaningful value, which lengthens runs.
    std::uint32_t last = 0;
    for (std::uint64_t page = 0; page < d.page_count; ++page) {
        const std::uint64_t first = page * d.positions_per_page;
        const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, positions - first);
        packed.assign(packed_size(count, d.value_bits), std::byte{0});
        bool constant = true;
        std::uint32_t first_value = 0;
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t i = first + k;
            const std::uint32_t v = is_dont_care(s.dont_care, i) ? last : raw_value(s, i);
            last = v;
            if (k == 0) first_value = v;
            constant = constant && v == first_value;
            if (d.value_bits == 2) {
                packed[k / 4] |= static_cast<std::byte>(v << (2 * (k % 4)));
            } else if (d.value_bits == 8) {
                packed[k] = static_cast<std::byte>(v);
            } else {
                store_le<std::uint16_t>(packed, 2 * k, static_cast<std::uint16_t>(v));
            }
        }
        const std::uint64_t offset = out.pages.size();
        if (constant) {
            append_le<std::uint64_t>(out.page_table, offset);
            append_le<std::uint32_t>(out.page_table, 0);
            append_le<std::uint32_t>(out.page_table, first_value);
            continue;
        }
        compressed.resize(ZSTD_compressBound(packed.size()));
        const std::size_t n = ZSTD_compress2(cctx.get(), compressed.data(), compressed.size(), packed.data(),
                                             packed.size());
        if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
        const std::span<const std::byte> page_bytes(compressed.data(), n);
        out.pages.insert(out.pages.end(), page_bytes.begin(), page_bytes.end());
        append_le<std::uint64_t>(out.page_table, offset);
        append_le<std::uint32_t>(out.page_table, static_cast<std::uint32_t>(n));
        append_le<std::uint32_t>(out.page_table, crc32c(page_bytes));
    }
    append_le<std::uint32_t>(out.page_table, crc32c(out.page_table));
    d.pages_bytes = out.pages.size();
    return out;
}

}  // namespace

std::uint64_t write_slice_file(const std::filesystem::path& directory, SliceId slice,
                               std::span<const SectionValues> sections, const WriteOptions& options) {
    if (!is_indexable(slice)) throw std::invalid_argument("slice " + slice.to_string() + " cannot be indexed");
    const std::uint64_t positions = slice_size(slice);
    for (const SectionValues& s : sections) {
        const std::size_t n = s.values8.empty() ? s.values16.size() : s.values8.size();
        if ((s.values8.empty() == s.values16.empty()) || n != positions) {
            throw std::invalid_argument("section " + std::string(to_string(s.kind)) + " of slice " +
                                        slice.to_string() + ": expected " + std::to_string(positions) + " values");
        }
        if (!s.dont_care.empty() && s.dont_care.size() < (positions + 63) / 64) {
            throw std::invalid_argument("don't-care bitset too short");
        }
    }
    // Sections are independent: each worker compresses whole sections, taken in turn.
    std::vector<EncodedSection> encoded(sections.size());
    {
        std::atomic<std::size_t> next{0};
        std::exception_ptr failure;
        std::mutex failure_mutex;
        auto work = [&] {
            for (std::size_t i = next.fetch_add(1); i < sections.size(); i = next.fetch_add(1)) {
                try {
                    encoded[i] = encode_section(sections[i], positions, options);
                } catch (...) {
                    std::lock_guard lock(failure_mutex);
                    if (!failure) failure = std::current_exception();
                }
            }
        };
        std::vector<std::jthread> workers;
        for (int t = 1; t < std::min<int>(options.threads, static_cast<int>(sections.size())); ++t) workers.emplace_back(work);
        work();
        workers.clear();
        if (failure) std::rethrow_exception(failure);
    }

    const std::size_t header_size = kFixedHeaderSize + kSectionDescriptorSize * sections.size() + 4;
    std::uint64_t offset = header_size;
    for (EncodedSection& e : encoded) {
        e.descriptor.page_table_offset = offset;
        offset += e.page_table.size();
        e.descriptor.pages_offset = offset;
        offset += e.pages.size();
    }

    std::vector<std::byte> header;
    header.insert(header.end(), kMagic.begin(), kMagic.end());
    append_le<std::uint32_t>(header, kFormatVersion);
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(header_size));
    for (int c : {slice.nbm, slice.nbk, slice.nwm, slice.nwk}) header.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(sections.size()));
    append_le<std::uint64_t>(header, positions);
    for (const EncodedSection& e : encoded) {
        const SectionDescriptor& d = e.descriptor;
        header.push_back(static_cast<std::byte>(d.kind));
        header.push_back(static_cast<std::byte>(d.side));
        header.push_back(static_cast<std::byte>(d.value_bits));
        header.push_back(static_cast<std::byte>(d.codec));
        append_le<std::uint32_t>(header, d.positions_per_page);
        append_le<std::uint64_t>(header, d.page_count);
        append_le<std::uint64_t>(header, d.page_table_offset);
        append_le<std::uint64_t>(header, d.pages_offset);
        append_le<std::uint64_t>(header, d.pages_bytes);
        append_le<std::uint32_t>(header, d.max_value);
        append_le<std::uint32_t>(header, 0);
    }
    append_le<std::uint32_t>(header, crc32c(header));

    const std::filesystem::path final_path =
        directory / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk);
    AtomicFileWriter file(final_path);
    file.write(header);
    for (const EncodedSection& e : encoded) {
        file.write(e.page_table);
        file.write(e.pages);
    }
    file.commit();
    return offset;
}

}  // namespace egdb::native
