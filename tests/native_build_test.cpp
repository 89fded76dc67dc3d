// A database built end to end (solver -> native files -> reader), checked against the Kingsrow
// oracles, the verification pass, interrupted and resumed builds, thread counts and damage.
// Builds up to 4 pieces (3 in sanitizer builds, EGDB_TEST_QUICK).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_database.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/build/store_then_files.hpp"
#include "core/build/verify_database.hpp"
#include "core/generate/build_driver.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/notation/fen.hpp"
#include "core/workflow/build.hpp"
#include "core/workflow/kingsrow_oracles.hpp"
#include "core/rules/movegen.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return test::scratch_path("build_" + name); }

// Builds every slice up to `pieces` into `dir`; stops (throws) after `stop_after` slices if > 0.
void build(const fs::path& dir, int pieces, int threads, std::size_t stop_after = 0) {
    SolutionStore store;
    BuildOptions options;
    options.threads = threads;
    native::SolvedWriteOptions write;
    write.threads = threads;
    options.on_slice_done = [&](const SliceProgress& p) {
        native::write_solved_slice(dir, *p.solved, write);
        if (stop_after > 0 && p.slices_done >= stop_after) throw std::runtime_error("interrupted");
    };
    solve_slices(pieces, store, options);
}

using test::slurp;
using test::unverified_build;

class NativeBuild : public ::testing::Test {
protected:
    static int pieces() { return test::quick_mode() ? 3 : 4; }
    static void SetUpTestSuite() {
        dir_ = new fs::path(scratch("full"));
        build(*dir_, pieces(), 2);
    }
    static void TearDownTestSuite() {
        fs::remove_all(dir_->parent_path());
        delete dir_;
    }
    static fs::path* dir_;
};
fs::path* NativeBuild::dir_ = nullptr;

TEST_F(NativeBuild, VerificationPasses) {
    const native::VerifyReport r = native::verify_native_database(*dir_, {.resources = {.threads = 2}});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_EQ(r.files, build_order(pieces()).size());
    EXPECT_GT(r.positions_checked, 0U);
}

// `egdb verify --kingsrow-values`: the published values of every slice held match, every
// (subslice, side) pair not listed stays below 10, and a changed value in the lists is found.
TEST_F(NativeBuild, KingsrowPublishedValuesCheckPassesAndCatchesADifference) {
    EGDB_REQUIRE_SHARED_FILE(wld, "oracles/kingsrow_example_wld.txt");
    EGDB_REQUIRE_SHARED_FILE(mtc, "oracles/kingsrow_high_mtc.txt");
    const workflow::KingsrowOracleReport r = workflow::check_kingsrow_oracles({*dir_, wld.parent_path(), 2});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages.front());
    EXPECT_EQ(r.max_pieces, pieces());
    EXPECT_GE(r.wld_positions, test::quick_mode() ? 10U : 40U);
    EXPECT_EQ(r.mtc_maxima_checked, pieces() == 4 ? 8U : 1U);  // as GenerateSolve.KingsrowHighestMtc
    EXPECT_GT(r.unlisted_pairs, 10U);

    // The same lists with one WLD value and one MTC maximum changed.
    const fs::path changed = scratch("changed_oracles");
    std::string wld_text = slurp(wld);
    const std::size_t draw = wld_text.find(" draw\n");
    ASSERT_NE(draw, std::string::npos);
    wld_text.replace(draw, 6, " win\n");
    std::ofstream(changed / "kingsrow_example_wld.txt", std::ios::binary) << wld_text;
    std::string mtc_text = slurp(mtc);
    const std::size_t first = mtc_text.find("mtc ");
    ASSERT_NE(first, std::string::npos);
    mtc_text.insert(first + 4, "1");  // "mtc 10" becomes "mtc 110"
    std::ofstream(changed / "kingsrow_high_mtc.txt", std::ios::binary) << mtc_text;
    const workflow::KingsrowOracleReport bad = workflow::check_kingsrow_oracles({*dir_, changed, 2});
    EXPECT_FALSE(bad.ok());
    EXPECT_EQ(bad.wld_mismatches, 1U);
    EXPECT_EQ(bad.mtc_mismatches, 1U);
    EXPECT_THROW(workflow::check_kingsrow_oracles({*dir_, scratch("no_oracles"), 2}), FileError);
}

