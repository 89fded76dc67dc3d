// Every kind of database egdb writes opens the way users open it, with the generator's values.
//
// A Kingsrow V1 set written with the default kinds once could not be opened by egdb_open,
// `egdb probe`, `egdb verify` or egdb.open (the DTW files beside the WLD files changed how the
// .idx files were typed), while the build's own read-back, which opened the files through the
// format readers, said OK. So this suite opens every WLD format (native, run-length, Tunstall V1,
// V2) with every set of companion files (none, MTC, DTW, both), for 3 and 4 pieces (3 in
// sanitizer builds), through the three doors users have: the C++ Database, the C ABI and the
// `egdb` program; and compares what each answers on sampled positions of every slice, in both
// orientations and with both sides to move, with the solution the files were written from.
//
// The WLD, MTC and DTW files do not depend on which other kinds are written beside them (tested
// below), so each WLD format is exported once with all kinds and the combinations are assembled
// from hard links to those files.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "capi/egdb.h"
#include "core/formats/kingsrow/codecs/tunstall_tables.hpp"
#include "core/formats/kingsrow/directory/file_set.hpp"
#include "core/build/kingsrow_export.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/generate/build_driver.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/probe/database.hpp"
#include "core/rules/movegen.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

enum class WldFormat { Native, Runlen, TunV1, TunV2 };

constexpr const char* name_of(WldFormat f) {
    return f == WldFormat::Native ? "native" : f == WldFormat::Runlen ? "runlen" : f == WldFormat::TunV1 ? "v1" : "v2";
}

struct Companions {
    bool mtc = false;
    bool dtw = false;
    std::string name() const { return mtc && dtw ? "mtc+dtw" : mtc ? "mtc" : dtw ? "dtw" : "none"; }
};

constexpr Companions kCompanions[] = {{false, false}, {true, false}, {false, true}, {true, true}};

struct Combination {
    WldFormat format;
    Companions companions;
    int pieces;
    std::string name() const {
        return std::string(name_of(format)) + "-" + companions.name() + "-" + std::to_string(pieces);
    }
};

// The MTC and DTW files of a Kingsrow set (index and data), by the extensions the directory
// layer gives each type (section 3.1), not spelled again here.
bool has_extension_of(const fs::path& file, kingsrow::DbType type) {
    const std::string ext = file.extension().string();
    const kingsrow::FormatTraits& t = kingsrow::traits_of(type);
    return ext == t.index_extension || ext == t.data_extension;
}
bool is_mtc_file(const fs::path& file) { return has_extension_of(file, kingsrow::DbType::MtcRunlen); }
bool is_dtw_file(const fs::path& file) { return has_extension_of(file, kingsrow::DbType::Dtw); }

bool tunstall_tables_available(WldFormat f) {
    return kingsrow::builtin_tunstall_tables(f == WldFormat::TunV1 ? kingsrow::TunstallVersion::V1
                                                                   : kingsrow::TunstallVersion::V2)
        .available();
}

// One sampled position with the values a correct reader must give.
struct Sample {
    Position position;
    Color side;
    PositionValue value;
};

// What a reader must answer for MTC: the exact value for native data; for Kingsrow MTC the
// stored value (even, rounded up, 7) from the threshold of 10 on and nothing below it, nor for a
// position whose side to move must capture (a conversion: 2 or 3 plies, below the threshold).
std::optional<int> expected_mtc(const Combination& c, const Sample& s) {
    if (!c.companions.mtc) return std::nullopt;
    if (s.value.wld == WldValue::Draw) return std::nullopt;
    if (c.format == WldFormat::Native) return s.value.mtc;
    if (s.value.mtc < kingsrow::MtcValue::kThreshold) return std::nullopt;
    return (s.value.mtc + 1) / 2 * 2;
}

std::optional<int> expected_dtw(const Combination& c, const Sample& s) {
    if (!c.companions.dtw || s.value.wld == WldValue::Draw) return std::nullopt;
    return s.value.dtw;
}

class OpenMatrix : public ::testing::Test {
protected:
    static std::vector<int> piece_counts() { return test::quick_mode() ? std::vector<int>{3} : std::vector<int>{3, 4}; }

