// DecodedSlicePlan (core/generate/decoded_slice_plan.hpp), the budget policy of `egdb build` and `egdb
// verify`: which decoded slices make way for a step, in which order, which come back, and that the
// measured process part is charged.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/build/slice_memory.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb {
namespace {

class MemoryPlanTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::vector<SliceId> order = build_order(4);
        // A 4-piece slice that reads several slices, with slices before it that it does not read.
        for (std::size_t i = 0; i < order.size(); ++i) {
            const std::vector<SliceId> r = successor_slices(order[i]);
            if (r.size() >= 3 && i > r.size() + 2) {
                step_ = order[i];
                reads_ = r;
                earlier_.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(i));
                break;
            }
        }
        ASSERT_FALSE(reads_.empty());
        for (const SliceId t : earlier_) {
            if (is_read(t)) {
                read_bytes_ += 4 * slice_size(t);
            } else {
                other_bytes_ += 4 * slice_size(t);
            }
        }
        ASSERT_GT(other_bytes_, 0u);
    }
    bool is_read(SliceId t) const { return std::find(reads_.begin(), reads_.end(), t) != reads_.end(); }
    void decode_all_earlier() {
        for (const SliceId t : earlier_) store_.add(SolvedSlice(t));
    }
    // Files hold a byte a position: reading a slice through its file costs a quarter of decoding it.
    static std::uint64_t file_bytes(SliceId t) { return slice_size(t); }

    static constexpr std::uint64_t kCache = 1000;
    static constexpr std::uint64_t kStep = 5000;
    SliceId step_{};
    std::vector<SliceId> reads_;
    std::vector<SliceId> earlier_;
    std::uint64_t read_bytes_ = 0;   // decoded bytes of the slices the step reads
    std::uint64_t other_bytes_ = 0;  // decoded bytes of the earlier slices it does not read
    SolutionStore store_;
};

TEST_F(MemoryPlanTest, SlicesTheStepDoesNotReadGoFirst) {
    decode_all_earlier();
    // Room for the step and the slices it reads, decoded, and nothing else.
    DecodedSlicePlan plan(kCache + kStep + read_bytes_, kCache, file_bytes);
    std::vector<SliceId> restored;
    const std::uint64_t held = plan.make_room(store_, step_, kStep, earlier_, [](SliceId) { return true; },
                                              [&](SliceId t, SideSet) { restored.push_back(t); });
    EXPECT_EQ(held, kCache + kStep + read_bytes_);
    EXPECT_EQ(store_.memory_bytes(), read_bytes_);
    for (const SliceId t : earlier_) EXPECT_EQ(store_.find(t) != nullptr, is_read(t)) << t.to_string();
    EXPECT_TRUE(restored.empty()) << "everything read was still decoded";
}

TEST_F(MemoryPlanTest, SlicesItReadsGoOldestFirstAndComeBackWhenTheyFit) {
    decode_all_earlier();
    // One byte short of everything it reads decoded: a read slice must go, and it is the oldest.
    DecodedSlicePlan plan(kCache + kStep + read_bytes_ - 1, kCache, file_bytes);
    std::vector<std::pair<SliceId, SideSet>> restored;
    const std::uint64_t held = plan.make_room(store_, step_, kStep, earlier_, [](SliceId) { return true; },
                                              [&](SliceId t, SideSet sides) { restored.emplace_back(t, sides); });
    const SliceId oldest_read = *std::find_if(earlier_.begin(), earlier_.end(), [&](SliceId t) { return is_read(t); });
    EXPECT_EQ(store_.find(oldest_read), nullptr);
    for (const SliceId t : reads_) {
        if (t != oldest_read) {
            EXPECT_NE(store_.find(t), nullptr) << t.to_string();
        }
    }
    // It comes back for the sides the step reads it at, which fit where both sides did not (the
    // callback here does not add it: the plan then charges its file).
    const std::vector<SuccessorRead> reads = successor_reads(step_);
    const SuccessorRead& r = *std::find_if(reads.begin(), reads.end(), [&](const SuccessorRead& x) { return x.slice == oldest_read; });
    ASSERT_EQ(SolvedSlice::sides_to_hold(r.slice, r.sides).count(), 1);
    ASSERT_EQ(restored.size(), 1u);
    EXPECT_EQ(restored[0].first, oldest_read);
    EXPECT_EQ(restored[0].second, r.sides);
    EXPECT_GT(held, plan.budget_bytes() - 4 * slice_size(oldest_read));

    // With an empty store, the slices read come back in the order the step reads them while
    // they fit, and only those available.
    SolutionStore empty;
    const SliceId unavailable = reads_.back();
    std::vector<SliceId> back;
    DecodedSlicePlan roomy(kCache + kStep + read_bytes_ + 10 * 4 * slice_size(unavailable), kCache, file_bytes);
    roomy.make_room(empty, step_, kStep, {}, [&](SliceId t) { return t != unavailable; },
                    [&](SliceId t, SideSet sides) {
                        back.push_back(t);
                        empty.add(SolvedSlice(t, SolvedSlice::sides_to_hold(t, sides)));
                    });
    std::vector<SliceId> expected(reads_.begin(), reads_.end() - 1);
    EXPECT_EQ(back, expected);
    EXPECT_EQ(empty.find(unavailable), nullptr);
}

