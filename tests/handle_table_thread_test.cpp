// The handle table of the C interface (capi/handle_table.hpp): lookups from many threads while
// handles open and close never see a destroyed or foreign entry, a close waits for the calls that
// are still using the handle, and a closed handle stays closed after its slot is reused. Run
// under ThreadSanitizer (and AddressSanitizer in the sanitizer build) by scripts/test.sh.
#include "capi/handle_table.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace egdb::capi {
namespace {

struct TestEntry {
    explicit TestEntry(int entry_id, std::atomic<int>* on_destroy = nullptr) : id(entry_id), destroyed(on_destroy) {}
    ~TestEntry() {
        alive.store(false);
        if (destroyed != nullptr) destroyed->fetch_add(1);
    }
    int id;
    std::atomic<bool> alive{true};
    std::atomic<int>* destroyed;
};

using Table = HandleTable<TestEntry, 4>;

TEST(HandleTableThreads, LookupsDuringOpenAndCloseSeeOnlyLiveEntriesOfTheirHandle) {
    Table table;
    std::atomic<int> current{-1};
    std::atomic<bool> stop{false};
    std::atomic<int> wrong{0};
    std::atomic<std::uint64_t> found{0};
    std::atomic<int> destroyed{0};
    {
        std::vector<std::jthread> readers;
        for (int t = 0; t < 3; ++t) {
            readers.emplace_back([&] {
                while (!stop.load()) {
                    const int h = current.load();
                    const Table::Ref ref = table.find(h);
                    if (!ref) continue;
                    // The entry's id is the handle it was opened as.
                    if (ref->id != h || !ref->alive.load()) wrong.fetch_add(1);
                    found.fetch_add(1, std::memory_order_relaxed);
                    // Hold it a little, so that closes find calls in progress.
                    for (int k = 0; k < 20; ++k) {
                        if (!ref->alive.load()) wrong.fetch_add(1);
                    }
                }
            });
        }
        for (int round = 0; round < 2000; ++round) {
            // Open in a slot the table picks, then give the entry the handle it got.
            auto entry = std::make_unique<TestEntry>(-1, &destroyed);
            TestEntry* raw = entry.get();
            const int h = table.insert(std::move(entry));
            ASSERT_GE(h, 0);
            raw->id = h;  // no reader can find h before `current` publishes it
            current.store(h);
            while (found.load() < static_cast<std::uint64_t>(round) && !stop.load()) std::this_thread::yield();
            ASSERT_EQ(table.erase(h), CloseResult::Closed);
            EXPECT_FALSE(table.find(h)) << "a closed handle must stay closed";
            EXPECT_EQ(table.erase(h), CloseResult::NotOpen);
        }
        stop = true;
    }
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_EQ(destroyed.load(), 2000);
    EXPECT_GT(found.load(), 0U) << "the readers should have used the handles";
}

TEST(HandleTableThreads, CloseWaitsForTheCallsUsingTheHandle) {
    Table table;
    std::atomic<int> destroyed{0};
    const int h = table.insert(std::make_unique<TestEntry>(7, &destroyed));
    std::atomic<bool> holding{false}, released{false};
    std::jthread caller([&] {
        const Table::Ref ref = table.find(h);
        ASSERT_TRUE(ref);
        holding = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_TRUE(ref->alive.load());
        released = true;
    });
    while (!holding.load()) std::this_thread::yield();
    EXPECT_EQ(table.erase(h), CloseResult::Closed);
    EXPECT_TRUE(released.load()) << "close returned while a call still used the database";
    EXPECT_EQ(destroyed.load(), 1);
}

TEST(HandleTableThreads, SlotsGenerationsAndSelfClose) {
    Table table;
    std::vector<int> handles;
    for (int i = 0; i < 4; ++i) handles.push_back(table.insert(std::make_unique<TestEntry>(i)));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(handles[static_cast<std::size_t>(i)], i);
    EXPECT_EQ(table.insert(std::make_unique<TestEntry>(9)), -1) << "table full";
    EXPECT_EQ(table.erase(handles[2]), CloseResult::Closed);
    const int reused = table.insert(std::make_unique<TestEntry>(10));
    EXPECT_EQ(reused % 4, 2);
    EXPECT_NE(reused, handles[2]);
    EXPECT_FALSE(table.find(handles[2])) << "the old handle of a reused slot names nothing";
    EXPECT_EQ(table.find(reused)->id, 10);
    EXPECT_FALSE(table.find(-1));
    EXPECT_FALSE(table.find(1 << 30));
    {
        const Table::Ref ref = table.find(handles[0]);
        EXPECT_EQ(table.erase(handles[0]), CloseResult::InUseByThisThread);
    }
    EXPECT_EQ(table.erase(handles[0]), CloseResult::Closed);
}

}  // namespace
}  // namespace egdb::capi
