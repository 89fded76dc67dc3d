// The output directory of a build as both drivers see it (core/build/build_directory.hpp):
// leftovers of interrupted writes removed, finished and damaged slice files told apart, the unit
// and part files of one slice found and removed (either driver's names), and the end of a build.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/build/build_directory.hpp"
#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/util/error.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::native {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& p) { std::ofstream(p) << "x"; }

TEST(BuildDirectory, OpeningRemovesLeftoversOfInterruptedWrites) {
    const egdb::test::ScratchDir scratch("build_directory_open");
    const fs::path out = scratch.path() / "db";
    fs::create_directories(out / "units");
    touch(out / "slice-0101.egdb.tmp");
    touch(out / "units" / "unit-0101-a000-c0000.egdbu.tmp");
    touch(out / "notes.txt");
    const BuildDirectory directory(out);
    EXPECT_FALSE(fs::exists(out / "slice-0101.egdb.tmp"));
    EXPECT_FALSE(fs::exists(out / "units" / "unit-0101-a000-c0000.egdbu.tmp"));
    EXPECT_TRUE(fs::exists(out / "notes.txt"));
}

// The unit folder is made when the first unit is written, not before: a build refused before it
// starts leaves none.
TEST(BuildDirectory, TheUnitFolderIsMadeForTheFirstUnit) {
    const egdb::test::ScratchDir scratch("build_directory_folder");
    const BuildDirectory directory(scratch.path() / "db");
    EXPECT_TRUE(fs::is_directory(directory.out()));
    EXPECT_FALSE(fs::exists(unit_folder(directory.out())));
    create_unit_folder(directory.out());
    EXPECT_TRUE(fs::is_directory(unit_folder(directory.out())));
    std::ofstream(scratch.path() / "file") << "not a folder";
    EXPECT_THROW(create_unit_folder(scratch.path() / "file"), FileError);
}

TEST(BuildDirectory, FinishedSlicesAreFilesABuildCanResumeFrom) {
    const egdb::test::ScratchDir scratch("build_directory_finished");
    const fs::path out = scratch.path() / "db";
    workflow::build_database(egdb::test::unverified_build(out, 2));
    std::vector<std::string> warnings;
    const BuildDirectory directory(out, [&](const std::string& w) { warnings.push_back(w); });
    const SliceId built{0, 1, 0, 1};
    EXPECT_TRUE(directory.finished(built));
    EXPECT_FALSE(directory.finished(SliceId{1, 0, 1, 1}));  // 3 pieces: not built
    EXPECT_TRUE(warnings.empty());
    // A damaged file is not finished, and the build is told why.
    std::ofstream(directory.slice_path(built), std::ios::binary | std::ios::trunc) << "EGDB but nothing else";
    EXPECT_FALSE(directory.finished(built));
    ASSERT_EQ(warnings.size(), 1U);
    EXPECT_NE(warnings[0].find("solving slice 0101 again"), std::string::npos) << warnings[0];
}

TEST(BuildDirectory, UnitsAndPartsOfOneSlice) {
    const egdb::test::ScratchDir scratch("build_directory_units");
    const BuildDirectory directory(scratch.path() / "db");
    create_unit_folder(directory.out());
    const fs::path units = unit_folder(directory.out());
    const SliceId s{0, 1, 1, 0};
    const SliceId other{1, 0, 1, 0};
    EXPECT_FALSE(directory.has_units(s));
    touch(units / "unit-0110-a000.egdbu");          // one unit a level, as builds before the engine named them
    touch(units / "unit-0110-a000-c0001.egdbu");    // one a chunk of a level
    touch(units / "part-0110-p0000.egdbp");          // a part of its slice file
    touch(units / "unit-1010-a001-c0000.egdbu");
    EXPECT_TRUE(directory.has_units(s));
    directory.remove_units(s);
    EXPECT_FALSE(directory.has_units(s));
    EXPECT_FALSE(fs::exists(units / "part-0110-p0000.egdbp"));
    EXPECT_TRUE(directory.has_units(other));
    EXPECT_EQ(unit_chunk_path(directory.out(), s, 3, 2).filename().string().rfind("unit-0110-a003-c", 0), 0U);
}

TEST(BuildDirectory, TheEndOfABuildListsItsFilesAndRemovesTheEmptyUnitFolder) {
    const egdb::test::ScratchDir scratch("build_directory_finish");
    const fs::path out = scratch.path() / "db";
    workflow::build_database(egdb::test::unverified_build(out, 2));
    fs::remove(out / kManifestFileName);
    const BuildDirectory directory(out);
    create_unit_folder(out);
    touch(unit_folder(out) / "unit-0101-a000-c0000.egdbu");
    directory.finish();
    EXPECT_TRUE(fs::exists(out / kManifestFileName));
    EXPECT_TRUE(fs::exists(unit_folder(out))) << "a unit folder still holding files stays";
    directory.remove_units(SliceId{0, 1, 0, 1});
    directory.finish();
    EXPECT_FALSE(fs::exists(unit_folder(out)));
}

}  // namespace
}  // namespace egdb::native
