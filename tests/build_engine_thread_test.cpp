// The build engine (workflow/build_engine.hpp) with several workers in one process: the
// coordinator on the test's thread, each worker on a thread of its own with its own UnitWorker,
// the messages through the in-process transport. The MPI program is the same loops over MPI (tests/mpi runs it under mpirun).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/unit_file.hpp"
#include "core/generate/decoded_slice_plan.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/men_order.hpp"
#include "core/util/error.hpp"
#include "core/workflow/build.hpp"
#include "core/build/unit_chunks.hpp"
#include "core/workflow/build_engine.hpp"
#include "core/workflow/in_process_transport.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;
using namespace workflow::engine;

EngineRequest request_for(const fs::path& out, int pieces, std::uint64_t chunk) {
    EngineRequest r;
    r.order = build_order(pieces);
    r.out = out;
    r.chunk_positions = chunk;
    r.worker.threads = 1;
    return r;
}

struct DistributedRun {
    std::size_t tasks = 0;
    std::vector<std::string> warnings;
    std::vector<std::string> worker_errors;
    std::size_t units_resumed = 0;
    std::size_t slices_resumed = 0;
};

// Runs a distributed build with `workers` worker threads; stops handing out tasks once
// `stop_after` tasks have finished (0: never) and the latest of them was a unit of a slice with at
// least two units finished. Stopping right after such a unit, not after any task, is what
// guarantees two unit files wait on disk (one to damage, one to resume): that unit's slice cannot
// be assembled (which removes its units) while one of its units was still in flight. A count alone
// left none when the stop fell on an assembly (CI, stop 45), and the first unit of a slice left one.
// `worker_out` overrides the directory of worker 1.
DistributedRun run_build(const EngineRequest& request, int workers, std::size_t stop_after = 0,
                    const fs::path& worker_out = {}) {
    DistributedRun result;
    InProcessHub hub(workers + 1);
    Scheduler scheduler(request, [&](const std::string& w) { result.warnings.push_back(w); });
    result.units_resumed = scheduler.units_resumed();
    result.slices_resumed = scheduler.slices_resumed();
    std::mutex errors_mutex;
    std::vector<std::jthread> threads;
    for (int r = 1; r <= workers; ++r) {
        threads.emplace_back([&, r] {
            EngineRequest mine = request;
            if (r == 1 && !worker_out.empty()) mine.out = worker_out;
            UnitWorker worker(mine);
            InProcessTransport transport(hub, r);
            run_worker(worker, transport, [&](const std::string& e, std::exception_ptr) {
                const std::lock_guard lock(errors_mutex);
                std::fprintf(stderr, "worker %d: %s\n", r, e.c_str());
                result.worker_errors.push_back(e);
            }, std::chrono::microseconds(200));
        });
    }
    InProcessTransport transport(hub, 0);
    CoordinatorObserver observer;
    std::map<SliceId, std::size_t> units_done;
    bool may_stop = false;
    observer.on_done = [&](int, const Task& task, const TaskOutcome& outcome) {
        ++result.tasks;
        may_stop = task.kind == TaskKind::SolveUnit && ++units_done[task.slice] >= 2;
        EXPECT_GT(outcome.bytes, 0U);
    };
    if (stop_after > 0) observer.keep_going = [&] { return result.tasks < stop_after || !may_stop; };
    run_coordinator(scheduler, transport, observer, std::chrono::microseconds(200));
    return result;
}

void expect_same_slice_files(const fs::path& dir, const fs::path& reference, int pieces) {
    std::size_t files = 0;
    for (const SliceId s : build_order(pieces)) {
        const std::string name = native::slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
        ASSERT_TRUE(fs::exists(dir / name)) << name;
        EXPECT_EQ(test::slurp(dir / name), test::slurp(reference / name)) << name;
        ++files;
    }
    EXPECT_EQ(files, build_order(pieces).size());
    EXPECT_FALSE(fs::exists(dir / "units")) << "the units of a finished build are removed with their folder";
}

