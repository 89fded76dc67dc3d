// egdb verify on Kingsrow sets written by egdb: their files differ from the published ones by
// construction, except the identifying index file, whose CRC-32 egdb's trailer forces to the
// published identification value. A change to that file must fail the verification (found by
// bench/damage.py: garbage lines and zeroed ranges in it passed).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/formats/kingsrow/directory/verify.hpp"
#include "core/workflow/build.hpp"
#include "core/workflow/verify.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

TEST(KingsrowVerifyDamage, ChangedIdentifyingIndexFileFailsVerification) {
    const test::ScratchDir scratch("kingsrow_verify_damage");
    workflow::BuildRequest request;
    request.pieces = 2;
    request.out = scratch.sub("db");
    request.threads = 1;
    request.format = workflow::OutputFormat::KingsrowRunlen;
    request.read_back_samples = 100;
    ASSERT_TRUE(workflow::build_database(request).ok());
    workflow::VerifyRequest verify;
    verify.samples = 100;
    verify.threads = 1;
    ASSERT_TRUE(workflow::verify_directory(request.out, verify).ok());

    const std::string identifying =
        kingsrow::egdb_identifying_file(request.out, kingsrow::DbType::WldRunlen, 2);
    ASSERT_FALSE(identifying.empty()) << "no identifying index file with egdb's trailer";
    // A garbage line before the trailer: the reader stops at the first token that starts no
    // record (3.2), so the set still opens and still ends with egdb's trailer; only the CRC-32
    // tells.
    std::string text = test::slurp(request.out / identifying);
    const std::size_t trailer = text.rfind("\n#egdb ");
    ASSERT_NE(trailer, std::string::npos);
    text.insert(trailer + 1, "garbage\n");
    std::ofstream(request.out / identifying, std::ios::binary | std::ios::trunc) << text;
    ASSERT_TRUE(kingsrow::written_by_egdb(request.out, kingsrow::DbType::WldRunlen, 2));

    verify.samples = 0;  // the file check alone must see it
    const workflow::VerifyResult result = workflow::verify_directory(request.out, verify);
    EXPECT_FALSE(result.ok());
    bool named = false;
    for (const std::string& problem : result.problems()) named = named || problem.find(identifying) != std::string::npos;
    EXPECT_TRUE(named) << "no problem names " << identifying;
}

}  // namespace
}  // namespace egdb