TEST_F(MemoryPlanTest, TheMeasuredProcessIsCharged) {
    decode_all_earlier();
    DecodedSlicePlan plan(kCache + kStep + read_bytes_ + other_bytes_, kCache, file_bytes);
    EXPECT_EQ(plan.process_bytes(), 0u);
    EXPECT_EQ(plan.held(store_, step_, kStep), plan.budget_bytes());
    // Resident: the store, 300 bytes of filled cache slots and 700 bytes of the process itself.
    plan.measure(store_.memory_bytes() + 300 + 700, store_, 300);
    EXPECT_EQ(plan.process_bytes(), 700u);
    // A later, smaller measure does not lower it (arenas rarely shrink).
    plan.measure(store_.memory_bytes() + 10, store_, 0);
    EXPECT_EQ(plan.process_bytes(), 700u);
    EXPECT_EQ(plan.held(store_, step_, kStep), plan.budget_bytes() + 700);
    // The 700 bytes are made room for: a slice the step does not read goes.
    plan.make_room(store_, step_, kStep, earlier_, [](SliceId) { return false; }, [](SliceId, SideSet) {});
    EXPECT_LT(store_.memory_bytes(), read_bytes_ + other_bytes_);
    for (const SliceId t : reads_) EXPECT_NE(store_.find(t), nullptr) << t.to_string();
    EXPECT_LE(plan.held(store_, step_, kStep), plan.budget_bytes());
}

TEST_F(MemoryPlanTest, AnAssumedProcessIsNotMeasured) {
    DecodedSlicePlan plan(1 << 30, kCache, file_bytes);
    plan.assume(123);
    plan.measure(std::uint64_t{1} << 40, store_, 0);
    EXPECT_EQ(plan.process_bytes(), 123u);
    // Nothing decoded: the process, the step, the cache and every file the step reads.
    std::uint64_t files = 0;
    for (const SliceId t : reads_) files += file_bytes(t);
    EXPECT_EQ(plan.held(store_, step_, kStep), 123 + kStep + kCache + files);
}

// A slice held for a side to move the step does not read it at serves the step no more than its
// file: it is decoded again for the sides read, keeping the side it had when both fit.
TEST_F(MemoryPlanTest, ASliceHeldForTheOtherSideIsDecodedForTheSidesRead) {
    const std::vector<SuccessorRead> reads = successor_reads(step_);
    const auto one_sided = std::find_if(reads.begin(), reads.end(), [](const SuccessorRead& r) {
        return !is_color_symmetric(r.slice) && r.sides.count() == 1;
    });
    ASSERT_NE(one_sided, reads.end());
    const SliceId t = one_sided->slice;
    const SideSet other = SideSet::only(one_sided->sides.contains(Color::Black) ? Color::White : Color::Black);
    const auto run = [&](std::uint64_t budget) {
        SolutionStore store;
        store.add(SolvedSlice(t, other));
        std::vector<std::pair<SliceId, SideSet>> restored;
        DecodedSlicePlan plan(budget, kCache, file_bytes);
        plan.assume(0);
        // Only t is available: the other slices read stay with their files.
        plan.make_room(store, step_, kStep, {}, [&](SliceId u) { return u == t; },
                       [&](SliceId u, SideSet sides) {
                           restored.emplace_back(u, sides);
                           store.add(SolvedSlice(u, sides));
                       });
        EXPECT_TRUE(store.answers(t, one_sided->sides.contains(Color::Black) ? Color::Black : Color::White));
        return restored;
    };
    std::uint64_t files = 0;
    for (const SuccessorRead& r : reads) files += file_bytes(r.slice);
    const std::uint64_t base = kCache + kStep + files - file_bytes(t);
    // Room for both sides: both.
    auto restored = run(base + 4 * slice_size(t));
    ASSERT_EQ(restored.size(), 1u);
    EXPECT_EQ(restored[0].second, SideSet::both());
    // Room for one: the side read.
    restored = run(base + 2 * slice_size(t));
    ASSERT_EQ(restored.size(), 1u);
    EXPECT_EQ(restored[0].second, one_sided->sides);
}

