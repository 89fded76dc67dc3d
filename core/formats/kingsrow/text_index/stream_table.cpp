#include "core/formats/kingsrow/text_index/stream_table.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

constexpr int kSideSlots = kMaxPiecesPerSide + 1;

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileError("cannot open " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw FileError("cannot read " + path.string());
    return std::move(text).str();
}

}  // namespace

IndexDialect dialect_of(DbType type) {
    switch (type) {
        case DbType::WldRunlen: return IndexDialect::Runlen;
        case DbType::WldTunV1: return IndexDialect::TunV1;
        case DbType::WldTunV2: return IndexDialect::TunV2;
        case DbType::MtcRunlen: return IndexDialect::Mtc;
        default: throw InvalidArgumentError(std::string(name_of(type)) + " has no text index");
    }
}

std::size_t StreamTable::slot_of(SliceId s, Color side) noexcept {
    const auto slot = static_cast<std::size_t>(((s.nbm * kSideSlots + s.nbk) * kSideSlots + s.nwm) * kSideSlots + s.nwk);
    return 2 * slot + (side == Color::White ? 1 : 0);
}

StreamTable::StreamTable(const std::filesystem::path& directory, DbType type, int max_pieces,
                         const CodingOf& coding_of, const std::function<void(std::string_view)>& note) {
    ranges_.resize(2 * static_cast<std::size_t>(kSideSlots * kSideSlots * kSideSlots * kSideSlots));
    const FormatTraits& traits = traits_of(type);
    for (const DbFile& file : database_files(type, max_pieces)) {
        const std::filesystem::path data_path = directory / file.data_name(traits);
        const std::filesystem::path index_path = directory / file.index_name(traits);
        if (!std::filesystem::exists(data_path)) {
            if (file.per_piece_count && type != DbType::MtcRunlen) {
                throw FileError("missing " + data_path.string() + ": a " + std::string(name_of(type)) +
                                " database needs every per-piece-count file up to " + std::to_string(max_pieces) +
                                " pieces (use the option maxpieces=N to open fewer pieces)");
            }
            if (note) note(data_path.string() + " not present\n");
            continue;
        }
        if (!std::filesystem::exists(index_path)) {
            throw FileError("missing " + index_path.string() + " (its data file " + data_path.filename().string() +
                            " exists)");
        }
        add_file(file, index_path, data_path, type, coding_of);
    }
}

