// The verify journal (core/formats/native/verify_journal.hpp): a verification stopped part way
// resumes at the first slice not done and, together with what the journal holds, covers exactly
// what a full run checks; a changed slice file sends it and the slices whose moves reach it back
// to be checked; an entry counts only while the slices it reaches are found consistent; a slice
// with a mismatch is never recorded; a journal of version 1 is read under its own rule; a damaged
// journal is refused, untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/formats/native/native_database.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/build/verify_database.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/solution_store.hpp"
#include "core/util/crc32c.hpp"
#include "core/util/error.hpp"
#include "core/util/text_record.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;
constexpr int kJournalPieces = 3;

// Which slices a run checked and which it took from the journal.
struct JournalRunLog {
    std::vector<SliceId> checked;
    std::vector<SliceId> earlier;
};

native::VerifyReport verify_with_journal(const fs::path& dir, const fs::path& journal, JournalRunLog* log = nullptr,
                            std::size_t stop_after = 0, std::uint64_t memory_budget_bytes = 0) {
    native::NativeVerifyOptions options{.resources = {.threads = 2}, .max_messages = 100, .journal = journal};
    if (memory_budget_bytes > 0) {
        options.resources.memory_bytes = memory_budget_bytes;
        options.assumed_process_bytes = 0;
    }
    std::size_t done = 0;
    options.on_slice_done = [&](const native::VerifyProgress& p) {
        if (log != nullptr) (p.verified_earlier ? log->earlier : log->checked).push_back(p.slice);
        if (stop_after > 0 && ++done == stop_after) throw std::runtime_error("stopped");
    };
    return native::verify_native_database(dir, options);
}

// `changed` and the slices whose moves reach it.
std::set<SliceId> slices_reading(SliceId changed) {
    std::set<SliceId> out{changed};
    for (const SliceId s : build_order(kJournalPieces)) {
        const std::vector<SliceId> successors = successor_slices(s);
        if (std::find(successors.begin(), successors.end(), changed) != successors.end()) out.insert(s);
    }
    return out;
}

// The slices of a full build that read `changed`, directly or through others, and `changed`.
std::set<SliceId> slices_reaching(SliceId changed) {
    std::set<SliceId> out{changed};
    for (const SliceId s : build_order(kJournalPieces)) {
        for (const SliceId t : successor_slices(s)) {
            if (out.contains(t)) out.insert(s);
        }
    }
    return out;
}

class VerifyJournalTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new test::ScratchDir("verify_journal");
        workflow::build_database(test::unverified_build(scratch_->path() / "db", kJournalPieces));
        full_ = new native::VerifyReport(native::verify_native_database(scratch_->path() / "db", {.resources = {.threads = 2}}));
    }
    static void TearDownTestSuite() {
        delete full_;
        delete scratch_;
    }
    // A copy of the database's slice files (not its manifest, which would tell of the file a
    // test changes), so that a test may change them.
    static fs::path copy_of_database(const std::string& name) {
        const fs::path dir = scratch_->sub(name);
        for (const auto& entry : fs::directory_iterator(scratch_->path() / "db")) {
            if (!native::parse_slice_file_name(entry.path().filename().string())) continue;
            fs::copy_file(entry.path(), dir / entry.path().filename());
        }
        return dir;
    }
    static test::ScratchDir* scratch_;
    static native::VerifyReport* full_;
};
test::ScratchDir* VerifyJournalTest::scratch_ = nullptr;
native::VerifyReport* VerifyJournalTest::full_ = nullptr;

TEST_F(VerifyJournalTest, AStoppedRunResumesWhereItStoppedAndCoversWhatAFullRunChecks) {
    ASSERT_TRUE(full_->ok());
    const std::size_t slices = build_order(kJournalPieces).size();
    ASSERT_GT(slices, 6U);
    const fs::path dir = scratch_->path() / "db";
    const fs::path journal = scratch_->path() / "stopped.journal";

    JournalRunLog first;
    EXPECT_THROW(verify_with_journal(dir, journal, &first, slices / 2), std::runtime_error);
    EXPECT_EQ(first.checked.size(), slices / 2);
    EXPECT_EQ(native::VerifyJournal(journal).entries().size(), slices / 2);

    JournalRunLog second;
    const native::VerifyReport resumed = verify_with_journal(dir, journal, &second);
    EXPECT_TRUE(resumed.ok());
    EXPECT_EQ(resumed.slices_verified_earlier, slices / 2);
    EXPECT_EQ(second.earlier, first.checked);
    EXPECT_EQ(second.checked.size(), slices - slices / 2);
    EXPECT_GT(resumed.positions_checked, 0U);
    EXPECT_LT(resumed.positions_checked, full_->positions_checked);
    EXPECT_EQ(resumed.positions_checked + resumed.positions_verified_earlier, full_->positions_checked);

    const native::VerifyReport third = verify_with_journal(dir, journal);
    EXPECT_TRUE(third.ok());
    EXPECT_EQ(third.positions_checked, 0U);
    EXPECT_EQ(third.positions_verified_earlier, full_->positions_checked);
    EXPECT_EQ(third.slices_verified_earlier, slices);
}