TEST_F(NativeBuild, MatchesKingsrowWldOracle) {
    EGDB_REQUIRE_SHARED_FILE(oracle, "oracles/kingsrow_example_wld.txt");
    const native::NativeDatabase db(*dir_);
    EXPECT_EQ(db.max_pieces(), pieces());
    std::ifstream in(oracle);
    int checked = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string fen, expected;
        fields >> fen >> expected;
        const FenPosition fp = parse_fen(fen);
        if (material_of(fp.position).total() > pieces()) continue;
        const WldValue v = db.value(fp.position, fp.side_to_move).wld;
        EXPECT_EQ(std::string(to_string(v)), expected) << fen;
        ++checked;
    }
    EXPECT_GE(checked, test::quick_mode() ? 18 : 46);
}

TEST_F(NativeBuild, MatchesKingsrowHighestMtc) {
    EGDB_REQUIRE_SHARED_FILE(oracle, "oracles/kingsrow_high_mtc.txt");
    const native::NativeDatabase db(*dir_);
    std::ifstream in(oracle);
    int checked = 0;
    std::string header;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("db", 0) == 0) {
            header = line;
            continue;
        }
        if (line.empty() || header.empty()) continue;
        const FenPosition fp = parse_fen(line);
        const std::string tail = header.substr(header.find("mtc ") + 4);
        header.clear();
        if (material_of(fp.position).total() > pieces()) continue;
        EXPECT_EQ(db.value(fp.position, fp.side_to_move).mtc, std::stoi(tail)) << line;
        ++checked;
    }
    EXPECT_GE(checked, test::quick_mode() ? 1 : 8);
}

TEST_F(NativeBuild, InterruptedBuildLeavesOnlyCompleteFilesAndResumesToTheSameBytes) {
    const fs::path dir = scratch("resume");
    EXPECT_THROW(build(dir, 3, 1, 4), std::runtime_error);
    std::size_t complete = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        EXPECT_EQ(e.path().extension(), ".egdb") << e.path();
        EXPECT_NO_THROW(native::SliceFileReader{e.path()}) << e.path();
        ++complete;
    }
    EXPECT_EQ(complete, 4U);
    // The CLI resumes: it loads the four finished slices and solves the rest.
    const std::string cmd = "'" + test::cli_path().string() + "' build --pieces 3 --threads 1 --no-verify --out '" +
                            dir.string() + "' > '" + (dir.parent_path() / "resume.log").string() + "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir.parent_path() / "resume.log");
    EXPECT_NE(slurp(dir.parent_path() / "resume.log").find("resumed"), std::string::npos);
    const fs::path reference = scratch("reference");
    build(reference, 3, 2);
    for (SliceId s : build_order(3)) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        EXPECT_EQ(slurp(dir / name), slurp(reference / name)) << name << ": 1 thread resumed vs 2 threads";
    }
}

TEST_F(NativeBuild, CorruptPageIsReportedByVerify) {
    const fs::path dir = scratch("corrupt");
    for (const auto& e : fs::directory_iterator(*dir_)) fs::copy_file(e.path(), dir / e.path().filename());
    // The largest file has compressed pages at its end; damage the last byte.
    fs::path victim;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (victim.empty() || fs::file_size(e.path()) > fs::file_size(victim)) victim = e.path();
    }
    {
        std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-1, std::ios::end);
        const char c = static_cast<char>(f.get());
        f.seekp(-1, std::ios::end);
        f.put(static_cast<char>(c ^ 0x01));
    }
    const native::VerifyReport r = native::verify_native_database(dir, {.resources = {.threads = 1}});
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.bad_pages, 1U);
    ASSERT_FALSE(r.messages.empty());
    EXPECT_NE(r.messages.front().find(victim.filename().string()), std::string::npos) << r.messages.front();
}

