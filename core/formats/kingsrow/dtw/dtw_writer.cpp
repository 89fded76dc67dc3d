#include "core/formats/kingsrow/dtw/dtw_writer.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "core/formats/kingsrow/crc32.hpp"
#include "core/formats/kingsrow/file_set.hpp"
#include "core/formats/kingsrow/identify.hpp"
#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/formats/kingsrow/dtw/miniblock_bits.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::kingsrow {

void fill_dont_care(std::span<std::uint16_t> values, std::span<const std::uint8_t> dont_care) noexcept {
    std::size_t first_known = 0;
    while (first_known < values.size() && dont_care[first_known] != 0) ++first_known;
    std::uint16_t previous = first_known < values.size() ? values[first_known] : 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (dont_care[i] != 0) {
            values[i] = previous;
        } else {
            previous = values[i];
        }
    }
}

DtwEncodedSubslice encode_dtw_subslice(std::span<const std::uint16_t> values, const RePairOptions& options) {
    if (values.empty()) throw std::invalid_argument("empty subslice");
    const std::uint16_t largest = *std::max_element(values.begin(), values.end());
    if (largest > kDtwMaxValue) throw std::invalid_argument("value " + std::to_string(largest) + " above the DTW maximum");

    RePairEncoding grammar = build_repair_grammar(values, std::uint32_t{largest} + 1, options);
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
    if (codes.empty()) throw std::logic_error("DTW writer built an invalid Huffman table: " + error);
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

std::size_t enumeration_rank(const DbFile& file, SliceId slice) {
    return static_cast<std::size_t>(std::find(file.slices.begin(), file.slices.end(), slice) - file.slices.begin());
}

void write_file(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw FileError(path.string() + ": cannot write");
}

}  // namespace

DtwWriteStats write_dtw_database(const std::filesystem::path& directory, std::span<const DtwTableSource> tables,
                                 const DtwWriterOptions& options) {
    // Group the tables by file, ordered as the driver enumerates files and slices (1.5, 3.1),
    // Black to move before White.
    const FormatTraits& traits = traits_of(DbType::Dtw);
    const std::vector<DbFile> names = database_files(DbType::Dtw, kDtwMaxPieces);
    std::map<std::size_t, std::vector<const DtwTableSource*>> by_file;
    for (const DtwTableSource& t : tables) {
        if (!is_indexable(t.slice) || t.slice.black() == 0 || t.slice.white() == 0 || t.slice.total() > kDtwMaxPieces ||
            !is_canonical(t.slice)) {
            throw std::invalid_argument("slice " + t.slice.to_string() +
                                        " is not a canonical slice of 2 to 7 pieces (only those are stored)");
        }
        if (is_color_symmetric(t.slice) && t.side_to_move == Color::White) continue;
        const std::string base = file_base_name(DbType::Dtw, t.slice);
        const auto file = std::find_if(names.begin(), names.end(), [&](const DbFile& f) { return f.base_name == base; });
        by_file[static_cast<std::size_t>(file - names.begin())].push_back(&t);
    }

    std::filesystem::create_directories(directory);
    DtwWriteStats stats;
    int pieces_written = 0;
    for (auto& [file_number, file_tables] : by_file) {
        const DbFile& file = names[file_number];
        pieces_written = std::max(pieces_written, file.pieces);
        std::sort(file_tables.begin(), file_tables.end(), [&](const DtwTableSource* a, const DtwTableSource* b) {
            const std::size_t ra = enumeration_rank(file, a->slice), rb = enumeration_rank(file, b->slice);
            return ra != rb ? ra < rb : a->side_to_move < b->side_to_move;
        });
        for (std::size_t i = 1; i < file_tables.size(); ++i) {
            if (file_tables[i]->slice == file_tables[i - 1]->slice &&
                file_tables[i]->side_to_move == file_tables[i - 1]->side_to_move) {
                throw std::invalid_argument("slice " + file_tables[i]->slice.to_string() + " given twice");
            }
        }

        std::vector<std::byte> index;
        std::vector<std::byte> data;
        std::vector<std::uint32_t> plies;
        std::vector<std::uint8_t> dont_care;
        std::vector<std::uint16_t> values;
        for (const DtwTableSource* table : file_tables) {
            const std::uint64_t size = slice_size(table->slice);
            const std::uint64_t subslices = subslice_count(size, kSubsliceSizeDtw);
            for (std::uint64_t sub = 0; sub < subslices; ++sub) {
                const auto n = static_cast<std::size_t>(subslice_length(size, kSubsliceSizeDtw, sub));
                plies.assign(n, 0);
                dont_care.assign(n, 0);
                table->values(sub * kSubsliceSizeDtw, plies, dont_care);
                values.resize(n);
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint32_t v = plies[i] / 2;  // 8.1: the file stores floor(plies / 2)
                    if (v > kDtwMaxValue && dont_care[i] == 0) {
                        throw std::invalid_argument("slice " + table->slice.to_string() + ": DTW of " +
                                                    std::to_string(plies[i]) + " plies at index " +
                                                    std::to_string(sub * kSubsliceSizeDtw + i) +
                                                    " is above the format's maximum");
                    }
                    values[i] = static_cast<std::uint16_t>(std::min<std::uint32_t>(v, kDtwMaxValue));
                }
                fill_dont_care(values, dont_care);
                DtwEncodedSubslice encoded = encode_dtw_subslice(values, options.repair);

                DtwIndexRecord record;
                record.slice = table->slice;
                record.side_to_move = table->side_to_move;
                record.subslice = static_cast<std::uint16_t>(sub);
                const std::uint64_t g0 = data.size() / kDtwMiniblockBytes;
                record.first_block = static_cast<std::int32_t>(g0 / kDtwMiniblocksPerBlock);
                record.first_miniblock = static_cast<std::uint16_t>(g0 % kDtwMiniblocksPerBlock);
                record.block_count =
                    static_cast<std::int32_t>(dtw_blocks_touched(g0, encoded.miniblock_positions.size()));
                record.rules = std::move(encoded.rules);
                record.huffman = std::move(encoded.huffman);
                record.miniblock_positions = std::move(encoded.miniblock_positions);
                append_dtw_index_record(record, index);
                data.insert(data.end(), encoded.miniblocks.begin(), encoded.miniblocks.end());

                stats.positions += n;
                stats.subslices += 1;
                stats.miniblocks += record.miniblock_positions.size();
                stats.grammar_symbols += record.rules.size();
            }
        }
        // Whole 4096-byte blocks: the driver reads the data file a block at a time.
        data.resize((data.size() + kDtwBlockBytes - 1) / kDtwBlockBytes * kDtwBlockBytes, std::byte{0});
        write_file(directory / file.data_name(traits), data);
        write_file(directory / file.index_name(traits), index);
        stats.index_bytes += index.size();
        stats.data_bytes += data.size();
    }

    if (options.force_identification_crc && pieces_written > 0) {
        if (const auto row = identification_row_for(directory, DbType::Dtw, pieces_written)) {
            const std::filesystem::path path = directory / std::string(row->file);
            const std::array<std::byte, 4> suffix = crc32_forcing_bytes(file_crc32(path), row->crc);
            std::ofstream out(path, std::ios::binary | std::ios::app);
            out.write(reinterpret_cast<const char*>(suffix.data()), static_cast<std::streamsize>(suffix.size()));
            out.close();
            if (!out) throw FileError(path.string() + ": cannot write");
            stats.index_bytes += suffix.size();
            stats.identifying_file = row->file;
        }
    }
    return stats;
}

}  // namespace egdb::kingsrow
