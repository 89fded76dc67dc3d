// Exporting solved slices as Kingsrow databases (build/kingsrow_export.hpp) and reading them back
// (core/workflow/kingsrow_read_back.hpp): the check passes on what was written, covers every slice in both
// orientations, and finds one changed value in each pass that can see it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <string>
#include <vector>

#include "core/build/kingsrow_export.hpp"
#include "core/generate/build_driver.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/workflow/consistency_check.hpp"
#include "core/workflow/kingsrow_read_back.hpp"
#include "core/workflow/verify.hpp"
#include "core/probe/database.hpp"
#include "core/rules/movegen.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb::kingsrow {
namespace {

using workflow::check_kingsrow_export;
using workflow::ExportCheckOptions;
using workflow::ExportCheckReport;

class KingsrowExport : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        directory_ = new std::filesystem::path(egdb::test::scratch_path("kingsrow_export"));
        store_ = new SolutionStore();
        BuildOptions build;
        build.threads = 2;
        solve_slices(3, *store_, build);
        kinds_.wld_type = DbType::WldRunlen;  // needs no Tunstall tables
        kinds_.threads = 2;
        write_kingsrow_databases(*directory_, *store_, build_order(3), kinds_);
    }
    static void TearDownTestSuite() {
        std::filesystem::remove_all(*directory_);
        delete directory_;
        delete store_;
    }

    // Copies the solution into `changed` with the first won position of `slice` (Black to move,
    // no capture) made two plies longer; returns its index.
    static std::uint64_t copy_with_a_longer_win(SliceId slice, SolutionStore& changed) {
        for (SliceId s : build_order(3)) changed.add(*store_->find(s));
        SolvedSlice edited = *store_->find(slice);
        const SliceIndexer& indexer = slice_indexer(slice);
        std::uint64_t index = 0;
        while (wld_of_code(edited.dtw_codes(Color::Black)[index]) != WldValue::Win ||
               has_capture(indexer.position_at(index), Color::Black)) {
            ++index;
        }
        edited.dtw_codes(Color::Black)[index] = static_cast<DistanceCode>(edited.dtw_codes(Color::Black)[index] + 2);
        changed.add(std::move(edited));
        return index;
    }

    // Indices the consistency check reads per (slice, side) table: every index of every 3-piece
    // table, or under the sanitizers (quick mode, where a lookup costs about five times as much)
    // every index of the tables up to 4,000 positions and 4,000 random ones of the larger.
    static std::uint64_t consistency_samples() { return egdb::test::quick_mode() ? 4'000 : 1'000'000; }

    static std::filesystem::path* directory_;
    static SolutionStore* store_;
    static KingsrowExportOptions kinds_;
};

std::filesystem::path* KingsrowExport::directory_ = nullptr;
SolutionStore* KingsrowExport::store_ = nullptr;
KingsrowExportOptions KingsrowExport::kinds_;

TEST_F(KingsrowExport, EveryStoredAndSampledPositionReadsBack) {
    ExportCheckOptions options;
    options.threads = 2;
    options.samples_per_slice = 1000;
    const ExportCheckReport report = check_kingsrow_export(*directory_, *store_, build_order(3), kinds_, options);
    EXPECT_EQ(report.mismatches, 0U);
    EXPECT_TRUE(report.problems.empty());
    // Every slice of 2 and 3 pieces, canonical and reversed, is sampled.
    EXPECT_EQ(report.sampled_slices, all_slices(3).size());
    EXPECT_GT(report.sampled_positions, all_slices(3).size() * 1000);
    std::uint64_t indices = 0;
    for (SliceId s : build_order(3)) indices += slice_size(s);
    EXPECT_GT(report.stored_positions, indices);  // both sides to move, less the captures
    EXPECT_LT(report.stored_positions, 2 * indices);
}