// Databases built with fewer kinds are checked for what they hold: WLD alone, or WLD and DTW.
// A wrong WLD value is still found.
TEST_F(NativeBuild, DatabasesWithFewerKindsAreCheckedForWhatTheyHold) {
    SolutionStore store;
    solve_slices(3, store, {2, {}});
    const SliceId slice{0, 2, 0, 1};
    std::uint64_t victim = 0;  // Black to move, a win without capture
    while (victim < slice_size(slice) && (store.find(slice)->value(victim, Color::Black).wld != WldValue::Win ||
                                          has_capture(slice_indexer(slice).position_at(victim), Color::Black))) {
        ++victim;
    }
    ASSERT_LT(victim, slice_size(slice));
    for (const bool dtw : {false, true}) {
        SCOPED_TRACE(dtw ? "wld,dtw" : "wld");
        const fs::path dir = scratch(dtw ? "kinds-wld-dtw" : "kinds-wld");
        native::SolvedWriteOptions write;
        write.kinds = {true, dtw, false};
        for (SliceId s : build_order(3)) native::write_solved_slice(dir, *store.find(s), write);
        native::VerifyReport r = native::verify_native_database(dir, {.resources = {.threads = 2}});
        EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages.front());
        EXPECT_EQ(r.checked_dtw, dtw);
        EXPECT_FALSE(r.checked_mtc);
        EXPECT_GT(r.positions_checked, 0U);

        SolvedSlice wrong = *store.find(slice);
        wrong.dtw_codes(Color::Black)[victim] = kDrawCode;
        native::write_solved_slice(dir, wrong, write);
        r = native::verify_native_database(dir, {.resources = {.threads = 2}, .max_messages = 1000});
        EXPECT_FALSE(r.ok());
        const std::string expected =
            to_fen(slice_indexer(slice).position_at(victim), Color::Black) + ": stored draw, successors give win";
        EXPECT_TRUE(std::any_of(r.messages.begin(), r.messages.end(),
                                [&](const std::string& m) { return m.find(expected) != std::string::npos; }))
            << "no message \"" << expected << "\"; first: " << (r.messages.empty() ? "" : r.messages.front());
    }
}

// A slice file missing from the directory: the slices whose moves reach it cannot be checked,
// and the report says which slice is missing instead of failing on a lookup in a worker thread.
TEST_F(NativeBuild, MissingSliceIsReportedAndItsDependentsAreNotChecked) {
    const fs::path dir = scratch("missing");
    const SliceId missing{0, 1, 0, 1};
    for (SliceId s : build_order(3)) {
        if (s == missing) continue;
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        fs::copy_file(*dir_ / name, dir / name);
    }
    const native::VerifyReport r = native::verify_native_database(dir, {.resources = {.threads = 2}, .max_messages = 1000});
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.files, build_order(3).size() - 1);
    EXPECT_EQ(r.unchecked_slices, r.files);  // every slice reaches 0101, directly or not
    EXPECT_EQ(r.positions_checked, 0U);
    EXPECT_NE(std::find(r.messages.begin(), r.messages.end(),
                        "slice 0110 cannot be checked: slice 0101, which its moves reach, is missing"),
              r.messages.end())
        << (r.messages.empty() ? "" : r.messages.front());
}

