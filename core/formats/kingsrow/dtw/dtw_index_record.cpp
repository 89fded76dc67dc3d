#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"

#include "core/formats/kingsrow/dtw/dtw_format.hpp"
#include "core/util/little_endian.hpp"

namespace egdb::kingsrow {

std::string DtwIndexRecord::describe() const {
    return "db" + std::to_string(slice.total()) + "-" + slice.to_string() + " subslice " + std::to_string(subslice) +
           (side_to_move == Color::Black ? " black" : " white") + " to move";
}

namespace {

// Bytes of a record before the rules: npieces, 4 counts, colour, subslice, permutation.
constexpr std::size_t kHeaderBytes = 9;
// The file ends when fewer than this many bytes remain (upstream reads 6 bytes first).
constexpr std::size_t kMinimumRecordStart = 6;

constexpr std::size_t packed_lengths_bytes(std::uint64_t miniblocks) noexcept {
    return static_cast<std::size_t>((kDtwLengthFieldBits * miniblocks + 7) / 8);
}

// Sequential reader over the index image that reports short reads with the record's context.
class RecordCursor {
public:
    RecordCursor(std::span<const std::byte> bytes, const std::string& file_name)
        : bytes_(bytes), file_name_(file_name) {}

    std::size_t offset() const noexcept { return offset_; }
    std::size_t remaining() const noexcept { return bytes_.size() - offset_; }
    void start_record(std::size_t number) noexcept {
        record_number_ = number;
        record_offset_ = offset_;
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw CorruptDataError(file_name_ + ": record " + std::to_string(record_number_) + " (at byte " +
                             std::to_string(record_offset_) + "): " + what);
    }

    void need(std::size_t n, const char* field) const {
        if (remaining() < n) {
            fail(std::string("truncated in field '") + field + "' (needs " + std::to_string(n) + " bytes, " +
                 std::to_string(remaining()) + " left)");
        }
    }

    template <class T>
    T read(const char* field) {
        need(sizeof(T), field);
        const T value = load_le<T>(bytes_, offset_);
        offset_ += sizeof(T);
        return value;
    }

