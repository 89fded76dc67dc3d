#include "core/formats/kingsrow/dtw/dtw_writer.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/formats/kingsrow/dtw/miniblock_bits.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {

DtwEncodedSubslice encode_dtw_subslice(std::vector<std::uint16_t> values, const RePairOptions& options) {
    if (values.empty()) throw InvalidArgumentError("empty subslice");
    const std::uint16_t largest = *std::max_element(values.begin(), values.end());
    if (largest > kDtwMaxValue) throw InvalidArgumentError("value " + std::to_string(largest) + " above the DTW maximum");

    RePairEncoding grammar = build_repair_grammar(std::move(values), std::uint32_t{largest} + 1, options);
    std::vector<std::uint32_t> expansion(grammar.rules.size(), 1);
    for (std::size_t s = 0; s < grammar.rules.size(); ++s) {
        const RePairRule& r = grammar.rules[s];
        if (r.left != s) expansion[s] = expansion[r.left] + expansion[r.right];  // rules refer to earlier symbols
    }

    std::vector<std::uint64_t> frequencies(grammar.rules.size(), 0);
    for (const std::uint16_t s : grammar.sequence) ++frequencies[s];
    DtwEncodedSubslice out;
    out.huffman = build_huffman_table(frequencies, kDtwMaxCodeLength);
    std::string error;
    const std::vector<std::uint32_t> codes = assign_canonical_codes(out.huffman, error);
    if (codes.empty()) throw InternalError("DTW writer built an invalid Huffman table: " + error);
    std::vector<std::uint32_t> code_of(grammar.rules.size(), 0);
    std::vector<std::uint8_t> length_of(grammar.rules.size(), 0);
    for (std::size_t i = 0; i < out.huffman.size(); ++i) {
        code_of[out.huffman[i].symbol] = codes[i];
        length_of[out.huffman[i].symbol] = out.huffman[i].length;
    }

    // Whole codes per miniblock, at most 4096 bits and 131071 positions each (8.2, 8.3).
    MiniblockBitWriter block;
    std::uint32_t positions = 0;
    const auto flush = [&] {
        const auto bytes = block.bytes();
        out.miniblocks.insert(out.miniblocks.end(), bytes.begin(), bytes.end());
        out.miniblock_positions.push_back(positions);
        block = MiniblockBitWriter{};
        positions = 0;
    };
    for (const std::uint16_t s : grammar.sequence) {
        if (length_of[s] > block.bits_free() || positions + expansion[s] > kDtwMaxMiniblockPositions) flush();
        block.append(code_of[s], length_of[s]);
        positions += expansion[s];
    }
    flush();
    out.rules = std::move(grammar.rules);
    return out;
}

namespace {

// Positions read from a value source at a time: the source's plies and flags for one chunk are
// all the writer holds besides the subslice's stored values.
constexpr std::size_t kSourceChunk = std::size_t{1} << 16;

// The stored values of one subslice: floor(plies / 2) (8.1), with every don't-care position given
// its nearest determined predecessor's value (at the start, the first determined value; all zero
// if none), which turns it into a run extension.
std::vector<std::uint16_t> stored_values(const DtwTableSource& table, std::uint64_t first, std::size_t n) {
    std::vector<std::uint16_t> values(n);
    std::vector<std::uint32_t> plies;
    std::vector<std::uint8_t> dont_care;
    std::size_t leading_free = n;  // index of the first determined value, n while none seen
    std::uint16_t previous = 0;
    for (std::size_t begin = 0; begin < n; begin += kSourceChunk) {
        const std::size_t count = std::min(kSourceChunk, n - begin);
        plies.assign(count, 0);
        dont_care.assign(count, 0);
        table.values(first + begin, plies, dont_care);
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t i = begin + k;
            if (dont_care[k] != 0) {
                values[i] = previous;
                continue;
            }
            const std::uint32_t v = plies[k] / 2;
            if (v > kDtwMaxValue) {
                throw InvalidArgumentError("slice " + table.slice.to_string() + ": DTW of " + std::to_string(plies[k]) +
                                            " plies at index " + std::to_string(first + i) +
                                            " is above the format's maximum");
            }
            previous = static_cast<std::uint16_t>(v);
            values[i] = previous;
            if (leading_free == n) leading_free = i;
        }
    }
    if (leading_free < n) std::fill(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(leading_free), values[leading_free]);
    return values;
}

void write_file(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw FileError(path.string() + ": cannot write");
}

void check_dtw_slice(SliceId slice) {
    if (!is_indexable(slice) || slice.black() == 0 || slice.white() == 0 || slice.total() > kDtwMaxPieces ||
        !is_canonical(slice)) {
        throw InvalidArgumentError("slice " + slice.to_string() + " is not a canonical slice of 2 to 7 pieces (only those are stored)");
    }
}

}  // namespace

DtwDatabaseWriter::DtwDatabaseWriter(std::filesystem::path directory, const DtwWriterOptions& options)
    : directory_(std::move(directory)), options_(options) {
    std::filesystem::create_directories(directory_);
}

DtwEncodedTable encode_dtw_table(const DtwTableSource& table, const RePairOptions& options) {
    check_dtw_slice(table.slice);
    DtwEncodedTable out{table.slice, table.side_to_move, {}};
    const std::uint64_t size = slice_size(table.slice);
    const std::uint64_t subslices = subslice_count(size, kSubsliceSizeDtw);
    for (std::uint64_t sub = 0; sub < subslices; ++sub) {
        const auto n = static_cast<std::size_t>(subslice_length(size, kSubsliceSizeDtw, sub));
        out.subslices.push_back(encode_dtw_subslice(stored_values(table, sub * kSubsliceSizeDtw, n), options));
    }
    return out;
}