// A slice brought back from its file for one side to move (a build or verification under a
// budget reads each successor at one side, successor_reads) holds that side's values, exactly
// those of a full restore, in half the memory. A colour-symmetric slice holds Black and answers
// White by reversal; any other slice held for one side sends the other side to its file
// (StoreThenFiles) and the store alone refuses it.
TEST_F(NativeBuild, ASliceRestoredForOneSideHoldsExactlyThatSide) {
    const native::NativeDatabase db(*dir_);
    SolutionStore full;
    for (const SliceId s : build_order(pieces())) full.add(native::restore_solved_slice(*db.file(s), full, 2));
    std::size_t symmetric = 0, asymmetric = 0;
    for (const SliceId s : build_order(pieces())) {
        const SolvedSlice& whole = *full.find(s);
        const SliceIndexer indexer(s);
        const std::uint64_t step = std::max<std::uint64_t>(1, whole.size() / 20000);
        for (const Color side : {Color::Black, Color::White}) {
            SolvedSlice one = native::restore_solved_slice(*db.file(s), full, 2, nullptr, SideSet::only(side));
            const SideSet held = is_color_symmetric(s) ? SideSet::only(Color::Black) : SideSet::only(side);
            ASSERT_EQ(one.sides(), held) << s.to_string();
            EXPECT_EQ(one.memory_bytes(), 2 * whole.size() + one.wide(Color::Black).memory_bytes() + one.wide(Color::White).memory_bytes());
            SolutionStore partial;
            partial.add(std::move(one));
            const native::StoreThenFiles through_files(partial, &db);
            EXPECT_TRUE(partial.answers(s, side));
            const bool other_answered = is_color_symmetric(s);
            EXPECT_EQ(partial.answers(s, opposite(side)), other_answered) << s.to_string();
            for (std::uint64_t i = 0; i < whole.size(); i += step) {
                const Position p = indexer.position_at(i);
                ASSERT_EQ(partial.value(p, side), whole.value(i, side)) << s.to_string() << " " << to_fen(p, side);
                ASSERT_EQ(through_files.value(p, opposite(side)), whole.value(i, opposite(side)))
                    << s.to_string() << " " << to_fen(p, opposite(side));
                // The lookups of conversions' successors (DTW byte alone) give the same WLD and DTW.
                ASSERT_EQ(partial.dtw_value(p, side), dtw_part(whole.value(i, side))) << to_fen(p, side);
                ASSERT_EQ(through_files.dtw_value(p, side), dtw_part(whole.value(i, side))) << to_fen(p, side);
                ASSERT_EQ(through_files.dtw_value(p, opposite(side)), dtw_part(whole.value(i, opposite(side))))
                    << to_fen(p, opposite(side));
                if (other_answered) {
                    ASSERT_EQ(partial.value(p, opposite(side)), whole.value(i, opposite(side))) << to_fen(p, opposite(side));
                    ASSERT_EQ(partial.dtw_value(p, opposite(side)), dtw_part(whole.value(i, opposite(side))));
                }
            }
            if (!other_answered) {
                EXPECT_THROW((void)partial.value(indexer.position_at(0), opposite(side)), std::out_of_range);
                EXPECT_THROW((void)partial.dtw_value(indexer.position_at(0), opposite(side)), std::out_of_range);
            }
            ++(is_color_symmetric(s) ? symmetric : asymmetric);
        }
    }
    EXPECT_GT(symmetric, 0u);
    EXPECT_GT(asymmetric, 0u);

    // keep(): a full solution reduced to one side equals that side restored alone.
    const std::vector<SliceId> three = build_order(3);
    const SliceId s = *std::find_if(three.begin(), three.end(), [](SliceId t) { return t.total() == 3; });
    SolvedSlice reduced = *full.find(s);
    reduced.keep(SideSet::only(Color::White));
    EXPECT_EQ(reduced, native::restore_solved_slice(*db.file(s), full, 2, nullptr, SideSet::only(Color::White)));
}