TEST(DistributedBuild, MessagesRoundTripAndGarbageIsRefused) {
    const TaskOutcome outcome{.bytes = 123456, .wld_bytes = 789, .seconds = 2.5, .write_seconds = 0.25, .checked = true,
                              .positions_checked = 1'000'000'000'000, .positions_mirrored = 42, .mismatches = 3, .check_seconds = 0.5};
    const Message m{MessageKind::Done, Task{TaskKind::SolveUnit, SliceId{1, 2, 1, 1}, 17, 3}, outcome};
    const auto words = encode(m);
    const Message back = decode(words);
    EXPECT_EQ(back.kind, m.kind);
    EXPECT_EQ(back.task, m.task);
    EXPECT_EQ(back.outcome.bytes, 123456U);
    EXPECT_EQ(back.outcome.wld_bytes, 789U);
    EXPECT_DOUBLE_EQ(back.outcome.seconds, 2.5);
    EXPECT_DOUBLE_EQ(back.outcome.write_seconds, 0.25);
    EXPECT_TRUE(back.outcome.checked);
    EXPECT_EQ(back.outcome.positions_checked, 1'000'000'000'000U);
    EXPECT_EQ(back.outcome.positions_mirrored, 42U);
    EXPECT_EQ(back.outcome.mismatches, 3U);
    EXPECT_DOUBLE_EQ(back.outcome.check_seconds, 0.5);
    const Message whole{MessageKind::Task, Task{TaskKind::SolveSlice, SliceId{0, 2, 1, 1}, 0, 0}, {}};
    EXPECT_EQ(decode(encode(whole)).task, whole.task);
    auto bad = words;
    bad[kMessageWords - 1] = 0;
    EXPECT_THROW(decode(bad), std::invalid_argument);
    bad = words;
    bad[0] = 9;
    EXPECT_THROW(decode(bad), std::invalid_argument);
    bad = words;
    bad[10] = -1;  // a negative count
    EXPECT_THROW(decode(bad), std::invalid_argument);
}

TEST(DistributedBuild, ChunksCoverEachLevelOnce) {
    using Chunks = std::vector<std::pair<std::size_t, std::size_t>>;
    EXPECT_EQ(native::level_chunks(5, 10, 20), (Chunks{{0, 2}, {2, 2}, {4, 1}}));
    EXPECT_EQ(native::level_chunks(5, 10, 25), (Chunks{{0, 2}, {2, 2}, {4, 1}}));  // whole configurations
    EXPECT_EQ(native::level_chunks(5, 10, 0), (Chunks{{0, 5}}));
    EXPECT_EQ(native::level_chunks(4, 10, 40), (Chunks{{0, 4}}));
    EXPECT_EQ(native::level_chunks(3, 100, 1), (Chunks{{0, 1}, {1, 1}, {2, 1}}));  // at least one configuration
}