// Under a memory budget a resumed run decodes the slices verified earlier only for the sides to
// move the slices still to check read them at (successor_reads); what it checks is the same.
TEST_F(VerifyJournalTest, AResumedRunUnderABudgetChecksTheSame) {
    const std::size_t slices = build_order(kJournalPieces).size();
    const fs::path dir = scratch_->path() / "db";
    const fs::path journal = scratch_->path() / "budget.journal";
    EXPECT_THROW(verify_with_journal(dir, journal, nullptr, slices / 2), std::runtime_error);
    JournalRunLog resumed_log;
    const native::VerifyReport resumed = verify_with_journal(dir, journal, &resumed_log, 0, std::uint64_t{64} << 20);
    EXPECT_TRUE(resumed.ok()) << (resumed.messages.empty() ? "" : resumed.messages.front());
    EXPECT_EQ(resumed_log.checked.size(), slices - slices / 2);
    EXPECT_EQ(resumed.positions_checked + resumed.positions_verified_earlier, full_->positions_checked);
    EXPECT_EQ(resumed.mismatches, 0U);
}

// The slices reading those read only unchanged bytes, and what they read is found consistent again
// in the same run: their entries still count.
TEST_F(VerifyJournalTest, AChangedFileIsCheckedAgainWithTheSlicesWhoseMovesReachIt) {
    const fs::path dir = copy_of_database("rewritten");
    const fs::path journal = scratch_->path() / "rewritten.journal";
    ASSERT_TRUE(verify_with_journal(dir, journal).ok());

    // The same values written at another compression level: other bytes, still consistent.
    const SliceId changed{0, 1, 0, 1};
    const std::set<SliceId> expected = slices_reading(changed);
    ASSERT_GT(expected.size(), 2U);
    ASSERT_GT(slices_reaching(changed).size(), expected.size());  // some read it through others only
    {
        const native::NativeDatabase db(dir);
        SolutionStore store;
        for (const SliceId s : build_order(kJournalPieces)) {
            store.add(native::restore_solved_slice(*db.file(s), store));
            if (s == changed) break;
        }
        native::SolvedWriteOptions options;
        options.format.zstd_level = 1;
        native::write_solved_slice(scratch_->sub("rewritten-file"), *store.find(changed), options);
    }
    const std::string name = native::slice_file_name(changed.nbm, changed.nbk, changed.nwm, changed.nwk);
    fs::copy_file(scratch_->path() / "rewritten-file" / name, dir / name, fs::copy_options::overwrite_existing);

    JournalRunLog log;
    const native::VerifyReport r = verify_with_journal(dir, journal, &log);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(std::set<SliceId>(log.checked.begin(), log.checked.end()), expected);
    EXPECT_EQ(log.checked.size() + log.earlier.size(), build_order(kJournalPieces).size());
    EXPECT_EQ(r.positions_checked + r.positions_verified_earlier, full_->positions_checked);
    EXPECT_EQ(native::VerifyJournal(journal).find(changed)->file_bytes, fs::file_size(dir / name));
}

