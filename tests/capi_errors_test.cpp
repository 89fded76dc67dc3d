// Errors through the C ABI (capi/egdb.h): one code per kind of failure, and egdb_last_error per
// thread. Lookups on one handle may run on many threads at once, so a thread must read the
// message of its own failed call, never that of another thread's call on the same handle.
#include <gtest/gtest.h>

#include <barrier>
#include <cstdint>
#include <string>
#include <thread>

#include "capi/egdb.h"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

class CApiErrors : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new test::ScratchDir("capi_errors");
        ASSERT_EQ(egdb_build(scratch_->path().string().c_str(), 2, 1, "wld", 0, nullptr, nullptr), 0) << egdb_last_error(-1);
    }
    static void TearDownTestSuite() {
        delete scratch_;
        scratch_ = nullptr;
    }
    static test::ScratchDir* scratch_;
};

test::ScratchDir* CApiErrors::scratch_ = nullptr;

TEST_F(CApiErrors, LastErrorIsPerThreadOnOneHandle) {
    const int handle = egdb_open("", 16, scratch_->path().string().c_str(), "");
    ASSERT_GE(handle, 0) << egdb_last_error(-1);
    std::barrier both_failed(2);
    std::string fen_thread_message, pieces_thread_message;
    int fen_code = 0, pieces_code = 0;
    // Each thread fails, waits until the other has failed too, then reads "its" last error.
    std::jthread fen_thread([&] {
        fen_code = egdb_lookup_fen_with_search(handle, "W:W51:B1");
        both_failed.arrive_and_wait();
        fen_thread_message = egdb_last_error(handle);
    });
    std::jthread pieces_thread([&] {
        pieces_code = egdb_lookup_fen_with_search(handle, "W:W31-33:B1-3");
        both_failed.arrive_and_wait();
        pieces_thread_message = egdb_last_error(handle);
    });
    fen_thread.join();
    pieces_thread.join();
    EXPECT_EQ(fen_code, EGDB_FEN_ERROR);
    EXPECT_EQ(pieces_code, EGDB_LOOKUP_NOT_POSSIBLE);
    EXPECT_NE(fen_thread_message.find("51"), std::string::npos) << fen_thread_message;
    EXPECT_NE(pieces_thread_message.find("6 pieces"), std::string::npos) << pieces_thread_message;
    // This thread made no failed call on the handle.
    EXPECT_EQ(std::string(egdb_last_error(handle)), "");
    EXPECT_EQ(egdb_close(handle), 0);
    EXPECT_NE(std::string(egdb_last_error(handle)).find("not open"), std::string::npos);
}

TEST_F(CApiErrors, EachKindOfFailureHasItsCode) {
    // No database at the path: EGDB_OPEN_FAIL from egdb_open, EGDB_IDENTIFY_FAIL from egdb_identify.
    const test::ScratchDir empty("capi_errors_empty");
    EXPECT_EQ(egdb_open("", 16, empty.path().string().c_str(), ""), EGDB_OPEN_FAIL);
    EXPECT_NE(std::string(egdb_last_error(-1)).find(empty.path().string()), std::string::npos) << egdb_last_error(-1);
    int type = 0, pieces = 0;
    EXPECT_EQ(egdb_identify(empty.path().string().c_str(), &type, &pieces), EGDB_IDENTIFY_FAIL);
    // Bad arguments and unknown kinds.
    EXPECT_EQ(egdb_build(empty.path().string().c_str(), 11, 1, "wld", 0, nullptr, nullptr), EGDB_BAD_ARGUMENT);
    EXPECT_EQ(egdb_build(empty.path().string().c_str(), 2, 1, "wld,dtx", 0, nullptr, nullptr), EGDB_BAD_ARGUMENT);
    EXPECT_NE(std::string(egdb_last_error(-1)).find("dtx"), std::string::npos) << egdb_last_error(-1);
    EXPECT_EQ(egdb_build(empty.path().string().c_str(), 2, 1, "dtw", 0, nullptr, nullptr), EGDB_BAD_ARGUMENT);
    // A cancelled build says so, and resumes when run again.
    const auto cancel = [](void*, const char*, int64_t, int64_t) -> int { return 1; };
    const test::ScratchDir cancelled("capi_errors_cancelled");
    EXPECT_EQ(egdb_build(cancelled.path().string().c_str(), 3, 1, "wld", 0, cancel, nullptr), EGDB_CANCELLED);
    EXPECT_EQ(egdb_build(cancelled.path().string().c_str(), 3, 1, "wld", 1, nullptr, nullptr), 0) << egdb_last_error(-1);
}

