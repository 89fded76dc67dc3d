// The engine of every native build (docs/architecture.md, "The build"): a scheduler hands out
// tasks, workers do them, all reading and writing one output directory. Two transports drive it:
// `egdb build` runs the coordinator and one worker of every thread in one process
// (in_process_transport.hpp, workflow/build.cpp); egdb-mpi (cli/mpi) runs them on the ranks of an
// MPI job sharing a filesystem (docs/distributed-build.md). Nothing here depends on MPI.
//
// Tasks:
//   - SolveSlice (slice): a slice of fewer than `whole_slice_below` positions solved in memory
//     and its file written at once; the worker keeps the solution for the slices that read it.
//   - SolveUnit (slice, advancement, chunk): the men configurations of one advancement level of
//     a larger slice (men_order.hpp), cut into chunks of about `chunk_positions` positions
//     (build/unit_chunks.hpp), solved by SliceSolver::solve_level into a unit file
//     (build/unit_file.hpp) renamed into place. Inputs: the whole level advancement + 1 (all its
//     chunks' files) and the slices its captures and promotions reach.
//   - EncodePart (slice, part): once every unit of the slice is solved, positions
//     [part * P, (part + 1) * P) of it (P: part_positions) encoded into a part file
//     (formats/native/slice_part_file.hpp) from the unit files that hold them. No worker ever
//     holds a slice solved in units whole.
//   - WriteSlice (slice): the part files concatenated into the slice file (the same bytes as
//     write_solved_slice of the whole solution), the parts removed. The units stay while a slice
//     still to solve reads this one (restoring from units is a decompression; from the slice file
//     also a capture search for every "don't care" position), then the scheduler removes them.
//
// A task is ready when its inputs exist; the scheduler prefers a WriteSlice, then an EncodePart
// (they unblock the slices that read the slice), then, `in_order`, the first slice of the order
// with a ready unit (one worker then holds what the single-process build always held), else a unit
// of the slice the worker did last (its successors are in that worker's memory), then the largest.
// Every output is renamed into place when complete, so the state of a build is the directory: a
// scheduler started on it (after a kill of any process) finds the finished slices and the valid
// unit files, removes damaged ones with a warning, and hands out the rest. With `check_in_build`,
// every block is checked against its successors as it is solved, and a slice all of whose units
// were solved and checked in this run, with no mismatch, goes into the closing verification's
// journal (formats/native/verify_journal.hpp) when its file is written. Messages carry task
// identities, byte counts, times and check counts only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/build/build_directory.hpp"
#include "core/formats/native/verify_journal.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/index/side_set.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/generate/men_order.hpp"
#include "core/index/slice.hpp"
#include "core/util/resources.hpp"