// A slice's entry says its values agree with the files its moves reach; it counts only when those
// are found consistent in turn. Here 0110's entry is dropped (as a build leaves a slice with
// levels resumed from an earlier run) and the slice its moves reach is taken away, so 0110 cannot
// be checked: the slices reading it are not verified, though their entries stay. With the file
// back, 0110 alone is checked and their entries count again.
TEST_F(VerifyJournalTest, AnEntryCountsOnlyWhileTheSlicesItReachesAreFoundConsistent) {
    const fs::path dir = copy_of_database("unsound");
    const fs::path journal = scratch_->path() / "unsound.journal";
    ASSERT_TRUE(verify_with_journal(dir, journal).ok());
    const SliceId middle{0, 1, 1, 0};
    const std::vector<SliceId> below = successor_slices(middle);
    const auto gone = std::find_if(below.begin(), below.end(), [&](SliceId t) {
        return fs::exists(dir / native::slice_file_name(t.nbm, t.nbk, t.nwm, t.nwk));
    });
    ASSERT_NE(gone, below.end());
    // The slices reading `middle` but not `gone`: their files and the files they read are unchanged.
    std::set<SliceId> readers;
    for (const SliceId s : slices_reading(middle)) {
        const std::vector<SliceId> successors = successor_slices(s);
        if (s != middle && std::find(successors.begin(), successors.end(), *gone) == successors.end()) readers.insert(s);
    }
    ASSERT_FALSE(readers.empty());
    native::VerifyJournal(journal).forget(middle);
    const std::string gone_name = native::slice_file_name(gone->nbm, gone->nbk, gone->nwm, gone->nwk);
    fs::rename(dir / gone_name, scratch_->path() / gone_name);

    JournalRunLog log;
    const native::VerifyReport r = verify_with_journal(dir, journal, &log);
    EXPECT_FALSE(r.ok());
    EXPECT_GE(r.unchecked_slices, readers.size() + 1);
    for (const SliceId s : log.earlier) EXPECT_FALSE(readers.contains(s)) << s.to_string();
    const bool reported = std::any_of(r.messages.begin(), r.messages.end(), [&](const std::string& m) {
        return m.find("which its moves reach, was not found consistent") != std::string::npos;
    });
    EXPECT_TRUE(reported);
    for (const SliceId s : readers) EXPECT_NE(native::VerifyJournal(journal).find(s), nullptr) << s.to_string();

    fs::rename(scratch_->path() / gone_name, dir / gone_name);
    JournalRunLog back;
    const native::VerifyReport fixed = verify_with_journal(dir, journal, &back);
    EXPECT_TRUE(fixed.ok());
    const std::set<SliceId> checked(back.checked.begin(), back.checked.end());
    EXPECT_TRUE(checked.contains(middle));
    for (const SliceId s : readers) EXPECT_FALSE(checked.contains(s)) << s.to_string();
    EXPECT_EQ(fixed.positions_checked + fixed.positions_verified_earlier, full_->positions_checked);
}

// Version 1 recorded no digest of the files a slice's moves reach: its entries count only while
// every slice they reach counts from the journal, so a slice without an entry sends every slice
// reaching it, directly or through others, back to be checked. The journal is then written as
// version 2, and the next run checks nothing.
TEST_F(VerifyJournalTest, AJournalOfVersion1CountsUnderItsOwnRule) {
    const fs::path dir = scratch_->path() / "db";
    const fs::path journal = scratch_->path() / "v1.journal";
    ASSERT_TRUE(verify_with_journal(dir, journal).ok());
    const SliceId dropped{0, 1, 0, 1};
    std::string text = "egdb-verify-journal 1\n";
    const native::VerifyJournal written(journal);
    for (const native::VerifiedSlice& e : written.entries()) {
        ASSERT_TRUE(e.successors_digest.has_value());
        if (e.slice == dropped) continue;
        char line[160];
        std::snprintf(line, sizeof line, "%s %llu %08x %s %llu %.2f\n",
                      native::slice_file_name(e.slice.nbm, e.slice.nbk, e.slice.nwm, e.slice.nwk).c_str(),
                      static_cast<unsigned long long>(e.file_bytes), e.file_crc, e.kinds.c_str(),
                      static_cast<unsigned long long>(e.positions), e.seconds);
        text += line;
    }
    char end[32];
    std::snprintf(end, sizeof end, "end %08x\n", crc32c(text_bytes(text)));
    text += end;
    {
        std::ofstream out(journal, std::ios::binary | std::ios::trunc);
        out << text;
    }
    ASSERT_EQ(native::VerifyJournal(journal).entries().size(), build_order(kJournalPieces).size() - 1);

    JournalRunLog log;
    const native::VerifyReport r = verify_with_journal(dir, journal, &log);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(std::set<SliceId>(log.checked.begin(), log.checked.end()), slices_reaching(dropped));
    EXPECT_EQ(r.positions_checked + r.positions_verified_earlier, full_->positions_checked);
    EXPECT_TRUE(test::slurp(journal).starts_with("egdb-verify-journal 2\n"));
    const native::VerifyJournal rewritten(journal);
    for (const native::VerifiedSlice& e : rewritten.entries()) {
        EXPECT_EQ(e.successors_digest.has_value(), slices_reaching(dropped).contains(e.slice)) << e.slice.to_string();
    }
    JournalRunLog again;
    EXPECT_TRUE(verify_with_journal(dir, journal, &again).ok());
    EXPECT_TRUE(again.checked.empty());
}