// A wrong value written through the writer (so every checksum is right) must be found by the
// one-ply check and reported with the position's FEN, whichever kind is wrong.
TEST_F(NativeBuild, RewrittenWrongValueIsReportedWithItsFen) {
    const native::NativeDatabase db(*dir_);
    SolutionStore solved;
    for (SliceId s : build_order(3)) solved.add(native::restore_solved_slice(*db.file(s), solved));
    // A Black-to-move win without capture, DTW above 1 and MTC above 3 (a king move first): each
    // kind can be changed without touching the others.
    SliceId slice;
    std::uint64_t victim = 0;
    bool found = false;
    for (SliceId s : build_order(3)) {
        const SolvedSlice& candidate = *solved.find(s);
        const SliceIndexer indexer(s);
        for (std::uint64_t i = 0; i < candidate.size() && !found; ++i) {
            const PositionValue v = candidate.value(i, Color::Black);
            found = v.wld == WldValue::Win && v.dtw > 1 && v.mtc > 3 &&
                    !has_capture(indexer.position_at(i), Color::Black);
            if (found) {
                slice = s;
                victim = i;
            }
        }
    }
    ASSERT_TRUE(found);
    const SolvedSlice& original = *solved.find(slice);
    const SliceIndexer indexer(slice);
    const std::string fen = to_fen(indexer.position_at(victim), Color::Black);
    const PositionValue right = original.value(victim, Color::Black);

    struct Damage {
        const char* kind;
        DistanceCode dtw_code;
        std::uint8_t mtc;
    };
    const Damage damages[] = {
        {"wld", kDrawCode, 0},
        {"dtw", static_cast<DistanceCode>(right.dtw + 2), static_cast<std::uint8_t>(right.mtc)},
        {"mtc", static_cast<DistanceCode>(right.dtw), static_cast<std::uint8_t>(right.mtc + 2)},
    };
    for (const Damage& damage : damages) {
        SCOPED_TRACE(damage.kind);
        const fs::path dir = scratch(std::string("wrong-") + damage.kind);
        for (SliceId s : build_order(3)) {
            const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
            fs::copy_file(*dir_ / name, dir / name);
        }
        SolvedSlice wrong = original;
        wrong.dtw_codes(Color::Black)[victim] = damage.dtw_code;
        wrong.mtc(Color::Black)[victim] = damage.mtc;
        native::write_solved_slice(dir, wrong, {});
        const PositionValue written = wrong.value(victim, Color::Black);

        const native::VerifyReport r = native::verify_native_database(dir, {.resources = {.threads = 2}, .max_messages = 1000});
        EXPECT_EQ(r.bad_pages, 0U);
        EXPECT_FALSE(r.ok());
        EXPECT_GE(r.mismatches, 1U);
        const std::string expected = fen + ": stored " + describe(written) + ", successors give " + describe(right);
        EXPECT_TRUE(std::any_of(r.messages.begin(), r.messages.end(),
                                [&](const std::string& m) { return m.find(expected) != std::string::npos; }))
            << "no message \"" << expected << "\"; first: " << (r.messages.empty() ? "" : r.messages.front());
        // Under the smallest memory budget, with the other slices read from their files.
        const native::VerifyReport tight =
            native::verify_native_database(dir, {.resources = {.threads = 2, .memory_bytes = 1}, .max_messages = 1000});
        EXPECT_EQ(tight.mismatches, r.mismatches);
        EXPECT_EQ(tight.positions_checked, r.positions_checked);
        EXPECT_TRUE(std::any_of(tight.messages.begin(), tight.messages.end(),
                                [&](const std::string& m) { return m.find(expected) != std::string::npos; }));
    }
}


// `--slices`: only the named slice and what it depends on are built, file for file the bytes of
// the full build; a second target reuses what the first built.
TEST_F(NativeBuild, SlicesAloneBuildWhatTheyNeedWithTheSameBytes) {
    const SliceId target = pieces() == 4 ? SliceId{2, 1, 1, 0} : SliceId{1, 1, 1, 0};
    const fs::path dir = scratch("slices");
    workflow::BuildRequest request = unverified_build(dir, 0);
    request.slices = {color_reversed(target)};  // either orientation names the slice
    const workflow::BuildReport first = workflow::build_database(request);
    const std::vector<SliceId> needed = dependency_closure(std::vector<SliceId>{target});
    ASSERT_EQ(needed.back(), target);
    EXPECT_EQ(first.slices, needed.size());
    EXPECT_LT(needed.size(), build_order(pieces()).size());
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().filename() == native::kManifestFileName) continue;
        ++files;
        EXPECT_EQ(slurp(e.path()), slurp(*dir_ / e.path().filename())) << e.path().filename();
    }
    EXPECT_EQ(files, needed.size());
    // The manifest lists what was built, in build order.
    const std::optional<std::vector<native::ManifestEntry>> manifest = native::read_manifest(dir);
    ASSERT_TRUE(manifest.has_value());
    ASSERT_EQ(manifest->size(), needed.size());
    for (std::size_t i = 0; i < needed.size(); ++i) {
        EXPECT_EQ((*manifest)[i].file, native::slice_file_name(needed[i].nbm, needed[i].nbk, needed[i].nwm, needed[i].nwk));
    }
    // Everything up to the fixture's size: the slices already there are reused, not solved again.
    request.slices.clear();
    request.pieces = pieces();
    std::vector<std::string> solved;
    workflow::BuildObserver observer;
    observer.on_item = [&](const workflow::BuildItem& item) {
        if (item.stage == workflow::BuildStage::Solve) solved.push_back(item.label);
        return true;
    };
    workflow::build_database(request, observer);
    EXPECT_EQ(solved.size(), build_order(pieces()).size() - needed.size());
    for (const SliceId s : needed) EXPECT_EQ(std::count(solved.begin(), solved.end(), s.to_string()), 0) << s.to_string();
    for (const SliceId s : build_order(pieces())) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        EXPECT_EQ(slurp(dir / name), slurp(*dir_ / name)) << name;
    }
    request.slices = {SliceId{0, 0, 2, 0}};
    EXPECT_THROW(workflow::build_database(request), RuntimeError);  // Black has no piece
}