void DtwDatabaseWriter::add(const DtwTableSource& table) {
    check_dtw_slice(table.slice);
    if (is_color_symmetric(table.slice) && table.side_to_move == Color::White) return;
    add(encode_dtw_table(table, options_.repair));
}

void DtwDatabaseWriter::add(DtwEncodedTable table) {
    check_dtw_slice(table.slice);
    if (is_color_symmetric(table.slice) && table.side_to_move == Color::White) return;
    const TablePlace place = table_place(table.slice, table.side_to_move);
    if (last_place_ && place <= *last_place_) {
        throw InvalidArgumentError("slice " + table.slice.to_string() + (table.side_to_move == Color::Black ? " b" : " w") +
                                    ": tables must be given once each, in the driver's file order");
    }
    const std::uint64_t size = slice_size(table.slice);
    if (table.subslices.size() != subslice_count(size, kSubsliceSizeDtw)) {
        throw InvalidArgumentError("slice " + table.slice.to_string() + ": wrong number of encoded subslices");
    }
    last_place_ = place;
    const FormatTraits& traits = traits_of(DbType::Dtw);
    const std::string base = file_base_name(DbType::Dtw, table.slice);
    if (base != base_name_) {
        if (!base_name_.empty()) close_file();
        base_name_ = base;
        const std::filesystem::path data_path = directory_ / (base + std::string(traits.data_extension));
        data_.open(data_path, std::ios::binary | std::ios::trunc);
        if (!data_) throw FileError(data_path.string() + ": cannot write");
        data_bytes_ = 0;
        index_.clear();
        pieces_written_ = std::max(pieces_written_, table.slice.total());
    }

    for (std::size_t sub = 0; sub < table.subslices.size(); ++sub) {
        DtwEncodedSubslice& encoded = table.subslices[sub];
        DtwIndexRecord record;
        record.slice = table.slice;
        record.side_to_move = table.side_to_move;
        record.subslice = static_cast<std::uint16_t>(sub);
        const std::uint64_t g0 = data_bytes_ / kDtwMiniblockBytes;
        record.first_block = static_cast<std::int32_t>(g0 / kDtwMiniblocksPerBlock);
        record.first_miniblock = static_cast<std::uint16_t>(g0 % kDtwMiniblocksPerBlock);
        record.block_count = static_cast<std::int32_t>(dtw_blocks_touched(g0, encoded.miniblock_positions.size()));
        record.rules = std::move(encoded.rules);
        record.huffman = std::move(encoded.huffman);
        record.miniblock_positions = std::move(encoded.miniblock_positions);
        append_dtw_index_record(record, index_);
        data_.write(reinterpret_cast<const char*>(encoded.miniblocks.data()),
                    static_cast<std::streamsize>(encoded.miniblocks.size()));
        data_bytes_ += encoded.miniblocks.size();

        stats_.positions += subslice_length(size, kSubsliceSizeDtw, sub);
        stats_.subslices += 1;
        stats_.miniblocks += record.miniblock_positions.size();
        stats_.grammar_symbols += record.rules.size();
    }
}

void DtwDatabaseWriter::close_file() {
    const FormatTraits& traits = traits_of(DbType::Dtw);
    // Whole 4096-byte blocks: the driver reads the data file a block at a time.
    const std::uint64_t padding = (kDtwBlockBytes - data_bytes_ % kDtwBlockBytes) % kDtwBlockBytes;
    const std::vector<char> zeros(padding, 0);
    data_.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
    data_bytes_ += padding;
    const std::filesystem::path data_path = directory_ / (base_name_ + std::string(traits.data_extension));
    data_.close();
    if (!data_) throw FileError(data_path.string() + ": cannot write");
    write_file(directory_ / (base_name_ + std::string(traits.index_extension)), index_);
    stats_.index_bytes += index_.size();
    stats_.data_bytes += data_bytes_;
    base_name_.clear();
}

DtwWriteStats DtwDatabaseWriter::finish() {
    if (!base_name_.empty()) close_file();
    if (options_.force_identification_crc && pieces_written_ > 0) {
        if (const auto row = identification_row_for(directory_, DbType::Dtw, pieces_written_)) {
            const std::filesystem::path path = directory_ / std::string(row->file);
            const std::array<std::byte, 4> suffix = crc32_forcing_bytes(file_crc32(path), row->crc);
            std::ofstream out(path, std::ios::binary | std::ios::app);
            out.write(reinterpret_cast<const char*>(suffix.data()), static_cast<std::streamsize>(suffix.size()));
            out.close();
            if (!out) throw FileError(path.string() + ": cannot write");
            stats_.index_bytes += suffix.size();
            stats_.identifying_file = row->file;
        }
    }
    return std::move(stats_);
}

DtwWriteStats write_dtw_database(const std::filesystem::path& directory, std::span<const DtwTableSource> tables,
                                 const DtwWriterOptions& options) {
    std::vector<const DtwTableSource*> ordered;
    for (const DtwTableSource& t : tables) {
        check_dtw_slice(t.slice);
        ordered.push_back(&t);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const DtwTableSource* a, const DtwTableSource* b) {
        return table_place(a->slice, a->side_to_move) < table_place(b->slice, b->side_to_move);
    });
    DtwDatabaseWriter writer(directory, options);
    for (const DtwTableSource* t : ordered) writer.add(*t);
    return writer.finish();
}

}  // namespace egdb::kingsrow