    static void SetUpTestSuite() {
        scratch_ = new test::ScratchDir("open_matrix");
        for (const int pieces : piece_counts()) {
            auto& store = stores_[pieces];
            store = std::make_unique<SolutionStore>();
            BuildOptions options;
            options.threads = 2;
            solve_slices(pieces, *store, options);
            const std::vector<SliceId> order = build_order(pieces);
            // Native: the WLD sections always, DTW and MTC sections as the companions say.
            for (const Companions& c : kCompanions) {
                const fs::path dir = scratch_->sub(Combination{WldFormat::Native, c, pieces}.name());
                native::SolvedWriteOptions w;
                w.kinds = {true, c.dtw, c.mtc};
                w.threads = 2;
                for (SliceId s : order) native::write_solved_slice(dir, *store->find(s), w);
            }
            // Kingsrow: each WLD format once, then one directory per combination. The MTC and DTW
            // files do not depend on the WLD format (CompanionFilesDoNotChangeTheWldFiles checks the
            // other way round): written once, with run-length WLD, and linked into the others.
            fs::path companions_written;
            for (const WldFormat f : {WldFormat::Runlen, WldFormat::TunV1, WldFormat::TunV2}) {
                if (f != WldFormat::Runlen && !tunstall_tables_available(f)) continue;
                const fs::path full = scratch_->sub(std::string("full-") + name_of(f) + "-" + std::to_string(pieces));
                kingsrow::KingsrowExportOptions k;
                k.wld_type = f == WldFormat::Runlen  ? kingsrow::DbType::WldRunlen
                             : f == WldFormat::TunV1 ? kingsrow::DbType::WldTunV1
                                                     : kingsrow::DbType::WldTunV2;
                k.threads = 2;
                k.mtc = k.dtw = companions_written.empty();
                kingsrow::write_kingsrow_databases(full, *store, order, k);
                if (companions_written.empty()) {
                    companions_written = full;
                } else {
                    for (const auto& entry : fs::directory_iterator(companions_written)) {
                        const fs::path& file = entry.path();
                        if (is_mtc_file(file) || is_dtw_file(file)) fs::create_hard_link(file, full / file.filename());
                    }
                }
                for (const Companions& c : kCompanions) {
                    const fs::path dir = scratch_->sub(Combination{f, c, pieces}.name());
                    for (const auto& entry : fs::directory_iterator(full)) {
                        if ((is_mtc_file(entry.path()) && !c.mtc) || (is_dtw_file(entry.path()) && !c.dtw)) continue;
                        fs::create_hard_link(entry.path(), dir / entry.path().filename());
                    }
                }
            }
        }
    }

    static void TearDownTestSuite() {
        stores_.clear();
        delete scratch_;
        scratch_ = nullptr;
    }

    static std::vector<Combination> combinations() {
        std::vector<Combination> out;
        for (const int pieces : piece_counts()) {
            for (const WldFormat f : {WldFormat::Native, WldFormat::Runlen, WldFormat::TunV1, WldFormat::TunV2}) {
                for (const Companions& c : kCompanions) out.push_back({f, c, pieces});
            }
        }
        return out;
    }

    // Skips (saying why) the combinations the build cannot write: V1 and V2 need the Tunstall tables.
    static bool available(const Combination& c, std::string* why) {
        if ((c.format == WldFormat::TunV1 || c.format == WldFormat::TunV2) && !tunstall_tables_available(c.format)) {
            *why = std::string(name_of(c.format)) + " not tested: built without the Kingsrow Tunstall tables "
                   "(configure with -DEGDB_KINGSROW_TABLES=...)";
            return false;
        }
        return true;
    }

    static fs::path directory(const Combination& c) { return scratch_->path() / c.name(); }