TEST_F(CApiErrors, OpenRefusesOptionsAndCacheBoundsItCannotHonour) {
    const std::string dir = scratch_->path().string();
    for (const char* options : {"maxpieces=abc", "maxpieces", "maxpieces=-1", "maxpieces=6x"}) {
        EXPECT_EQ(egdb_open(options, 16, dir.c_str(), ""), EGDB_BAD_ARGUMENT) << options;
        EXPECT_NE(std::string(egdb_last_error(-1)).find("maxpieces"), std::string::npos) << egdb_last_error(-1);
    }
    for (const int cache_mb : {-5, 2147483647}) {
        EXPECT_EQ(egdb_open("", cache_mb, dir.c_str(), ""), EGDB_BAD_ARGUMENT) << cache_mb;
        const std::string message = egdb_last_error(-1);
        EXPECT_NE(message.find("cache_mb " + std::to_string(cache_mb)), std::string::npos) << message;
        EXPECT_NE(message.find("MiB"), std::string::npos) << message;  // the bound, named
    }
    // What the driver takes stays taken: maxpieces=N with blanks, with other words, 0 for no limit.
    for (const char* options : {"maxpieces=2", "maxpieces = 2", "maxpieces=0", "other;maxpieces=2"}) {
        const int handle = egdb_open(options, 0, dir.c_str(), "");
        ASSERT_GE(handle, 0) << options << ": " << egdb_last_error(-1);
        EXPECT_EQ(egdb_close(handle), 0);
    }
}

TEST_F(CApiErrors, EveryFailedCallOnAClosedHandleSetsItsMessage) {
    const int handle = egdb_open("", 16, scratch_->path().string().c_str(), "");
    ASSERT_GE(handle, 0) << egdb_last_error(-1);
    EXPECT_EQ(egdb_lookup_fen(handle, nullptr, 0), EGDB_FEN_ERROR);
    EXPECT_NE(std::string(egdb_last_error(handle)).find("NULL"), std::string::npos);
    ASSERT_EQ(egdb_close(handle), 0);
    EXPECT_EQ(egdb_close(handle), EGDB_BAD_HANDLE);
    EXPECT_NE(std::string(egdb_last_error(handle)).find("is not open"), std::string::npos) << egdb_last_error(handle);
    EXPECT_EQ(egdb_lookup_fen(handle, "W:W28:B23", 0), EGDB_BAD_HANDLE);
    EXPECT_NE(std::string(egdb_last_error(handle)).find("is not open"), std::string::npos) << egdb_last_error(handle);
}

// Every entry point that takes a position refuses an ill-formed one with EGDB_BAD_ARGUMENT and a
// message, never reading the tables at an index the position does not have. The first position is
// the input fuzz/fuzz_capi.cpp found: is_sharp_win looked it up unchecked (a white man off the
// board, a king bit on an empty square).
TEST_F(CApiErrors, IllFormedPositionsAreRefusedByEveryEntryPoint) {
    const int handle = egdb_open("", 16, scratch_->path().string().c_str(), "");
    ASSERT_GE(handle, 0) << egdb_last_error(-1);
    const EgdbPosition ill_formed[] = {
        {1, std::uint64_t{1} << 62, std::uint64_t{1} << 12},  // off the board, king on an empty square
        {1, 1, 0},                                             // both colours on square 1
        {std::uint64_t{1} << 49, std::uint64_t{1} << 20, 0},   // a black man on its promotion row
        {std::uint64_t{1} << 10, std::uint64_t{1} << 2, 0},    // a white man on its promotion row
    };
    for (const EgdbPosition& pos : ill_formed) {
        SCOPED_TRACE(std::to_string(pos.black) + " " + std::to_string(pos.white) + " " + std::to_string(pos.king));
        for (const int color : {0, 1}) {
            EXPECT_EQ(egdb_lookup(handle, &pos, color, 0), EGDB_BAD_ARGUMENT);
            EXPECT_EQ(egdb_lookup_with_search(handle, &pos, color), EGDB_BAD_ARGUMENT);
            EgdbProbe probe{};
            EXPECT_EQ(egdb_probe(handle, &pos, color, &probe), EGDB_BAD_ARGUMENT);
            EgdbPosition sharp{};
            EXPECT_EQ(is_sharp_win(handle, &pos, color, &sharp), EGDB_BAD_ARGUMENT);
            EXPECT_NE(std::string(egdb_last_error(handle)).find("not well formed"), std::string::npos)
                << egdb_last_error(handle);
            EgdbPosition after{};
            EXPECT_EQ(egdb_parse_move(&pos, color, "1-7", &after), EGDB_BAD_ARGUMENT);
            int result = 0;
            EXPECT_EQ(egdb_lookup_batch(handle, &pos, &color, 1, &result), 1);
            EXPECT_EQ(result, EGDB_BAD_ARGUMENT);
        }
        EXPECT_EQ(positiontoindex(&pos, 1, 0, 1, 0), EGDB_BAD_ARGUMENT);
    }
    EXPECT_EQ(egdb_close(handle), 0);
}

}  // namespace
}  // namespace egdb