    std::span<const std::byte> take(std::size_t n, const char* field) {
        need(n, field);
        const auto span = bytes_.subspan(offset_, n);
        offset_ += n;
        return span;
    }

private:
    std::span<const std::byte> bytes_;
    const std::string& file_name_;
    std::size_t offset_ = 0;
    std::size_t record_number_ = 0;
    std::size_t record_offset_ = 0;
};

}  // namespace

std::vector<DtwIndexRecord> parse_dtw_index(std::span<const std::byte> bytes, const std::string& file_name) {
    std::vector<DtwIndexRecord> records;
    RecordCursor in(bytes, file_name);
    while (in.remaining() >= kMinimumRecordStart) {
        in.start_record(records.size());
        DtwIndexRecord r;
        in.need(kHeaderBytes, "header");
        const auto npieces = in.read<std::uint8_t>("npieces");
        r.slice.nbm = in.read<std::uint8_t>("nbm");
        r.slice.nbk = in.read<std::uint8_t>("nbk");
        r.slice.nwm = in.read<std::uint8_t>("nwm");
        r.slice.nwk = in.read<std::uint8_t>("nwk");
        if (npieces != r.slice.total()) {
            in.fail("npieces " + std::to_string(npieces) + " is not nbm+nbk+nwm+nwk = " +
                    std::to_string(r.slice.total()));
        }
        // The counts must name an endgame the index can hold (fuzz_kingsrow_index: 255 black men
        // and npieces 255 passed as a record).
        if (!is_indexable(r.slice)) {
            in.fail("piece counts " + std::to_string(r.slice.nbm) + " " + std::to_string(r.slice.nbk) + " " +
                    std::to_string(r.slice.nwm) + " " + std::to_string(r.slice.nwk) + " name no endgame of at most " +
                    std::to_string(kMaxPiecesPerSide) + " pieces a side");
        }
        const auto colour = in.read<std::uint8_t>("colour");
        if (colour > 1) in.fail("colour " + std::to_string(colour) + " (must be 0 or 1)");
        r.side_to_move = colour == 0 ? Color::Black : Color::White;
        r.subslice = in.read<std::uint16_t>("subslice");
        r.permutation = in.read<std::uint8_t>("permutation");

        const auto rule_count = in.read<std::uint16_t>("nrules");
        const auto rules = in.take(4 * std::size_t{rule_count}, "rules");
        r.rules.resize(rule_count);
        for (std::size_t i = 0; i < rule_count; ++i) {
            r.rules[i] = {load_le<std::uint16_t>(rules, 4 * i), load_le<std::uint16_t>(rules, 4 * i + 2)};
        }
        const auto huffman_count = in.read<std::uint16_t>("nhuff");
        const auto huffman = in.take(3 * std::size_t{huffman_count}, "huffman table");
        r.huffman.resize(huffman_count);
        for (std::size_t i = 0; i < huffman_count; ++i) {
            r.huffman[i] = {load_le<std::uint16_t>(huffman, 3 * i), static_cast<std::uint8_t>(huffman[3 * i + 2])};
        }
        r.first_block = static_cast<std::int32_t>(in.read<std::uint32_t>("first_block"));
        r.first_miniblock = in.read<std::uint16_t>("first_mini");
        r.block_count = static_cast<std::int32_t>(in.read<std::uint32_t>("nblocks"));
        const auto miniblocks = in.read<std::uint32_t>("nminis");
        if (r.first_block < 0) in.fail("negative first block " + std::to_string(r.first_block));
        if (r.first_miniblock >= kDtwMiniblocksPerBlock) {
            in.fail("first miniblock slot " + std::to_string(r.first_miniblock) + " (must be 0..7)");
        }
        if (miniblocks == 0) in.fail("no miniblocks");
        const std::int64_t expected_blocks = dtw_blocks_touched(r.first_global_miniblock(), miniblocks);
        if (r.block_count != expected_blocks) {
            in.fail("nblocks " + std::to_string(r.block_count) + " does not match the " + std::to_string(miniblocks) +
                    " miniblocks from block " + std::to_string(r.first_block) + " slot " +
                    std::to_string(r.first_miniblock) + " (expected " + std::to_string(expected_blocks) + ")");
        }
        const auto packed = in.take(packed_lengths_bytes(miniblocks), "miniblock lengths");
        r.miniblock_positions.resize(miniblocks);
        for (std::uint64_t i = 0; i < miniblocks; ++i) {
            // 17-bit fields, LSB first: field i is stream bits 17i..17i+16, stream bit t being bit
            // t mod 8 of byte t div 8. Three bytes always cover a field.
            const std::uint64_t bit = kDtwLengthFieldBits * i;
            const std::size_t byte = static_cast<std::size_t>(bit / 8);
            std::uint32_t window = 0;
            for (std::size_t k = 0; k < 3 && byte + k < packed.size(); ++k) {
                window |= std::uint32_t{static_cast<std::uint8_t>(packed[byte + k])} << (8 * k);
            }
            r.miniblock_positions[i] = (window >> (bit % 8)) & kDtwMaxMiniblockPositions;
        }
        records.push_back(std::move(r));
    }
    return records;
}

void append_dtw_index_record(const DtwIndexRecord& record, std::vector<std::byte>& out) {
    const SliceId s = record.slice;
    for (const int v : {s.total(), s.nbm, s.nbk, s.nwm, s.nwk}) append_le<std::uint8_t>(out, static_cast<std::uint8_t>(v));
    append_le<std::uint8_t>(out, record.side_to_move == Color::Black ? 0 : 1);
    append_le<std::uint16_t>(out, record.subslice);
    append_le<std::uint8_t>(out, record.permutation);
    append_le<std::uint16_t>(out, static_cast<std::uint16_t>(record.rules.size()));
    for (const RePairRule& rule : record.rules) {
        append_le<std::uint16_t>(out, rule.left);
        append_le<std::uint16_t>(out, rule.right);
    }
    append_le<std::uint16_t>(out, static_cast<std::uint16_t>(record.huffman.size()));
    for (const HuffmanEntry& e : record.huffman) {
        append_le<std::uint16_t>(out, e.symbol);
        append_le<std::uint8_t>(out, e.length);
    }
    append_le<std::uint32_t>(out, static_cast<std::uint32_t>(record.first_block));
    append_le<std::uint16_t>(out, record.first_miniblock);
    append_le<std::uint32_t>(out, static_cast<std::uint32_t>(record.block_count));
    append_le<std::uint32_t>(out, static_cast<std::uint32_t>(record.miniblock_positions.size()));
    const std::size_t start = out.size();
    out.resize(start + packed_lengths_bytes(record.miniblock_positions.size()), std::byte{0});
    for (std::size_t i = 0; i < record.miniblock_positions.size(); ++i) {
        const std::uint64_t value = record.miniblock_positions[i] & kDtwMaxMiniblockPositions;
        for (unsigned b = 0; b < kDtwLengthFieldBits; ++b) {
            if (((value >> b) & 1U) == 0) continue;
            const std::uint64_t bit = kDtwLengthFieldBits * i + b;
            out[start + bit / 8] |= static_cast<std::byte>(1U << (bit % 8));
        }
    }
}

}  // namespace egdb::kingsrow
