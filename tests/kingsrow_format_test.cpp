// Kingsrow WLD and MTC formats (kingsrow-format.md sections 3-7, 12): databases written from
// synthetic values read back identically through both memory paths (autoloaded files and the
// LRU block cache), the documented values for missing data, conditional lookups, identification,
// verification, and clear errors on corrupted, truncated and deleted files.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <span>
#include <vector>

#include "core/formats/kingsrow/directory/crc32.hpp"
#include "core/formats/kingsrow/directory/identify.hpp"
#include "core/formats/kingsrow/text_index/lookup_front_end.hpp"
#include "core/formats/kingsrow/text_index/stream_table.hpp"
#include "core/formats/kingsrow/codecs/tunstall_code_book.hpp"
#include "core/formats/kingsrow/directory/file_crc_check.hpp"
#include "core/notation/fen.hpp"
#include "kingsrow_test_data.hpp"

namespace egdb::kingsrow {
namespace {

using test::ScratchDir;
using test::SyntheticSide;
using test::ValueSet;

bool tables_available(DbType type) {
    if (type == DbType::WldTunV1) return builtin_tunstall_tables(TunstallVersion::V1).available();
    if (type == DbType::WldTunV2) return builtin_tunstall_tables(TunstallVersion::V2).available();
    return true;
}

#define EGDB_REQUIRE_TABLES(type)                                                                         \
    if (!tables_available(type))                                                                          \
    GTEST_SKIP() << "built without the Kingsrow Tunstall tables (configure with -DEGDB_KINGSROW_TABLES=...)"

ValueSet value_set_of(DbType type) {
    switch (type) {
        case DbType::WldTunV2: return ValueSet::ResultsAndUnknown;
        case DbType::WldRunlen:
        case DbType::WldTunV1: return ValueSet::WithPartials;
        default: return ValueSet::Results;
    }
}

// Every position of every written side, compared with what was written; also looks every
// position up reversed (same value from the other side's point of view, 1.4).
std::uint64_t expect_read_back(const KingsrowDatabase& db, const std::vector<SyntheticSide>& sides, bool mtc) {
    std::uint64_t checked = 0;
    for (const SyntheticSide& s : sides) {
        const SliceIndexer& indexer = slice_indexer(s.slice);
        for (std::uint64_t i = 0; i < indexer.size(); ++i) {
            if (s.is_free(i)) continue;
            const Position p = indexer.position_at(i);
            const int expected = mtc ? test::expected_mtc_code(s.mtc[i]) : to_code(s.wld[i]);
            const int got = db.lookup_code(p, s.side, Conditional::No);
            if (got != expected) {
                ADD_FAILURE() << "slice " << s.slice.to_string() << " side " << static_cast<int>(s.side) << " index " << i
                              << ": expected " << expected << ", read " << got;
                return checked;
            }
            if (i % 7 == 0) {
                EXPECT_EQ(db.lookup_code(reversed(p), opposite(s.side), Conditional::No), expected);
            }
            ++checked;
        }
    }
    return checked;
}

// lookup_codes (the pipelined batch) against one lookup_code per position: random positions of
// every slice up to 5 pieces (so absent slices, too many pieces and reversed lookups are in), in
// batches of every size around the pipeline's depth.
std::uint64_t expect_batches_equal_single_lookups(const KingsrowDatabase& db) {
    std::mt19937_64 rng(99);
    std::vector<Position> positions;
    std::vector<Color> sides;
    for (int pieces = 2; pieces <= 5; ++pieces) {
        for (const SliceId s : all_slices(pieces)) {
            const SliceIndexer& indexer = slice_indexer(s);
            for (int k = 0; k < 100; ++k) {
                positions.push_back(indexer.position_at(rng() % indexer.size()));
                sides.push_back(rng() % 2 == 0 ? Color::Black : Color::White);
            }
        }
    }
    positions.push_back(Position{0, squares_bb(40, 40), 0});  // a side without pieces
    sides.push_back(Color::Black);
    std::uint64_t checked = 0;
    std::size_t first = 0;
    for (const std::size_t size : {0, 1, 2, 17, 18, 19, 20, 64, 1000, 100000}) {
        const std::size_t n = std::min(size, positions.size() - first);
        std::vector<int> out(n, 12345);
        db.lookup_codes(std::span(positions).subspan(first, n), std::span(sides).subspan(first, n), out);
        for (std::size_t i = 0; i < n; ++i) {
            const int single = db.lookup_code(positions[first + i], sides[first + i], Conditional::No);
            if (out[i] != single) {
                ADD_FAILURE() << "batch of " << n << ", entry " << i << ": " << out[i] << " instead of " << single;
                return checked;
            }
        }
        checked += n;
        first = (first + n) % positions.size();
    }
    return checked;
}

class KingsrowRoundTrip : public ::testing::TestWithParam<DbType> {};

TEST_P(KingsrowRoundTrip, EveryPositionReadsBackThroughBothMemoryPaths) {
    const DbType type = GetParam();
    EGDB_REQUIRE_TABLES(type);
    ScratchDir dir(std::string("roundtrip_") + std::string(name_of(type)));
    const std::vector<SyntheticSide> sides = test::synthetic_database(value_set_of(type));
    const bool mtc = type == DbType::MtcRunlen;
    const WriteReport report = mtc ? write_mtc_database(dir.path(), test::mtc_tables(sides))
                                   : write_wld_database(dir.path(), type, test::wld_tables(sides));
    EXPECT_EQ(report.max_pieces, 4);
    ASSERT_TRUE(report.identification.has_value());

    for (const AutoloadPolicy policy : {AutoloadPolicy::AsUpstream, AutoloadPolicy::None}) {
        KingsrowOpenOptions options;
        options.autoload = policy;
        const std::unique_ptr<KingsrowDatabase> db = open_database(dir.path(), options);
        ASSERT_EQ(db->type(), type);
        EXPECT_EQ(db->max_pieces(), 4);
        EXPECT_EQ(db->max_pieces_one_side(), 3);
        EXPECT_GT(expect_read_back(*db, sides, mtc), 1'000'000U);
        EXPECT_GT(expect_batches_equal_single_lookups(*db), 10'000U);
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, KingsrowRoundTrip,
                         ::testing::Values(DbType::WldRunlen, DbType::WldTunV1, DbType::WldTunV2, DbType::MtcRunlen),
                         [](const auto& param_info) { return std::string(name_of(param_info.param)).substr(5); });

Position fen(const char* text) { return parse_fen(text).position; }

TEST(KingsrowLookup, MissingDataGivesTheDocumentedValuesPerType) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV2);
    for (const DbType type : {DbType::WldTunV2, DbType::WldRunlen, DbType::MtcRunlen}) {
        ScratchDir dir(std::string("missing_") + std::string(name_of(type)));
        // 2 pieces complete; of 3 pieces only slice 2010 with Black to move.
        std::vector<SyntheticSide> sides;
        for (const SliceId s : canonical_slices(2)) {
            for (const Color c : {Color::Black, Color::White}) {
                if (!(is_color_symmetric(s) && c == Color::White)) sides.push_back(test::synthetic_side(s, c, ValueSet::Results, 7));
            }
        }
        sides.push_back(test::synthetic_side({2, 0, 1, 0}, Color::Black, ValueSet::Results, 8));
        if (type == DbType::MtcRunlen) {
            write_mtc_database(dir.path(), test::mtc_tables(sides));
        } else {
            write_wld_database(dir.path(), type, test::wld_tables(sides));
        }
        const auto db = open_database(dir.path());
        const MissingValues m = missing_values_of(type);
        // 2010 White to move: colour absent, other colour present.
        EXPECT_EQ(db->lookup_code(fen("W:W40:B10,12"), Color::White, Conditional::No), m.color_absent) << name_of(type);
        // 2001 (black men vs a white king) absent in both colours.
        EXPECT_EQ(db->lookup_code(fen("B:WK40:B10,12"), Color::Black, Conditional::No), m.both_absent) << name_of(type);
        // More pieces than the type reads, or more than five a side.
        EXPECT_EQ(db->lookup_code(fen("B:W31-40:B1-10"), Color::Black, Conditional::No), m.too_many_pieces);
        EXPECT_EQ(db->lookup_code(fen("B:W40:B1-6"), Color::Black, Conditional::No), m.too_many_pieces);
        // A side without pieces.
        EXPECT_EQ(db->lookup_code(fen("B:W40:B"), Color::Black, Conditional::No), m.side_to_move_has_no_pieces);
        EXPECT_EQ(db->lookup_code(fen("B:W40:B"), Color::White, Conditional::No), m.opponent_has_no_pieces);
    }
    EXPECT_EQ(missing_values_of(DbType::WldTunV2).both_absent, to_code(WldResult::SubdbUnavailable));
    EXPECT_EQ(missing_values_of(DbType::WldTunV1).color_absent, to_code(WldResult::Unknown));
    EXPECT_EQ(missing_values_of(DbType::WldRunlen).both_absent, to_code(WldResult::Unknown));
    EXPECT_EQ(missing_values_of(DbType::MtcRunlen).not_in_cache, MtcValue::kLessThanThresholdCode);
}

TEST(KingsrowLookup, ConditionalLookupsDoNotReadTheDisk) {
    ScratchDir dir("conditional");
    const std::vector<SyntheticSide> sides = test::synthetic_database(ValueSet::WithPartials);
    write_wld_database(dir.path(), DbType::WldRunlen, test::wld_tables(sides));
    KingsrowOpenOptions options;
    options.autoload = AutoloadPolicy::None;
    options.preload = false;
    const auto db = open_database(dir.path(), options);
    const SyntheticSide& s = sides.back();  // 1111, Black to move, multi-block
    const SliceIndexer& indexer = slice_indexer(s.slice);
    std::uint64_t i = indexer.size() / 2;
    while (s.is_free(i)) ++i;
    const Position p = indexer.position_at(i);
    EXPECT_EQ(db->lookup_code(p, s.side, Conditional::Yes), to_code(WldResult::NotInCache));
    EXPECT_EQ(db->lookup_code(p, s.side, Conditional::No), to_code(s.wld[i]));
    EXPECT_EQ(db->lookup_code(p, s.side, Conditional::Yes), to_code(s.wld[i]));

    // Autoloaded files are always in memory.
    const auto loaded = open_database(dir.path());
    EXPECT_EQ(loaded->lookup_code(p, s.side, Conditional::Yes), to_code(s.wld[i]));
}

TEST(KingsrowLookup, SingleValueSubslicesAreWrittenAsSingleValueRecords) {
    ScratchDir dir("single");
    const std::vector<SyntheticSide> sides = test::synthetic_database(ValueSet::Results);
    write_wld_database(dir.path(), DbType::WldRunlen, test::wld_tables(sides));
    std::ifstream in(dir.path() / "db2.idx");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("BASE0,1,1,0,0,b:+"), std::string::npos) << text;
    EXPECT_NE(text.find("BASE0,1,1,0,0,w:+"), std::string::npos) << text;
    const auto db = open_database(dir.path());
    EXPECT_EQ(db->lookup_code(fen("B:W40:BK23"), Color::Black, Conditional::No), to_code(WldResult::Win));
    EXPECT_EQ(db->lookup_code(fen("W:WK23:B40"), Color::White, Conditional::No), to_code(WldResult::Win));
}

// 3.2 rule 4: a file whose every subslice is single-valued still gets one data record, its
// last, which the streaming writer only knows to be last when the next file starts.
TEST(KingsrowLookup, AFileOfConstantSubslicesEndsWithADataRecord) {
    for (const DbType type : {DbType::WldRunlen, DbType::MtcRunlen}) {
        ScratchDir dir(std::string("constant_") + std::string(name_of(type)));
        std::vector<SyntheticSide> sides;
        for (const SliceId s : canonical_slices(2)) {
            for (const Color c : {Color::Black, Color::White}) {
                if (is_color_symmetric(s) && c == Color::White) continue;
                SyntheticSide side = test::synthetic_side(s, c, ValueSet::Results, 3, true);
                std::fill(side.mtc.begin(), side.mtc.end(), std::uint16_t{0});
                sides.push_back(std::move(side));
            }
        }
        sides.push_back(test::synthetic_side({2, 0, 1, 0}, Color::Black, ValueSet::Results, 4));
        const bool mtc = type == DbType::MtcRunlen;
        if (mtc) {
            write_mtc_database(dir.path(), test::mtc_tables(sides));
        } else {
            write_wld_database(dir.path(), type, test::wld_tables(sides));
        }
        std::ifstream in(dir.path() / (mtc ? "db2.idx_mtc" : "db2.idx"));
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // The last table of db2 is 0101 (a king each), Black to move: a data record at byte 0.
        EXPECT_NE(text.find("BASE0,1,0,1,0,b:0/0\n"), std::string::npos) << text;
        EXPECT_EQ(text.find("BASE0,1,0,1,0,b:+"), std::string::npos) << text;
        EXPECT_GT(std::filesystem::file_size(dir.path() / (mtc ? "db2.cpr_mtc" : "db2.cpr")), 0U);
        std::uint64_t stored = 0;
        for (const SyntheticSide& side : sides) {
            for (std::uint64_t i = 0; i < side.wld.size(); ++i) stored += side.is_free(i) ? 0 : 1;
        }
        const auto db = open_database(dir.path());
        EXPECT_EQ(expect_read_back(*db, sides, mtc), stored) << name_of(type);
    }
}

// The streaming writers take tables in file order, one at a time; a table out of that order or
// given twice is refused with the slice named, since the file it belongs to may be closed.
TEST(KingsrowLookup, StreamingWritersRefuseTablesOutOfFileOrder) {
    ScratchDir dir("order");
    const SyntheticSide two = test::synthetic_side({1, 0, 1, 0}, Color::Black, ValueSet::Results, 5);
    const SyntheticSide three = test::synthetic_side({2, 0, 1, 0}, Color::Black, ValueSet::Results, 6);
    WldDatabaseWriter wld(dir.path(), DbType::WldRunlen);
    wld.add({three.slice, three.side, three.wld, three.dont_care});
    try {
        wld.add({two.slice, two.side, two.wld, two.dont_care});
        ADD_FAILURE() << "a 2-piece table after a 3-piece one was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("1010"), std::string::npos) << e.what();
    }
    EXPECT_THROW(wld.add({three.slice, three.side, three.wld, three.dont_care}), std::invalid_argument);
    MtcDatabaseWriter mtc(dir.path());
    mtc.add({three.slice, Color::White, three.mtc, three.dont_care});
    EXPECT_THROW(mtc.add({three.slice, Color::Black, three.mtc, three.dont_care}), std::invalid_argument);
    EXPECT_THROW(write_wld_database(dir.path(), DbType::WldRunlen, test::wld_tables({two, two})), std::invalid_argument);
    EXPECT_NO_THROW(write_wld_database(dir.path(), DbType::WldRunlen, test::wld_tables({three, two})));
}

TEST(KingsrowIdentify, WrittenDirectoriesAreTypedByTheUpstreamCrcTable) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV2);
    ScratchDir dir("identify");
    const std::vector<SyntheticSide> sides = test::synthetic_database(ValueSet::Results);
    const WriteReport v2 = write_wld_database(dir.path(), DbType::WldTunV2, test::wld_tables(sides));
    ASSERT_TRUE(v2.identification);
    EXPECT_EQ(v2.identification->file, "db4.idx1");
    EXPECT_EQ(file_crc32(dir.path() / "db4.idx1"), 0xc3a84295U);
    const auto id = identify_as_upstream(dir.path());
    ASSERT_TRUE(id);
    EXPECT_EQ(id->type, DbType::WldTunV2);
    EXPECT_EQ(id->max_pieces, 4);

    // A mix of formats: V2, RUNLEN and MTC in one directory. The driver's order types it as V2
    // (row 25 comes first among the 4-piece rows); each type still opens explicitly.
    write_wld_database(dir.path(), DbType::WldRunlen, test::wld_tables(sides));
    write_mtc_database(dir.path(), test::mtc_tables(sides));
    EXPECT_EQ(identify(dir.path())->type, DbType::WldTunV2);
    for (const DbType type : {DbType::WldTunV2, DbType::WldRunlen, DbType::MtcRunlen}) {
        const auto db = open_database(dir.path(), type, 4);
        EXPECT_EQ(db->type(), type);
        EXPECT_GT(expect_read_back(*db, {sides.front()}, type == DbType::MtcRunlen), 0U);
    }
}

