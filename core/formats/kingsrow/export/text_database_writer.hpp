// The file layer shared by the RUNLEN, TUN_V1, TUN_V2 and MTC writers (kingsrow-format.md 3.1,
// 3.2, 12.4, 17): it takes one stored (slice, side to move) at a time, already reduced to the
// bytes its format's encoder codes, splits it into subslices, appends each subslice's stream to
// the data file on disk and its record to the text index, and closes a file as soon as a table
// of the next file arrives. Memory is one table's values plus the index text of the open file,
// whatever the size of the database; the identifying CRC is forced when everything is written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/formats/kingsrow/result.hpp"
#include "core/formats/kingsrow/codecs/stream_encoder.hpp"
#include "core/index/slice.hpp"

namespace egdb::kingsrow {

struct WriterOptions {
    // Tunstall formats: codes trial-encoded to rank each catalog / value-map candidate.
    int catalog_trial_codes = 64;
    // Force the identifying index file's CRC-32 so that upstream egdb_open accepts the directory.
    bool force_identification_crc = true;
};

struct WriteReport {
    std::vector<std::string> files;  // written, index and data
    std::uint64_t index_bytes = 0;
    std::uint64_t data_bytes = 0;
    std::uint64_t positions = 0;     // stored (slice, side) positions
    int max_pieces = 0;
    std::optional<IdentificationRow> identification;  // the row whose CRC was forced
};

class TextDatabaseWriter {
public:
    // `encoder` codes the streams of `type` (RUNLEN, TUN_V1, TUN_V2 or MTC) and must outlive the
    // writer. The directory is created if needed.
    TextDatabaseWriter(std::filesystem::path directory, DbType type, const StreamEncoder& encoder,
                       const WriterOptions& options);

    // Appends the table of one canonical (slice, side to move): one byte per index, what the
    // encoder takes (don't-care positions already filled). Tables must arrive in strictly
    // increasing table_place order. Throws std::invalid_argument (order, size, piece count),
    // FileError.
    void add(SliceId slice, Color side_to_move, std::span<const std::uint8_t> values);

    // Closes the last file and forces the identifying CRC (12.4). Call once, after the last add.
    WriteReport finish();

private:
    struct Record {
        SliceId slice;
        std::uint32_t subslice = 0;
        Color side = Color::Black;
        int single_value = -1;
        std::uint64_t start = 0;
        std::vector<std::uint32_t> unit_starts;
        StreamCoding coding;
    };
    // The last subslice of the open file when it held one value everywhere, kept so that a file
    // made only of such subslices can turn it into the data record 3.2 rule 4 requires.
    struct ConstantSubslice {
        Record record;
        std::uint64_t length = 0;
        std::uint8_t value = 0;
        bool recorded = false;  // a single-value record was written for it
    };

    void open_file(SliceId slice);
    void close_file();
    void write_stream(Record record, std::span<const std::uint8_t> values);
    std::string index_text() const;

    std::filesystem::path directory_;
    DbType type_;
    const FormatTraits& traits_;
    const StreamEncoder& encoder_;
    WriterOptions options_;
    WriteReport report_;
    std::optional<TablePlace> last_place_;

    // The open file.
    std::string base_name_;
    int file_pieces_ = 0;
    std::ofstream data_;
    std::uint64_t data_bytes_ = 0;
    std::vector<std::uint8_t> pending_;  // data bytes not yet written to data_
    std::vector<Record> records_;
    bool any_data_ = false;
    std::optional<ConstantSubslice> last_constant_;
};

}  // namespace egdb::kingsrow
