#include "core/formats/kingsrow/export/text_database_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/util/mapped_file.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

char single_value_char(int v) noexcept {
    switch (v) {
        case 1: return '+';
        case 2: return '-';
        case 3: return '=';
        default: return '.';
    }
}

void write_bytes(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw FileError("cannot write " + path.string());
}

// 12.4: append "\n#egdb " and four bytes so that the file's CRC-32 becomes `target`. The four
// bytes must keep the suffix one comment line (no line end) for the V1/RUNLEN/MTC parsers.
void force_crc(const std::filesystem::path& path, std::uint32_t target) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    for (char filler = 'a'; filler <= 'z'; ++filler) {
        std::vector<std::uint8_t> out = content;
        for (const char c : std::string("\n#egdb ") + filler) out.push_back(static_cast<std::uint8_t>(c));
        const std::uint32_t so_far = crc32(std::as_bytes(std::span(out)));
        const auto suffix = crc32_forcing_bytes(so_far, target);
        if (std::any_of(suffix.begin(), suffix.end(), [](std::byte b) { return b == std::byte{'\n'} || b == std::byte{'\r'} || b == std::byte{0}; })) {
            continue;
        }
        for (const std::byte b : suffix) out.push_back(static_cast<std::uint8_t>(b));
        write_bytes(path, out);
        return;
    }
    throw FileError("cannot force the CRC of " + path.string());
}

}  // namespace

TextDatabaseWriter::TextDatabaseWriter(std::filesystem::path directory, DbType type, const StreamEncoder& encoder,
                                       const WriterOptions& options)
    : directory_(std::move(directory)), type_(type), traits_(traits_of(type)), encoder_(encoder), options_(options) {
    std::filesystem::create_directories(directory_);
}

void TextDatabaseWriter::add(SliceId slice, Color side_to_move, std::span<const std::uint8_t> values) {
    if (slice.total() > traits_.max_pieces) {
        throw InvalidArgumentError(std::string(name_of(type_)) + " stores at most " + std::to_string(traits_.max_pieces) + " pieces");
    }
    const TablePlace place = table_place(slice, side_to_move);
    if (last_place_ && place <= *last_place_) {
        throw InvalidArgumentError("slice " + slice.to_string() + (side_to_move == Color::Black ? " b" : " w") +
                                    ": tables must be given once each, in the driver's file order");
    }
    if (values.size() != slice_size(slice)) {
        throw InvalidArgumentError("slice " + slice.to_string() + " needs " + std::to_string(slice_size(slice)) +
                                    " values, got " + std::to_string(values.size()));
    }
    last_place_ = place;
    const std::string base = file_base_name(type_, slice);
    if (base != base_name_) {
        if (!base_name_.empty()) close_file();
        open_file(slice);
    }

    const bool single_values_allowed = type_ != DbType::MtcRunlen;
    const std::uint64_t size = values.size();
    const std::uint64_t subslices = subslice_count(size, kSubsliceSizeWld);
    for (std::uint64_t sub = 0; sub < subslices; ++sub) {
        const auto part = values.subspan(sub * kSubsliceSizeWld, subslice_length(size, kSubsliceSizeWld, sub));
        Record r;
        r.slice = slice;
        r.subslice = static_cast<std::uint32_t>(sub);
        r.side = side_to_move;
        const bool constant = std::all_of(part.begin(), part.end(), [&](std::uint8_t v) { return v == part.front(); });
        last_constant_.reset();
        if (constant && single_values_allowed && part.front() <= 3) {
            r.single_value = part.front();
            last_constant_ = ConstantSubslice{r, part.size(), part.front(), true};
            records_.push_back(std::move(r));
            continue;
        }
        if (constant && type_ == DbType::MtcRunlen && part.front() == 0) {
            // Nothing stored: absent subslices read as MTC_LESS_THAN_THRESHOLD (3.3).
            last_constant_ = ConstantSubslice{r, part.size(), 0, false};
            continue;
        }
        write_stream(std::move(r), part);
    }
    report_.positions += size;
}

void TextDatabaseWriter::open_file(SliceId slice) {
    base_name_ = file_base_name(type_, slice);
    file_pieces_ = slice.total();
    const std::filesystem::path data_path = directory_ / (base_name_ + std::string(traits_.data_extension));
    data_.open(data_path, std::ios::binary | std::ios::trunc);
    if (!data_) throw FileError("cannot write " + data_path.string());
    data_bytes_ = 0;
    records_.clear();
    any_data_ = false;
    last_constant_.reset();
}