TEST(KingsrowIdentify, WithoutAForcedCrcTheEgdbRuleApplies) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV1);
    ScratchDir dir("fallback");
    const std::vector<SyntheticSide> sides = test::synthetic_database(ValueSet::Results);
    WriterOptions options;
    options.force_identification_crc = false;
    write_wld_database(dir.path(), DbType::WldTunV1, test::wld_tables(sides), options);
    EXPECT_FALSE(identify_as_upstream(dir.path()));
    auto id = identify(dir.path());
    ASSERT_TRUE(id);
    EXPECT_EQ(id->type, DbType::WldTunV1);
    EXPECT_EQ(id->by, IdentifiedBy::EgdbFallbackRule);
    EXPECT_EQ(id->max_pieces, 4);

    ScratchDir runlen("fallback_runlen");
    write_wld_database(runlen.path(), DbType::WldRunlen, test::wld_tables(sides), options);
    EXPECT_EQ(identify(runlen.path())->type, DbType::WldRunlen);

    ScratchDir empty("fallback_empty");
    std::ofstream(empty.path() / "notes.txt") << "x";
    EXPECT_FALSE(identify(empty.path()));
    try {
        open_database(empty.path());
        FAIL() << "opened an empty directory";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("No egdb found"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos);
    }
}

TEST(KingsrowVerify, ReportsOkWrongAndMissingPerFile) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV2);
    ScratchDir dir("verify");
    const std::vector<SyntheticSide> sides = test::synthetic_database(ValueSet::Results);
    write_wld_database(dir.path(), DbType::WldTunV2, test::wld_tables(sides));
    std::filesystem::remove(dir.path() / "db3.cpr1");
    const std::vector<FileCheck> checks = verify_files(dir.path(), DbType::WldTunV2, 5);
    ASSERT_EQ(checks.size(), 8U);  // db2..db5, index and data
    EXPECT_EQ(checks[0].file, "db2.idx1");
    EXPECT_EQ(checks[0].status, FileStatus::Wrong);  // our content, not Kingsrow's
    EXPECT_EQ(checks[3].file, "db3.cpr1");
    EXPECT_EQ(checks[3].status, FileStatus::Missing);
    EXPECT_EQ(checks[4].file, "db4.idx1");
    EXPECT_EQ(checks[4].status, FileStatus::Ok);  // forced to the published value
    EXPECT_EQ(checks[6].status, FileStatus::Missing);  // db5.idx1
    EXPECT_EQ(reference_crcs(DbType::WldTunV2).size(), 119U);  // base names of A.1
    EXPECT_EQ(reference_crcs(DbType::WldTunV1).size(), 140U);
    EXPECT_TRUE(verify_files(dir.path(), DbType::MtcRunlen, 8).empty());
}