void StreamTable::add_file(const DbFile& info, const std::filesystem::path& index_path,
                           const std::filesystem::path& data_path, DbType type, const CodingOf& coding_of) {
    const std::string index_name = index_path.string();
    const std::vector<IndexRecord> records = parse_text_index(read_text(index_path), dialect_of(type), index_name);
    const auto file_number = static_cast<std::uint32_t>(files_.size());
    TableFile& file = files_.emplace_back(TableFile{info, data_path, MappedFile(data_path), false});
    const std::uint64_t data_size = file.data.size();
    const std::uint64_t unit = static_cast<std::uint64_t>(traits_of(type).index_unit);

    // Data records, in file order: each stream ends where the next one begins (3.2 rule 1).
    std::vector<const IndexRecord*> data_records;
    for (const IndexRecord& r : records) {
        if (r.is_data()) data_records.push_back(&r);
    }
    if (data_records.empty()) {
        // Upstream's parser dereferences a null pointer here (16.4); we refuse the file.
        throw IndexFileError(index_name, 1, "no data record (every index file needs at least one)");
    }

    const auto fail = [&](const IndexRecord& r, const std::string& reason) -> void {
        throw IndexFileError(index_name, r.line, reason);
    };

    for (const IndexRecord& r : records) {
        if (std::find(info.slices.begin(), info.slices.end(), r.slice) == info.slices.end()) {
            fail(r, "slice " + r.slice.to_string() + " does not belong in " + index_path.filename().string());
        }
        Range& range = ranges_[slot_of(r.slice, r.side_to_move)];
        if (range.count == 0) {
            const std::uint64_t count = subslice_count(slice_size(r.slice), kSubsliceSizeWld);
            range.first = static_cast<std::uint32_t>(entries_.size());
            range.count = static_cast<std::uint32_t>(count);
            entries_.resize(entries_.size() + count);
        }
        if (r.subslice >= range.count) {
            fail(r, "subslice " + std::to_string(r.subslice) + " of slice " + r.slice.to_string() + " does not exist (" +
                        std::to_string(range.count) + " subslices)");
        }
        SubsliceEntry& entry = entries_[range.first + r.subslice];
        if (entry.value >= 0 || entry.stream != SubsliceEntry::kNoStream) {
            fail(r, "second record for slice " + r.slice.to_string() + " subslice " + std::to_string(r.subslice) +
                        " side " + (r.side_to_move == Color::Black ? "b" : "w"));
        }
        if (!r.is_data()) {
            entry.value = static_cast<std::int8_t>(r.single_value);
            continue;
        }
        entry.stream = static_cast<std::uint32_t>(streams_.size());
        Stream& s = streams_.emplace_back();
        s.file = file_number;
        s.begin = r.first_block * unit + r.first_offset;
        s.slice = r.slice;
        s.subslice = r.subslice;
        s.side_to_move = r.side_to_move;
        s.subslice_size = static_cast<std::uint32_t>(subslice_length(slice_size(r.slice), kSubsliceSizeWld, r.subslice));
    }

    // Byte ranges, block counts and block start indices.
    const std::size_t first_stream = streams_.size() - data_records.size();
    for (std::size_t i = 0; i < data_records.size(); ++i) {
        const IndexRecord& r = *data_records[i];
        Stream& s = streams_[first_stream + i];
        s.end = i + 1 < data_records.size() ? streams_[first_stream + i + 1].begin : data_size;
        if (i == 0 && s.begin != 0) fail(r, "the first stream starts at byte " + std::to_string(s.begin) + ", not 0");
        if (s.begin >= s.end) {
            fail(r, "stream at byte " + std::to_string(s.begin) + " is empty or out of order (next stream or end of " +
                        data_path.filename().string() + " at byte " + std::to_string(s.end) + ")");
        }
        const std::uint64_t units_touched = (s.end - 1) / unit - r.first_block + 1;
        if (r.block_starts.size() + 1 != units_touched) {
            fail(r, "the stream of slice " + r.slice.to_string() + " subslice " + std::to_string(r.subslice) +
                        " spans " + std::to_string(units_touched) + " blocks of " + std::to_string(unit) +
                        " bytes in " + data_path.filename().string() + " (" + std::to_string(data_size) +
                        " bytes) but the index lists " + std::to_string(r.block_starts.size() + 1) +
                        " (truncated or mismatched files)");
        }
        std::uint32_t previous = 0;
        for (const std::uint32_t start : r.block_starts) {
            // A start beyond the subslice is legal: filler codes may follow its last position (4.6).
            if (start < previous) fail(r, "block start index " + std::to_string(start) + " is below the previous one");
            previous = start;
        }
        // Convert to 4096-byte blocks (5.2, 7.2): block F+k starts at the listed index of the
        // index-unit block 4096/unit * (F+k) - F1.
        const std::uint64_t ratio = kBlockBytes / unit;
        const std::uint64_t first = s.begin / kBlockBytes;
        s.blocks = static_cast<std::uint32_t>((s.end - 1) / kBlockBytes - first + 1);
        s.first_block = static_cast<std::uint32_t>(block_starts_.size());
        for (std::uint32_t k = 0; k < s.blocks; ++k) {
            const std::uint64_t listed = k == 0 ? 0 : ratio * (first + k) - r.first_block;
            block_starts_.push_back(listed == 0 ? 0 : r.block_starts[listed - 1]);
            block_codings_.push_back(coding_of(r, k, index_name));
        }
        add_block_buckets(s);
    }

    max_pieces_ = std::max(max_pieces_, info.pieces);
    const int one_side = info.per_piece_count ? std::min(info.pieces - 1, kMaxPiecesPerSide) : info.slices.front().black();
    max_pieces_one_side_ = std::max(max_pieces_one_side_, one_side);
}

void StreamTable::add_block_buckets(Stream& s) {
    // The smallest bucket size that keeps at most two buckets per block.
    const std::uint64_t size = std::max<std::uint64_t>(s.subslice_size, 1);
    std::uint8_t shift = 0;
    while (((size - 1) >> shift) + 1 > 2 * std::uint64_t{s.blocks}) ++shift;
    s.bucket_shift = shift;
    s.buckets = static_cast<std::uint32_t>(((size - 1) >> shift) + 1);
    s.first_bucket = static_cast<std::uint32_t>(block_buckets_.size());
    const std::uint32_t* starts = block_starts_.data() + s.first_block;
    std::uint32_t k = 0;
    for (std::uint32_t b = 0; b < s.buckets; ++b) {
        const std::uint64_t first = std::uint64_t{b} << shift;
        while (k + 1 < s.blocks && starts[k + 1] <= first) ++k;
        block_buckets_.push_back(k);
    }
}

StreamTable::Lookup StreamTable::find(SliceId slice, Color side) const noexcept {
    const Range& range = ranges_[slot_of(slice, side)];
    if (range.count != 0) return {std::span(entries_).subspan(range.first, range.count), Presence::Present};
    const Range& other = ranges_[slot_of(slice, opposite(side))];
    return {{}, other.count != 0 ? Presence::ColorAbsent : Presence::BothAbsent};
}

std::uint64_t StreamTable::table_bytes() const noexcept {
    return streams_.size() * sizeof(Stream) + (block_starts_.size() + block_buckets_.size()) * sizeof(std::uint32_t) +
           block_codings_.size() * sizeof(BlockCoding) + entries_.size() * sizeof(SubsliceEntry) +
           ranges_.size() * sizeof(Range);
}

}  // namespace egdb::kingsrow