namespace egdb::workflow::engine {

enum class TaskKind : std::uint8_t { SolveUnit = 1, WriteSlice = 2, EncodePart = 3, SolveSlice = 4 };

struct Task {
    TaskKind kind = TaskKind::SolveUnit;
    SliceId slice;
    int advancement = 0;  // SolveUnit only
    int chunk = 0;        // SolveUnit: the chunk of the level; EncodePart: the part
    friend bool operator==(const Task&, const Task&) = default;
};

// "unit 1212 a17 c3", "part 1212 p4", "write 1212", "slice 0211".
std::string to_string(const Task& task);

// What a worker did.
struct TaskOutcome {
    std::uint64_t bytes = 0;      // size of the file written
    std::uint64_t wld_bytes = 0;  // SolveSlice, WriteSlice: the WLD section of the slice file
    double seconds = 0;
    double write_seconds = 0;  // SolveSlice: the part of `seconds` spent writing the file
    // With check_in_build, for SolveUnit and SolveSlice (LevelChecks): whether every block was
    // checked, the positions checked and mirrored, those that disagree, the time the checks took.
    bool checked = false;
    std::uint64_t positions_checked = 0;
    std::uint64_t positions_mirrored = 0;
    std::uint64_t mismatches = 0;
    double check_seconds = 0;
};

struct EngineRequest {
    std::vector<SliceId> order;  // canonical slices, each after the slices it reads (build_order)
    std::filesystem::path out;
    // Positions per SolveUnit, in whole men configurations (at least one); 0: whole levels.
    std::uint64_t chunk_positions = 0;
    // Slices of fewer positions are one SolveSlice each; 0: every slice in units.
    std::uint64_t whole_slice_below = 0;
    // Positions per part file, rounded up to whole pages of every section; 0: chunk_positions
    // (the whole slice when that is 0).
    std::uint64_t part_positions = 0;
    // Slices taken in `order` rather than the largest ready unit first.
    bool in_order = false;
    // Every block checked as it is solved, and the journal of the closing verification kept.
    bool check_in_build = false;
    // SolveOptions::narrow_limit (tests lower it; the files do not depend on it).
    Plies narrow_limit = kMaxNarrowMtc;
    // Per worker: its threads, and its memory_bytes: it keeps the slices a unit reads in memory
    // while they fit (0: no limit); the others are read through their files (page cache of an
    // eighth of it).
    Resources worker;
    // As BuildRequest::assumed_process_bytes: nullopt measures each worker's process.
    std::optional<std::uint64_t> assumed_process_bytes;
    // As BuildRequest::assumed_machine_bytes: the memory of a worker's machine (nullopt: the
    // coordinator's, taken as every node's), against which the largest unit is checked.
    std::optional<std::uint64_t> assumed_machine_bytes;
    native::SolvedWriteOptions write;
};

// Positions per part file of `slice` (the last part may be shorter): part_positions, else
// chunk_positions, rounded up to whole pages of every section; the whole slice when both are 0.
std::uint64_t part_positions(const EngineRequest& request, SliceId slice);
// Part files of `slice`.
std::size_t part_count(const EngineRequest& request, SliceId slice);

// The coordinator's view of a build: what is finished, in flight, ready.
class Scheduler {
public:
    // Reads the state of `request.out` (created when missing): finished slice files, valid unit
    // files. Damaged or foreign files are removed and reported through `on_warning`. Then plans
    // the unit of the slices left that needs the most memory (largest_unit), and refuses one that
    // needs more than the machine (RuntimeError, ErrorKind::Unsupported) before any is handed out.
    explicit Scheduler(const EngineRequest& request, std::function<void(const std::string&)> on_warning = {});

    // A ready task, marked in flight; `affinity` is the slice the asking worker did last.
    // nullopt when nothing is ready now (tasks in flight will make more ready) or all is done.
    std::optional<Task> next(std::optional<SliceId> affinity = std::nullopt);
    // A task handed out by next() is finished (its output is on disk), with what its worker
    // reported. When it finishes a slice, records it in the journal (check_in_build, every unit
    // checked here, no mismatch; a slice with mismatches is reported through `on_warning`) and
    // removes the unit files no slice left reads. Throws FileError when the journal cannot be
    // written.
    void done(const Task& task, const TaskOutcome& outcome = {});
    // Whether `slice` (of the order) is finished.
    bool finished(SliceId slice) const;

    bool finished() const noexcept { return slices_left_ == 0; }
    std::size_t in_flight() const noexcept { return in_flight_; }
    const std::filesystem::path& out() const noexcept { return directory_.out(); }
    // The end of the build (BuildDirectory::finish): once every slice is finished.
    void finish() const { directory_.finish(); }

    std::uint64_t positions_total() const noexcept { return positions_total_; }
    std::uint64_t positions_done() const noexcept { return positions_done_; }
    std::size_t units_total() const noexcept { return units_total_; }
    std::size_t units_resumed() const noexcept { return units_resumed_; }
    std::size_t slices_resumed() const noexcept { return slices_resumed_; }
    // The units found on disk when the scheduler started (the first run after a kill resumes
    // from them).
    struct ResumedUnit {
        Task task;
        std::uint64_t positions = 0;
        std::uint64_t file_bytes = 0;
    };
    const std::vector<ResumedUnit>& resumed_units() const noexcept { return resumed_units_; }
    // The slice left whose units need the most memory on a worker, with that need.
    const std::optional<native::SliceNeed>& largest_unit() const noexcept { return largest_unit_; }