TEST(KingsrowCrc, MatchesZlibAndForcesAnyValue) {
    const std::string text = "123456789";
    EXPECT_EQ(crc32(std::as_bytes(std::span(text.data(), text.size()))), 0xCBF43926U);
    for (const std::uint32_t target : {0U, 0xc3a84295U, 0xFFFFFFFFU, 0x12345678U}) {
        std::vector<std::byte> data(std::as_bytes(std::span(text.data(), text.size())).begin(),
                                    std::as_bytes(std::span(text.data(), text.size())).end());
        const auto suffix = crc32_forcing_bytes(crc32(data), target);
        data.insert(data.end(), suffix.begin(), suffix.end());
        EXPECT_EQ(crc32(data), target);
    }
}

// Writes the databases once per format in a test, then damages a copy.
class KingsrowErrors : public ::testing::Test {
protected:
    void write(DbType type) {
        sides_ = test::synthetic_database(ValueSet::Results);
        write_wld_database(dir_.path(), type, test::wld_tables(sides_));
    }
    std::string open_error(AutoloadPolicy policy = AutoloadPolicy::AsUpstream) {
        KingsrowOpenOptions options;
        options.autoload = policy;
        try {
            const auto db = open_database(dir_.path(), options);
            if (policy == AutoloadPolicy::None) expect_read_back(*db, sides_, false);
        } catch (const std::exception& e) {
            return e.what();
        }
        return "";
    }
    ScratchDir dir_{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    std::vector<SyntheticSide> sides_;
};

TEST_F(KingsrowErrors, CorruptedDataIsReportedWithTheFileName) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV2);
    write(DbType::WldTunV2);
    {
        std::fstream f(dir_.path() / "db4.cpr1", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(5000);
        const char garbage[16] = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};
        f.write(garbage, sizeof garbage);
    }
    const std::string at_open = open_error();
    EXPECT_NE(at_open.find("db4.cpr1"), std::string::npos) << at_open;
    EXPECT_NE(at_open.find("decodes"), std::string::npos) << at_open;
    // Through the cache the damage is found when the block is read.
    const std::string at_lookup = open_error(AutoloadPolicy::None);
    EXPECT_NE(at_lookup.find("db4.cpr1"), std::string::npos) << at_lookup;
}

