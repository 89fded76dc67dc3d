// egdb-mpi: `egdb build` spread over the ranks of an MPI job (docs/distributed-build.md).
// Rank 0 coordinates, ranks 1.. solve units; all of them read and write one output directory
// (a shared filesystem on a cluster). The scheduling, the work and the message format are
// core/workflow/build_engine.hpp; this file is the MPI transport and the command line.
//
//   mpirun -np K egdb-mpi build --pieces N --out DIR [--chunk-positions P] [--threads T]
//                               [--memory-gb G] [--no-verify]
//
// Exit codes as `egdb` (cli/command.hpp): 0 success, 2 bad arguments, 1 a failure of the work.
// A failure on any rank ends the whole job (MPI_Abort); what is finished stays on disk and the
// same command resumes.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <CLI/CLI.hpp>

#include "core/generate/build_driver.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"
#include "core/workflow/build.hpp"
#include "core/workflow/build_engine.hpp"
#include "core/workflow/verify.hpp"

namespace {

using namespace egdb;
using namespace egdb::workflow::engine;

constexpr int kTag = 0x4547;  // messages of this program only

class MpiTransport final : public Transport {
public:
    int size() const override {
        int n = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        return n;
    }
    void send(int rank, const Message& message) override {
        const auto words = encode(message);
        // Nine words: below every MPI's eager limit, so this returns at once.
        MPI_Send(words.data(), static_cast<int>(words.size()), MPI_INT64_T, rank, kTag, MPI_COMM_WORLD);
    }
    // MPI_Iprobe, not a blocking receive: Open MPI's blocking receive polls the network at full
    // speed, a whole core for a coordinator that mostly waits. The loops sleep between probes.
    std::optional<std::pair<int, Message>> try_receive() override {
        int flag = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &flag, &status);
        if (flag == 0) return std::nullopt;
        std::array<std::int64_t, kMessageWords> words{};
        MPI_Recv(words.data(), static_cast<int>(words.size()), MPI_INT64_T, status.MPI_SOURCE, kTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        return std::pair{status.MPI_SOURCE, decode(words)};
    }
};

struct Arguments {
    int pieces = 0;
    std::string slices;
    std::string out;
    std::uint64_t chunk_positions = std::uint64_t{1} << 24;
    int threads = 1;
    double memory_gb = -1;  // -1: not given, the default
    bool verify = true;
    int zstd_level = native::WriteOptions{}.zstd_level;
};

constexpr const char* kHelp =
    "usage: mpirun -np K egdb-mpi build --pieces N --out DIR [options]\n"
    "       mpirun -np K egdb-mpi build --slices S1,S2,... --out DIR [options]\n"
    "Solves the endgames of `egdb build` on the K ranks of an MPI job: rank 0 hands out units\n"
    "(one advancement level of a slice, or a chunk of one) and writes nothing itself; ranks 1..K-1\n"
    "solve them into DIR/units and write the slice files, which are the same bytes as\n"
    "`egdb build` writes. DIR must be one directory that every rank sees (a shared filesystem).\n"
    "Interrupted (any rank killed, or mpirun), the same command resumes from what is on disk.\n"
    "  --chunk-positions P  positions per unit, in whole men configurations (default 16777216;\n"
    "                       0: whole levels)\n"
    "  --threads T          threads per worker rank (default 1: one rank per core)\n"
    "  --memory-gb G        per worker: solved slices are kept in memory while they fit in G GiB,\n"
    "                       the others read through their files (default: two thirds of the\n"
    "                       node's memory shared by the ranks on the node; 0: no limit)\n"
    "  --zstd-level L       zstd level of the native pages (default as egdb build)\n"
    "  --no-verify          skip `egdb verify` on rank 0 at the end\n";

// The ranks that share this rank's node (and its memory).
int ranks_on_this_node() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int n = 1;
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return n;
}

