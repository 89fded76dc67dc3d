// EGDB_DTW lookups from four threads at once return what one thread returns, with the blocks
// served straight from the mapped files and through a small, constantly evicting block cache
// (built also under ThreadSanitizer by scripts/test.sh).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "tests/kingsrow_dtw_fixture.hpp"

namespace egdb::kingsrow {
namespace {

struct Probe {
    Position position;
    Color side;
    int expected;
};

TEST(KingsrowDtwThreads, FourThreadsAgreeWithOne) {
    const std::filesystem::path dir = test::fresh_directory("threads");
    write_dtw_database(dir, test::synthetic_tables());

    for (const std::size_t cache_bytes : {std::size_t{0}, std::size_t{16 * 4096}}) {
        const DtwDatabase db(dir, {0, cache_bytes});
        std::vector<Probe> probes;
        for (const SliceId s : {SliceId{2, 0, 0, 1}, SliceId{0, 1, 1, 0}, SliceId{3, 0, 1, 0}}) {
            const SliceIndexer& indexer = slice_indexer(s);
            for (std::uint64_t i = 0; i < indexer.size(); i += 1 + indexer.size() / 6000) {
                for (const Color side : {Color::Black, Color::White}) {
                    const Position p = indexer.position_at(i);
                    probes.push_back({p, side, db.lookup(p, side)});
                }
            }
        }
        std::atomic<int> mismatches{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                // Each thread walks the probes from a different starting point, so threads load
                // and evict different blocks at the same time.
                for (std::size_t k = 0; k < probes.size(); ++k) {
                    const Probe& probe = probes[(k + static_cast<std::size_t>(t) * probes.size() / 4) % probes.size()];
                    if (db.lookup(probe.position, probe.side) != probe.expected) mismatches.fetch_add(1);
                }
            });
        }
        for (std::thread& t : threads) t.join();
        EXPECT_EQ(mismatches.load(), 0) << "cache bytes " << cache_bytes;
        if (cache_bytes != 0) {
            EXPECT_GT(db.cache_stats().misses, 100U);
        }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace egdb::kingsrow