// A native build holds the slice being solved and the slices later ones read, not everything it
// solved; a finished build run again loads nothing.
TEST_F(NativeBuild, BuildReleasesSolutionsNoLaterSliceReads) {
    const fs::path dir = scratch("memory");
    const workflow::BuildRequest request = unverified_build(dir, pieces());
    const workflow::BuildReport report = workflow::build_database(request);
    std::uint64_t all_solutions = 0;
    for (const SliceId s : build_order(pieces())) all_solutions += 4 * slice_size(s);
    EXPECT_GT(report.peak_solution_bytes, 0U);
    // Up to 3 pieces the last slices are most of the total; from 4 pieces on the release shows.
    EXPECT_LT(report.peak_solution_bytes, pieces() == 4 ? all_solutions * 3 / 4 : all_solutions)
        << "held " << report.peak_solution_bytes << " of " << all_solutions << " bytes";
    for (const SliceId s : build_order(pieces())) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        EXPECT_EQ(slurp(dir / name), slurp(*dir_ / name)) << name;
    }
    const workflow::BuildReport again = workflow::build_database(request);
    EXPECT_EQ(again.resumed_slices, 0U);
    EXPECT_EQ(again.peak_solution_bytes, 0U);
}

// Before anything is solved, the largest slice still to solve is planned: a note names it and
// its memory against the budget, and a slice that needs more memory than the machine has is
// refused at once (it would end in an allocation failure), naming the slice; nothing is written.
TEST_F(NativeBuild, ASliceLargerThanTheMachineIsRefusedBeforeAnythingIsSolved) {
    const fs::path dir = scratch("refused");
    workflow::BuildRequest request = unverified_build(dir, pieces());
    request.resources.memory_bytes = std::uint64_t{1} << 30;
    std::vector<std::string> notes;
    workflow::BuildObserver observer;
    observer.on_note = [&](const std::string& m) { notes.push_back(m); };
    observer.on_item = [](const workflow::BuildItem& item) {
        ADD_FAILURE() << "solved " << item.label << " although the build was refused";
        return true;
    };
    // A quarter of a MiB: the largest 3-piece slice needs more (0.27 MiB for a slice without
    // men, solved in place).
    request.assumed_machine_bytes = std::uint64_t{1} << 18;
    try {
        workflow::build_database(request, observer);
        ADD_FAILURE() << "a slice needing more than the machine was not refused";
    } catch (const RuntimeError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        const std::string what = e.what();
        EXPECT_NE(what.find("more than this machine's 256 KiB"), std::string::npos) << what;
        const auto order = build_order(pieces());
        EXPECT_TRUE(what.starts_with("slice ") && std::any_of(order.begin(), order.end(), [&](SliceId s) {
                        return what.substr(6, 4) == s.to_string();
                    })) << what;
    }
    EXPECT_TRUE(notes.empty());
    for (const SliceId s : build_order(pieces())) {
        EXPECT_FALSE(fs::exists(dir / native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk))) << s.to_string();
    }
    EXPECT_FALSE(fs::exists(dir / "units"));
    // On a machine large enough the same build plans its largest slice and goes on.
    request.assumed_machine_bytes = std::uint64_t{1} << 40;
    observer.on_item = {};
    workflow::build_database(request, observer);
    ASSERT_EQ(notes.size(), 1U);
    EXPECT_NE(notes[0].find("largest slice to solve: "), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("within the memory budget of 1024 MiB"), std::string::npos) << notes[0];
}

