// The Kingsrow EGDB_DTW format (kingsrow-format.md section 8): the miniblock bit order, the
// canonical Huffman code, the Re-Pair grammar, the index record, a writer -> reader round trip on
// synthetic values, and the errors for missing, truncated and damaged files.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <vector>

#include "core/formats/kingsrow/dtw/dtw_index_record.hpp"
#include "core/build/kingsrow_dtw_source.hpp"
#include "core/formats/kingsrow/dtw/huffman_code.hpp"
#include "core/formats/kingsrow/dtw/miniblock_bits.hpp"
#include "core/formats/kingsrow/dtw/repair_grammar.hpp"
#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/generate/build_driver.hpp"
#include "core/rules/movegen.hpp"
#include "tests/kingsrow_dtw_fixture.hpp"
#include "tests/test_positions.hpp"

namespace egdb::kingsrow {
namespace {

using test::synthetic_plies;
using test::synthetic_tables;

std::vector<std::byte> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return static_cast<std::byte>(c); });
    return bytes;
}

void write_bytes(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// ---- 8.2: bit order -------------------------------------------------------------------------

TEST(KingsrowDtwBits, FirstCodeSitsInTheTopBitsOfTheFirstLittleEndianWord) {
    MiniblockBitWriter w;
    w.append(0b1011, 4);
    w.append(0xFFFFFFFF, 32);
    w.append(0b01, 2);
    EXPECT_EQ(w.bits_used(), 38U);
    const auto bytes = w.bytes();
    // word 0 = 1011 1111 ... 1111 = 0xBFFFFFFF, stored little-endian; word 1 = 1111 01 then zeros.
    const std::vector<std::uint8_t> expected = {0xFF, 0xFF, 0xFF, 0xBF, 0x00, 0x00, 0x00, 0xF4, 0x00};
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(static_cast<std::uint8_t>(bytes[i]), expected[i]) << i;

    const MiniblockWords words(bytes);
    EXPECT_EQ(words.peek32(0), 0xBFFFFFFFU);
    EXPECT_EQ(words.peek32(4), 0xFFFFFFFFU);
    EXPECT_EQ(words.peek32(32), 0xF4000000U);
    EXPECT_EQ(words.peek32(36), 0x40000000U);
    EXPECT_EQ(words.peek32(kDtwMiniblockBits - 1), 0U);
}

TEST(KingsrowDtwBits, LastWordReadsZeroPastTheEnd) {
    std::array<std::byte, kDtwMiniblockBytes> raw{};
    raw[kDtwMiniblockBytes - 1] = std::byte{0x80};  // top bit of word 127: stream bit 4064
    const MiniblockWords words(raw);
    EXPECT_EQ(words.peek32(4064), 0x80000000U);
    EXPECT_EQ(words.peek32(4063), 0x40000000U);
    EXPECT_EQ(words.peek32(4095), 0U);
}

// ---- 8.3: canonical code ---------------------------------------------------------------------

TEST(KingsrowDtwHuffman, CodesAreAssignedInTableOrderLongestFirst) {
    // Lengths 4,4,3,2,1: 0000, 0001, then (1+1)>>1 = 001, (1+1)>>1 = 01, (1+1)>>1 = 1.
    const std::vector<HuffmanEntry> table = {{7, 4}, {3, 4}, {9, 3}, {0, 2}, {5, 1}};
    std::string error;
    EXPECT_EQ(assign_canonical_codes(table, error), (std::vector<std::uint32_t>{0, 1, 1, 1, 1}));
    // Lengths 3,3,3,3,2,2: 000 001 010 011, then (3+1)>>1 = 10, 11.
    const std::vector<HuffmanEntry> flat = {{1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 2}, {6, 2}};
    EXPECT_EQ(assign_canonical_codes(flat, error), (std::vector<std::uint32_t>{0, 1, 2, 3, 2, 3}));

    const HuffmanDecoder decoder(table);
    const auto expect = [&](std::uint32_t window, std::uint16_t symbol, unsigned length) {
        const HuffmanDecoder::Decoded d = decoder.decode(window);
        EXPECT_EQ(d.symbol, symbol) << std::hex << window;
        EXPECT_EQ(d.length, length) << std::hex << window;
    };
    expect(0x00000000, 7, 4);
    expect(0x0FFFFFFF, 7, 4);
    expect(0x10000000, 3, 4);
    expect(0x2ABCDEF0, 9, 3);
    expect(0x40000000, 0, 2);
    expect(0x7FFFFFFF, 0, 2);
    expect(0x80000000, 5, 1);
    expect(0xFFFFFFFF, 5, 1);
}

TEST(KingsrowDtwHuffman, LongCodesBeyondTheFastTableDecode) {
    // 33 symbols: lengths 32,32,31,...,2,1 form a complete code deeper than the first-level table.
    std::vector<HuffmanEntry> table = {{0, 32}};
    for (unsigned length = 32; length >= 1; --length) {
        table.push_back({static_cast<std::uint16_t>(table.size()), static_cast<std::uint8_t>(length)});
    }
    std::string error;
    const std::vector<std::uint32_t> codes = assign_canonical_codes(table, error);
    ASSERT_EQ(codes.size(), table.size()) << error;
    const HuffmanDecoder decoder(table);
    for (std::size_t i = 0; i < table.size(); ++i) {
        const std::uint32_t window = static_cast<std::uint32_t>(std::uint64_t{codes[i]} << (32 - table[i].length));
        const HuffmanDecoder::Decoded d = decoder.decode(window);
        EXPECT_EQ(d.symbol, table[i].symbol);
        EXPECT_EQ(d.length, table[i].length);
    }
}

TEST(KingsrowDtwHuffman, SingleSymbolUsesLengthOneAndRejectsTheOtherHalf) {
    const std::vector<std::uint64_t> frequencies = {0, 0, 12345};
    const std::vector<HuffmanEntry> table = build_huffman_table(frequencies, 32);
    ASSERT_EQ(table, (std::vector<HuffmanEntry>{{2, 1}}));
    const HuffmanDecoder decoder(table);
    EXPECT_EQ(decoder.decode(0x12345678).symbol, 2);
    EXPECT_EQ(decoder.decode(0x12345678).length, 1);
    EXPECT_EQ(decoder.decode(0x80000000).length, 0);  // no code starts with 1
}

TEST(KingsrowDtwHuffman, InvalidTablesAreRejected) {
    std::string error;
    EXPECT_TRUE(assign_canonical_codes(std::vector<HuffmanEntry>{}, error).empty());
    EXPECT_TRUE(assign_canonical_codes(std::vector<HuffmanEntry>{{0, 2}, {1, 3}}, error).empty());
    EXPECT_NE(error.find("non-increasing"), std::string::npos) << error;
    EXPECT_TRUE(assign_canonical_codes(std::vector<HuffmanEntry>{{0, 0}}, error).empty());
    EXPECT_TRUE(assign_canonical_codes(std::vector<HuffmanEntry>{{0, 33}}, error).empty());
    EXPECT_TRUE(assign_canonical_codes(std::vector<HuffmanEntry>{{0, 1}, {1, 1}, {2, 1}}, error).empty());
    EXPECT_NE(error.find("prefix"), std::string::npos) << error;
    EXPECT_THROW(HuffmanDecoder(std::vector<HuffmanEntry>{{0, 1}, {1, 1}, {2, 1}}), std::invalid_argument);
}

TEST(KingsrowDtwHuffman, BuiltTablesFollowTheOrderRuleAndTheLengthLimit) {
    // Fibonacci frequencies make the deepest possible Huffman tree (one level per symbol).
    std::vector<std::uint64_t> fibonacci = {1, 1};
    while (fibonacci.size() < 60) fibonacci.push_back(fibonacci[fibonacci.size() - 1] + fibonacci[fibonacci.size() - 2]);
    for (const unsigned limit : {32U, 12U}) {
        const std::vector<HuffmanEntry> table = build_huffman_table(fibonacci, limit);
        ASSERT_EQ(table.size(), fibonacci.size());
        double kraft = 0;
        for (std::size_t i = 0; i < table.size(); ++i) {
            EXPECT_LE(table[i].length, limit);
            if (i > 0) {
                EXPECT_TRUE(table[i - 1].length > table[i].length ||
                            (table[i - 1].length == table[i].length && table[i - 1].symbol < table[i].symbol));
            }
            kraft += std::ldexp(1.0, -table[i].length);
        }
        EXPECT_DOUBLE_EQ(kraft, 1.0);
        EXPECT_NO_THROW(HuffmanDecoder{table});
    }
}

// ---- Re-Pair grammar ----------------------------------------------------------------------

TEST(KingsrowDtwGrammar, DescentFindsEveryTerminal) {
    // 0,1 terminals; 2 = 0 1; 3 = 2 2; 4 = 3 1: expands to 0 1 0 1 1.
    const std::vector<RePairRule> rules = {{0, 0}, {1, 9}, {0, 1}, {2, 2}, {3, 1}};
    const RePairGrammar g(rules);
    EXPECT_EQ(g.expansion_length(4), 5U);
    std::vector<std::uint16_t> out;
    g.expand(4, out);
    EXPECT_EQ(out, (std::vector<std::uint16_t>{0, 1, 0, 1, 1}));
    EXPECT_TRUE(g.is_terminal(1));
    EXPECT_FALSE(g.is_terminal(2));
}

TEST(KingsrowDtwGrammar, BadGrammarsAreRejected) {
    EXPECT_THROW(RePairGrammar(std::vector<RePairRule>{{0, 0}, {0, 5}}), std::invalid_argument);     // no symbol 5
    EXPECT_THROW(RePairGrammar(std::vector<RePairRule>{{0, 0}, {2, 0}, {1, 0}}), std::invalid_argument);  // cycle
    std::vector<RePairRule> doubling = {{0, 0}};
    for (std::uint16_t s = 1; s <= 16; ++s) doubling.push_back({static_cast<std::uint16_t>(s - 1), static_cast<std::uint16_t>(s - 1)});
    EXPECT_THROW(RePairGrammar{doubling}, std::invalid_argument);  // 2^16 > 65535
    doubling.pop_back();
    EXPECT_EQ(RePairGrammar(doubling).expansion_length(15), 32768U);
}

TEST(KingsrowDtwGrammar, BuilderRoundTripsAndShrinks) {
    std::mt19937 rng(5);
    std::vector<std::uint16_t> values;
    while (values.size() < 200000) {
        const auto v = static_cast<std::uint16_t>(rng() % 12);
        const std::size_t run = 1 + rng() % 30;
        for (std::size_t i = 0; i < run; ++i) values.push_back(v);
    }
    const RePairEncoding e = build_repair_grammar(values, 12);
    ASSERT_GE(e.rules.size(), 12U);
    for (std::uint16_t t = 0; t < 12; ++t) EXPECT_EQ(e.rules[t].left, t);
    EXPECT_LT(e.sequence.size(), values.size() / 4);
    const RePairGrammar g(e.rules);
    std::vector<std::uint16_t> expanded;
    for (const std::uint16_t s : e.sequence) g.expand(s, expanded);
    EXPECT_EQ(expanded, values);
}

// ---- 8.3: index record -------------------------------------------------------------------

TEST(KingsrowDtwIndex, SeventeenBitLengthsArePackedLsbFirst) {
    DtwIndexRecord r;
    r.slice = {1, 0, 1, 0};
    r.rules = {{0, 0}};
    r.huffman = {{0, 1}};
    r.first_block = 0;
    r.first_miniblock = 7;
    r.block_count = 2;
    r.miniblock_positions = {1, 131071};
    std::vector<std::byte> bytes;
    append_dtw_index_record(r, bytes);
    // header 9, nrules 2 + 4, nhuff 2 + 3, first_block 4, first_mini 2, nblocks 4, nminis 4, then
    // 1 at bits 0-16 and 0x1FFFF at bits 17-33: 01 00 FE FF 03.
    ASSERT_EQ(bytes.size(), 9U + 6 + 5 + 14 + 5);
    const std::vector<std::uint8_t> tail = {0x01, 0x00, 0xFE, 0xFF, 0x03};
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(static_cast<std::uint8_t>(bytes[bytes.size() - 5 + i]), tail[i]);
    EXPECT_EQ(static_cast<std::uint8_t>(bytes[0]), 2);  // npieces

    std::vector<std::byte> file = bytes;
    file.insert(file.end(), bytes.begin(), bytes.end());
    file.resize(file.size() + 5, std::byte{0xAB});  // fewer than 6 trailing bytes are ignored
    const std::vector<DtwIndexRecord> parsed = parse_dtw_index(file, "x.idx_dtw");
    ASSERT_EQ(parsed.size(), 2U);
    EXPECT_EQ(parsed[0], r);
    EXPECT_EQ(parsed[1], r);
}

TEST(KingsrowDtwIndex, StructuralErrorsNameTheFileAndRecord) {
    DtwIndexRecord r;
    r.slice = {1, 0, 1, 0};
    r.rules = {{0, 0}};
    r.huffman = {{0, 1}};
    r.block_count = 1;
    r.miniblock_positions = {1985};
    std::vector<std::byte> good;
    append_dtw_index_record(r, good);
    const auto message = [](std::vector<std::byte> bytes) {
        try {
            parse_dtw_index(bytes, "db2.idx_dtw");
        } catch (const CorruptDataError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    std::vector<std::byte> bad_sum = good;
    bad_sum[0] = std::byte{3};
    EXPECT_NE(message(bad_sum).find("npieces"), std::string::npos);
    // Counts that add up but name no endgame: 255 black men (found by fuzz_kingsrow_index).
    std::vector<std::byte> too_many = good;
    too_many[0] = std::byte{255};
    too_many[1] = std::byte{255};
    too_many[3] = std::byte{0};
    EXPECT_NE(message(too_many).find("piece counts 255 0 0 0"), std::string::npos) << message(too_many);
    std::vector<std::byte> truncated(good.begin(), good.end() - 1);
    EXPECT_NE(message(truncated).find("truncated"), std::string::npos);
    std::vector<std::byte> bad_blocks = good;
    bad_blocks[9 + 6 + 5 + 6] = std::byte{2};  // nblocks
    EXPECT_NE(message(bad_blocks).find("nblocks"), std::string::npos);
    std::vector<std::byte> second = good;
    second.insert(second.end(), good.begin(), good.end() - 2);
    const std::string m = message(second);
    EXPECT_NE(m.find("db2.idx_dtw: record 1"), std::string::npos) << m;
}

// ---- Writer -> reader ---------------------------------------------------------------------

class KingsrowDtwDatabase : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        directory_ = new std::filesystem::path(test::fresh_directory("suite"));
        stats_ = new DtwWriteStats(write_dtw_database(*directory_, synthetic_tables()));
    }
    static void TearDownTestSuite() {
        std::filesystem::remove_all(*directory_);
        delete directory_;
        delete stats_;
    }

    // Copies the suite database into a fresh directory this test may damage.
    std::filesystem::path scratch_copy() {
        const std::filesystem::path dir =
            test::fresh_directory(::testing::UnitTest::GetInstance()->current_test_info()->name());
        for (const auto& e : std::filesystem::directory_iterator(*directory_)) {
            std::filesystem::copy_file(e.path(), dir / e.path().filename());
        }
        return dir;
    }

    static std::string open_error(const std::filesystem::path& dir) {
        try {
            DtwDatabase db(dir);
        } catch (const std::exception& e) {
            return e.what();
        }
        return "opened";
    }

    static std::filesystem::path* directory_;
    static DtwWriteStats* stats_;
};

std::filesystem::path* KingsrowDtwDatabase::directory_ = nullptr;
DtwWriteStats* KingsrowDtwDatabase::stats_ = nullptr;

TEST_F(KingsrowDtwDatabase, EveryWrittenPositionReadsBack) {
    const DtwDatabase db(*directory_);
    EXPECT_EQ(db.max_pieces(), 4);
    EXPECT_EQ(db.max_pieces_one_side(), 3);
    std::uint64_t checked = 0;
    // Under the sanitizers (quick mode) every fifth index of every table.
    const std::uint64_t step = egdb::test::quick_mode() ? 5 : 1;
    for (const DtwTableSource& t : synthetic_tables()) {
        const SliceIndexer& indexer = slice_indexer(t.slice);
        for (std::uint64_t i = 0; i < indexer.size(); i += step) {
            if (test::is_dont_care(t.slice, t.side_to_move, i)) continue;
            const int expected = static_cast<int>(synthetic_plies(t.slice, t.side_to_move, i) / 2);
            const Position p = indexer.position_at(i);
            ASSERT_EQ(db.lookup(p, t.side_to_move), expected) << t.slice.to_string() << " index " << i;
            ++checked;
        }
    }
    EXPECT_GT(checked, 1'500'000U / step);
    std::printf("[          ] %llu positions, %llu subslices, %llu miniblocks, index %llu + data %llu bytes = %.3f "
                "bits/position\n",
                static_cast<unsigned long long>(stats_->positions), static_cast<unsigned long long>(stats_->subslices),
                static_cast<unsigned long long>(stats_->miniblocks), static_cast<unsigned long long>(stats_->index_bytes),
                static_cast<unsigned long long>(stats_->data_bytes),
                8.0 * static_cast<double>(stats_->index_bytes + stats_->data_bytes) / static_cast<double>(stats_->positions));
}

TEST_F(KingsrowDtwDatabase, ReversedPositionsReadTheCanonicalTable) {
    const DtwDatabase db(*directory_);
    for (const DtwTableSource& t : synthetic_tables()) {
        const SliceIndexer& indexer = slice_indexer(t.slice);
        for (std::uint64_t i = 0; i < indexer.size(); i += 97) {
            if (test::is_dont_care(t.slice, t.side_to_move, i)) continue;
            const Position p = indexer.position_at(i);
            // The mirror image with the other side to move is the same position (1.4).
            ASSERT_EQ(db.lookup(reversed(p), opposite(t.side_to_move)), db.lookup(p, t.side_to_move));
        }
    }
}

TEST_F(KingsrowDtwDatabase, MissingDataGivesTheDocumentedValues) {
    const DtwDatabase db(*directory_);
    const SliceIndexer& two_one = slice_indexer({2, 0, 0, 1});
    const Position p = two_one.position_at(100);
    EXPECT_TRUE(db.contains({2, 0, 0, 1}, Color::Black));
    EXPECT_FALSE(db.contains({2, 0, 0, 1}, Color::White));
    EXPECT_GE(db.lookup(p, Color::Black), 0);
    EXPECT_EQ(db.lookup(p, Color::White), kDtwSubdbUnavailable);  // missing colour, as upstream (16.1)
    // A 4-piece slice that db4 does not hold, and 5 pieces in a 4-piece database.
    EXPECT_EQ(db.lookup(slice_indexer({2, 0, 2, 0}).position_at(5), Color::Black), kDtwSubdbUnavailable);
    EXPECT_EQ(db.lookup(slice_indexer({3, 0, 2, 0}).position_at(5), Color::Black), kDtwSubdbUnavailable);
    // One side without pieces: 0, as upstream.
    EXPECT_EQ(db.lookup(Position{square_bb(12), 0, 0}, Color::Black), 0);
    EXPECT_EQ(db.lookup(Position{0, square_bb(40), 0}, Color::Black), 0);
}

TEST_F(KingsrowDtwDatabase, CacheGivesTheSameValuesAndConditionalLookupsWait) {
    const DtwDatabase direct(*directory_);
    const DtwDatabase cached(*directory_, {0, 3 * 4096});
    const SliceIndexer& indexer = slice_indexer({3, 0, 1, 0});
    const Position p = indexer.position_at(123457);
    EXPECT_EQ(cached.lookup(p, Color::White, Conditional::Yes), kDtwNotInCache);
    EXPECT_EQ(cached.lookup(p, Color::White), direct.lookup(p, Color::White));
    EXPECT_EQ(cached.lookup(p, Color::White, Conditional::Yes), direct.lookup(p, Color::White));
    EXPECT_EQ(direct.lookup(p, Color::White, Conditional::Yes), direct.lookup(p, Color::White));
    for (std::uint64_t i = 0; i < indexer.size(); i += 11) {
        const Position q = indexer.position_at(i);
        ASSERT_EQ(cached.lookup(q, Color::Black), direct.lookup(q, Color::Black));
    }
    EXPECT_GT(cached.cache_stats().misses, 10U);
}

TEST_F(KingsrowDtwDatabase, MaxPiecesOptionLimitsTheFilesRead) {
    const DtwDatabase db(*directory_, {3, 0});
    EXPECT_EQ(db.max_pieces(), 3);
    EXPECT_EQ(db.lookup(slice_indexer({3, 0, 1, 0}).position_at(5), Color::Black), kDtwSubdbUnavailable);
    EXPECT_GE(db.lookup(slice_indexer({2, 0, 0, 1}).position_at(5), Color::Black), 0);
}

TEST_F(KingsrowDtwDatabase, IdentifyingFileCarriesTheUpstreamCrc) {
    EXPECT_EQ(stats_->identifying_file, "db4.idx_dtw");
    EXPECT_EQ(file_crc32(*directory_ / "db4.idx_dtw"), 0xf4e8d878U);
    const auto id = identify_as_upstream(*directory_);
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->type, DbType::Dtw);
    EXPECT_EQ(id->max_pieces, 4);
}