    // Verification in the build (check_in_build): the slices recorded in the journal, their
    // positions checked and mirrored, and the time their checks took.
    std::size_t slices_checked() const noexcept { return slices_checked_; }
    std::uint64_t positions_checked() const noexcept { return positions_checked_; }
    std::uint64_t positions_mirrored() const noexcept { return positions_mirrored_; }
    double check_seconds() const noexcept { return check_seconds_; }

private:
    enum class State : std::uint8_t { Waiting, InFlight, Done };
    struct Chunk {
        std::size_t first = 0;  // configurations [first, first + count) of the level
        std::size_t count = 0;
        State state = State::Waiting;
    };
    struct Level {
        int advancement = 0;
        std::vector<Chunk> chunks;
        std::size_t chunks_done = 0;
        std::size_t first_waiting = 0;  // chunks before it are in flight or done (they never go back)
        std::ptrdiff_t above = -1;      // index of level advancement + 1, or -1
    };
    struct Slice {
        SliceId id;
        bool whole = false;    // one SolveSlice (no levels, no parts)
        State solve = State::Waiting;  // whole slices only
        std::vector<Level> levels;
        std::vector<std::size_t> reads;    // indices in the order of the slices it reads
        std::vector<std::size_t> readers;  // indices in the order of the slices that read it
        std::uint64_t block_size = 0;
        std::vector<State> parts;
        std::size_t parts_done = 0;
        std::size_t first_waiting_part = 0;
        State write = State::Waiting;
        bool finished = false;
        std::size_t levels_done = 0;
        // What its tasks reported in this run: every unit checked (none resumed, none unchecked).
        bool all_checked = true;
        TaskOutcome checks;  // the check counts summed, and seconds of every task
    };

    bool inputs_ready(const Slice& s) const;
    bool read_by_unfinished(const Slice& s) const;
    void remove_stale_chunks(const std::filesystem::path& out) const;
    Chunk* find_chunk(const Task& task);
    std::optional<Task> next_solve(std::optional<SliceId> affinity);
    void slice_finished(Slice& s);
    void record_checked(const Slice& s);

    native::BuildDirectory directory_;
    std::function<void(const std::string&)> warn_;
    bool in_order_ = false;
    std::vector<Slice> slices_;
    std::size_t slices_left_ = 0;
    std::size_t in_flight_ = 0;
    std::uint64_t positions_total_ = 0;
    std::uint64_t positions_done_ = 0;
    std::size_t units_total_ = 0;
    std::size_t units_resumed_ = 0;
    std::size_t slices_resumed_ = 0;
    std::vector<ResumedUnit> resumed_units_;
    std::optional<native::SliceNeed> largest_unit_;
    std::optional<native::VerifyJournal> journal_;
    std::optional<native::SliceFileIdentities> identities_;
    std::string journal_kinds_;
    std::size_t slices_checked_ = 0;
    std::uint64_t positions_checked_ = 0;
    std::uint64_t positions_mirrored_ = 0;
    double check_seconds_ = 0;
};


// What a worker says while it works (called on its thread).
struct WorkerObserver {
    // A finished slice brought back into memory for a slice that reads it: from its unit files or
    // from its slice file, for `sides`, in `seconds`.
    std::function<void(SliceId slice, SideSet sides, bool from_units, SliceId reader, double seconds)> on_restored;
    // Units of a slice that disagree with their successors (check_in_build), damaged units
    // assembled from the slice file instead.
    std::function<void(const std::string&)> on_warning;
};

// Does tasks in one process. Keeps the slices the current slice reads in memory between tasks
// (without a budget, until no slice left reads them; under one, while they fit), and the last
// whole level it solved for the level below.
class UnitWorker {
public:
    explicit UnitWorker(EngineRequest request, WorkerObserver observer = {});
    ~UnitWorker();
    UnitWorker(const UnitWorker&) = delete;
    UnitWorker& operator=(const UnitWorker&) = delete;