void TextDatabaseWriter::write_stream(Record record, std::span<const std::uint8_t> values) {
    StreamSink sink(pending_, data_bytes_, static_cast<std::uint64_t>(traits_.index_unit));
    record.start = sink.start();
    record.coding = encoder_.encode(values, sink);
    sink.pad_across_sub_block(encoder_.filler_code(record.coding), encoder_.filler_positions(record.coding));
    record.unit_starts = sink.unit_starts();
    records_.push_back(std::move(record));
    any_data_ = true;
    data_.write(reinterpret_cast<const char*>(pending_.data()), static_cast<std::streamsize>(pending_.size()));
    data_bytes_ += pending_.size();
    pending_.clear();
}

void TextDatabaseWriter::close_file() {
    // 3.2 rule 4: a file needs a data record; if it has none, its last subslice (constant, as
    // every other) becomes one. It is the last record, so the data stays in index order.
    if (!any_data_ && last_constant_) {
        ConstantSubslice last = std::move(*last_constant_);
        if (last.recorded) records_.pop_back();
        last.record.single_value = -1;
        const std::vector<std::uint8_t> values(last.length, last.value);
        write_stream(std::move(last.record), values);
    }
    const std::filesystem::path data_path = directory_ / (base_name_ + std::string(traits_.data_extension));
    const std::filesystem::path index_path = directory_ / (base_name_ + std::string(traits_.index_extension));
    data_.close();
    if (!data_) throw FileError("cannot write " + data_path.string());
    const std::string text = index_text();
    write_bytes(index_path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    report_.files.push_back(index_path.filename().string());
    report_.files.push_back(data_path.filename().string());
    report_.index_bytes += text.size();
    report_.data_bytes += data_bytes_;
    report_.max_pieces = std::max(report_.max_pieces, file_pieces_);
    base_name_.clear();
}

std::string TextDatabaseWriter::index_text() const {
    const std::uint64_t unit = static_cast<std::uint64_t>(traits_.index_unit);
    std::string text;
    for (const Record& r : records_) {
        const SliceId s = r.slice;
        text += "BASE" + std::to_string(s.nbm) + "," + std::to_string(s.nbk) + "," + std::to_string(s.nwm) + "," +
                std::to_string(s.nwk) + "," + std::to_string(r.subslice) + "," + (r.side == Color::Black ? "b" : "w") + ":";
        if (r.single_value >= 0) {
            text += single_value_char(r.single_value);
            text += '\n';
            continue;
        }
        text += std::to_string(r.start / unit);
        text += '/';
        text += std::to_string(r.start % unit);
        if (type_ == DbType::WldTunV2) {
            const auto coding_fields = [&](std::size_t k) {
                text += ',';
                text += std::to_string(r.coding.blocks[k].table);
                text += ',';
                text += std::to_string(r.coding.blocks[k].map);
                text += '\n';
            };
            coding_fields(0);
            for (std::size_t k = 0; k < r.unit_starts.size(); ++k) {
                text += std::to_string(r.unit_starts[k]);
                coding_fields(k + 1);
            }
            continue;
        }
        text += '\n';
        if (type_ == DbType::WldTunV1) {
            text += "#vmap " + std::to_string(r.coding.v1_catalog) + ":";
            const int count = r.coding.v1_value_count == 3 ? 3 : 6;
            for (int v = 0; v < count; ++v) {
                text += v == 0 ? ' ' : ',';
                text += std::to_string(r.coding.v1_values[v]);
            }
            text += '\n';
        }
        if (type_ == DbType::WldRunlen && r.coding.has_partials) text += "#haspartials\n";
        for (const std::uint32_t j : r.unit_starts) text += std::to_string(j) + "\n";
    }
    return text;
}

WriteReport TextDatabaseWriter::finish() {
    if (!base_name_.empty()) close_file();
    if (options_.force_identification_crc) {
        report_.identification = identification_row_for(directory_, type_, report_.max_pieces);
        if (report_.identification) force_crc(directory_ / report_.identification->file, report_.identification->crc);
    }
    return std::move(report_);
}

}  // namespace egdb::kingsrow
