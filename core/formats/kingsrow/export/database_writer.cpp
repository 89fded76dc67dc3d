#include "core/formats/kingsrow/export/database_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/formats/kingsrow/codecs/mtc_codec.hpp"
#include "core/util/error.hpp"

namespace egdb::kingsrow {
namespace {

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

void check_slice(SliceId slice) {
    if (!is_indexable(slice) || !is_canonical(slice) || slice.black() == 0 || slice.white() == 0) {
        throw InvalidArgumentError("slice " + slice.to_string() + " is not a canonical slice with both sides present");
    }
}

void check_table(SliceId slice, std::size_t values, std::size_t dont_care_words) {
    check_slice(slice);
    if (values != slice_size(slice)) {
        throw InvalidArgumentError("slice " + slice.to_string() + " needs " + std::to_string(slice_size(slice)) +
                                    " values, got " + std::to_string(values));
    }
    if (dont_care_words != 0 && dont_care_words != (values + 63) / 64) {
        throw InvalidArgumentError("slice " + slice.to_string() + ": the don't-care bitset has the wrong size");
    }
}

std::unique_ptr<StreamEncoder> wld_encoder(DbType type, const WriterOptions& options) {
    switch (type) {
        case DbType::WldRunlen: return make_runlen_encoder();
        case DbType::WldTunV1: return make_tunstall_v1_encoder(options.catalog_trial_codes);
        case DbType::WldTunV2: return make_tunstall_v2_encoder(options.catalog_trial_codes);
        default: throw InvalidArgumentError(std::string(name_of(type)) + " is not a WLD type this writer writes");
    }
}

// The tables in the order the streaming writers take them; a table given twice stays twice, for
// the writer to reject.
template <class Table>
std::vector<const Table*> in_file_order(std::span<const Table> tables) {
    std::vector<const Table*> ordered;
    for (const Table& t : tables) {
        check_slice(t.slice);
        ordered.push_back(&t);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Table* a, const Table* b) {
        return table_place(a->slice, a->side_to_move) < table_place(b->slice, b->side_to_move);
    });
    return ordered;
}

}  // namespace

WldDatabaseWriter::WldDatabaseWriter(const std::filesystem::path& directory, DbType type, const WriterOptions& options)
    : type_(type), encoder_(wld_encoder(type, options)), files_(directory, type, *encoder_, options) {}

void WldDatabaseWriter::add(const WldTable& t) {
    check_table(t.slice, t.values.size(), t.dont_care.size());
    if (is_color_symmetric(t.slice) && t.side_to_move == Color::White) return;  // never read (1.5)
    std::vector<std::uint8_t> values(t.values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int v = to_code(t.values[i]);
        if (v < 0 || v > 5) throw InvalidArgumentError("slice " + t.slice.to_string() + ": value " + std::to_string(v) + " cannot be stored");
        values[i] = static_cast<std::uint8_t>(v);
    }
    files_.add(t.slice, t.side_to_move, fill_dont_care(std::move(values), t.dont_care));
}

WriteReport WldDatabaseWriter::finish() { return files_.finish(); }

MtcDatabaseWriter::MtcDatabaseWriter(const std::filesystem::path& directory, const WriterOptions& options)
    : encoder_(make_mtc_encoder()), files_(directory, DbType::MtcRunlen, *encoder_, options) {}

void MtcDatabaseWriter::add(const MtcTable& t) {
    check_table(t.slice, t.plies.size(), t.dont_care.size());
    if (is_color_symmetric(t.slice) && t.side_to_move == Color::White) return;
    std::vector<std::uint8_t> bytes(t.plies.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const int plies = t.plies[i];
        if (plies > mtc::kMaxStoredMtc) {
            throw InvalidArgumentError("slice " + t.slice.to_string() + ": MTC " + std::to_string(plies) +
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
    files_.add(t.slice, t.side_to_move, bytes);
}

WriteReport MtcDatabaseWriter::finish() { return files_.finish(); }

WriteReport write_wld_database(const std::filesystem::path& directory, DbType type, std::span<const WldTable> tables,
                               const WriterOptions& options) {
    WldDatabaseWriter writer(directory, type, options);
    for (const WldTable* t : in_file_order(tables)) writer.add(*t);
    return writer.finish();
}

WriteReport write_mtc_database(const std::filesystem::path& directory, std::span<const MtcTable> tables,
                               const WriterOptions& options) {
    MtcDatabaseWriter writer(directory, options);
    for (const MtcTable* t : in_file_order(tables)) writer.add(*t);
    return writer.finish();
}

}  // namespace egdb::kingsrow
