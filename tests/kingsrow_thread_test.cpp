// Concurrent lookups on one Kingsrow database (RUNLEN, V2, MTC) from 4 threads, through the
// LRU block cache with a budget smaller than the data (evictions while others read) and through
// autoloaded files, return exactly what one thread returns. Also run under ThreadSanitizer.
#include <gtest/gtest.h>

#include <thread>

#include "core/formats/kingsrow/codecs/tunstall_tables.hpp"
#include "kingsrow_test_data.hpp"

namespace egdb::kingsrow {
namespace {

using test::ScratchDir;

std::vector<std::pair<Position, Color>> sample_positions(const std::vector<test::SyntheticSide>& sides) {
    std::vector<std::pair<Position, Color>> sample;
    std::mt19937_64 rng(42);
    for (int i = 0; i < 40000; ++i) {
        const test::SyntheticSide& s = sides[rng() % sides.size()];
        const SliceIndexer& indexer = slice_indexer(s.slice);
        const Position p = indexer.position_at(rng() % indexer.size());
        sample.emplace_back(rng() % 2 == 0 ? p : reversed(p), rng() % 2 == 0 ? s.side : opposite(s.side));
    }
    return sample;
}

void expect_same_from_four_threads(const KingsrowDatabase& db, const std::vector<std::pair<Position, Color>>& sample) {
    std::vector<int> single(sample.size());
    for (std::size_t i = 0; i < sample.size(); ++i) single[i] = db.lookup_code(sample[i].first, sample[i].second, Conditional::No);
    constexpr int kThreads = 4;
    std::vector<std::vector<int>> results(kThreads, std::vector<int>(sample.size()));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            // Each thread walks the sample from a different starting point.
            for (std::size_t k = 0; k < sample.size(); ++k) {
                const std::size_t i = (k + static_cast<std::size_t>(t) * sample.size() / kThreads) % sample.size();
                results[t][i] = db.lookup_code(sample[i].first, sample[i].second, Conditional::No);
            }
        });
    }
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(results[t], single) << "thread " << t;
}

// Writes a synthetic database of `type` and checks four threads against one, autoloaded and
// through the cache.
void check_concurrent_lookups(DbType type) {
    const std::vector<test::SyntheticSide> sides = test::synthetic_database(test::ValueSet::Results);
    const auto sample = sample_positions(sides);
    ScratchDir dir(std::string("threads_") + std::string(name_of(type)));
    if (type == DbType::MtcRunlen) {
        write_mtc_database(dir.path(), test::mtc_tables(sides));
    } else {
        write_wld_database(dir.path(), type, test::wld_tables(sides));
    }
    for (const AutoloadPolicy policy : {AutoloadPolicy::AsUpstream, AutoloadPolicy::None}) {
        KingsrowOpenOptions options;
        options.autoload = policy;
        options.preload = false;
        const auto db = open_database(dir.path(), options);
        SCOPED_TRACE(std::string(name_of(type)) + (policy == AutoloadPolicy::None ? " through the cache" : " autoloaded"));
        expect_same_from_four_threads(*db, sample);
    }
}

TEST(KingsrowThreads, ConcurrentLookupsEqualSingleThreadLookups) {
    for (const DbType type : {DbType::WldRunlen, DbType::MtcRunlen}) check_concurrent_lookups(type);
}

TEST(KingsrowThreads, ConcurrentTunV2LookupsEqualSingleThreadLookups) {
    if (!builtin_tunstall_tables(TunstallVersion::V2).available()) {
        GTEST_SKIP() << "EGDB_WLD_TUN_V2 not tested: built without the Kingsrow Tunstall tables "
                        "(configure with -DEGDB_KINGSROW_TABLES=...)";
    }
    check_concurrent_lookups(DbType::WldTunV2);
}

}  // namespace
}  // namespace egdb::kingsrow