TEST_F(KingsrowErrors, TruncatedDataIsReportedAtOpen) {
    write(DbType::WldRunlen);
    const auto path = dir_.path() / "db4.cpr";
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3000);
    const std::string error = open_error();
    EXPECT_NE(error.find("db4.idx"), std::string::npos) << error;
    EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}

TEST_F(KingsrowErrors, DeletedFilesAreNamed) {
    write(DbType::WldRunlen);
    std::filesystem::remove(dir_.path() / "db3.idx");
    EXPECT_NE(open_error().find("missing " + (dir_.path() / "db3.idx").string()), std::string::npos);
    std::filesystem::remove(dir_.path() / "db3.cpr");
    const std::string error = open_error();
    EXPECT_NE(error.find("db3.cpr"), std::string::npos) << error;
    EXPECT_NE(error.find("maxpieces"), std::string::npos) << error;
    // With maxpieces=2 only db2 is needed.
    KingsrowOpenOptions options;
    options.options = "maxpieces=2";
    const auto db = open_database(dir_.path(), DbType::WldRunlen, 4, options);
    EXPECT_EQ(db->max_pieces(), 2);
    EXPECT_EQ(db->lookup_code(fen("B:W40:B10,12"), Color::Black, Conditional::No), 0);
}

TEST_F(KingsrowErrors, AnIndexWithoutDataRecordsIsAnErrorNotACrash) {
    write(DbType::WldRunlen);
    std::ofstream(dir_.path() / "db2.idx") << "BASE1,0,1,0,0,b:+\nBASE0,1,0,1,0,b:=\n";
    const std::string error = open_error();
    EXPECT_NE(error.find("db2.idx:1: no data record"), std::string::npos) << error;
}

