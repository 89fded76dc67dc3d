// A native build spread over processes (docs/distributed-build.md): one coordinator hands out
// units of work, any number of workers do them, all reading and writing one output directory
// (a shared filesystem on a cluster). The MPI program egdb-mpi (cli/mpi) is this workflow over
// MPI messages; nothing here depends on MPI, so the logic is tested in one process.
//
// Units of work (tasks):
//   - SolveUnit (slice, advancement, chunk): the men configurations of one advancement level of
//     a slice (men_order.hpp), cut into chunks of about `chunk_positions` positions (whole
//     configurations, at least one), solved by
//     SliceSolver::solve_level into a unit file (build/unit_file.hpp) renamed into
//     place. Inputs: the whole level advancement + 1 (all its chunks' files) and the slice files
//     of the slices its captures and promotions reach.
//   - EncodePart (slice, part): once every unit of the slice is solved, positions
//     [part * P, (part + 1) * P) of it (P: chunk_positions rounded up to whole pages of every
//     section) encoded into a part file (formats/native/slice_part_file.hpp) from the blocks of
//     the unit files that hold them. No machine ever holds a whole slice.
//   - WriteSlice (slice): the part files concatenated into the slice file (the same bytes as a
//     single-process build), the units and parts removed.
//
// A unit is ready when its inputs exist; the coordinator prefers a WriteSlice, then an
// EncodePart (they unblock the slices that read the slice), then a unit of the slice the worker
// did last (its successors are in that worker's memory), then the largest. Every output is renamed into place when complete,
// so the state of a build is the directory: a coordinator started on it (after a kill of any
// process) finds the finished slices and the valid unit files, removes damaged ones with a
// warning, and hands out the rest. Messages carry task identities, byte counts and times only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/build/build_directory.hpp"
#include "core/build/slice_memory.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/generate/men_order.hpp"
#include "core/index/slice.hpp"
#include "core/util/resources.hpp"

namespace egdb::workflow::distributed {

enum class TaskKind : std::uint8_t { SolveUnit = 1, WriteSlice = 2, EncodePart = 3 };

struct Task {
    TaskKind kind = TaskKind::SolveUnit;
    SliceId slice;
    int advancement = 0;  // SolveUnit only
    int chunk = 0;        // SolveUnit: the chunk of the level; EncodePart: the part
    friend bool operator==(const Task&, const Task&) = default;
};

// "unit 1212 a17 c3", "part 1212 p4", "write 1212".
std::string to_string(const Task& task);

struct DistributedRequest {
    std::vector<SliceId> order;  // canonical slices, each after the slices it reads (build_order)
    std::filesystem::path out;
    // Positions per SolveUnit, in whole men configurations (at least one); 0: whole levels.
    std::uint64_t chunk_positions = 0;
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

// Positions per part file of `slice` (the last part may be shorter): chunk_positions rounded up
// to whole pages of every section, the whole slice when chunk_positions is 0.
std::uint64_t part_positions(const DistributedRequest& request, SliceId slice);
// Part files of `slice`.
std::size_t part_count(const DistributedRequest& request, SliceId slice);

// The coordinator's view of a build: what is finished, in flight, ready.
class Scheduler {
public:
    // Reads the state of `request.out` (created when missing): finished slice files, valid unit
    // files. Damaged or foreign files are removed and reported through `on_warning`. Then plans
    // the unit of the slices left that needs the most memory (largest_unit), and refuses one that
    // needs more than the machine (RuntimeError, ErrorKind::Unsupported) before any is handed out.
    explicit Scheduler(const DistributedRequest& request, std::function<void(const std::string&)> on_warning = {});