    // `per_slice` random positions of every slice of up to `pieces` pieces, both orientations,
    // with both sides to move (every position of a slice no larger than that).
    static std::vector<Sample> samples(int pieces, std::uint64_t per_slice) {
        std::vector<Sample> out;
        std::mt19937_64 rng(20261201);
        const SolutionStore& store = *stores_.at(pieces);
        for (SliceId s : all_slices(pieces)) {
            const SliceIndexer& indexer = slice_indexer(s);
            const std::uint64_t n = indexer.size();
            const bool whole = n <= per_slice;
            for (std::uint64_t k = 0; k < (whole ? n : per_slice); ++k) {
                const Position p = indexer.position_at(whole ? k : rng() % n);
                for (const Color side : {Color::Black, Color::White}) out.push_back({p, side, store.value(p, side)});
            }
        }
        return out;
    }

    static test::ScratchDir* scratch_;
    static std::map<int, std::unique_ptr<SolutionStore>> stores_;
};

test::ScratchDir* OpenMatrix::scratch_ = nullptr;
std::map<int, std::unique_ptr<SolutionStore>> OpenMatrix::stores_;

// Reported once for the whole matrix, so that a run without the tables says what it left out.
TEST_F(OpenMatrix, TunstallFormatsAreCoveredOrTheSkipIsNamed) {
    for (const WldFormat f : {WldFormat::TunV1, WldFormat::TunV2}) {
        if (!tunstall_tables_available(f)) GTEST_SKIP() << name_of(f) << " combinations not tested: no Tunstall tables";
    }
    SUCCEED();
}

TEST_F(OpenMatrix, CompanionFilesDoNotChangeTheWldFiles) {
    // A WLD-only export is byte for byte the WLD part of the full export the matrix links from.
    const int pieces = 3;
    const std::vector<SliceId> order = build_order(pieces);
    for (const WldFormat f : {WldFormat::Runlen, WldFormat::TunV1, WldFormat::TunV2}) {
        std::string why;
        if (!available({f, {}, pieces}, &why)) continue;
        const fs::path alone = scratch_->sub(std::string("alone-") + name_of(f));
        kingsrow::KingsrowExportOptions k;
        k.wld_type = f == WldFormat::Runlen  ? kingsrow::DbType::WldRunlen
                     : f == WldFormat::TunV1 ? kingsrow::DbType::WldTunV1
                                             : kingsrow::DbType::WldTunV2;
        k.mtc = k.dtw = false;
        kingsrow::write_kingsrow_databases(alone, *stores_.at(pieces), order, k);
        int files = 0;
        for (const auto& entry : fs::directory_iterator(alone)) {
            std::ifstream a(entry.path(), std::ios::binary), b(directory({f, {}, pieces}) / entry.path().filename(), std::ios::binary);
            ASSERT_TRUE(b) << entry.path().filename() << " missing from the full export";
            const std::string bytes_a((std::istreambuf_iterator<char>(a)), {}), bytes_b((std::istreambuf_iterator<char>(b)), {});
            EXPECT_EQ(bytes_a, bytes_b) << name_of(f) << " " << entry.path().filename();
            ++files;
        }
        EXPECT_GT(files, 0);
    }
}

// The C++ Database: type, kinds, piece count, raw stored codes, true WLD, DTW and MTC.
TEST_F(OpenMatrix, DatabaseOpensEveryCombinationWithTheSolvedValues) {
    for (const Combination& c : combinations()) {
        SCOPED_TRACE(c.name());
        std::string why;
        if (!available(c, &why)) continue;
        std::unique_ptr<Database> db;
        ASSERT_NO_THROW(db = Database::open(directory(c))) << c.name();
        const DatabaseType want_type = c.format == WldFormat::Native  ? DatabaseType::Native
                                       : c.format == WldFormat::Runlen ? DatabaseType::WldRunlen
                                       : c.format == WldFormat::TunV1  ? DatabaseType::WldTunV1
                                                                       : DatabaseType::WldTunV2;
        EXPECT_EQ(db->type(), want_type);
        EXPECT_EQ(db->max_pieces(), c.pieces);
        EXPECT_TRUE(db->has_wld());
        EXPECT_EQ(db->has_dtw(), c.companions.dtw);
        EXPECT_EQ(db->has_mtc(), c.companions.mtc);
        std::uint64_t mismatches = 0;
        for (const Sample& s : samples(c.pieces, 40)) {
            const bool wld_ok = db->wld(s.position, s.side) == s.value.wld;
            const bool dtw_ok = !db->has_dtw() || db->dtw(s.position, s.side) == expected_dtw(c, s);
            const bool mtc_ok = !db->has_mtc() || db->mtc(s.position, s.side) == expected_mtc(c, s);
            // Kingsrow stores no value where the side to move must capture (3.3); elsewhere the
            // raw WLD code is the value itself.
            const bool raw_ok = has_capture(s.position, s.side) ||
                                db->lookup_stored(StoredKind::Wld, s.position, s.side) ==
                                    (s.value.wld == WldValue::Win ? EGDB_WIN : s.value.wld == WldValue::Loss ? EGDB_LOSS : EGDB_DRAW);
            if (!(wld_ok && dtw_ok && mtc_ok && raw_ok)) {
                if (++mismatches <= 5) {
                    ADD_FAILURE() << c.name() << " " << to_fen(s.position, s.side) << ": wld " << wld_ok << " dtw " << dtw_ok
                                  << " mtc " << mtc_ok << " raw " << raw_ok;
                }
            }
        }
        EXPECT_EQ(mismatches, 0U) << c.name();
    }
}