TEST(KingsrowOptions, MaxpiecesIsParsedAsUpstream) {
    EXPECT_EQ(parse_maxpieces_option(""), std::nullopt);
    EXPECT_EQ(parse_maxpieces_option("maxpieces=6"), 6);
    EXPECT_EQ(parse_maxpieces_option("foo;maxpieces =  7;bar"), 7);
    EXPECT_EQ(parse_maxpieces_option("maxpieces"), std::nullopt);
    EXPECT_EQ(parse_maxpieces_option("maxpieces=x"), 0);
    EXPECT_EQ(effective_max_pieces(8, "maxpieces=6"), 6);
    EXPECT_EQ(effective_max_pieces(5, "maxpieces=6"), 5);
    EXPECT_EQ(effective_max_pieces(8, "maxpieces=0"), 8);
    EXPECT_EQ(effective_max_pieces(8, "cache=12"), 8);
}

TEST(KingsrowTables, CodeBooksHaveTheDocumentedShape) {
    EGDB_REQUIRE_TABLES(DbType::WldTunV1);
    const TunstallCodeBook v1(TunstallVersion::V1);
    const TunstallCodeBook v2(TunstallVersion::V2);
    EXPECT_EQ(v1.catalogs(), 30);
    EXPECT_EQ(v2.catalogs(), 50);
    EXPECT_EQ(builtin_tunstall_tables(TunstallVersion::V1).value_runs.size(), 13523U);
    EXPECT_EQ(builtin_tunstall_tables(TunstallVersion::V2).value_runs.size(), 9877U);
    int longest = 0;
    for (int c = 0; c < 50; ++c) {
        for (int b = 0; b < 256; ++b) longest = std::max<int>(longest, v2.length(c, static_cast<std::uint8_t>(b)));
    }
    EXPECT_EQ(longest, 15871);
}

}  // namespace
}  // namespace egdb::kingsrow