TEST_F(KingsrowDtwDatabase, MissingFilesAreNamed) {
    const std::filesystem::path dir = scratch_copy();
    std::filesystem::remove(dir / "db3.idx_dtw");
    EXPECT_NE(open_error(dir).find("db3.idx_dtw: missing"), std::string::npos) << open_error(dir);
    std::filesystem::copy_file(*directory_ / "db3.idx_dtw", dir / "db3.idx_dtw");
    std::filesystem::remove(dir / "db2.cpr_dtw");
    EXPECT_NE(open_error(dir).find("db2.cpr_dtw: missing"), std::string::npos) << open_error(dir);
    const std::filesystem::path empty = test::fresh_directory("empty");
    EXPECT_NE(open_error(empty).find("no EGDB_DTW database"), std::string::npos);
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(empty);
}

TEST_F(KingsrowDtwDatabase, TruncatedFilesAreRejectedAtOpen) {
    const std::filesystem::path dir = scratch_copy();
    const std::vector<std::byte> data = read_bytes(*directory_ / "db3.cpr_dtw");
    write_bytes(dir / "db3.cpr_dtw", std::span(data).first(data.size() - 4096));
    EXPECT_NE(open_error(dir).find("past the end"), std::string::npos) << open_error(dir);
    write_bytes(dir / "db3.cpr_dtw", data);

    const std::vector<std::byte> index = read_bytes(*directory_ / "db3.idx_dtw");
    for (std::size_t cut = 0; cut < index.size(); cut += 1 + cut / 3) {
        write_bytes(dir / "db3.idx_dtw", std::span(index).first(cut));
        try {
            const DtwDatabase db(dir);
            // A cut on a record boundary is a shorter valid index: the lost tables are absent.
            EXPECT_EQ(db.lookup(slice_indexer({0, 2, 0, 1}).position_at(0), Color::Black), kDtwSubdbUnavailable);
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find("db3.idx_dtw: record"), std::string::npos) << e.what();
        }
    }
    std::filesystem::remove_all(dir);
}