// Three workers, chunks of 2000 positions (several hundred units; 3 pieces have 2.9e5 positions;
// tests/mpi does 4 pieces under mpirun): the same bytes as `egdb build`.
// Then a build stopped after a few dozen tasks, with a damaged unit file and a leftover temporary
// file added, resumes to the same bytes.
TEST(DistributedBuild, ManyUnitsOnThreeWorkersGiveTheFilesOfOneProcessAndResume) {
    constexpr int pieces = 3;
    constexpr std::uint64_t kChunk = 2'000;
    const test::ScratchDir scratch("distributed_build");
    const fs::path reference = scratch.sub("reference");
    workflow::build_database(test::unverified_build(reference, pieces));

    const fs::path dir = scratch.sub("distributed");
    const EngineRequest request = request_for(dir, pieces, kChunk);
    std::size_t units = 0;
    std::size_t parts = 0;
    for (const SliceId s : request.order) {
        const std::uint64_t block = slice_size(s) / men_configurations(s.nbm, s.nwm);
        for (const MenLevel& l : men_configuration_levels(s)) units += native::level_chunks(l.configurations.size(), block, kChunk).size();
        parts += part_count(request, s);
        // Parts are whole pages of every section, at least the chunk size.
        EXPECT_EQ(part_positions(request, s), std::min<std::uint64_t>(slice_size(s), 16384)) << s.to_string();
    }
    EXPECT_GT(parts, request.order.size()) << "some slices should be encoded in several parts";
    const DistributedRun full = run_build(request, 3);
    EXPECT_EQ(full.tasks, units + parts + request.order.size());  // every unit, every part, every slice assembled
    EXPECT_TRUE(full.warnings.empty());
    EXPECT_TRUE(full.worker_errors.empty());
    expect_same_slice_files(dir, reference, pieces);

    // Stopped part-way: some slices finished, some units on disk.
    const fs::path again = scratch.sub("resumed");
    try {
        run_build(request_for(again, pieces, kChunk), 2, units / 2);
        ADD_FAILURE() << "a build stopped half-way reported success";
    } catch (const RuntimeError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Cancelled) << e.what();
    }
    // Units of slices still to finish (those of finished slices stay while a slice left reads them).
    std::vector<fs::path> unit_files;
    for (const auto& e : fs::directory_iterator(again / "units")) {
        const std::string name = e.path().filename().string();
        if (name.starts_with("unit-") && !fs::exists(again / ("slice-" + name.substr(5, 4) + ".egdb"))) unit_files.push_back(e.path());
    }
    ASSERT_GE(unit_files.size(), 2U) << "stopped half-way, units should be waiting: one to damage, one to resume";
    {
        std::fstream damaged(unit_files.front(), std::ios::in | std::ios::out | std::ios::binary);
        damaged.seekp(60);
        damaged.put('\x5a');
    }
    std::ofstream(again / "units" / "unit-2001-a003-c0000.egdbu.tmp") << "half written";
    // Chunk files no unit of the rerun reads: one of a finished slice, one whose chunk number
    // does not exist at this chunk size; and a single-process unit file, which goes with the
    // slice's other units once its slice file is written (BuildDirectory::remove_units).
    const fs::path of_finished_slice = again / "units" / "unit-0101-a000-c0000.egdbu";
    const fs::path beyond_last_chunk = again / "units" / "unit-2001-a003-c0999.egdbu";
    const fs::path single_process_unit = again / "units" / "unit-2001-a003.egdbu";
    // Part files likewise: of a finished slice, beyond the last part; and a damaged one of a
    // slice still to do, which is reported and encoded again.
    const SliceId last = request.order.back();
    ASSERT_FALSE(fs::exists(again / native::slice_file_name(last.nbm, last.nbk, last.nwm, last.nwk)));
    const fs::path part_of_finished_slice = again / "units" / "part-0101-p0000.egdbp";
    const fs::path beyond_last_part = again / "units" / native::slice_part_file_name(last, 999);
    const fs::path damaged_part = again / "units" / native::slice_part_file_name(last, 0);
    ASSERT_TRUE(fs::exists(again / "slice-0101.egdb"));
    for (const fs::path& p : {of_finished_slice, beyond_last_chunk, single_process_unit, part_of_finished_slice, beyond_last_part}) {
        std::ofstream(p) << "stale";
    }
    std::ofstream(damaged_part) << "EGDBPART and then nothing a part file should hold";
    const DistributedRun resumed = run_build(request_for(again, pieces, kChunk), 3);
    EXPECT_GT(resumed.slices_resumed, 0U);
    EXPECT_GT(resumed.units_resumed, 0U);
    EXPECT_LT(resumed.tasks, units + request.order.size());
    ASSERT_EQ(resumed.warnings.size(), 2U);
    const std::string warnings = resumed.warnings[0] + "\n" + resumed.warnings[1];
    EXPECT_NE(warnings.find(unit_files.front().filename().string()), std::string::npos) << warnings;
    EXPECT_NE(warnings.find(damaged_part.filename().string()), std::string::npos) << warnings;
    EXPECT_FALSE(fs::exists(of_finished_slice));
    EXPECT_FALSE(fs::exists(beyond_last_chunk));
    EXPECT_FALSE(fs::exists(part_of_finished_slice));
    EXPECT_FALSE(fs::exists(beyond_last_part));
    EXPECT_FALSE(fs::exists(single_process_unit));
    expect_same_slice_files(again, reference, pieces);
}

