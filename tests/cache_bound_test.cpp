// cache_mb bounds the whole handle (egdb.h, egdb_open): a handle opening WLD from one folder and
// MTC + DTW from another, each of several times the bound, holds no more page bytes than the
// bound however much it probes, and fills it.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>

#include "capi/egdb.h"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"

namespace egdb {
namespace {

constexpr int kBoundTestPieces = 4;
constexpr int kBoundTestCacheMiB = 2;

class CacheBound : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new test::ScratchDir("cache_bound");
        // Native WLD in one folder; Kingsrow run-length WLD with MTC and DTW in the other (run-length
        // needs no Tunstall tables, so the test runs wherever the suite does).
        const std::string native = scratch_->sub("native").string();
        ASSERT_EQ(egdb_build(native.c_str(), kBoundTestPieces, 2, "wld", 0, nullptr, nullptr), 0) << egdb_last_error(-1);
        const std::string kingsrow = scratch_->sub("kingsrow").string();
        const std::string cmd = "'" + test::cli_path().string() + "' build --pieces " + std::to_string(kBoundTestPieces) +
                                " --format kingsrow-runlen --no-verify --threads 2 --out '" + kingsrow + "' > /dev/null 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        directories_ = new std::string(native + ";" + kingsrow);
    }
    static void TearDownTestSuite() {
        delete directories_;
        delete scratch_;
    }
    static test::ScratchDir* scratch_;
    static std::string* directories_;
};

test::ScratchDir* CacheBound::scratch_ = nullptr;
std::string* CacheBound::directories_ = nullptr;

TEST_F(CacheBound, PagesOfEveryFolderAndKindShareOneBound) {
    const int handle = egdb_open("", kBoundTestCacheMiB, directories_->c_str(), "");
    ASSERT_GE(handle, 0) << egdb_last_error(-1);
    const std::uint64_t bound = std::uint64_t{kBoundTestCacheMiB} << 20;
    std::uint64_t most = 0;
    // Positions spread over every 4-piece slice, a few thousand indices apart (a native page holds
    // 16384 positions, a Kingsrow DTW block a few thousand): WLD pages of the native folder, MTC
    // and DTW blocks of the Kingsrow one, far more than the bound.
    int probed = 0;
    for (int nb = 1; nb < kBoundTestPieces; ++nb) {
        const int nw = kBoundTestPieces - nb;
        for (int nbk = 0; nbk <= nb; ++nbk) {
            for (int nwk = 0; nwk <= nw; ++nwk) {
                const int64_t size = getdatabasesize_slice(nb - nbk, nbk, nw - nwk, nwk);
                for (int64_t i = 0; i < size; i += 3001) {
                    EgdbPosition pos;
                    indextoposition(i, &pos, nb - nbk, nbk, nw - nwk, nwk);
                    for (int color : {EGDB_BLACK, EGDB_WHITE}) {
                        EgdbProbe probe;
                        if (egdb_probe(handle, &pos, color, &probe) == 0) ++probed;
                    }
                    EgdbStats stats;
                    ASSERT_EQ(egdb_stats(handle, &stats), 0);
                    most = std::max(most, stats.cache_bytes);
                    ASSERT_LE(stats.cache_bytes, bound) << "after " << probed << " probes";
                }
            }
        }
    }
    EgdbStats stats;
    ASSERT_EQ(egdb_stats(handle, &stats), 0);
    EXPECT_GT(probed, 20000);
    // The probes filled the cache: the bound is what held it back.
    EXPECT_GT(most, bound / 2) << stats.cache_misses << " misses";
    EXPECT_EQ(egdb_close(handle), 0);
}

}  // namespace
}  // namespace egdb
