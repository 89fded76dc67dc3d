// Which Kingsrow families a directory holds (identify_families): decided by the index file names
// of kingsrow-format.md 3.1 in one place, whatever else the directory holds.
#include <gtest/gtest.h>

#include <fstream>

#include "core/formats/kingsrow/directory/identify.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::kingsrow {
namespace {

TEST(KingsrowFamilies, IndexFileNamesDecideAndNothingElseCounts) {
    const egdb::test::ScratchDir dir("kingsrow_families");
    for (const char* name : {"db4.idx1", "db3-12.idx_dtw", "db5.idx_mtc", "db2.idx_mtc",
                             // not index files of 3.1
                             "db6.idx1.bak", "db.idx", "xdb7.idx", "db7-.idx_dtw", "db7.IDX", "db7idx1", "db1.idx_dtw"}) {
        std::ofstream(dir.path() / name) << "";
    }
    const FamiliesPresent present = identify_families(dir.path());
    ASSERT_TRUE(present.wld.has_value());
    EXPECT_EQ(present.wld->type, DbType::WldTunV2);
    EXPECT_EQ(present.wld->max_pieces, 4);
    EXPECT_EQ(present.mtc_pieces, 5);
    EXPECT_EQ(present.dtw_pieces, 3);
}

TEST(KingsrowFamilies, AnEmptyOrForeignDirectoryHoldsNone) {
    const egdb::test::ScratchDir dir("kingsrow_families_none");
    EXPECT_TRUE(identify_families(dir.path()).empty());
    std::ofstream(dir.path() / "slice-0101.egdb") << "";
    std::ofstream(dir.path() / "README.txt") << "";
    EXPECT_TRUE(identify_families(dir.path()).empty());
}

}  // namespace
}  // namespace egdb::kingsrow
