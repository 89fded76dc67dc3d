#include "core/formats/native/slice_file_writer.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/util/atomic_file_writer.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/little_endian.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/error.hpp"

namespace egdb::native {
namespace {

// Pages per work item of the parallel encoding: enough to keep a thread busy for a while, few
// enough that the threads finish together.
constexpr std::uint64_t kPagesPerRun = 64;

}  // namespace

std::uint64_t page_run_alignment(const WriteOptions& options) {
    return std::lcm<std::uint64_t>(options.wld_page_positions, options.distance_page_positions);
}

std::uint64_t slice_header_size(std::size_t sections) noexcept {
    return kFixedHeaderSize + kSectionDescriptorSize * sections + 4;
}

std::vector<std::byte> encode_slice_header(SliceId slice, std::uint64_t positions, std::span<const SectionDescriptor> sections) {
    std::vector<std::byte> header(kMagic.begin(), kMagic.end());
    append_le<std::uint32_t>(header, kFormatVersion);
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(slice_header_size(sections.size())));
    for (int c : {slice.nbm, slice.nbk, slice.nwm, slice.nwk}) header.push_back(static_cast<std::byte>(c));
    append_le<std::uint32_t>(header, static_cast<std::uint32_t>(sections.size()));
    append_le<std::uint64_t>(header, positions);
    for (const SectionDescriptor& d : sections) {
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
    return header;
}

std::vector<EncodedPages> encode_sections(std::span<const SectionValues> sections, std::span<const unsigned> value_bits,
                                          const WriteOptions& options) {
    // Work items: runs of kPagesPerRun pages of one section. Pages do not depend on each other
    // (page_encoder.hpp), so the runs concatenate into the section's bytes whatever the threads.
    struct Run {
        std::size_t section;
        std::uint64_t first;
        std::uint64_t count;
    };
    std::vector<Run> runs;
    std::vector<std::size_t> first_run(sections.size() + 1, 0);
    for (std::size_t i = 0; i < sections.size(); ++i) {
        first_run[i] = runs.size();
        const std::uint64_t positions = sections[i].size();
        const std::uint64_t step = kPagesPerRun * page_positions(sections[i].kind, options);
        for (std::uint64_t first = 0; first < positions; first += step) runs.push_back({i, first, std::min(step, positions - first)});
    }
    first_run[sections.size()] = runs.size();
    std::vector<EncodedPages> encoded(runs.size());
    const int threads = std::max(1, options.threads);
    // A batch of runs shares its encoders (a zstd context is costly to set up); about eight
    // batches a thread keep the threads finishing together.
    const std::uint64_t batch = std::max<std::uint64_t>(1, runs.size() / (8 * static_cast<std::uint64_t>(threads)));
    parallel_chunks(runs.size(), threads, batch, [&](std::uint64_t first, std::uint64_t last) {
        std::array<std::unique_ptr<PageEncoder>, 3> encoders;
        for (std::uint64_t r = first; r < last; ++r) {
            const Run& run = runs[r];
            const SectionValues& s = sections[run.section];
            std::unique_ptr<PageEncoder>& encoder = encoders[static_cast<std::size_t>(s.kind)];
            if (!encoder) encoder = std::make_unique<PageEncoder>(s.kind, options.zstd_level);
            encoded[r] = encoder->encode(s.subrange(run.first, run.count), page_positions(s.kind, options), value_bits[run.section]);
        }
    });
    std::vector<EncodedPages> whole(sections.size());
    for (std::size_t i = 0; i < sections.size(); ++i) {
        for (std::size_t r = first_run[i]; r < first_run[i + 1]; ++r) {
            whole[i].append(encoded[r]);
            encoded[r] = {};
        }
    }
    return whole;
}

std::uint64_t write_slice_file(const std::filesystem::path& directory, SliceId slice,
                               std::span<const SectionValues> sections, const WriteOptions& options) {
    if (!is_indexable(slice)) throw InvalidArgumentError("slice " + slice.to_string() + " cannot be indexed");
    const std::uint64_t positions = slice_size(slice);
    for (const SectionValues& s : sections) {
        if ((s.values8.empty() == s.values16.empty()) || s.size() != positions) {
            throw InvalidArgumentError("section " + std::string(to_string(s.kind)) + " of slice " +
                                        slice.to_string() + ": expected " + std::to_string(positions) + " values");
        }
        if (!s.dont_care.empty() && s.dont_care.size() < (positions + 63) / 64) {
            throw InvalidArgumentError("don't-care bitset too short");
        }
    }
    std::vector<unsigned> value_bits(sections.size());
    // The width of a section's values depends on its largest value, so that comes first.
    parallel_chunks(sections.size(), std::max(1, options.threads), 1, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) value_bits[i] = section_value_bits(sections[i].kind, max_meaningful_value(sections[i]));
    });
    std::vector<EncodedPages> whole = encode_sections(sections, value_bits, options);
    std::vector<SectionDescriptor> descriptors(sections.size());
    std::uint64_t offset = slice_header_size(sections.size());
    for (std::size_t i = 0; i < sections.size(); ++i) {
        SectionDescriptor& d = descriptors[i];
        d.kind = sections[i].kind;
        d.side = sections[i].side;
        d.value_bits = static_cast<std::uint8_t>(value_bits[i]);
        d.positions_per_page = page_positions(d.kind, options);
        d.page_count = whole[i].page_count;
        d.max_value = whole[i].max_value;
        d.pages_bytes = whole[i].bytes.size();
        d.page_table_offset = offset;
        offset += whole[i].entries.size() + 4;
        d.pages_offset = offset;
        offset += d.pages_bytes;
    }

    const std::filesystem::path final_path = directory / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk);
    AtomicFileWriter file(final_path);
    file.write(encode_slice_header(slice, positions, descriptors));
    for (EncodedPages& e : whole) {
        std::vector<std::byte> table_crc;
        append_le<std::uint32_t>(table_crc, crc32c(e.entries));
        file.write(e.entries);
        file.write(table_crc);
        file.write(e.bytes);
    }
    file.commit();
    return offset;
}

}  // namespace egdb::native