// A solution that differs from the files in one DTW of a won position of slice 2010 (its
// colour-reversed slice is 1020): the stored pass finds it once, the sampled pass (whole slices
// here) once in 2010 and once, through the reversal, in 1020.
TEST_F(KingsrowExport, AChangedValueIsFoundInBothOrientations) {
    const SliceId slice{2, 0, 1, 0};
    SolutionStore changed;
    const std::uint64_t index = copy_with_a_longer_win(slice, changed);
    const SliceIndexer& indexer = slice_indexer(slice);

    ExportCheckOptions options;
    options.threads = 2;
    options.samples_per_slice = 1'000'000;  // more than any 3-piece slice has: all of them
    const ExportCheckReport report = check_kingsrow_export(*directory_, changed, build_order(3), kinds_, options);
    EXPECT_EQ(report.mismatches, 3U);
    ASSERT_EQ(report.problems.size(), 3U);
    const std::string fen = to_fen(indexer.position_at(index), Color::Black);
    EXPECT_EQ(report.problems[0].rfind(fen + ": DTW ", 0), 0U) << report.problems[0];
    const std::string reversed_fen = to_fen(reversed(indexer.position_at(index)), Color::White);
    EXPECT_TRUE(report.problems[1].rfind(reversed_fen + ": DTW ", 0) == 0 ||
                report.problems[2].rfind(reversed_fen + ": DTW ", 0) == 0)
        << report.problems[1] << "; " << report.problems[2];

    options.every_stored_position = false;
    options.samples_per_slice = 0;
    EXPECT_EQ(check_kingsrow_export(*directory_, changed, build_order(3), kinds_, options).mismatches, 0U);
}

// `egdb verify`'s check for Kingsrow sets (consistency_check.hpp): what was written is consistent
// with itself, every index of these small tables included.
TEST_F(KingsrowExport, WrittenSetsAreConsistentWithTheirSuccessors) {
    const auto db = egdb::Database::open(*directory_);
    egdb::ConsistencyOptions options;
    options.samples_per_table = consistency_samples();
    options.threads = 2;
    std::uint64_t tables_seen = 0;
    options.on_table = [&](SliceId, Color, std::uint64_t, std::uint64_t) { ++tables_seen; };
    const egdb::ConsistencyReport report = egdb::check_consistency(*db, options);
    EXPECT_TRUE(report.ok()) << (report.messages.empty() ? "" : report.messages.front());
    EXPECT_TRUE(report.checked_dtw);
    EXPECT_EQ(report.tables, tables_seen);
    EXPECT_GT(report.tables, 10U);
    EXPECT_GT(report.positions_checked, egdb::test::quick_mode() ? 40'000U : 500'000U);
    // verify_database (egdb_verify): the files need no published CRCs, since egdb wrote them.
    EXPECT_EQ(workflow::verify_database(*db).problems(), std::vector<std::string>{});

    // A set of WLD alone is checked on WLD alone.
    KingsrowExportOptions wld_only = kinds_;
    wld_only.mtc = wld_only.dtw = false;
    const std::filesystem::path wld_directory = *directory_ / "wld-only";
    write_kingsrow_databases(wld_directory, *store_, build_order(3), wld_only);
    const egdb::ConsistencyReport wld_report = egdb::check_consistency(*egdb::Database::open(wld_directory), options);
    EXPECT_TRUE(wld_report.ok()) << (wld_report.messages.empty() ? "" : wld_report.messages.front());
    EXPECT_FALSE(wld_report.checked_dtw);
    EXPECT_EQ(wld_report.positions_checked, report.positions_checked);
}

// The same files written from a solution with one DTW changed (a won position of 0110 made two
// plies longer): the check names that position. The slice is smaller than the default sample,
// so verify_database reads every index of it too.
TEST_F(KingsrowExport, AValueThatContradictsItsSuccessorsIsFound) {
    const SliceId slice{0, 1, 1, 0};
    ASSERT_LT(slice_size(slice), consistency_samples());
    SolutionStore changed;
    const std::uint64_t index = copy_with_a_longer_win(slice, changed);
    const SliceIndexer& indexer = slice_indexer(slice);
    const std::filesystem::path damaged = *directory_ / "damaged";
    write_kingsrow_databases(damaged, changed, build_order(3), kinds_);

    egdb::ConsistencyOptions options;
    options.samples_per_table = consistency_samples();
    const egdb::ConsistencyReport report = egdb::check_consistency(*egdb::Database::open(damaged), options);
    EXPECT_FALSE(report.ok());
    EXPECT_GE(report.mismatches, 1U);
    const std::string fen = to_fen(indexer.position_at(index), Color::Black);
    EXPECT_TRUE(std::any_of(report.messages.begin(), report.messages.end(),
                            [&](const std::string& m) { return m.rfind(fen + ": stored win dtw=", 0) == 0; }))
        << (report.messages.empty() ? "no message" : report.messages.front());
    EXPECT_FALSE(workflow::verify_database(*egdb::Database::open(damaged)).problems().empty());
}

}  // namespace
}  // namespace egdb::kingsrow
