#include "bench/build_table.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "core/generate/build_driver.hpp"
#include "core/util/peak_memory.hpp"

namespace egdb::bench {

void print_build_benchmark(std::ostream& out, const BuildBenchOptions& options) {
    char line[256];
    std::snprintf(line, sizeof line, "%-6s %14s %9s %14s\n", "slice", "positions", "seconds", "positions/s");
    out << "solve every slice up to " << options.max_pieces << " pieces (WLD, DTW, MTC, both sides to move), "
        << options.threads << " thread(s)\n"
        << line;
    std::uint64_t positions = 0;
    BuildOptions build;
    build.threads = options.threads;
    build.on_slice_done = [&](const SliceProgress& p) {
        positions += p.positions;
        std::snprintf(line, sizeof line, "%-6s %14llu %9.3f %14.0f\n", p.slice.to_string().c_str(),
                      static_cast<unsigned long long>(p.positions), p.seconds,
                      p.seconds > 0 ? static_cast<double>(p.positions) / p.seconds : 0.0);
        out << line << std::flush;
    };
    SolutionStore store;
    const auto start = std::chrono::steady_clock::now();
    solve_slices(options.max_pieces, store, build);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::snprintf(line, sizeof line, "%-6s %14llu %9.3f %14.0f   peak memory %.0f MiB, solution %.0f MiB\n", "total",
                  static_cast<unsigned long long>(positions), seconds,
                  seconds > 0 ? static_cast<double>(positions) / seconds : 0.0, peak_memory_mib(),
                  static_cast<double>(store.memory_bytes()) / (1024.0 * 1024.0));
    out << line;
}

}  // namespace egdb::bench
