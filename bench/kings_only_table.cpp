#include "bench/kings_only_table.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "core/build/slice_memory.hpp"
#include "core/generate/build_driver.hpp"
#include "core/generate/kings_only_solver.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"
#include "core/index/slice_graph.hpp"
#include "core/util/error.hpp"
#include "core/util/peak_memory.hpp"

namespace egdb::bench {

void print_kings_only_benchmark(std::ostream& out, const KingsOnlyBenchOptions& options) {
    const SliceId slice = options.slice;
    if (slice.nbm != 0 || slice.nwm != 0) throw InvalidArgumentError("slice " + slice.to_string() + " has men");
    SolutionStore smaller;
    const std::vector<SliceId> successors = successor_slices(slice);
    BuildOptions build;
    build.threads = options.threads;
    solve_slices(dependency_closure(successors), smaller, build);

    const std::uint64_t positions = 2 * slice_size(slice);
    char line[256];
    out << "solve slice " << slice.to_string() << " (" << positions << " positions, both sides to move, WLD, DTW, MTC), "
        << options.threads << " thread(s), after its successors (peak so far " << static_cast<long>(peak_memory_mib())
        << " MiB)\n";
    std::snprintf(line, sizeof line, "%-28s %9s %14s %7s %15s %11s\n", "solver", "seconds", "positions/s", "ratio", "workspace MiB",
                  "peak MiB");
    out << line;
    // In place first: the process's peak after it is its own; BlockSolver's comes after.
    struct Row {
        const char* name;
        double seconds;
        std::uint64_t workspace;
        double peak_mib;
    };
    std::vector<Row> rows;
    std::optional<SolvedSlice> in_place;
    bool same = false;
    for (const bool place : {true, false}) {
        SolveOptions solve{options.threads};
        solve.kings_only_in_place = place;
        const auto start = std::chrono::steady_clock::now();
        SolvedSlice solved = SliceSolver(slice, smaller, solve).solve();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rows.push_back({place ? "in place (KingsOnlySolver)" : "entry states (BlockSolver)", seconds,
                        place ? KingsOnlySolver::workspace_bytes(slice_size(slice)) : native::kBlockWorkspaceBytes * slice_size(slice),
                        peak_memory_mib()});
        if (place) {
            in_place.emplace(std::move(solved));
        } else {
            same = solved == *in_place;
        }
    }
    const double baseline = rows.back().seconds;
    for (const Row& row : {rows.back(), rows.front()}) {
        std::snprintf(line, sizeof line, "%-28s %9.2f %14.0f %7.2f %15.0f %11.0f\n", row.name, row.seconds,
                      static_cast<double>(positions) / row.seconds, baseline / row.seconds,
                      static_cast<double>(row.workspace) / 1048576.0, row.peak_mib);
        out << line;
    }
    out << "same bytes: " << (same ? "yes" : "NO") << "\n";
}

}  // namespace egdb::bench