    // Throws what the solver, the readers and the writers throw (FileError, CorruptDataError).
    TaskOutcome run(const Task& task);

    // The bytes of the solved slices this worker holds now (what its memory plan keeps), and the
    // most it held after any task.
    std::uint64_t decoded_bytes() const noexcept;
    std::uint64_t peak_decoded_bytes() const noexcept { return peak_decoded_bytes_; }
    // The bytes of the level kept for the next unit down (a whole level just solved, when its slice
    // has a level below it).
    std::uint64_t kept_level_bytes() const noexcept;

private:
    struct Context;
    Context& context();
    void enter_slice(Context& context, SliceId slice);
    void prepare_inputs(Context& context, SliceId slice);
    void release_unread(Context& context);
    SolvedSlice restore(Context& context, SliceId slice, SideSet sides, SliceId reader);
    TaskOutcome solve_slice(const Task& task);
    TaskOutcome solve_unit(const Task& task);
    TaskOutcome encode_part(const Task& task);
    TaskOutcome assemble(const Task& task);
    void report_checks(const Task& task, const LevelChecks& checks, TaskOutcome& outcome) const;
    EngineRequest request_;
    WorkerObserver observer_;
    std::unique_ptr<Context> context_;
    std::uint64_t peak_decoded_bytes_ = 0;
};

// Messages between the coordinator (rank 0) and the workers (ranks 1..size-1).
enum class MessageKind : std::uint8_t { Task = 1, Done = 2, Failed = 3, Stop = 4 };
struct Message {
    MessageKind kind = MessageKind::Stop;
    Task task;
    TaskOutcome outcome;
};
inline constexpr std::size_t kMessageWords = 15;
std::array<std::int64_t, kMessageWords> encode(const Message& message) noexcept;
// Throws std::invalid_argument for words that are no message.
Message decode(std::span<const std::int64_t, kMessageWords> words);

class Transport {
public:
    virtual ~Transport() = default;
    virtual int size() const = 0;  // ranks, coordinator included
    virtual void send(int rank, const Message& message) = 0;
    // A message that has arrived, with its sender; nullopt at once when none has.
    virtual std::optional<std::pair<int, Message>> try_receive() = 0;
    // Returns when a message may have arrived or `timeout` has passed (sleeps by default).
    virtual void wait(std::chrono::microseconds timeout) { std::this_thread::sleep_for(timeout); }
};

struct CoordinatorObserver {
    std::function<void(int rank, const Task&, const TaskOutcome&)> on_done;  // may be empty
    // Returning false stops handing out tasks: the coordinator waits for those in flight, stops
    // the workers and throws RuntimeError(Cancelled). For tests of resumption.
    std::function<bool()> keep_going;
};

// Rank 0: hands out tasks until the build is finished, then stops every worker. Waiting costs no
// CPU: the loop sleeps `poll_interval` whenever no message has arrived (a blocking MPI receive
// busy-waits). Throws RuntimeError naming the task when a worker reports a failure; whatever it
// throws, the workers have been told to stop first.
void run_coordinator(Scheduler& scheduler, Transport& transport, const CoordinatorObserver& observer = {},
                     std::chrono::microseconds poll_interval = std::chrono::milliseconds(2));

// Ranks 1..: does the tasks it is sent until told to stop. A failing task is reported to the
// coordinator (the error goes to `on_error`, as text naming the task and as the exception, which
// an in-process driver rethrows) and the worker goes on waiting.
using WorkerErrorHandler = std::function<void(const std::string& text, std::exception_ptr error)>;
void run_worker(UnitWorker& worker, Transport& transport, const WorkerErrorHandler& on_error = {},
                std::chrono::microseconds poll_interval = std::chrono::milliseconds(2));

}  // namespace egdb::workflow::engine