int run(const Arguments& a, int rank, int ranks) {
    EngineRequest request;
    if (!a.slices.empty()) {
        request.order = dependency_closure(workflow::parse_slice_list(a.slices));
    } else {
        if (a.pieces < 2 || a.pieces > 2 * kMaxPiecesPerSide) {
            throw RuntimeError(ErrorKind::InvalidArgument, "--pieces must be in 2.." + std::to_string(2 * kMaxPiecesPerSide));
        }
        request.order = build_order(a.pieces);
    }
    if (a.out.empty()) throw RuntimeError(ErrorKind::InvalidArgument, "--out DIR is required");
    if (ranks < 2) throw RuntimeError(ErrorKind::InvalidArgument, "egdb-mpi needs at least 2 ranks (mpirun -np 2 or more)");
    request.out = a.out;
    request.chunk_positions = a.chunk_positions;
    request.worker.threads = std::max(1, a.threads);
    const int sharing = ranks_on_this_node();
    request.worker.memory_bytes = a.memory_gb >= 0 ? static_cast<std::uint64_t>(a.memory_gb * 1024.0 * 1024.0 * 1024.0)
                                                   : physical_memory_bytes() / 3 * 2 / static_cast<std::uint64_t>(sharing);
    request.write.threads = request.worker.threads;
    request.write.format.zstd_level = a.zstd_level;
    // As egdb build: every block checked as it is solved, so the closing verification checks the
    // pages of those slices and decodes only the others (docs/architecture.md, steps 6 and 9).
    request.check_in_build = a.verify;

    MpiTransport transport;
    if (rank != 0) {
        WorkerObserver said;
        said.on_warning = [rank](const std::string& w) { std::fprintf(stderr, "egdb-mpi rank %d: warning: %s\n", rank, w.c_str()); };
        UnitWorker worker(request, said);
        run_worker(worker, transport,
                   [rank](const std::string& e, std::exception_ptr) { std::fprintf(stderr, "egdb-mpi rank %d: %s\n", rank, e.c_str()); });
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    Scheduler scheduler(request, [](const std::string& w) { std::fprintf(stderr, "egdb-mpi: warning: %s\n", w.c_str()); });
    std::fprintf(stderr,
                 "egdb-mpi: %zu slices, %zu units (%zu found on disk, %zu slices finished), %d worker ranks, "
                 "%.2f GiB of solved slices per worker\n",
                 request.order.size(), scheduler.units_total(), scheduler.units_resumed(), scheduler.slices_resumed(), ranks - 1,
                 static_cast<double>(request.worker.memory_bytes) / (1024.0 * 1024.0 * 1024.0));
    if (const auto& largest = scheduler.largest_unit()) {
        std::fprintf(stderr, "egdb-mpi: largest unit: slice %s, planned at %llu MiB per worker\n", largest->slice.to_string().c_str(),
                     static_cast<unsigned long long>(largest->bytes >> 20));
    }
    CoordinatorObserver observer;
    observer.on_done = [&](int from, const Task& task, const TaskOutcome& outcome) {
        const double total = static_cast<double>(scheduler.positions_total());
        std::fprintf(stderr, "%s: rank %d, %.2f s, %.1f KiB, done %.1f%%\n", to_string(task).c_str(), from, outcome.seconds,
                     static_cast<double>(outcome.bytes) / 1024.0,
                     total > 0 ? 100.0 * static_cast<double>(scheduler.positions_done()) / total : 100.0);
    };
    run_coordinator(scheduler, transport, observer);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::uint64_t positions = 0;
    for (SliceId s : request.order) positions += slice_size(s);
    std::printf("built %zu slices (%llu positions, both sides to move) in %.1f s on %d worker ranks into %s\n",
                request.order.size(), static_cast<unsigned long long>(positions), seconds, ranks - 1, a.out.c_str());
    if (a.verify) {
        std::printf("checked in the build: %zu slices, %llu positions against their successors as they were solved\n",
                    scheduler.slices_checked(), static_cast<unsigned long long>(scheduler.positions_checked()));
    }
    std::fflush(stdout);
    if (!a.verify) return 0;
    workflow::VerifyRequest verify;
    verify.resources.threads = std::max(1, a.threads);
    verify.journal = request.out / native::kBuildVerifyJournalName;
    const workflow::VerifyResult result = workflow::verify_directory(request.out, verify);
    for (const std::string& problem : result.problems()) std::fprintf(stderr, "egdb-mpi: verify: %s\n", problem.c_str());
    std::printf("verify: %s in %.1f s\n", result.ok() ? "ok" : "FAILED", result.seconds);
    return result.ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    int provided = 0;
    // Only the main thread of a rank calls MPI; worker threads solve.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    int ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    Arguments a;
    CLI::App app{"egdb-mpi: egdb build over MPI"};
    app.require_subcommand(1);
    CLI::App* build = app.add_subcommand("build", kHelp);
    build->add_option("--pieces", a.pieces);
    build->add_option("--slices", a.slices);
    build->add_option("--out", a.out)->required();
    build->add_option("--chunk-positions", a.chunk_positions);
    build->add_option("--threads", a.threads)->check(CLI::Range(1, 1024));
    CLI::Option* memory = build->add_option("--memory-gb", a.memory_gb)->check(CLI::NonNegativeNumber);
    build->add_option("--zstd-level", a.zstd_level)->check(CLI::Range(1, 22));
    build->add_flag_callback("--no-verify", [&a] { a.verify = false; });
    try {
        app.parse(argc, argv);
        if (memory->count() == 0) a.memory_gb = -1;
    } catch (const CLI::ParseError& e) {
        // Every rank parses the same line; rank 0 speaks for them.
        const int code = rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
        MPI_Finalize();
        return code == 0 ? 0 : 2;
    }
    int code = 0;
    try {
        code = run(a, rank, ranks);
    } catch (const std::exception& e) {
        const auto* error = dynamic_cast<const Error*>(&e);
        const bool bad_input = error != nullptr && error->kind() == ErrorKind::InvalidArgument;
        if (bad_input) {
            // Every rank finds the same bad argument: all end normally with code 2.
            if (rank == 0) std::fprintf(stderr, "egdb-mpi: %s\n", e.what());
            MPI_Finalize();
            return 2;
        }
        std::fprintf(stderr, "egdb-mpi rank %d: error: %s\n", rank, e.what());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    MPI_Finalize();
    return code;
}