// The C ABI: egdb_open, egdb_identify, egdb_lookup_with_search and egdb_probe on FENs.
TEST_F(OpenMatrix, CApiOpensEveryCombinationWithTheSolvedValues) {
    for (const Combination& c : combinations()) {
        SCOPED_TRACE(c.name());
        std::string why;
        if (!available(c, &why)) continue;
        const std::string dir = directory(c).string();
        const int handle = egdb_open("", 16, dir.c_str(), "");
        ASSERT_GE(handle, 0) << c.name() << ": " << egdb_last_error(-1);
        int type = -1, pieces = -1;
        ASSERT_EQ(egdb_identify(dir.c_str(), &type, &pieces), 0) << egdb_last_error(-1);
        EXPECT_EQ(type, egdb_type(handle));
        EXPECT_EQ(pieces, c.pieces);
        std::uint64_t mismatches = 0;
        for (const Sample& s : samples(c.pieces, 10)) {
            const std::string fen = to_fen(s.position, s.side);
            const int want = s.value.wld == WldValue::Win ? EGDB_WIN : s.value.wld == WldValue::Loss ? EGDB_LOSS : EGDB_DRAW;
            EgdbProbe probe{};
            const bool ok = egdb_lookup_fen_with_search(handle, fen.c_str()) == want &&
                            egdb_probe_fen(handle, fen.c_str(), &probe) == 0 && probe.wld == want &&
                            probe.dtw == expected_dtw(c, s).value_or(-1) && probe.mtc == expected_mtc(c, s).value_or(-1);
            if (!ok && ++mismatches <= 5) {
                ADD_FAILURE() << c.name() << " " << fen << ": wld " << probe.wld << " dtw " << probe.dtw << " mtc " << probe.mtc
                              << " (" << egdb_last_error(handle) << ")";
            }
        }
        EXPECT_EQ(mismatches, 0U) << c.name();
        EXPECT_EQ(egdb_close(handle), 0);
    }
}

