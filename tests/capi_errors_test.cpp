// Errors through the C ABI (capi/egdb.h): one code per kind of failure, and egdb_last_error per
// thread. Lookups on one handle may run on many threads at once, so a thread must read the
// message of its own failed call, never that of another thread's call on the same handle.
#include <gtest/gtest.h>

#include <barrier>
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

}  // namespace
}  // namespace egdb
