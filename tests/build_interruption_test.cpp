// `egdb build` interrupted the two ways a long build is in practice: the process killed at a
// random moment (SIGKILL: no destructor runs, no temporary file is removed), and the disk filling
// up. Either way every slice file that exists must be complete (byte-identical to an
// uninterrupted build: a finished-looking file is a finished file), the error must say what
// happened, and running the build again (on the same disk, or on another one the folder was
// copied to) must finish with the same bytes.
//
// unit_build_test.cpp kills a build only while it writes unit files; here the moments are random
// over the whole run (solving, writing pages, renaming, the verification pass).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/native/manifest.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/generate/build_driver.hpp"
#include "core/workflow/build.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using test::slurp;

constexpr int kPieces = 3;

struct KilledBuild {
    bool killed = false;  // still running when the kill came
    int status = 0;       // waitpid status
    double seconds = 0;
};

// Runs `egdb build ARGS... --out DIR` with its output in `log`; sends SIGKILL after `kill_after`
// unless it ends before (a negative delay: never).
KilledBuild run_build(const fs::path& dir, const fs::path& log, const std::vector<std::string>& args,
                    std::chrono::microseconds kill_after) {
    std::vector<std::string> argv{test::cli_path().string(), "build", "--pieces", std::to_string(kPieces),
                                  "--threads", "2", "--out", dir.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> c_argv;
    for (std::string& a : argv) c_argv.push_back(a.data());
    c_argv.push_back(nullptr);
    const auto start = Clock::now();
    const pid_t child = ::fork();
    if (child == 0) {
        const int fd = ::creat(log.c_str(), 0644);
        ::dup2(fd, STDERR_FILENO);
        ::dup2(fd, STDOUT_FILENO);
        ::execv(c_argv[0], c_argv.data());
        ::_exit(127);
    }
    KilledBuild result;
    if (kill_after.count() >= 0) {
        const auto deadline = start + kill_after;
        while (Clock::now() < deadline) {
            if (::waitpid(child, &result.status, WNOHANG) == child) {
                result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
                return result;
            }
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        result.killed = ::kill(child, SIGKILL) == 0;
    }
    ::waitpid(child, &result.status, 0);
    // A child that exited in the instant before the signal was not killed.
    result.killed = result.killed && WIFSIGNALED(result.status);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

// Every slice file in `dir` equals the reference's; leftovers of an interrupted write (a
// temporary file, a unit folder) are allowed only when `finished` is false. Returns the number
// of slice files found.
std::size_t expect_complete_files(const fs::path& dir, const fs::path& reference, bool finished) {
    std::size_t slices = 0;
    if (!fs::exists(dir)) return 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".egdb") {
            ++slices;
            EXPECT_EQ(slurp(e.path()), slurp(reference / name)) << e.path() << " looks finished but differs";
        } else if (name == native::kManifestFileName) {
            // Written last, atomically: a manifest is always whole and lists finished files.
            const auto manifest = native::read_manifest(dir);
            EXPECT_TRUE(manifest.has_value() && native::check_manifest(dir, *manifest).empty()) << e.path();
        } else if (name == native::kBuildVerifyJournalName) {
            // The journal of the closing verification, rewritten atomically: always whole.
            EXPECT_NO_THROW(native::VerifyJournal{e.path()}) << e.path();
        } else {
            EXPECT_FALSE(finished) << "left over after a finished build: " << e.path();
        }
    }
    if (finished) {
        EXPECT_EQ(slices, build_order(kPieces).size());
        EXPECT_TRUE(fs::exists(dir / native::kManifestFileName));
    }
    return slices;
}

// At least 8 kills at moments drawn uniformly from the run time of an uninterrupted build, 4 in
// each way of building a slice (whole, and one advancement level at a time through unit files).
// A campaign starts from an empty folder and kills until a run finishes; the finished folder must
// hold the reference's bytes. The seed is fixed, so a failure repeats.
TEST(BuildInterruption, KilledAtRandomMomentsResumesToIdenticalFiles) {
    const test::ScratchDir scratch("build_kill");
    const fs::path reference = scratch.sub("reference");
    workflow::build_database(test::unverified_build(reference, kPieces));
    int total_kills = 0;
    for (const std::vector<std::string>& mode : {std::vector<std::string>{}, std::vector<std::string>{"--units-from", "0"}}) {
        const std::string label = mode.empty() ? "whole slices" : "unit files";
        // The time of one uninterrupted run (with its verification pass), which the kills sample.
        const KilledBuild timed = run_build(scratch.sub("timed"), scratch.path() / "timed.log", mode, std::chrono::microseconds(-1));
        ASSERT_TRUE(WIFEXITED(timed.status) && WEXITSTATUS(timed.status) == 0) << slurp(scratch.path() / "timed.log");
        expect_complete_files(scratch.path() / "timed", reference, true);
        const auto span_us = static_cast<long>(timed.seconds * 1e6);
        std::mt19937_64 random(mode.size() + 17);
        int kills = 0;
        for (int campaign = 0; kills < 4 && campaign < 40; ++campaign) {
            const fs::path dir = scratch.sub("killed");
            for (int round = 0;; ++round) {
                const fs::path log = scratch.path() / "round.log";
                // Half the span at most, so that a resumed run is usually killed again too.
                const auto delay = std::chrono::microseconds(std::uniform_int_distribution<long>(0, span_us / 2)(random));
                const KilledBuild run = run_build(dir, log, mode, delay);
                if (run.killed) {
                    ++kills;
                    expect_complete_files(dir, reference, false);
                    continue;
                }
                ASSERT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)
                    << label << ", campaign " << campaign << ", round " << round << ": " << slurp(log);
                expect_complete_files(dir, reference, true);
                break;
            }
        }
        EXPECT_GE(kills, 4) << label << ": the builds finished before they could be killed";
        total_kills += kills;
    }
    EXPECT_GE(total_kills, 8);
    RecordProperty("kills", total_kills);
}