// The `egdb` program: `probe` on stdin FENs prints the solved values; `verify` accepts the set.
TEST_F(OpenMatrix, CliProbesAndVerifiesEveryCombination) {
    for (const Combination& c : combinations()) {
        SCOPED_TRACE(c.name());
        std::string why;
        if (!available(c, &why)) continue;
        const std::vector<Sample> sample = samples(c.pieces, 4);
        const fs::path input = scratch_->path() / (c.name() + ".fens");
        {
            std::ofstream f(input);
            for (const Sample& s : sample) f << to_fen(s.position, s.side) << '\n';
        }
        const fs::path output = scratch_->path() / (c.name() + ".out");
        const std::string command = "'" + test::cli_path().string() + "' probe --db '" + directory(c).string() + "' - < '" +
                                    input.string() + "' > '" + output.string() + "' 2>&1";
        ASSERT_EQ(std::system(command.c_str()), 0) << command;
        std::ifstream lines(output);
        std::uint64_t mismatches = 0;
        std::size_t n = 0;
        for (std::string line; std::getline(lines, line); ++n) {
            ASSERT_LT(n, sample.size()) << line;
            const Sample& s = sample[n];
            const auto dtw = expected_dtw(c, s);
            const auto mtc = expected_mtc(c, s);
            const std::string want = to_fen(s.position, s.side) + " wld=" + to_string(s.value.wld) +
                                     " dtw=" + (dtw ? std::to_string(*dtw) : "-") + " mtc=" + (mtc ? std::to_string(*mtc) : "-") +
                                     " best=";
            if (line.rfind(want, 0) != 0 && ++mismatches <= 5) ADD_FAILURE() << "got  " << line << "\nwant " << want << "...";
        }
        EXPECT_EQ(n, sample.size());
        EXPECT_EQ(mismatches, 0U) << c.name();
        // `verify` on every combination of the smallest sets, and on the larger sets that have every
        // kind: a set without some companion is read by the same code with fewer files.
        if (c.pieces != piece_counts().front() && !(c.companions.mtc && c.companions.dtw)) continue;
        const std::string verify = "'" + test::cli_path().string() + "' verify '" + directory(c).string() +
                                   "' --sample 200 > /dev/null 2>&1";
        EXPECT_EQ(std::system(verify.c_str()), 0) << verify;
    }
}

// A Kingsrow installation keeps WLD, MTC and DTW in separate folders (wld_database,
// mtc_database, dtw_database): a list of folders opens as one database, through Database::open
// and through egdb_open with the folders separated by ';'.
TEST_F(OpenMatrix, SeparateFoldersOpenAsOneDatabase) {
    const int pieces = 3;
    const fs::path full = scratch_->path() / "full-runlen-3";
    const fs::path wld = scratch_->sub("split-wld"), mtc = scratch_->sub("split-mtc"), dtw = scratch_->sub("split-dtw");
    for (const auto& entry : fs::directory_iterator(full)) {
        const std::string ext = entry.path().extension().string();
        const fs::path& to = ext.ends_with("_mtc") ? mtc : ext.ends_with("_dtw") ? dtw : wld;
        fs::create_hard_link(entry.path(), to / entry.path().filename());
    }
    const Combination all{WldFormat::Runlen, {true, true}, pieces};
    const std::vector<fs::path> folders{dtw, mtc, wld};  // any order: each kind has one source
    const auto db = Database::open(folders);
    EXPECT_EQ(db->type(), DatabaseType::WldRunlen);
    EXPECT_TRUE(db->has_wld() && db->has_mtc() && db->has_dtw());
    EXPECT_EQ(db->max_pieces(), pieces);
    const std::string list = dtw.string() + ";" + mtc.string() + ";" + wld.string();
    const int handle = egdb_open("", 16, list.c_str(), "");
    ASSERT_GE(handle, 0) << egdb_last_error(-1);
    EXPECT_EQ(egdb_type(handle), EGDB_WLD_RUNLEN);
    std::uint64_t mismatches = 0;
    for (const Sample& s : samples(pieces, 20)) {
        EgdbProbe probe{};
        const std::string fen = to_fen(s.position, s.side);
        const bool ok = db->wld(s.position, s.side) == s.value.wld && db->dtw(s.position, s.side) == expected_dtw(all, s) &&
                        db->mtc(s.position, s.side) == expected_mtc(all, s) &&
                        egdb_probe_fen(handle, fen.c_str(), &probe) == 0 && probe.dtw == expected_dtw(all, s).value_or(-1) &&
                        probe.mtc == expected_mtc(all, s).value_or(-1);
        if (!ok && ++mismatches <= 5) ADD_FAILURE() << fen;
    }
    EXPECT_EQ(mismatches, 0U);
    EXPECT_EQ(egdb_close(handle), 0);
    // A folder of the list that holds nothing is an error naming it, not silently skipped.
    const fs::path empty = scratch_->sub("split-empty");
    const std::string with_empty = list + ";" + empty.string();
    EXPECT_EQ(egdb_open("", 16, with_empty.c_str(), ""), EGDB_OPEN_FAIL);
    EXPECT_NE(std::string(egdb_last_error(-1)).find(empty.string()), std::string::npos) << egdb_last_error(-1);
}

}  // namespace
}  // namespace egdb