// What a solution kept for later slices keeps: the sides to move they read it at, nothing when
// none reads it.
TEST_F(MemoryPlanTest, AKeptSolutionKeepsTheSidesLaterSlicesReadItAt) {
    const std::vector<SuccessorRead> reads = successor_reads(step_);
    const SuccessorRead& r = reads.front();
    const SliceId readers[] = {step_};
    EXPECT_EQ(sides_read_by(r.slice, readers), r.sides);
    EXPECT_TRUE(sides_read_by(step_, readers).empty());
    SolutionStore store;
    store.add(SolvedSlice(r.slice));
    store.add(SolvedSlice(step_));
    store.keep_sides(r.slice, sides_read_by(r.slice, readers));
    ASSERT_NE(store.find(r.slice), nullptr);
    EXPECT_EQ(store.find(r.slice)->sides(), SolvedSlice::sides_to_hold(r.slice, r.sides));
    EXPECT_EQ(store.find(r.slice)->memory_bytes(), DecodedSlicePlan::decoded_bytes(r.slice, r.sides));
    EXPECT_TRUE(answers_every_side_read(store, r));
    store.keep_sides(step_, sides_read_by(step_, readers));
    EXPECT_EQ(store.find(step_), nullptr);
}

TEST(MemoryPlanCache, IsAnEighthOfTheBudgetBetween8MiBAnd1GiB) {
    constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
    EXPECT_EQ(DecodedSlicePlan::cache_bytes(0), 8 * kMiB);
    EXPECT_EQ(DecodedSlicePlan::cache_bytes(40 * kMiB), 8 * kMiB);
    EXPECT_EQ(DecodedSlicePlan::cache_bytes(1024 * kMiB), 128 * kMiB);
    EXPECT_EQ(DecodedSlicePlan::cache_bytes(8 * 1024 * kMiB), 1024 * kMiB);
    EXPECT_EQ(DecodedSlicePlan::cache_bytes(11 * 1024 * kMiB), 1024 * kMiB);
}

}  // namespace
}  // namespace egdb

namespace egdb {
namespace {

// A unit cut into chunks plans for its chunk and the blocks of the level above its men reach, not
// for two whole levels: the 7-piece slices with men whose block is small fit a 4 GiB worker in
// chunks of 2^24 positions, where whole levels need several times more.
TEST(SliceMemory, AChunkNeedsItsBlocksAndTheirReachNotTwoLevels) {
    constexpr std::uint64_t kChunk = std::uint64_t{1} << 24;
    constexpr std::uint64_t kWorker = std::uint64_t{4} << 30;
    for (const SliceId s : {SliceId{2, 2, 2, 1}, SliceId{3, 1, 2, 1}, SliceId{2, 2, 1, 2}}) {
        const std::uint64_t whole_levels = native::solve_need_bytes(s, true, 1, kChunk);
        const std::uint64_t chunks = native::solve_need_bytes(s, true, 1, kChunk, kChunk);
        EXPECT_LT(chunks, kWorker) << s.to_string() << ": " << (chunks >> 20) << " MiB";
        EXPECT_GT(whole_levels, 2 * chunks) << s.to_string() << ": " << (whole_levels >> 20) << " against " << (chunks >> 20) << " MiB";
        // A chunk of one configuration reads at most two blocks a man of the level above.
        const std::uint64_t block = slice_size(s) / men_configurations(s.nbm, s.nwm);
        const std::uint64_t one = native::solve_need_bytes(s, true, 1, block, block);
        EXPECT_LE(one, (1 + 2 * static_cast<std::uint64_t>(s.nbm + s.nwm)) * (4 * block + block / 4) +
                           native::kBlockWorkspaceBytes * block + 24 + 8 * block);
    }
    // The whole slice in memory does not depend on the chunk size.
    EXPECT_EQ(native::solve_need_bytes(SliceId{2, 2, 2, 1}, false, 2, kChunk, kChunk), native::solve_need_bytes(SliceId{2, 2, 2, 1}, false, 2, kChunk));
}

}  // namespace
}  // namespace egdb

namespace egdb {
namespace {

// A slice without men is solved in the bytes of its one level (kings_only_solver.hpp): it plans
// that level (4 bytes and 2 capture bits a position) and 4 bits a position beside it, not 20
// bytes a position of entry states and buckets, and no level above. The largest at 7 pieces,
// 0403 (3.5e9 positions), then fits a 16 GiB worker (it planned 95,019 MiB before).
TEST(SliceMemory, ASliceWithoutMenPlansItsLevelAndAFewBitsAPosition) {
    for (const SliceId s : {SliceId{0, 5, 0, 2}, SliceId{0, 4, 0, 3}}) {
        const std::uint64_t n = slice_size(s);
        const std::uint64_t need = native::solve_need_bytes(s, true, 2, std::uint64_t{1} << 22);
        EXPECT_LE(need, 4 * n + n / 4 + n / 2 + 64) << s.to_string();
        EXPECT_GE(need, 4 * n + n / 4 + n / 2) << s.to_string();
    }
    EXPECT_LT(native::solve_need_bytes(SliceId{0, 4, 0, 3}, true, 2, std::uint64_t{1} << 22), std::uint64_t{16} << 30);
}

}  // namespace
}  // namespace egdb