// egdb build is the engine in one process: the coordinator on the calling thread and one worker
// thread, the observer told of tasks from the first and of restored slices from the second. Under
// a budget (slices restored while they fit) and with the in-build check, its files are those of
// three workers, and every slice goes into the journal. (Under ThreadSanitizer in CI.)
TEST(DistributedBuild, TheSingleProcessBuildIsTheEngineOnTwoThreads) {
    constexpr int pieces = 3;
    const test::ScratchDir scratch("engine_in_process");
    const fs::path reference = scratch.sub("three_workers");
    run_build(request_for(reference, pieces, 2'000), 3);
    workflow::BuildRequest request = test::unverified_build(scratch.sub("one_process"), pieces);
    request.verify = true;
    request.unit_file_min_positions = 20'000;  // the larger 3-piece slices in units
    request.resources.memory_bytes = std::uint64_t{12} << 20;
    request.assumed_process_bytes = 0;
    std::atomic<std::size_t> items{0}, restored{0};
    workflow::BuildObserver observer;
    observer.on_item = [&](const workflow::BuildItem& item) {
        ++items;
        if (item.stage == workflow::BuildStage::Resume && item.detail.starts_with("resumed from ")) ++restored;
        return true;
    };
    const workflow::BuildReport report = workflow::build_database(request, observer);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report.slices_checked_in_build, report.slices);
    EXPECT_GT(restored.load(), 0U);
    EXPECT_EQ(report.resumed_slices, restored.load());
    EXPECT_GT(items.load(), report.slices);
    expect_same_slice_files(request.out, reference, pieces);
}

// A worker under a memory budget follows the plan of the single-process build (DecodedSlicePlan):
// while it solves a unit, the slices it holds, its unit's own need and its page cache stay within
// the budget, the slices a unit reads that do not fit are read through their files, and the files
// are the same. One worker on the test's thread, so that what it holds is read after every task.
TEST(DistributedBuild, AWorkerUnderABudgetStaysWithinItAndWritesTheSameFiles) {
    constexpr int pieces = 3;
    constexpr std::uint64_t kChunk = 2'000;
    const test::ScratchDir scratch("distributed_budget");
    const fs::path reference = scratch.sub("reference");
    workflow::build_database(test::unverified_build(reference, pieces));
    EngineRequest request = request_for(scratch.sub("budget"), pieces, kChunk);
    const auto step_of = [&](SliceId s) { return native::solve_need_bytes(s, true, 1, part_positions(request, s), kChunk); };
    std::uint64_t largest_step = 0;
    for (const SliceId s : request.order) largest_step = std::max(largest_step, step_of(s));
    // Room for the page cache and the largest unit's own need, nothing else: the units of that
    // slice then read what they read through the files.
    const std::uint64_t cache = DecodedSlicePlan::cache_bytes(std::uint64_t{16} << 20);
    const std::uint64_t budget = cache + largest_step;
    request.worker.memory_bytes = budget;
    request.assumed_process_bytes = 0;
    Scheduler scheduler(request);
    UnitWorker worker(request);
    std::optional<SliceId> last;
    std::size_t units = 0, units_reading_files = 0, kept_whole = 0, let_go = 0;
    while (!scheduler.finished()) {
        const std::optional<Task> task = scheduler.next(last);
        ASSERT_TRUE(task.has_value()) << "nothing ready with nothing in flight";
        worker.run(*task);
        scheduler.done(*task);
        last = task->kind == TaskKind::SolveUnit ? std::optional<SliceId>(task->slice) : std::nullopt;
        if (task->kind != TaskKind::SolveUnit) continue;
        ++units;
        EXPECT_LE(worker.decoded_bytes() + step_of(task->slice) + cache, budget) << to_string(*task);
        // A whole level is kept for the level below it, and only then: the last level of a slice
        // (the only one of a slice without men) is let go once its unit file is written.
        const std::vector<MenLevel> levels = men_configuration_levels(task->slice);
        const auto level = std::find_if(levels.begin(), levels.end(), [&](const MenLevel& l) { return l.advancement == task->advancement; });
        ASSERT_NE(level, levels.end());
        const bool whole_level = native::level_chunks(level->configurations.size(), native::block_size_of(task->slice), kChunk).size() == 1;
        const bool has_level_below = level + 1 != levels.end() && (level + 1)->advancement == task->advancement - 1;
        EXPECT_EQ(worker.kept_level_bytes() > 0, whole_level && has_level_below) << to_string(*task);
        kept_whole += worker.kept_level_bytes() > 0 ? 1 : 0;
        let_go += whole_level && !has_level_below ? 1 : 0;
        std::uint64_t reads_decoded = 0;
        for (const SuccessorRead& r : successor_reads(task->slice)) reads_decoded += DecodedSlicePlan::decoded_bytes(r.slice, r.sides);
        if (worker.decoded_bytes() < reads_decoded) ++units_reading_files;
    }
    scheduler.finish();
    EXPECT_GT(units_reading_files, 0U) << "of " << units << " units, none read a slice through its file";
    EXPECT_GT(kept_whole, 0U);
    EXPECT_GT(let_go, 0U);
    expect_same_slice_files(request.out, reference, pieces);
}

// As egdb build, the coordinator plans the unit that needs the most memory and refuses one that
// needs more than the machine before any task is handed out.
TEST(DistributedBuild, AUnitLargerThanTheMachineIsRefusedBeforeAnyTask) {
    const test::ScratchDir scratch("distributed_refused");
    EngineRequest request = request_for(scratch.sub("db"), 3, 2'000);
    // A quarter of a MiB: 3-piece units need more (the largest, a slice without men, solved in
    // place, 0.27 MiB).
    request.assumed_machine_bytes = std::uint64_t{1} << 18;
    try {
        Scheduler scheduler(request);
        ADD_FAILURE() << "a unit needing more than the machine was not refused";
    } catch (const RuntimeError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        EXPECT_NE(std::string(e.what()).find("more than this machine's 256 KiB"), std::string::npos) << e.what();
    }
    request.assumed_machine_bytes = std::uint64_t{1} << 40;
    const Scheduler scheduler(request);
    ASSERT_TRUE(scheduler.largest_unit().has_value());
    EXPECT_GT(scheduler.largest_unit()->bytes, std::uint64_t{1} << 18);
}

// A worker that cannot write its output reports the task; the coordinator stops every worker and
// throws, naming it; what was finished stays and a rerun completes.
TEST(DistributedBuild, AFailingWorkerStopsTheBuildWithTheTaskNamed) {
    constexpr int pieces = 3;
    const test::ScratchDir scratch("distributed_failure");
    const fs::path dir = scratch.sub("out");
    // A file where the worker expects its output directory: it can neither read nor write there.
    const fs::path not_a_directory = scratch.sub("elsewhere") / "file";
    std::ofstream(not_a_directory) << "not a directory";
    const EngineRequest request = request_for(dir, pieces, 0);
    try {
        run_build(request, 1, 0, not_a_directory);
        FAIL() << "a build whose only worker cannot write cannot succeed";
    } catch (const RuntimeError& e) {
        EXPECT_NE(std::string(e.what()).find("rank 1 failed at "), std::string::npos) << e.what();
    }
    const DistributedRun rerun = run_build(request, 2);
    EXPECT_TRUE(rerun.worker_errors.empty());
    const fs::path reference = scratch.sub("reference");
    workflow::build_database(test::unverified_build(reference, pieces));
    expect_same_slice_files(dir, reference, pieces);
}

}  // namespace
}  // namespace egdb