// A tmpfs mounted for the test (root only; skipped otherwise, with the reason), too small for the
// database: the build stops with the system's reason and the file it could not write, exit code
// 1; the slice files already there are complete; the folder copied to a disk with room finishes
// to the reference's bytes.
class SmallFileSystem {
public:
    SmallFileSystem(const fs::path& where, std::size_t bytes) : path_(where) {
        fs::create_directories(path_);
        const std::string options = "size=" + std::to_string(bytes);
        if (::mount("egdb_test_tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) != 0) error_ = std::strerror(errno);
    }
    ~SmallFileSystem() {
        if (error_.empty()) ::umount2(path_.c_str(), MNT_DETACH);
    }
    SmallFileSystem(const SmallFileSystem&) = delete;
    SmallFileSystem& operator=(const SmallFileSystem&) = delete;

    // Empty when mounted, else why not.
    const std::string& error() const noexcept { return error_; }
    const fs::path& path() const noexcept { return path_; }

private:
    fs::path path_;
    std::string error_;
};

TEST(BuildInterruption, FullDiskStopsWithAClearErrorAndResumesElsewhere) {
    const test::ScratchDir scratch("build_full");
    const fs::path reference = scratch.sub("reference");
    workflow::build_database(test::unverified_build(reference, kPieces));
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(reference)) total += fs::file_size(e.path());
    // Room for about the first half of the files (tmpfs counts whole 4 KiB pages).
    const SmallFileSystem small(scratch.path() / "small", static_cast<std::size_t>(total / 2));
    if (!small.error().empty()) {
        GTEST_SKIP() << "cannot mount a small tmpfs at " << small.path() << " (" << small.error()
                     << "): mounting needs root (CAP_SYS_ADMIN), which CI's container has";
    }
    const fs::path dir = small.path() / "db";
    const fs::path log = scratch.path() / "full.log";
    const KilledBuild run = run_build(dir, log, {}, std::chrono::microseconds(-1));
    ASSERT_TRUE(WIFEXITED(run.status)) << slurp(log);
    EXPECT_EQ(WEXITSTATUS(run.status), 1) << slurp(log);
    const std::string output = slurp(log);
    EXPECT_NE(output.find("No space left on device"), std::string::npos) << output;
    EXPECT_NE(output.find(dir.string() + "/slice-"), std::string::npos) << "the message names the file: " << output;
    const std::size_t written = expect_complete_files(dir, reference, false);
    EXPECT_GT(written, 0U) << "the file system was too small for any slice: the test proves nothing";
    EXPECT_LT(written, build_order(kPieces).size());
    // Resumed on another disk: the finished files are kept, the rest built.
    const fs::path elsewhere = scratch.path() / "elsewhere";
    fs::copy(dir, elsewhere, fs::copy_options::recursive);
    const fs::path resumed_log = scratch.path() / "resumed.log";
    const KilledBuild resumed = run_build(elsewhere, resumed_log, {}, std::chrono::microseconds(-1));
    ASSERT_TRUE(WIFEXITED(resumed.status) && WEXITSTATUS(resumed.status) == 0) << slurp(resumed_log);
    expect_complete_files(elsewhere, reference, true);
}

}  // namespace
}  // namespace egdb
