// Known-byte tests of the Kingsrow codecs (kingsrow-format.md sections 3.2, 6, 7, 8, 12.4, 12.5).
// Every expected byte, value and field below was worked out by hand from the format description,
// never by running the code under test and never copied from a file the project wrote, so a rule
// misread the same way by a writer and its reader still fails here. The round trips of
// kingsrow_format_test.cpp and kingsrow_dtw_test.cpp cannot see such a mistake.
//
// The Tunstall codecs (TUN_V1, TUN_V2) are left out: their meaning lives in the catalog tables of
// section 10, which a build may not have, and no byte of them can be derived without the tables.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/kingsrow/codecs/mtc_codec.hpp"
#include "core/formats/kingsrow/codecs/runlen_codec.hpp"
#include "core/formats/kingsrow/codecs/stream_encoder.hpp"
#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/formats/kingsrow/dtw/dtw_subslice.hpp"
#include "core/formats/kingsrow/dtw/dtw_writer.hpp"
#include "core/formats/kingsrow/dtw/huffman_code.hpp"
#include "core/formats/kingsrow/dtw/miniblock_bits.hpp"
#include "core/formats/kingsrow/dtw/repair_grammar.hpp"
#include "core/formats/kingsrow/text_index/text_index.hpp"

namespace egdb::kingsrow {
namespace {

// ---- helpers ----------------------------------------------------------------------------------

std::vector<std::byte> bytes_of(std::initializer_list<std::uint8_t> values) {
    std::vector<std::byte> out;
    for (const std::uint8_t v : values) out.push_back(static_cast<std::byte>(v));
    return out;
}

std::vector<std::byte> bytes_of(std::string_view text) {
    const auto bytes = std::as_bytes(std::span(text.data(), text.size()));
    return {bytes.begin(), bytes.end()};
}

// The value at local index x of a stream, by the scan of 6.2 / 7.4 (forward from the first byte,
// accumulating the positions each byte covers until the byte covering x): the reader's rule,
// written here independently of its block machinery. -1 when the stream ends before x.
template <class Codec>
int decode_at(const Codec& codec, BlockCoding coding, std::span<const std::uint8_t> stream, std::uint64_t x) {
    std::uint64_t n0 = 0;
    for (const std::uint8_t code : stream) {
        const std::uint32_t covered = codec.positions(coding, code);
        if (n0 + covered > x) return codec.value(coding, code, static_cast<std::uint32_t>(x - n0));
        n0 += covered;
    }
    return -1;
}

std::vector<std::uint8_t> repeat(std::uint8_t value, std::size_t count) { return std::vector<std::uint8_t>(count, value); }

std::vector<std::uint8_t> concat(std::initializer_list<std::vector<std::uint8_t>> parts) {
    std::vector<std::uint8_t> out;
    for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
    return out;
}

// One stream encoded from file offset `at` in index units of `unit` bytes.
struct Encoded {
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint32_t> unit_starts;
    std::uint64_t covered = 0;
    StreamCoding coding;
};

Encoded encode(const StreamEncoder& encoder, std::span<const std::uint8_t> values, std::uint64_t at = 0,
               std::uint64_t unit = 1024) {
    Encoded e;
    StreamSink sink(e.bytes, at, unit);
    e.coding = encoder.encode(values, sink);
    e.unit_starts = sink.unit_starts();
    e.covered = sink.covered();
    return e;
}

// The coding RunlenCodec picks for a record with or without the "haspartials" comment (6.1).
BlockCoding runlen_coding(bool has_partials) {
    IndexRecord record;
    record.has_partials = has_partials;
    return RunlenCodec{}.coding_of(record, 0, "test.idx");
}

// ---- 6.2: RUNLEN, complete (three-valued) subslices --------------------------------------------

TEST(KingsrowCodecBytes, RunlenCompleteBytesMeanWhatTheTableSays) {
    const RunlenCodec codec;
    const BlockCoding complete = runlen_coding(false);
    struct Case {
        std::uint8_t code;
        std::uint32_t positions;
        std::array<int, 4> values;  // the value at offsets 0..min(positions,4)-1
    };
    // Literals 0..80 (6.2): 4 positions, position j has value floor(b / 3^j) mod 3 + 1.
    // Runs 81..255: SKIP[(b-81) mod 58] positions of value floor((b-81)/58) + 1.
    const std::vector<Case> cases = {
        {0x00, 4, {1, 1, 1, 1}},         // 0: every digit 0 -> WIN WIN WIN WIN
        {0x22, 4, {2, 3, 1, 2}},         // 34 = 1 + 2*3 + 0*9 + 1*27 -> LOSS DRAW WIN LOSS
        {0x3A, 4, {2, 2, 1, 3}},         // 58 = 1 + 1*3 + 0*9 + 2*27 -> LOSS LOSS WIN DRAW
        {0x50, 4, {3, 3, 3, 3}},         // 80 = 2 + 2*3 + 2*9 + 2*27 -> DRAW x4, the last literal
        {0x51, 5, {1, 1, 1, 1}},         // 81: (81-81) = 0 -> SKIP[0] = 5 WINs, the first run
        {0x53, 7, {1, 1, 1, 1}},         // 83: 2 -> SKIP[2] = 7 WINs
        {0x8A, 10000, {1, 1, 1, 1}},     // 138: 57 -> SKIP[57] = 10000 WINs, the last WIN run
        {0x8B, 5, {2, 2, 2, 2}},         // 139: 58 = 1*58 + 0 -> SKIP[0] = 5 LOSSes
        {0xB3, 200, {2, 2, 2, 2}},       // 179: 98 = 1*58 + 40 -> SKIP[40] = 200 LOSSes
        {0xC5, 5, {3, 3, 3, 3}},         // 197: 116 = 2*58 + 0 -> SKIP[0] = 5 DRAWs
        {0xCC, 12, {3, 3, 3, 3}},        // 204: 123 = 2*58 + 7 -> SKIP[7] = 12 DRAWs
        {0xFE, 10000, {3, 3, 3, 3}},     // 254: 173 = 2*58 + 57 -> SKIP[57] = 10000 DRAWs
        {0xFF, 5, {4, 4, 4, 4}},         // 255: 174 = 3*58 + 0 -> "value 4 with run 5" (6.2)
    };
    for (const Case& c : cases) {
        EXPECT_EQ(codec.positions(complete, c.code), c.positions) << "byte " << int{c.code};
        for (std::uint32_t j = 0; j < 4; ++j) {
            EXPECT_EQ(codec.value(complete, c.code, j), c.values[j]) << "byte " << int{c.code} << " offset " << j;
        }
    }
    // A run returns its value at its last offset too.
    EXPECT_EQ(codec.value(complete, 0xB3, 199), 2);
    EXPECT_EQ(codec.value(complete, 0xFE, 9999), 3);
}

TEST(KingsrowCodecBytes, RunlenCompleteStreamScanFindsTheCoveringByte) {
    // 6.2 decoding: bytes cover 4 (literal) or SKIP[..] (run) positions each, in order.
    //   0x22 literal    -> positions 0..3       = LOSS DRAW WIN LOSS
    //   0x51 run 5 WIN  -> positions 4..8
    //   0xB3 run 200 L  -> positions 9..208
    //   0x3A literal    -> positions 209..212   = LOSS LOSS WIN DRAW
    //   0xFE run 10000 D-> positions 213..10212
    const std::vector<std::uint8_t> stream = {0x22, 0x51, 0xB3, 0x3A, 0xFE};
    const RunlenCodec codec;
    const BlockCoding complete = runlen_coding(false);
    const std::vector<std::pair<std::uint64_t, int>> expected = {
        {0, 2},   {1, 3},   {2, 1},   {3, 2},   {4, 1},   {8, 1},     {9, 2},     {208, 2},
        {209, 2}, {210, 2}, {211, 1}, {212, 3}, {213, 3}, {5000, 3},  {10212, 3}, {10213, -1},
    };
    for (const auto& [x, value] : expected) EXPECT_EQ(decode_at(codec, complete, stream, x), value) << "x " << x;
}

TEST(KingsrowCodecBytes, RunlenEncoderWritesTheGreedyCompleteBytes) {
    // Values (6.2: 1 WIN, 2 LOSS, 3 DRAW): 7 WIN, LOSS DRAW WIN LOSS, 66 LOSS, 12 DRAW, WIN WIN.
    // Greedy coder of 6.2 (run codes for runs >= 5 with the largest SKIP not above the run):
    //   7 WIN        -> SKIP[2] = 7:            81 + 0*58 + 2  = 83  = 0x53
    //   L D W L      -> run of 1 < 5, literal:  1 + 2*3 + 0*9 + 1*27 = 34 = 0x22
    //   66 LOSS      -> SKIP[34] = 60:          81 + 1*58 + 34 = 173 = 0xAD
    //                   6 left, SKIP[1] = 6:    81 + 1*58 + 1  = 140 = 0x8C
    //   12 DRAW      -> SKIP[7] = 12:           81 + 2*58 + 7  = 204 = 0xCC
    //   W W          -> literal, the 2 positions past the end as digit 0 (any value may fill
    //                   them, 6.2 "a final literal may overrun"): 0 = 0x00
    const std::vector<std::uint8_t> values =
        concat({repeat(1, 7), {2, 3, 1, 2}, repeat(2, 66), repeat(3, 12), {1, 1}});
    const Encoded e = encode(*make_runlen_encoder(), values);
    EXPECT_EQ(e.bytes, (std::vector<std::uint8_t>{0x53, 0x22, 0xAD, 0x8C, 0xCC, 0x00}));
    EXPECT_FALSE(e.coding.has_partials) << "values 1..3 only: the complete coding (6.1)";
    EXPECT_EQ(e.covered, 7U + 4 + 60 + 6 + 12 + 4);
    EXPECT_TRUE(e.unit_starts.empty()) << "6 bytes from offset 0 cross no 1024-byte unit";
}

// ---- 6.2: RUNLEN, incomplete ("haspartials") subslices -----------------------------------------

TEST(KingsrowCodecBytes, RunlenPartialBytesMeanWhatTheTableSays) {
    const RunlenCodec codec;
    const BlockCoding partial = runlen_coding(true);
    EXPECT_NE(partial.table, runlen_coding(false).table) << "haspartials selects the six-valued table (6.1)";
    struct Case {
        std::uint8_t code;
        std::uint32_t positions;
        std::array<int, 2> values;  // the value at offsets 0 and 1
    };
    // Literals 0..35 (6.2): 2 positions, position j has value floor(b / 6^j) mod 6 (the EGDB
    // constant: 0 unknown, 1 win, 2 loss, 3 draw, 4 draw-or-loss, 5 win-or-draw).
    // Runs 36..255: SKIP_INC[(b-36) mod 36] positions of value floor((b-36)/36);
    // SKIP_INC = 3, 4, ..., 35 (indices 0..32), 70, 106, 500 (indices 33..35).
    const std::vector<Case> cases = {
        {0x00, 2, {0, 0}},      // 0 -> UNKNOWN UNKNOWN
        {0x0D, 2, {1, 2}},      // 13 = 1 + 2*6 -> WIN LOSS
        {0x1A, 2, {2, 4}},      // 26 = 2 + 4*6 -> LOSS DRAW_OR_LOSS
        {0x23, 2, {5, 5}},      // 35 = 5 + 5*6 -> WIN_OR_DRAW twice, the last literal
        {0x24, 3, {0, 0}},      // 36: 0 = 0*36 + 0 -> SKIP_INC[0] = 3 UNKNOWN, the first run
        {0x46, 106, {0, 0}},    // 70: 34 -> SKIP_INC[34] = 106 UNKNOWN
        {0x47, 500, {0, 0}},    // 71: 35 -> SKIP_INC[35] = 500 UNKNOWN
        {0x48, 3, {1, 1}},      // 72: 36 = 1*36 + 0 -> 3 WIN
        {0x69, 70, {1, 1}},     // 105: 69 = 1*36 + 33 -> SKIP_INC[33] = 70 WIN
        {0x8D, 70, {2, 2}},     // 141: 105 = 2*36 + 33 -> 70 LOSS
        {0xB4, 3, {4, 4}},      // 180: 144 = 4*36 + 0 -> 3 DRAW_OR_LOSS
        {0xE9, 20, {5, 5}},     // 233: 197 = 5*36 + 17 -> SKIP_INC[17] = 20 WIN_OR_DRAW
        {0xFB, 500, {5, 5}},    // 251: 215 = 5*36 + 35 -> 500 WIN_OR_DRAW, the last valid byte
    };
    for (const Case& c : cases) {
        EXPECT_EQ(codec.positions(partial, c.code), c.positions) << "byte " << int{c.code};
        for (std::uint32_t j = 0; j < 2; ++j) {
            EXPECT_EQ(codec.value(partial, c.code, j), c.values[j]) << "byte " << int{c.code} << " offset " << j;
        }
    }
    // 252..255 would have value 6, "undefined" (6.2). Their lengths still follow the rule:
    // 252: 216 = 6*36 + 0 -> 3 positions; 255: 219 = 6*36 + 3 -> SKIP_INC[3] = 6 positions. The
    // value is egdb's choice (runlen_codec.hpp: read as EGDB_UNKNOWN), not the format's.
    EXPECT_EQ(codec.positions(partial, 252), 3U);
    EXPECT_EQ(codec.positions(partial, 255), 6U);
    EXPECT_EQ(codec.value(partial, 252, 0), 0);
}

TEST(KingsrowCodecBytes, RunlenPartialStreamScanFindsTheCoveringByte) {
    //   0x0D literal          -> positions 0, 1         = WIN, LOSS
    //   0x47 run 500 UNKNOWN  -> positions 2..501
    //   0xFB run 500 WIN_OR_DRAW -> positions 502..1001
    //   0x1A literal          -> positions 1002, 1003   = LOSS, DRAW_OR_LOSS
    //   0x48 run 3 WIN        -> positions 1004..1006
    const std::vector<std::uint8_t> stream = {0x0D, 0x47, 0xFB, 0x1A, 0x48};
    const RunlenCodec codec;
    const BlockCoding partial = runlen_coding(true);
    const std::vector<std::pair<std::uint64_t, int>> expected = {
        {0, 1},    {1, 2},    {2, 0},    {501, 0},  {502, 5},  {1001, 5},
        {1002, 2}, {1003, 4}, {1004, 1}, {1006, 1}, {1007, -1},
    };
    for (const auto& [x, value] : expected) EXPECT_EQ(decode_at(codec, partial, stream, x), value) << "x " << x;
    // The same bytes read with the complete table mean something else entirely (0x0D = 13 is
    // the literal LOSS LOSS LOSS WIN there: 13 = 1 + 1*3 + 1*9 + 0*27), which is why the coding
    // must follow the record's haspartials comment.
    EXPECT_EQ(decode_at(codec, runlen_coding(false), stream, 0), 2);
    EXPECT_EQ(decode_at(codec, runlen_coding(false), stream, 3), 1);
}

TEST(KingsrowCodecBytes, RunlenEncoderWritesTheGreedyPartialBytes) {
    // Values 4 4 4, 5 0, 70 x 1, 106 x 0, 3. A value outside 1..3 forces the six-valued coding;
    // runs need >= 3 positions (SKIP_INC[0]) there (6.2):
    //   4 4 4     -> SKIP_INC[0] = 3:    36 + 4*36 + 0  = 180 = 0xB4
    //   5 0       -> run of 1, literal:  5 + 0*6        = 5   = 0x05
    //   70 WIN    -> SKIP_INC[33] = 70:  36 + 1*36 + 33 = 105 = 0x69
    //   106 UNKN. -> SKIP_INC[34] = 106: 36 + 0*36 + 34 = 70  = 0x46
    //   3         -> literal, the position past the end as 0: 3 + 0*6 = 3 = 0x03
    const std::vector<std::uint8_t> values = concat({{4, 4, 4, 5, 0}, repeat(1, 70), repeat(0, 106), {3}});
    const Encoded e = encode(*make_runlen_encoder(), values);
    EXPECT_TRUE(e.coding.has_partials);
    EXPECT_EQ(e.bytes, (std::vector<std::uint8_t>{0xB4, 0x05, 0x69, 0x46, 0x03}));
    EXPECT_EQ(e.covered, 3U + 2 + 70 + 106 + 2);
}

TEST(KingsrowCodecBytes, RunlenIndexLineIsTheLocalIndexAtEach1024ByteBoundary) {
    // 5.2 / 6.1: one integer per further 1024-byte block, the local index of the first position
    // encoded by the byte at offset 1024*(F1+k). A stream starting at file offset 1000 made of
    // literals (pattern WIN LOSS WIN LOSS: 0 + 1*3 + 0*9 + 1*27 = 30 = 0x1E, 4 positions each)
    // has its byte number 24 at offset 1024, after 24 * 4 = 96 positions.
    std::vector<std::uint8_t> values;
    for (int i = 0; i < 30; ++i) values.insert(values.end(), {1, 2, 1, 2});
    const Encoded e = encode(*make_runlen_encoder(), values, 1000, 1024);
    EXPECT_EQ(e.bytes, repeat(0x1E, 30));
    EXPECT_EQ(e.unit_starts, (std::vector<std::uint32_t>{96}));
    // The same stream at offset 0 reaches no boundary (30 bytes); at offset 1024 its first byte
    // sits on one, which is the header's F1/B1 and gets no line (5.2: "per additional block").
    EXPECT_TRUE(encode(*make_runlen_encoder(), values, 0, 1024).unit_starts.empty());
    EXPECT_TRUE(encode(*make_runlen_encoder(), values, 1024, 1024).unit_starts.empty());
}

// ---- 7.3 / 7.5: MTC ----------------------------------------------------------------------------

TEST(KingsrowCodecBytes, MtcBytesAreRunsBelowTheThresholdOrOneEvenValue) {
    const MtcCodec codec;
    const BlockCoding coding{};
    // 7.3: 0..93 are runs of MTC_SKIP[b] positions of MTC_LESS_THAN_THRESHOLD (1); MTC_SKIP
    // holds 1..50 at indices 0..49, then 100 (50), ..., 1000 (68), 2000 (69), ..., 10000 (77),
    // 20000 (78), ..., 70000 (83), 800000 (84), 90000 (85), ..., 1000000000 (93). (7.3's prose
    // puts the 800000 anomaly at "index 74", but its own list, counted, has it at 50 + 34 = 84;
    // index 74 holds 7000.)
    const std::vector<std::pair<std::uint8_t, std::uint32_t>> runs = {
        {0, 1},       {6, 7},        {49, 50},       {50, 100},     {68, 1000},
        {77, 10000},  {83, 70000},   {84, 800000},   {85, 90000},   {93, 1000000000},
    };
    for (const auto& [code, length] : runs) {
        EXPECT_EQ(codec.positions(coding, code), length) << "byte " << int{code};
        EXPECT_EQ(codec.value(coding, code, 0), 1) << "byte " << int{code};
    }
    // 94..255: one position of value 2*(b-94).
    const std::vector<std::pair<std::uint8_t, int>> singles = {{94, 0}, {99, 10}, {100, 12}, {160, 132}, {255, 322}};
    for (const auto& [code, value] : singles) {
        EXPECT_EQ(codec.positions(coding, code), 1U) << "byte " << int{code};
        EXPECT_EQ(codec.value(coding, code, 0), value) << "byte " << int{code};
    }
}

TEST(KingsrowCodecBytes, MtcStreamScanFindsTheCoveringByte) {
    //   0x31 = 49: run of 50 -> positions 0..49 below the threshold (1)
    //   0x63 = 99: MTC 10 at position 50
    //   0x54 = 84: run of 800000 (the anomalous entry) -> positions 51..800050
    //   0xFF = 255: MTC 322 at position 800051
    const std::vector<std::uint8_t> stream = {0x31, 0x63, 0x54, 0xFF};
    const MtcCodec codec;
    const std::vector<std::pair<std::uint64_t, int>> expected = {
        {0, 1}, {49, 1}, {50, 10}, {51, 1}, {800050, 1}, {800051, 322}, {800052, -1},
    };
    for (const auto& [x, value] : expected) EXPECT_EQ(decode_at(codec, BlockCoding{}, stream, x), value) << "x " << x;
}

TEST(KingsrowCodecBytes, MtcEncoderWritesGreedyRunsAndStoredBytes) {
    // The encoder takes the byte to store per position, 0 meaning "below the threshold"
    // (stream_encoder.hpp). 7.5: runs use the largest MTC_SKIP not above the remaining run.
    //   57 below  -> MTC_SKIP[49] = 50 (0x31), then 7 = MTC_SKIP[6] (0x06)
    //   0x63      -> stored as is (MTC 10)
    //   1 below   -> MTC_SKIP[0] = 1 (0x00)
    //   0xFF      -> stored as is (MTC 322)
    //   1050 below-> MTC_SKIP[68] = 1000 (0x44), then 50 = MTC_SKIP[49] (0x31)
    const std::vector<std::uint8_t> values = concat({repeat(0, 57), {0x63}, repeat(0, 1), {0xFF}, repeat(0, 1050)});
    const Encoded e = encode(*make_mtc_encoder(), values, 0, 4096);
    EXPECT_EQ(e.bytes, (std::vector<std::uint8_t>{0x31, 0x06, 0x63, 0x00, 0xFF, 0x44, 0x31}));
    EXPECT_EQ(e.covered, values.size()) << "MTC runs never overrun: MTC_SKIP holds every length 1..50";
}

TEST(KingsrowCodecBytes, MtcEncoderUsesTheAnomalous800000Entry) {
    // 7.3 keeps 800000 between 70000 and 90000; greedy coding (7.5) of 880000 below-threshold
    // positions takes it first: 800000 (byte 84 = 0x54), then 70000 (83 = 0x53), then 10000
    // (77 = 0x4D). With 80000 in that slot the greedy coder would start with 300000 (byte 87).
    const Encoded long_run = encode(*make_mtc_encoder(), repeat(0, 880000), 0, 4096);
    EXPECT_EQ(long_run.bytes, (std::vector<std::uint8_t>{0x54, 0x53, 0x4D}));
    // 80000 itself is not in the table: 70000 (0x53) + 10000 (0x4D).
    const Encoded eighty = encode(*make_mtc_encoder(), repeat(0, 80000), 0, 4096);
    EXPECT_EQ(eighty.bytes, (std::vector<std::uint8_t>{0x53, 0x4D}));
}

// ---- 12.5 / 12.4: CRC-32 -----------------------------------------------------------------------

TEST(KingsrowCrcBytes, StandardIeeeCheckValues) {
    // 12.5: the zlib / IEEE 802.3 CRC-32; these are its published check values.
    const std::vector<std::pair<std::string_view, std::uint32_t>> cases = {
        {"", 0x00000000U},
        {"a", 0xE8B7BE43U},
        {"abc", 0x352441C2U},
        {"message digest", 0x20159D7FU},
        {"abcdefghijklmnopqrstuvwxyz", 0x4C2750BDU},
        {"The quick brown fox jumps over the lazy dog", 0x414FA339U},
    };
    for (const auto& [text, crc] : cases) EXPECT_EQ(crc32(bytes_of(text)), crc) << '"' << text << '"';
    // Four zero bytes: the CRC-32 residue constant ~0xDEBB20E3 = 0x2144DF1C. Four 0xFF bytes
    // cancel the initial register 0xFFFFFFFF exactly (each step indexes table entry 0), leaving
    // 0, and the final XOR gives 0xFFFFFFFF.
    EXPECT_EQ(crc32(bytes_of({0, 0, 0, 0})), 0x2144DF1CU);
    EXPECT_EQ(crc32(bytes_of({0xFF, 0xFF, 0xFF, 0xFF})), 0xFFFFFFFFU);
    // Continuing from a previous CRC (zlib's crc32(crc, buf, len)) equals the CRC of the whole.
    EXPECT_EQ(crc32(bytes_of("6789"), crc32(bytes_of("12345"))), 0xCBF43926U);
}

TEST(KingsrowCrcBytes, ForcingSuffixesWithKnownAnswers) {
    // 12.4: four appended bytes force any CRC; the map from suffix to CRC is a bijection, so the
    // answer is unique and these follow from the values above:
    //  * "" (CRC 0) + 00 00 00 00 gives 0x2144DF1C, and + FF FF FF FF gives 0xFFFFFFFF;
    //  * any message followed by its own CRC, little-endian, gives the residue 0x2144DF1C, so for
    //    "123456789" (0xCBF43926) the suffix is 26 39 F4 CB.
    EXPECT_EQ(crc32_forcing_bytes(0, 0x2144DF1CU), (std::array<std::byte, 4>{}));
    const std::array<std::byte, 4> ones{std::byte{0xFF}, std::byte{0xFF}, std::byte{0xFF}, std::byte{0xFF}};
    EXPECT_EQ(crc32_forcing_bytes(0, 0xFFFFFFFFU), ones);
    const std::array<std::byte, 4> own_crc{std::byte{0x26}, std::byte{0x39}, std::byte{0xF4}, std::byte{0xCB}};
    EXPECT_EQ(crc32_forcing_bytes(0xCBF43926U, 0x2144DF1CU), own_crc);
}

// ---- 3.2 and the dialects (4.2, 5.2, 6.1, 7.2): text index records ----------------------------

std::vector<IndexRecord> parse(std::string_view text, IndexDialect dialect) {
    return parse_text_index(text, dialect, "db3.idx");
}

std::string parse_error(std::string_view text, IndexDialect dialect) {
    try {
        parse_text_index(text, dialect, "db3.idx");
    } catch (const IndexFileError& e) {
        return e.what();
    }
    return "no error";
}

TEST(KingsrowTextIndexBytes, RunlenRecordsFromHandWrittenLines) {
    // Line 1: a data record: slice (2,0,1,0), subslice 0, Black to move, stream in 1024-byte
    //   block 3 at offset 17 (6.1 = 5.2 syntax), "haspartials" comment (six-valued coding),
    //   two further blocks starting at local indices 4096 and 8200.
    // Line 5: a single-value record, '=' = EGDB_DRAW (3), colour 'x' = White (any non-'b', 3.2),
    //   numbers in %i syntax: "02" octal 2, "0x1" hexadecimal 1 (3.2).
    // Line 6: '.' = EGDB_UNKNOWN (0), leading whitespace allowed before BASE.
    const std::string_view text =
        "BASE2,0,1,0,0,b:3/17\n"
        "#haspartials\n"
        "4096\n"
        "8200\n"
        "BASE02,0,0x1,0,1,x:=\r\n"
        "   BASE1,0,1,0,0,w:.\n";
    const std::vector<IndexRecord> records = parse(text, IndexDialect::Runlen);
    ASSERT_EQ(records.size(), 3U);

    const IndexRecord& data = records[0];
    EXPECT_EQ(data.line, 1);
    EXPECT_EQ(data.slice, (SliceId{2, 0, 1, 0}));
    EXPECT_EQ(data.subslice, 0U);
    EXPECT_EQ(data.side_to_move, Color::Black);
    EXPECT_TRUE(data.is_data());
    EXPECT_EQ(data.first_block, 3U);
    EXPECT_EQ(data.first_offset, 17U);
    EXPECT_EQ(data.block_starts, (std::vector<std::uint32_t>{4096, 8200}));
    EXPECT_TRUE(data.has_partials);
    EXPECT_EQ(RunlenCodec{}.coding_of(data, 0, "db3.idx").table, runlen_coding(true).table);

    EXPECT_EQ(records[1].line, 5);
    EXPECT_EQ(records[1].slice, (SliceId{2, 0, 1, 0}));
    EXPECT_EQ(records[1].subslice, 1U);
    EXPECT_EQ(records[1].side_to_move, Color::White);
    EXPECT_EQ(records[1].single_value, 3);

    EXPECT_EQ(records[2].line, 6);
    EXPECT_EQ(records[2].slice, (SliceId{1, 0, 1, 0}));
    EXPECT_EQ(records[2].single_value, 0);
    EXPECT_FALSE(records[2].has_partials);
}

TEST(KingsrowTextIndexBytes, TunV1V2AndMtcRecordsFromHandWrittenLines) {
    // 5.2: V1, 1024-byte block 9 offset 1000, an info comment, a 6-value vmap comment (catalog
    // 13, virtual value v -> the v-th number), then one J per further block.
    const std::vector<IndexRecord> v1 = parse(
        "BASE2,0,1,0,0,w:9/1000\n#built by hand\n#vmap 13: 1,2,3,0,4,5\n1234\n5678\n", IndexDialect::TunV1);
    ASSERT_EQ(v1.size(), 1U);
    EXPECT_EQ(v1[0].first_block, 9U);
    EXPECT_EQ(v1[0].first_offset, 1000U);
    EXPECT_TRUE(v1[0].has_vmap);
    EXPECT_EQ(v1[0].vmap_catalog, 13);
    EXPECT_EQ(v1[0].vmap_size, 6);
    EXPECT_EQ(v1[0].vmap_values, (std::array<std::uint8_t, 6>{1, 2, 3, 0, 4, 5}));
    EXPECT_EQ(v1[0].block_starts, (std::vector<std::uint32_t>{1234, 5678}));
    // 5.2: a vmap with 4 values is ignored (only 3 or 6 count): catalog 0, no map.
    const std::vector<IndexRecord> v1_ignored = parse("BASE2,0,1,0,0,w:0/0\n#vmap 2: 3,1,2,0\n", IndexDialect::TunV1);
    ASSERT_EQ(v1_ignored.size(), 1U);
    EXPECT_FALSE(v1_ignored[0].has_vmap);

    // 4.2: V2, 4096-byte block 3 offset 4000, catalog 31 and vmap 228 for the first block;
    // "I,cat,vmap" for the next. 228 = 0 + 4*1 + 16*2 + 64*3 is the identity permutation (4.5),
    // 27 = 3 + 4*2 + 16*1 + 64*0 the reversal.
    const std::vector<IndexRecord> v2 = parse("BASE2,0,1,0,0,b:3/4000,31,228\n123456,7,27\n", IndexDialect::TunV2);
    ASSERT_EQ(v2.size(), 1U);
    EXPECT_EQ(v2[0].first_block, 3U);
    EXPECT_EQ(v2[0].first_offset, 4000U);
    EXPECT_EQ(v2[0].catalogs, (std::vector<std::uint8_t>{31, 7}));
    EXPECT_EQ(v2[0].value_maps, (std::vector<std::uint8_t>{228, 27}));
    EXPECT_EQ(v2[0].block_starts, (std::vector<std::uint32_t>{123456}));

    // 7.2: MTC, 4096-byte units, so offset 4095 is legal (it is not in RUNLEN's 1024-byte units).
    const std::vector<IndexRecord> mtc = parse("BASE0,1,0,1,2,b:5/4095\n#comment\n77\n", IndexDialect::Mtc);
    ASSERT_EQ(mtc.size(), 1U);
    EXPECT_EQ(mtc[0].slice, (SliceId{0, 1, 0, 1}));
    EXPECT_EQ(mtc[0].subslice, 2U);
    EXPECT_EQ(mtc[0].first_block, 5U);
    EXPECT_EQ(mtc[0].first_offset, 4095U);
    EXPECT_EQ(mtc[0].block_starts, (std::vector<std::uint32_t>{77}));
}

TEST(KingsrowTextIndexBytes, MalformedLinesAreRejectedNamingTheLine) {
    // 3.2: a non-digit after ':' other than + - = . is fatal; the error is "<file>:<line>: ...".
    const std::string bad_value = parse_error("BASE1,0,1,0,0,b:+\n\nBASE1,0,1,0,0,w:?\n", IndexDialect::Runlen);
    EXPECT_EQ(bad_value.rfind("db3.idx:3: ", 0), 0U) << bad_value;
    EXPECT_NE(bad_value.find("'?'"), std::string::npos) << bad_value;
    // 7.2: MTC has no single-value records, so even '+' is fatal there.
    const std::string mtc_single = parse_error("BASE1,0,1,0,0,b:0/0\n1\nBASE1,0,1,0,0,w:+\n", IndexDialect::Mtc);
    EXPECT_EQ(mtc_single.rfind("db3.idx:3: ", 0), 0U) << mtc_single;
    // 6.1 / 5.2: B1 is an offset in a 1024-byte block, so 1024 is out of range (line 2).
    const std::string bad_offset = parse_error("BASE1,0,1,0,0,b:=\nBASE1,0,1,0,0,w:0/1024\n", IndexDialect::Runlen);
    EXPECT_EQ(bad_offset.rfind("db3.idx:2: ", 0), 0U) << bad_offset;
    EXPECT_NE(bad_offset.find("1024"), std::string::npos) << bad_offset;
    // 3.2: %i reads "010" as octal 8, more than 5 pieces a side (1.5).
    const std::string octal = parse_error("BASE010,0,1,0,0,b:=\n", IndexDialect::Runlen);
    EXPECT_EQ(octal.rfind("db3.idx:1: ", 0), 0U) << octal;
    // 3.2: the header needs ':' after the colour character.
    const std::string no_colon = parse_error("BASE1,0,1,0,0,b:=\nBASE1,0,1,0,0,bb:=\n", IndexDialect::Runlen);
    EXPECT_EQ(no_colon.rfind("db3.idx:2: ", 0), 0U) << no_colon;
}

TEST(KingsrowTextIndexBytes, ParsingStopsAtTheFirstTokenThatIsNoRecord) {
    // 3.2: anything after the last record that does not start with BASE is ignored, even a
    // valid record further on.
    const std::vector<IndexRecord> records = parse(
        "BASE1,0,1,0,0,b:=\nBASE1,0,1,0,0,w:0/0\n12\nend of index\nBASE0,1,0,1,0,b:+\n", IndexDialect::Runlen);
    ASSERT_EQ(records.size(), 2U);
    EXPECT_EQ(records[1].block_starts, (std::vector<std::uint32_t>{12}));

    // After a data record, "#..." is a comment of that record in V1/RUNLEN/MTC (5.2), so a
    // number on the next line is still one of its block starts; V2 has no comments, and there
    // the '#' ends the file (what the CRC suffix of 12.4 relies on).
    const std::vector<IndexRecord> runlen = parse("BASE1,0,1,0,0,b:0/0\n#egdb x\n7\n", IndexDialect::Runlen);
    ASSERT_EQ(runlen.size(), 1U);
    EXPECT_EQ(runlen[0].block_starts, (std::vector<std::uint32_t>{7}));
    const std::vector<IndexRecord> v2 = parse("BASE1,0,1,0,0,b:0/0,0,228\n#egdb x\n7,0,228\n", IndexDialect::TunV2);
    ASSERT_EQ(v2.size(), 1U);
    EXPECT_TRUE(v2[0].block_starts.empty());

    // 5.2: upstream reads at most 119 characters of a comment line (newline included); a longer
    // one silently ends the file. 118 characters + newline is still a comment.
    const std::string fits = "BASE1,0,1,0,0,b:0/0\n#" + std::string(117, 'c') + "\n5\nBASE0,1,0,1,0,b:+\n";
    const std::vector<IndexRecord> kept = parse(fits, IndexDialect::Runlen);
    ASSERT_EQ(kept.size(), 2U);
    EXPECT_EQ(kept[0].block_starts, (std::vector<std::uint32_t>{5}));
    const std::string too_long = "BASE1,0,1,0,0,b:0/0\n#" + std::string(118, 'c') + "\n5\nBASE0,1,0,1,0,b:+\n";
    const std::vector<IndexRecord> stopped = parse(too_long, IndexDialect::Runlen);
    ASSERT_EQ(stopped.size(), 1U);
    EXPECT_TRUE(stopped[0].block_starts.empty());
}

// ---- 8: DTW, one hand-made index record and two miniblocks ----------------------------------
//
// Grammar (8.3: symbol i is terminal iff left == i; else left then right):
//   0 = terminal, 1 = terminal (its right field 7 is meaningless), 2 = terminal,
//   3 = 1 2, 4 = 3 3 = "1 2 1 2", 5 = 4 0 = "1 2 1 2 0".
// Huffman table in stored order, non-increasing lengths; 8.3 assigns entry 0 code 0 and then
// (previous + 1) >> (previous length - length):
//   entry 0: symbol 1, length 3 -> 000
//   entry 1: symbol 4, length 3 -> 001
//   entry 2: symbol 0, length 2 -> (1+1) >> 1 = 1 -> 01
//   entry 3: symbol 5, length 1 -> (1+1) >> 1 = 1 -> 1        (Kraft sum 1/8+1/8+1/4+1/2 = 1)
// Miniblock A holds symbols 5 0 4 1 5 -> bits 1 01 001 000 1, i.e. word 0 = 1010 0100 01 then
//   zeros = 0xA4400000, stored little-endian as 00 00 40 A4 (8.2); it expands to
//   1 2 1 2 0 | 0 | 1 2 1 2 | 1 | 1 2 1 2 0 = 16 positions.
// Miniblock B holds symbols 0 0 1 -> bits 01 01 000 -> word 0 = 0x50000000, bytes 00 00 00 50;
//   3 positions 0 0 1.
// Placement: first_block 2, first_mini 7 -> g0 = 23; m = 2 miniblocks -> nblocks =
//   (23+2-1) div 8 - 23 div 8 + 1 = 3 - 2 + 1 = 2.
// Lengths 16 and 3 as 17-bit fields LSB-first: 16 + (3 << 17) = 0x60010 -> 10 00 06 00 00.

const std::vector<std::uint8_t> kValuesA = {1, 2, 1, 2, 0, 0, 1, 2, 1, 2, 1, 1, 2, 1, 2, 0};
const std::vector<std::uint8_t> kValuesB = {0, 0, 1};

std::vector<std::byte> hand_dtw_record() {
    return bytes_of({
        3, 2, 0, 1, 0,        // npieces = 2+0+1+0, nbm nbk nwm nwk
        1,                    // colour 1 = White to move
        0x01, 0x00,           // subslice 1
        0x5A,                 // permutation (ignored)
        0x06, 0x00,           // nrules 6
        0x00, 0x00, 0x00, 0x00,  // 0: (0, 0) terminal
        0x01, 0x00, 0x07, 0x00,  // 1: (1, 7) terminal
        0x02, 0x00, 0x02, 0x00,  // 2: (2, 2) terminal
        0x01, 0x00, 0x02, 0x00,  // 3: 1 2
        0x03, 0x00, 0x03, 0x00,  // 4: 3 3
        0x04, 0x00, 0x00, 0x00,  // 5: 4 0
        0x04, 0x00,           // nhuff 4
        0x01, 0x00, 3,        // symbol 1, length 3
        0x04, 0x00, 3,        // symbol 4, length 3
        0x00, 0x00, 2,        // symbol 0, length 2
        0x05, 0x00, 1,        // symbol 5, length 1
        0x02, 0x00, 0x00, 0x00,  // first_block 2
        0x07, 0x00,              // first_mini 7
        0x02, 0x00, 0x00, 0x00,  // nblocks 2
        0x02, 0x00, 0x00, 0x00,  // nminis 2
        0x10, 0x00, 0x06, 0x00, 0x00,  // lengths 16, 3
    });
}

std::array<std::byte, kDtwMiniblockBytes> miniblock_with_first_word(std::uint8_t top_byte, std::uint8_t second_byte) {
    std::array<std::byte, kDtwMiniblockBytes> bytes{};
    bytes[3] = std::byte{top_byte};     // word 0 is little-endian: its top byte is byte 3
    bytes[2] = std::byte{second_byte};
    return bytes;
}

TEST(KingsrowDtwBytes, HandWrittenIndexRecordParsesFieldByField) {
    const std::vector<std::byte> bytes = hand_dtw_record();
    ASSERT_EQ(bytes.size(), 9U + 2 + 6 * 4 + 2 + 4 * 3 + 4 + 2 + 4 + 4 + 5) << "the hand layout of 8.3";
    const std::vector<DtwIndexRecord> records = parse_dtw_index(bytes, "db3.idx_dtw");
    ASSERT_EQ(records.size(), 1U);
    const DtwIndexRecord& r = records[0];
    EXPECT_EQ(r.slice, (SliceId{2, 0, 1, 0}));
    EXPECT_EQ(r.side_to_move, Color::White);
    EXPECT_EQ(r.subslice, 1U);
    EXPECT_EQ(r.permutation, 0x5A);
    EXPECT_EQ(r.rules, (std::vector<RePairRule>{{0, 0}, {1, 7}, {2, 2}, {1, 2}, {3, 3}, {4, 0}}));
    EXPECT_EQ(r.huffman, (std::vector<HuffmanEntry>{{1, 3}, {4, 3}, {0, 2}, {5, 1}}));
    EXPECT_EQ(r.first_block, 2);
    EXPECT_EQ(r.first_miniblock, 7U);
    EXPECT_EQ(r.block_count, 2);
    EXPECT_EQ(r.first_global_miniblock(), 23U);
    EXPECT_EQ(r.miniblock_positions, (std::vector<std::uint32_t>{16, 3}));

    std::string error;
    EXPECT_EQ(assign_canonical_codes(r.huffman, error), (std::vector<std::uint32_t>{0b000, 0b001, 0b01, 0b1})) << error;

    // 8.3: nblocks must match the geometry; 1 instead of 2 is rejected.
    std::vector<std::byte> wrong_blocks = bytes;
    wrong_blocks[9 + 2 + 24 + 2 + 12 + 4 + 2] = std::byte{1};
    EXPECT_THROW(parse_dtw_index(wrong_blocks, "db3.idx_dtw"), CorruptDataError);
}

TEST(KingsrowDtwBytes, HandGrammarExpandsAsWorkedOut) {
    const RePairGrammar g(std::vector<RePairRule>{{0, 0}, {1, 7}, {2, 2}, {1, 2}, {3, 3}, {4, 0}});
    const std::vector<std::uint32_t> lengths = {1, 1, 1, 2, 4, 5};
    for (std::uint16_t s = 0; s < 6; ++s) EXPECT_EQ(g.expansion_length(s), lengths[s]) << "symbol " << s;
    EXPECT_TRUE(g.is_terminal(1)) << "left == 1 makes symbol 1 terminal whatever its right field";
    std::vector<std::uint16_t> out;
    g.expand(5, out);
    EXPECT_EQ(out, (std::vector<std::uint16_t>{1, 2, 1, 2, 0}));
    // 8.4 step 4 descends to the terminal at an offset: 4 = "1 2 1 2", offset 3 -> 2.
    EXPECT_EQ(g.terminal_at(4, 3), 2U);
    EXPECT_EQ(g.terminal_at(5, 4), 0U);
}

TEST(KingsrowDtwBytes, HandBuiltMiniblocksDecodeEveryPosition) {
    const std::vector<DtwIndexRecord> records = parse_dtw_index(hand_dtw_record(), "db3.idx_dtw");
    ASSERT_EQ(records.size(), 1U);
    const DtwSubslice subslice(records[0], kValuesA.size() + kValuesB.size());
    const MiniblockWords a(miniblock_with_first_word(0xA4, 0x40));
    const MiniblockWords b(miniblock_with_first_word(0x50, 0x00));

    // 8.2: the stream starts at the most significant bit of word 0; from bit 3 it reads
    // 0 0 1 0 0 0 1 then zeros = 0x22000000.
    EXPECT_EQ(a.peek32(0), 0xA4400000U);
    EXPECT_EQ(a.peek32(3), 0x22000000U);

    // 8.4 step 3 on the raw windows: the top bits 1 -> symbol 5 (length 1); 01 -> 0; 001 -> 4.
    const HuffmanDecoder huffman(records[0].huffman);
    EXPECT_EQ(huffman.decode(0xA4400000U).symbol, 5U);
    EXPECT_EQ(huffman.decode(0xA4400000U).length, 1U);
    EXPECT_EQ(huffman.decode(a.peek32(1)).symbol, 0U);
    EXPECT_EQ(huffman.decode(a.peek32(3)).symbol, 4U);
    EXPECT_EQ(huffman.decode(a.peek32(6)).symbol, 1U);
    EXPECT_EQ(huffman.decode(a.peek32(6)).length, 3U);

    for (std::uint32_t x = 0; x < kValuesA.size() + kValuesB.size(); ++x) {
        const DtwSubslice::Location at = subslice.locate(x);
        const bool in_a = x < kValuesA.size();
        // Positions 0..15 are in global miniblock 23 (block 2 slot 7), 16..18 in 24 (block 3
        // slot 0, file offset 512 * 24).
        EXPECT_EQ(at.global_miniblock, in_a ? 23U : 24U) << "x " << x;
        EXPECT_EQ(at.offset, in_a ? x : x - 16) << "x " << x;
        const int value = subslice.value_at(in_a ? a : b, at.offset);
        EXPECT_EQ(value, in_a ? kValuesA[x] : kValuesB[x - 16]) << "x " << x;
    }
}

TEST(KingsrowDtwBytes, BitWriterProducesTheHandBuiltMiniblock) {
    // The writer side of 8.2: the codes of miniblock A, most significant bit first, give the
    // bytes worked out above (00 00 40 A4, then zeros).
    MiniblockBitWriter w;
    for (const auto& [code, length] : std::vector<std::pair<std::uint32_t, unsigned>>{
             {0b1, 1}, {0b01, 2}, {0b001, 3}, {0b000, 3}, {0b1, 1}}) {
        w.append(code, length);
    }
    EXPECT_EQ(w.bits_used(), 10U);
    EXPECT_EQ(w.bytes(), miniblock_with_first_word(0xA4, 0x40));
}

TEST(KingsrowDtwBytes, EncoderWithoutPairRulesWritesTheCanonicalCodes) {
    // 8.5 on the values 2 0 0 0 0 1 with pair rules disabled (no pair occurs 1000 times):
    // terminals 0, 1, 2 at their own slots. Frequencies 4, 1, 1 give the only optimal lengths
    // 1 (symbol 0) and 2 (symbols 1, 2); in 8.3 order (decreasing length, then increasing symbol)
    // the table is {1,2}, {2,2}, {0,1} with codes 00, 01, then (1+1) >> 1 = 1.
    // Bits: 2 0 0 0 0 1 -> 01 1 1 1 1 00 = 0111 1100 = the top byte of word 0: byte 3 = 0x7C.
    RePairOptions no_pairs;
    no_pairs.min_occurrences = 1000;
    const DtwEncodedSubslice e = encode_dtw_subslice({2, 0, 0, 0, 0, 1}, no_pairs);
    EXPECT_EQ(e.rules, (std::vector<RePairRule>{{0, 0}, {1, 1}, {2, 2}}));
    EXPECT_EQ(e.huffman, (std::vector<HuffmanEntry>{{1, 2}, {2, 2}, {0, 1}}));
    EXPECT_EQ(e.miniblock_positions, (std::vector<std::uint32_t>{6}));
    std::vector<std::byte> expected(kDtwMiniblockBytes, std::byte{0});
    expected[3] = std::byte{0x7C};
    EXPECT_EQ(e.miniblocks, expected);
}

}  // namespace
}  // namespace egdb::kingsrow
