// egdb verify on Kingsrow sets written by egdb: their files differ from the published ones by
// construction, except the identifying index file, whose CRC-32 egdb's trailer forces to the
// published identification value. A change to that file must fail the verification (found by
// bench/damage.py: garbage lines and zeroed ranges in it passed).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/formats/kingsrow/directory/file_crc_check.hpp"
#include "core/notation/fen.hpp"
#include "core/probe/database.hpp"
#include "core/workflow/build.hpp"
#include "core/workflow/verify.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;

// The request of a Kingsrow run-length set (no Tunstall tables needed) of up to `pieces` pieces
// in `out`, read back with `samples` positions after the build.
workflow::BuildRequest runlen_build(const fs::path& out, int pieces, int threads, int samples) {
    workflow::BuildRequest request;
    request.pieces = pieces;
    request.out = out;
    request.resources.threads = threads;
    request.format = workflow::OutputFormat::KingsrowRunlen;
    request.read_back_samples = samples;
    return request;
}

TEST(KingsrowVerifyDamage, ChangedIdentifyingIndexFileFailsVerification) {
    const test::ScratchDir scratch("kingsrow_verify_damage");
    const workflow::BuildRequest request = runlen_build(scratch.sub("db"), 2, 1, 100);
    ASSERT_TRUE(workflow::build_database(request).ok());
    workflow::VerifyRequest verify;
    verify.samples = 100;
    verify.resources.threads = 1;
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

// Damage that takes egdb's trailer off the identifying file (one byte of its marker zeroed) makes
// the set look like an upstream one: for MTC, which has no published values, nothing was checked
// and the damage passed (bench/damage.py: db3.idx_mtc zeroed at [26, 27)). The identifying file
// must match the CRC-32 the set is identified by in every set, egdb's or not.
TEST(KingsrowVerifyDamage, IdentifyingFileThatLostItsTrailerFailsVerification) {
    const test::ScratchDir scratch("kingsrow_verify_trailer");
    for (const kingsrow::DbType type : {kingsrow::DbType::WldRunlen, kingsrow::DbType::MtcRunlen}) {
        const fs::path dir = scratch.sub(type == kingsrow::DbType::MtcRunlen ? "mtc" : "wld");
        const workflow::BuildRequest request = runlen_build(dir, 3, 2, 0);
        ASSERT_TRUE(workflow::build_database(request).ok());
        workflow::VerifyRequest verify;
        verify.samples = 0;
        verify.resources.threads = 1;
        ASSERT_TRUE(workflow::verify_directory(dir, verify).ok());
        const std::string identifying = kingsrow::egdb_identifying_file(dir, type, 3);
        ASSERT_FALSE(identifying.empty()) << "no identifying index file with egdb's trailer";
        std::string text = test::slurp(dir / identifying);
        const std::size_t marker = text.rfind("\n#egdb ");
        ASSERT_NE(marker, std::string::npos);
        text[marker + 6] = '\0';  // the space after "#egdb"
        std::ofstream(dir / identifying, std::ios::binary | std::ios::trunc) << text;
        ASSERT_FALSE(kingsrow::written_by_egdb(dir, type, 3));
        const workflow::VerifyResult result = workflow::verify_directory(dir, verify);
        EXPECT_FALSE(result.ok()) << identifying;
        bool named = false;
        for (const std::string& problem : result.problems()) named = named || problem.find(identifying) != std::string::npos;
        EXPECT_TRUE(named) << "no problem names " << identifying;
    }
}

// A subslice missing from a damaged index (here the record of 1 king against 1 king, black to
// move, deleted from db2.idx) leaves its values unknown. The lookup's search must give up with
// LookupNotPossible; without a bound it went through the king endgame's whole tree to depth 64 and
// never returned (bench/damage.py found `egdb probe` spinning on such a set).
TEST(KingsrowVerifyDamage, MissingSubsliceMakesTheLookupFailNotSpin) {
    const test::ScratchDir scratch("kingsrow_missing_subslice");
    const workflow::BuildRequest request = runlen_build(scratch.sub("db"), 3, 2, 0);
    ASSERT_TRUE(workflow::build_database(request).ok());
    const FenPosition fp = parse_fen("W:WK25:BK24,9");  // white must capture into 1 king v 1 king
    {
        const auto db = Database::open(request.out);
        EXPECT_NO_THROW((void)db->wld(fp.position, fp.side_to_move));
    }
    std::istringstream lines(test::slurp(request.out / "db2.idx"));
    std::string kept, line;
    bool removed = false;
    while (std::getline(lines, line)) {
        if (line.rfind("BASE0,1,0,1,0,b:", 0) == 0) {
            removed = true;
            continue;
        }
        kept += line + "\n";
    }
    ASSERT_TRUE(removed) << "db2.idx has no record of 0101 with black to move";
    std::ofstream(request.out / "db2.idx", std::ios::binary | std::ios::trunc) << kept;
    const auto db = Database::open(request.out);
    EXPECT_THROW((void)db->wld(fp.position, fp.side_to_move), LookupNotPossible);
    EXPECT_THROW((void)db->dtw(fp.position, fp.side_to_move), LookupNotPossible);
}

}  // namespace
}  // namespace egdb