// Random byte flips in an index file: each damaged file is either refused with CorruptDataError
// or gives values / documented codes; never a crash (run under ASan by scripts/test.sh).
TEST_F(KingsrowDtwDatabase, RandomIndexDamageNeverCrashes) {
    const std::filesystem::path dir = scratch_copy();
    const std::vector<std::byte> index = read_bytes(*directory_ / "db2.idx_dtw");
    std::mt19937 rng(11);
    int refused = 0;
    int opened = 0;
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<std::byte> damaged = index;
        const int flips = 1 + static_cast<int>(rng() % 3);
        for (int f = 0; f < flips; ++f) damaged[rng() % damaged.size()] ^= static_cast<std::byte>(1 + rng() % 255);
        write_bytes(dir / "db2.idx_dtw", damaged);
        try {
            const DtwDatabase db(dir);
            ++opened;
            for (const SliceId s : canonical_slices(2)) {
                const SliceIndexer& indexer = slice_indexer(s);
                for (std::uint64_t i = 0; i < indexer.size(); i += 3) {
                    for (const Color side : {Color::Black, Color::White}) {
                        try {
                            const int v = db.lookup(indexer.position_at(i), side);
                            ASSERT_TRUE(v >= 0 || v == kDtwSubdbUnavailable);
                            ASSERT_LE(v, static_cast<int>(kDtwMaxValue));
                        } catch (const CorruptDataError&) {
                        }
                    }
                }
            }
        } catch (const CorruptDataError&) {
            ++refused;
        }
    }
    EXPECT_GT(refused, 0);
    EXPECT_EQ(refused + opened, 300);
    std::filesystem::remove_all(dir);
}