TEST_F(VerifyJournalTest, ASliceWithAMismatchIsNeverRecordedAndIsCheckedEveryRun) {
    const fs::path dir = copy_of_database("wrong");
    const fs::path journal = scratch_->path() / "wrong.journal";
    ASSERT_TRUE(verify_with_journal(dir, journal).ok());

    // Every Black-to-move DTW of a win in slice 2010 raised by 2: wrong by the one-ply rule.
    const SliceId damaged{2, 0, 1, 0};
    {
        const native::NativeDatabase db(dir);
        SolutionStore store;
        for (const SliceId s : build_order(kJournalPieces)) {
            store.add(native::restore_solved_slice(*db.file(s), store));
            if (s == damaged) break;
        }
        SolvedSlice wrong = *store.find(damaged);
        std::uint64_t changed = 0;
        for (std::uint64_t i = 0; i < wrong.size(); ++i) {
            if (wrong.value(i, Color::Black).wld != WldValue::Win) continue;
            wrong.dtw_codes(Color::Black)[i] = static_cast<DistanceCode>(wrong.dtw_codes(Color::Black)[i] + 2);
            ++changed;
        }
        ASSERT_GT(changed, 0U);
        native::write_solved_slice(dir, wrong, {});
    }
    for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE(run);
        JournalRunLog log;
        const native::VerifyReport r = verify_with_journal(dir, journal, &log);
        EXPECT_FALSE(r.ok());
        EXPECT_GT(r.mismatches, 0U);
        EXPECT_NE(std::find(log.checked.begin(), log.checked.end(), damaged), log.checked.end());
        EXPECT_EQ(native::VerifyJournal(journal).find(damaged), nullptr);
    }
}

TEST_F(VerifyJournalTest, ADamagedJournalIsRefusedWithItsLineAndLeftAsItWas) {
    const fs::path dir = scratch_->path() / "db";
    const fs::path good = scratch_->path() / "good.journal";
    ASSERT_TRUE(verify_with_journal(dir, good).ok());
    const std::string text = test::slurp(good);
    const std::size_t second_line = text.find('\n') + 1;

    struct Damage {
        const char* what;
        std::string text;
        const char* line;
    };
    std::string flipped = text;
    flipped[second_line + 20] = flipped[second_line + 20] == '1' ? '2' : '1';
    const std::vector<Damage> damages = {
        {"not a journal", "egdb-manifest 1\nend 00000000\n", "line 1"},
        {"truncated", text.substr(0, text.size() - 5), "line "},
        {"a byte changed", flipped, "checksum mismatch"},
        {"a field missing", text.substr(0, second_line) + "slice-0101.egdb 338\n" + text.substr(second_line), "line 2"},
    };
    for (const Damage& damage : damages) {
        SCOPED_TRACE(damage.what);
        const fs::path journal = scratch_->path() / "damaged.journal";
        {
            std::ofstream out(journal, std::ios::binary | std::ios::trunc);
            out << damage.text;
        }
        try {
            verify_with_journal(dir, journal);
            ADD_FAILURE() << "accepted";
        } catch (const CorruptDataError& e) {
            EXPECT_NE(std::string(e.what()).find(damage.line), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(journal.string()), std::string::npos) << e.what();
        }
        EXPECT_EQ(test::slurp(journal), damage.text);
    }
}

TEST_F(VerifyJournalTest, TheBuildKeepsItsVerificationJournalInTheDatabase) {
    const fs::path dir = scratch_->sub("built");
    workflow::BuildRequest request = test::unverified_build(dir, kJournalPieces);
    request.verify = true;
    const workflow::BuildReport first = workflow::build_database(request);
    ASSERT_TRUE(first.verify && first.verify->ok());
    // Every slice was checked level by level as it was solved and went into the journal, so the
    // closing verification checks page checksums and decodes nothing.
    EXPECT_EQ(first.slices_checked_in_build, first.slices);
    EXPECT_EQ(first.verify->native_report.positions_checked, 0U);
    EXPECT_EQ(first.verify->native_report.positions_verified_earlier, full_->positions_checked);
    EXPECT_EQ(first.verify->native_report.slices_verified_earlier, first.slices);
    EXPECT_GT(first.verify->native_report.pages, 0U);
    EXPECT_TRUE(fs::exists(dir / native::kBuildVerifyJournalName));
    // The journal the build wrote is one an independent verification accepts as it is, and a
    // verification without it checks every position again and finds them consistent.
    JournalRunLog log;
    const native::VerifyReport resumed = verify_with_journal(dir, dir / native::kBuildVerifyJournalName, &log);
    EXPECT_TRUE(resumed.ok());
    EXPECT_TRUE(log.checked.empty());
    EXPECT_EQ(log.earlier.size(), first.slices);
    const native::VerifyReport independent = verify_with_journal(dir, scratch_->path() / "no-journal.txt");
    EXPECT_TRUE(independent.ok());
    EXPECT_EQ(independent.positions_checked, full_->positions_checked);
    // Run again on the finished directory: every slice is found built, and verified.
    const workflow::BuildReport again = workflow::build_database(request);
    ASSERT_TRUE(again.verify && again.verify->ok());
    EXPECT_EQ(again.verify->native_report.positions_checked, 0U);
    EXPECT_EQ(again.verify->native_report.positions_verified_earlier, full_->positions_checked);
}

