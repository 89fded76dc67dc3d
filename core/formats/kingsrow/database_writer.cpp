#include "core/formats/kingsrow/database_writer.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "core/formats/kingsrow/crc32.hpp"
#include "core/formats/kingsrow/file_set.hpp"
#include "core/formats/kingsrow/mtc_codec.hpp"
#include "core/formats/kingsrow/stream_encoder.hpp"
#include "core/util/mapped_file.hpp"

namespace egdb::kingsrow {
namespace {

// One stored (slice, side): its values as bytes (WLD codes, or MTC bytes to store).
struct SideValues {
    SliceId slice;
    Color side = Color::Black;
    std::vector<std::uint8_t> values;  // don't-care positions already filled
};

// 17: fill every don't-care run with the value before it (or after it at the start), which
// merges it into a neighbouring run.
std::vector<std::uint8_t> fill_dont_care(std::vector<std::uint8_t> values, std::span<const std::uint64_t> dont_care) {
    if (dont_care.empty()) return values;
    const auto is_free = [&](std::size_t i) { return ((dont_care[i / 64] >> (i % 64)) & 1U) != 0; };
    std::size_t first_real = 0;
    while (first_real < values.size() && is_free(first_real)) ++first_real;
    if (first_real == values.size()) {
        std::fill(values.begin(), values.end(), values.empty() ? 0 : values.front());
        return values;
    }
    for (std::size_t i = 0; i < first_real; ++i) values[i] = values[first_real];
    for (std::size_t i = first_real + 1; i < values.size(); ++i) {
        if (is_free(i)) values[i] = values[i - 1];
    }
    return values;
}

void check_table(SliceId slice, std::size_t values, std::size_t dont_care_words) {
    if (!is_indexable(slice) || !is_canonical(slice) || slice.black() == 0 || slice.white() == 0) {
        throw std::invalid_argument("slice " + slice.to_string() + " is not a canonical slice with both sides present");
    }
    if (values != slice_size(slice)) {
        throw std::invalid_argument("slice " + slice.to_string() + " needs " + std::to_string(slice_size(slice)) +
                                    " values, got " + std::to_string(values));
    }
    if (dont_care_words != 0 && dont_care_words != (values + 63) / 64) {
        throw std::invalid_argument("slice " + slice.to_string() + ": the don't-care bitset has the wrong size");
    }
}

char single_value_char(int v) noexcept {
    switch (v) {
        case 1: return '+';
        case 2: return '-';
        case 3: return '=';
        default: return '.';
    }
}

struct Record {
    SliceId slice;
    std::uint32_t subslice = 0;
    Color side = Color::Black;
    int single_value = -1;
    std::uint64_t start = 0;
    std::vector<std::uint32_t> unit_starts;
    StreamCoding coding;
};

std::string header(const Record& r) {
    const SliceId s = r.slice;
    return "BASE" + std::to_string(s.nbm) + "," + std::to_string(s.nbk) + "," + std::to_string(s.nwm) + "," +
           std::to_string(s.nwk) + "," + std::to_string(r.subslice) + "," + (r.side == Color::Black ? "b" : "w") + ":";
}

std::string index_text(const std::vector<Record>& records, DbType type) {
    const std::uint64_t unit = static_cast<std::uint64_t>(traits_of(type).index_unit);
    std::string text;
    for (const Record& r : records) {
        text += header(r);
        if (r.single_value >= 0) {
            text += single_value_char(r.single_value);
            text += '\n';
            continue;
        }
        text += std::to_string(r.start / unit);
        text += '/';
        text += std::to_string(r.start % unit);
        if (type == DbType::WldTunV2) {
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
        if (type == DbType::WldTunV1) {
            text += "#vmap " + std::to_string(r.coding.v1_catalog) + ":";
            const int count = r.coding.v1_value_count == 3 ? 3 : 6;
            for (int v = 0; v < count; ++v) {
                text += v == 0 ? ' ' : ',';
                text += std::to_string(r.coding.v1_values[v]);
            }
            text += '\n';
        }
        if (type == DbType::WldRunlen && r.coding.has_partials) text += "#haspartials\n";
        for (const std::uint32_t j : r.unit_starts) text += std::to_string(j) + "\n";
    }
    return text;
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
    throw std::runtime_error("cannot force the CRC of " + path.string());
}

WriteReport write_database(const std::filesystem::path& directory, DbType type, std::vector<SideValues> tables,
                           const StreamEncoder& encoder, const WriterOptions& options) {
    const FormatTraits& traits = traits_of(type);
    const bool single_values_allowed = type != DbType::MtcRunlen;
    std::filesystem::create_directories(directory);
    WriteReport report;
    // Files in the driver's order, their slices in its order, Black before White (3.1).
    int max_pieces = 0;
    for (const SideValues& t : tables) max_pieces = std::max(max_pieces, t.slice.total());
    if (max_pieces > traits.max_pieces) {
        throw std::invalid_argument(std::string(name_of(type)) + " stores at most " + std::to_string(traits.max_pieces) + " pieces");
    }
    for (const DbFile& file : database_files(type, max_pieces)) {
        std::vector<const SideValues*> members;
        for (const SliceId s : file.slices) {
            for (const Color side : {Color::Black, Color::White}) {
                for (const SideValues& t : tables) {
                    if (t.slice == s && t.side == side) members.push_back(&t);
                }
            }
        }
        if (members.empty()) continue;
        std::vector<std::uint8_t> data;
        std::vector<Record> records;
        bool any_data = false;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const SideValues& t = *members[m];
            const std::uint64_t size = t.values.size();
            const std::uint64_t subslices = subslice_count(size, kSubsliceSizeWld);
            for (std::uint64_t sub = 0; sub < subslices; ++sub) {
                const std::uint64_t first = sub * kSubsliceSizeWld;
                const auto values = std::span(t.values).subspan(first, subslice_length(size, kSubsliceSizeWld, sub));
                Record r;
                r.slice = t.slice;
                r.subslice = static_cast<std::uint32_t>(sub);
                r.side = t.side;
                const bool constant = std::all_of(values.begin(), values.end(), [&](std::uint8_t v) { return v == values.front(); });
                // 3.2 rule 4: the file's last record becomes a data record if none came before.
                const bool last = m + 1 == members.size() && sub + 1 == subslices;
                if (single_values_allowed && constant && values.front() <= 3 && !(last && !any_data)) {
                    r.single_value = values.front();
                    records.push_back(std::move(r));
                    continue;
                }
                if (type == DbType::MtcRunlen && constant && values.front() == 0 && !(last && !any_data)) {
                    continue;  // nothing stored: absent subslices read as MTC_LESS_THAN_THRESHOLD
                }
                StreamSink sink(data, static_cast<std::uint64_t>(traits.index_unit));
                r.start = sink.start();
                r.coding = encoder.encode(values, sink);
                sink.pad_across_sub_block(encoder.filler_code(r.coding), encoder.filler_positions(r.coding));
                r.unit_starts = sink.unit_starts();
                records.push_back(std::move(r));
                any_data = true;
            }
            report.positions += size;
        }
        const std::string text = index_text(records, type);
        const std::filesystem::path index_path = directory / file.index_name(traits);
        const std::filesystem::path data_path = directory / file.data_name(traits);
        write_bytes(data_path, data);
        write_bytes(index_path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
        report.files.push_back(index_path.filename().string());
        report.files.push_back(data_path.filename().string());
        report.index_bytes += text.size();
        report.data_bytes += data.size();
        report.max_pieces = std::max(report.max_pieces, file.pieces);
    }
    if (options.force_identification_crc) {
        report.identification = identification_row_for(directory, type, report.max_pieces);
        if (report.identification) {
            const std::filesystem::path path = directory / report.identification->file;
            force_crc(path, report.identification->crc);
        }
    }
    return report;
}

}  // namespace

WriteReport write_wld_database(const std::filesystem::path& directory, DbType type, std::span<const WldTable> tables,
                               const WriterOptions& options) {
    std::unique_ptr<StreamEncoder> encoder;
    switch (type) {
        case DbType::WldRunlen: encoder = make_runlen_encoder(); break;
        case DbType::WldTunV1: encoder = make_tunstall_v1_encoder(options.catalog_trial_codes); break;
        case DbType::WldTunV2: encoder = make_tunstall_v2_encoder(options.catalog_trial_codes); break;
        default: throw std::invalid_argument(std::string(name_of(type)) + " is not a WLD type this writer writes");
    }
    std::vector<SideValues> sides;
    for (const WldTable& t : tables) {
        check_table(t.slice, t.values.size(), t.dont_care.size());
        if (is_color_symmetric(t.slice) && t.side_to_move == Color::White) continue;  // never read (1.5)
        std::vector<std::uint8_t> values(t.values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            const int v = to_code(t.values[i]);
            if (v < 0 || v > 5) throw std::invalid_argument("slice " + t.slice.to_string() + ": value " + std::to_string(v) + " cannot be stored");
            values[i] = static_cast<std::uint8_t>(v);
        }
        sides.push_back({t.slice, t.side_to_move, fill_dont_care(std::move(values), t.dont_care)});
    }
    return write_database(directory, type, std::move(sides), *encoder, options);
}

WriteReport write_mtc_database(const std::filesystem::path& directory, std::span<const MtcTable> tables,
                               const WriterOptions& options) {
    std::vector<SideValues> sides;
    for (const MtcTable& t : tables) {
        check_table(t.slice, t.plies.size(), t.dont_care.size());
        if (is_color_symmetric(t.slice) && t.side_to_move == Color::White) continue;
        std::vector<std::uint8_t> bytes(t.plies.size());
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const int plies = t.plies[i];
            if (plies > mtc::kMaxStoredMtc) {
                throw std::invalid_argument("slice " + t.slice.to_string() + ": MTC " + std::to_string(plies) +
                                            " exceeds the storable " + std::to_string(mtc::kMaxStoredMtc));
            }
            // 7.5: the stored value is the MTC rounded up to even; below the threshold: a run.
            bytes[i] = plies < MtcValue::kThreshold ? 0 : static_cast<std::uint8_t>(mtc::kRunCodes + (plies + 1) / 2);
        }
        // Don't-care positions become runs "below the threshold" (0).
        if (!t.dont_care.empty()) {
            for (std::size_t i = 0; i < bytes.size(); ++i) {
                if ((t.dont_care[i / 64] >> (i % 64)) & 1U) bytes[i] = 0;
            }
        }
        sides.push_back({t.slice, t.side_to_move, std::move(bytes)});
    }
    return write_database(directory, DbType::MtcRunlen, std::move(sides), *make_mtc_encoder(), options);
}

}  // namespace egdb::kingsrow