TEST_F(KingsrowDtwDatabase, DamagedDataGivesValuesOrAnError) {
    const std::filesystem::path dir = scratch_copy();
    std::vector<std::byte> data = read_bytes(*directory_ / "db3.cpr_dtw");
    std::mt19937 rng(3);
    for (std::size_t i = 0; i < data.size(); i += 37) data[i] ^= static_cast<std::byte>(rng() % 256);
    write_bytes(dir / "db3.cpr_dtw", data);
    const DtwDatabase db(dir);
    int errors = 0;
    for (const SliceId s : canonical_slices(3)) {
        const SliceIndexer& indexer = slice_indexer(s);
        for (std::uint64_t i = 0; i < indexer.size(); i += 13) {
            try {
                const int v = db.lookup(indexer.position_at(i), Color::Black);
                ASSERT_GE(v, 0);
            } catch (const CorruptDataError& e) {
                ++errors;
                EXPECT_NE(std::string(e.what()).find("db3.cpr_dtw"), std::string::npos) << e.what();
            }
        }
    }
    EXPECT_GT(errors, 0);
    std::filesystem::remove_all(dir);
}

TEST_F(KingsrowDtwDatabase, WriterRejectsWhatTheFormatCannotHold) {
    const std::filesystem::path dir = test::fresh_directory("reject");
    std::vector<std::uint32_t> plies(slice_size({1, 0, 1, 0}), 4);
    std::vector<DtwTableSource> tables = {{{1, 0, 0, 1}, Color::Black, dtw_values_from_array<std::uint32_t>(plies)}};
    EXPECT_THROW(write_dtw_database(dir, tables), std::invalid_argument);  // not canonical
    tables = {{{1, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(plies)}};
    plies[17] = 2 * kDtwMaxValue + 2;
    EXPECT_THROW(write_dtw_database(dir, tables), std::invalid_argument);  // value too large
    std::vector<std::uint64_t> dont_care((plies.size() + 63) / 64, 0);
    dont_care[0] = std::uint64_t{1} << 17;
    tables = {{{1, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(plies, dont_care)}};
    EXPECT_NO_THROW(write_dtw_database(dir, tables));  // ... unless nobody cares
    // The streaming writer takes tables in file order only, each once.
    const std::vector<std::uint32_t> three(slice_size({2, 0, 1, 0}), 4);
    DtwDatabaseWriter writer(dir);
    writer.add({{2, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(three)});
    EXPECT_THROW(writer.add({{1, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(plies, dont_care)}),
                 std::invalid_argument);
    EXPECT_THROW(writer.add({{2, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(three)}), std::invalid_argument);
    tables = {{{1, 0, 1, 0}, Color::Black, dtw_values_from_array<std::uint32_t>(plies, dont_care)}, tables[0]};
    EXPECT_THROW(write_dtw_database(dir, tables), std::invalid_argument);  // given twice
    std::filesystem::remove_all(dir);
}

// The generator's own 2- and 3-piece solutions: every won or lost position without a capture
// reads back as floor(DTW / 2); draws and captures are free.
TEST(KingsrowDtwSolved, GeneratorSolutionsRoundTrip) {
    SolutionStore store;
    solve_slices(3, store);
    std::vector<DtwTableSource> tables;
    for (const SliceId s : store.slices()) {
        for (const Color c : {Color::Black, Color::White}) tables.push_back({s, c, dtw_values_from_solved(*store.find(s), c)});
    }
    const std::filesystem::path dir = test::fresh_directory("solved");
    write_dtw_database(dir, tables);
    const DtwDatabase db(dir);
    std::uint64_t checked = 0;
    for (const SliceId s : store.slices()) {
        const SliceIndexer& indexer = slice_indexer(s);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) {
            for (const Color c : {Color::Black, Color::White}) {
                if (is_color_symmetric(s) && c == Color::White) continue;
                const PositionValue v = store.find(s)->value(i, c);
                const Position p = indexer.position_at(i);
                if (v.wld == WldValue::Draw || has_capture(p, c)) continue;
                ASSERT_EQ(db.lookup(p, c), v.dtw / 2) << s.to_string() << " " << i;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 200'000U);

    // Tables encoded apart (as the exporter does, in parallel) and appended in order give the
    // same files.
    const std::filesystem::path encoded_dir = test::fresh_directory("solved_encoded");
    DtwDatabaseWriter writer(encoded_dir);
    for (int pieces = 2; pieces <= 3; ++pieces) {
        for (const SliceId s : canonical_slices(pieces)) {  // the file order
            for (const Color c : {Color::Black, Color::White}) {
                writer.add(encode_dtw_table({s, c, dtw_values_from_solved(*store.find(s), c)}));
            }
        }
    }
    writer.finish();
    for (const char* name : {"db2.idx_dtw", "db2.cpr_dtw", "db3.idx_dtw", "db3.cpr_dtw"}) {
        std::ifstream a(dir / name, std::ios::binary), b(encoded_dir / name, std::ios::binary);
        const std::string bytes_a((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
        const std::string bytes_b((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
        EXPECT_FALSE(bytes_a.empty()) << name;
        EXPECT_EQ(bytes_a, bytes_b) << name;
    }
    std::filesystem::remove_all(encoded_dir);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace egdb::kingsrow