// A slice solved in units of whole levels is checked as one solved whole is: the same positions
// checked and filled by colour reversal, every slice in the journal, the same files.
TEST_F(VerifyJournalTest, SlicesSolvedInUnitsAreCheckedAsThoseSolvedWhole) {
    workflow::BuildRequest whole = test::unverified_build(scratch_->sub("whole"), kJournalPieces);
    whole.verify = true;
    whole.unit_file_min_positions = std::uint64_t{1} << 40;
    workflow::BuildRequest units = test::unverified_build(scratch_->sub("in_units"), kJournalPieces);
    units.verify = true;
    units.unit_file_min_positions = 0;
    const workflow::BuildReport a = workflow::build_database(whole);
    const workflow::BuildReport b = workflow::build_database(units);
    ASSERT_TRUE(a.verify && a.verify->ok() && b.verify && b.verify->ok());
    EXPECT_GT(a.positions_checked_in_build, 0U);
    EXPECT_EQ(b.positions_checked_in_build, a.positions_checked_in_build);
    EXPECT_EQ(b.positions_mirrored_in_build, a.positions_mirrored_in_build);
    EXPECT_EQ(b.slices_checked_in_build, b.slices);
    EXPECT_EQ(b.verify->native_report.positions_checked, 0U);
    for (const SliceId s : build_order(kJournalPieces)) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        EXPECT_EQ(test::slurp(units.out / name), test::slurp(whole.out / name)) << name;
    }
}

TEST_F(VerifyJournalTest, ASliceWithLevelsFromAnEarlierRunIsCheckedAfterTheBuild) {
    // Every slice in units; the build is cancelled after the first level of the first slice with
    // more than one level, so the run that resumes it solves that slice's other levels only.
    const fs::path dir = scratch_->sub("interrupted");
    workflow::BuildRequest request = test::unverified_build(dir, kJournalPieces);
    request.verify = true;
    request.unit_file_min_positions = 0;
    std::optional<SliceId> interrupted;
    for (const SliceId s : build_order(kJournalPieces)) {
        if (men_configuration_levels(s).size() > 1) {
            interrupted = s;
            break;
        }
    }
    ASSERT_TRUE(interrupted);
    workflow::BuildObserver stop_after_one_level;
    stop_after_one_level.on_item = [&](const workflow::BuildItem& item) {
        return !(item.stage == workflow::BuildStage::Solve && item.label.starts_with(interrupted->to_string() + " a"));
    };
    EXPECT_THROW(workflow::build_database(request, stop_after_one_level), RuntimeError);
    const workflow::BuildReport resumed = workflow::build_database(request);
    ASSERT_TRUE(resumed.verify && resumed.verify->ok());
    const native::VerifyReport& report = resumed.verify->native_report;
    // Only the interrupted slice was checked by the closing verification: the others had been
    // checked as they were solved, the slices reading it against its file as it is now.
    ASSERT_GT(slices_reading(*interrupted).size(), 1U);
    EXPECT_EQ(report.positions_checked, slice_size(*interrupted) * (is_color_symmetric(*interrupted) ? 1 : 2));
    EXPECT_EQ(report.slices_verified_earlier, build_order(kJournalPieces).size() - 1);
    EXPECT_EQ(report.positions_checked + report.positions_verified_earlier, full_->positions_checked);
    // The slices before it were checked in the first run, those after it in the second.
    const std::vector<SliceId> order = build_order(kJournalPieces);
    const auto after = std::find(order.begin(), order.end(), *interrupted) + 1;
    EXPECT_EQ(resumed.slices_checked_in_build, static_cast<std::size_t>(order.end() - after));
}

}  // namespace
}  // namespace egdb