    // A ready task, marked in flight; `affinity` is the slice the asking worker did last.
    // nullopt when nothing is ready now (tasks in flight will make more ready) or all is done.
    std::optional<Task> next(std::optional<SliceId> affinity = std::nullopt);
    // A task handed out by next() is finished (its output is on disk).
    void done(const Task& task);

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
    // The slice left whose units need the most memory on a worker, with that need.
    const std::optional<native::SliceNeed>& largest_unit() const noexcept { return largest_unit_; }

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
        std::vector<Level> levels;
        std::vector<std::size_t> reads;  // indices in the order of the slices it reads
        std::uint64_t block_size = 0;
        std::vector<State> parts;
        std::size_t parts_done = 0;
        std::size_t first_waiting_part = 0;
        State write = State::Waiting;
        bool finished = false;
        std::size_t levels_done = 0;
    };

    bool inputs_ready(const Slice& s) const;
    void remove_stale_chunks(const std::filesystem::path& out) const;
    Chunk* find_chunk(const Task& task);

    native::BuildDirectory directory_;
    std::vector<Slice> slices_;
    std::size_t slices_left_ = 0;
    std::size_t in_flight_ = 0;
    std::uint64_t positions_total_ = 0;
    std::uint64_t positions_done_ = 0;
    std::size_t units_total_ = 0;
    std::size_t units_resumed_ = 0;
    std::size_t slices_resumed_ = 0;
    std::optional<native::SliceNeed> largest_unit_;
};

// The chunks of a level of `configurations` blocks of `block_size` positions: runs of
// max(1, chunk_positions / block_size) configurations (chunk_positions 0: one run), as
// (first, count).
std::vector<std::pair<std::size_t, std::size_t>> level_chunks(std::size_t configurations, std::uint64_t block_size,
                                                              std::uint64_t chunk_positions);

// What a worker did.
struct TaskOutcome {
    std::uint64_t bytes = 0;  // size of the file written
    double seconds = 0;
};

// Does tasks in one process. Keeps the slices the current slice reads in memory between tasks.
class UnitWorker {
public:
    explicit UnitWorker(DistributedRequest request);
    ~UnitWorker();
    UnitWorker(const UnitWorker&) = delete;
    UnitWorker& operator=(const UnitWorker&) = delete;

    // Throws what the solver, the readers and the writers throw (FileError, CorruptDataError).
    TaskOutcome run(const Task& task);

    // The bytes of the solved slices this worker holds now (what its memory plan keeps).
    std::uint64_t decoded_bytes() const noexcept;

private:
    struct Context;
    void prepare_inputs(Context& context, SliceId slice);
    TaskOutcome encode_part(const Task& task);
    TaskOutcome assemble(const Task& task);
    DistributedRequest request_;
    std::unique_ptr<Context> context_;
};

// Messages between the coordinator (rank 0) and the workers (ranks 1..size-1).
enum class MessageKind : std::uint8_t { Task = 1, Done = 2, Failed = 3, Stop = 4 };
struct Message {
    MessageKind kind = MessageKind::Stop;
    Task task;
    TaskOutcome outcome;
};
inline constexpr std::size_t kMessageWords = 9;
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
};

struct CoordinatorObserver {
    std::function<void(int rank, const Task&, const TaskOutcome&)> on_done;  // may be empty
    // Returning false stops handing out tasks: the coordinator waits for those in flight, stops
    // the workers and throws RuntimeError(Cancelled). For tests of resumption.
    std::function<bool()> keep_going;
};

// Rank 0: hands out tasks until the build is finished, then stops every worker. Waiting costs no
// CPU: the loop sleeps `poll_interval` whenever no message has arrived (a blocking MPI receive
// busy-waits). Throws RuntimeError naming the task when a worker reports a failure (after
// stopping the others).
void run_coordinator(Scheduler& scheduler, Transport& transport, const CoordinatorObserver& observer = {},
                     std::chrono::microseconds poll_interval = std::chrono::milliseconds(2));

// Ranks 1..: does the tasks it is sent until told to stop. A failing task is reported to the
// coordinator (the error goes to `on_error`) and the worker goes on waiting.
void run_worker(UnitWorker& worker, Transport& transport, const std::function<void(const std::string&)>& on_error = {},
                std::chrono::microseconds poll_interval = std::chrono::milliseconds(2));

}  // namespace egdb::workflow::distributed