// The out-of-core path: under a memory budget smaller than the solutions, solved slices that do
// not fit are read back from their files; the files are byte for byte those of the in-memory
// build, the solutions held stay within the budget, and a build cancelled half-way resumes to the
// same bytes under the budget. Every slice is solved in (slice, level) units through unit files,
// as the large slices of a 6-piece build are.
TEST_F(NativeBuild, MemoryBudgetGivesTheSameBytesWithinTheBudget) {
    const std::uint64_t budget = (pieces() == 4 ? std::uint64_t{40} : std::uint64_t{9}) << 20;
    const std::uint64_t file_cache = std::uint64_t{8} << 20;  // the smallest page cache (an eighth of the budget, 8 MiB at least)
    const fs::path dir = scratch("budget");
    workflow::BuildRequest request = unverified_build(dir, pieces());
    request.resources.memory_bytes = budget;
    // The budget is the build's alone: the test process's own memory (tens of MiB, more under
    // AddressSanitizer, which grows during the run) is not charged (DecodedSlicePlan::assume).
    request.assumed_process_bytes = 0;
    request.unit_file_min_positions = 0;
    // Cancelled after a third of the slices, then run again.
    std::size_t items = 0;
    workflow::BuildObserver cancel_early;
    cancel_early.on_item = [&](const workflow::BuildItem&) { return ++items < build_order(pieces()).size() / 3; };
    EXPECT_THROW(workflow::build_database(request, cancel_early), RuntimeError);
    // Finished slices that the slices still to be solved read are read back into memory while
    // they fit beside them (resumed), for the side to move they are read at (successor_reads),
    // the others are read through their files.
    std::size_t one_side_resumes = 0;
    workflow::BuildObserver watch;
    watch.on_item = [&](const workflow::BuildItem& item) {
        if (item.stage == workflow::BuildStage::Resume && item.detail.find(" to move) for ") != std::string::npos) ++one_side_resumes;
        return true;
    };
    const workflow::BuildReport report = workflow::build_database(request, watch);
    EXPECT_GT(report.resumed_slices, 0U);
    EXPECT_GT(one_side_resumes, 0U);
    std::uint64_t largest = 0, all_solutions = 0;
    for (const SliceId s : build_order(pieces())) {
        largest = std::max(largest, 4 * slice_size(s));
        all_solutions += 4 * slice_size(s);
    }
    EXPECT_LE(report.peak_solution_bytes, std::max(budget - file_cache, largest));
    EXPECT_LT(report.peak_solution_bytes, pieces() == 4 ? all_solutions / 2 : all_solutions);
    EXPECT_FALSE(fs::exists(dir / "units"));
    for (const SliceId s : build_order(pieces())) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        EXPECT_EQ(slurp(dir / name), slurp(*dir_ / name)) << name;
    }
    // Verification under the same budget: every position, within the budget, as without one.
    const native::VerifyReport whole = native::verify_native_database(dir, {.resources = {.threads = 2}});
    EXPECT_EQ(whole.slices_decoded_again, 0U);
    // Slices dropped for a large one come back for a later slice that reads them, when they fit:
    // at the build's budget or a smaller one (slices kept for one side to move take half the
    // memory, so at 3 pieces the build's budget may hold everything the verification reads).
    std::uint64_t decoded_again = 0;
    for (std::uint64_t b = budget; b > file_cache && decoded_again == 0; b -= (budget - file_cache) / 8) {
        const native::VerifyReport within =
            native::verify_native_database(dir, {.resources = {.threads = 2, .memory_bytes = b}, .assumed_process_bytes = 0});
        EXPECT_TRUE(within.ok()) << (within.messages.empty() ? "" : within.messages.front());
        EXPECT_EQ(within.positions_checked, whole.positions_checked);
        EXPECT_LT(within.peak_memory_bytes, whole.peak_memory_bytes);
        EXPECT_LE(within.peak_memory_bytes, std::max(b - file_cache, largest + largest / 16)) << b;
        decoded_again = within.slices_decoded_again;
    }
    EXPECT_GT(decoded_again, 0U);
    request.kinds = workflow::parse_value_kinds("wld");
    EXPECT_THROW(workflow::build_database(request), RuntimeError);  // files without distances cannot feed the solver
}

}  // namespace
}  // namespace egdb
