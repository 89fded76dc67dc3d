// `egdb bench build` (to be wired by the CLI): the solver core's throughput as a table, one row
// per slice (positions, seconds, positions per second for both sides to move) and a total with
// the process's peak memory.
#pragma once

#include <ostream>

namespace egdb::bench {

struct BuildBenchOptions {
    int max_pieces = 4;  // solve every slice up to this many pieces
    int threads = 2;
};

void print_build_benchmark(std::ostream& out, const BuildBenchOptions& options);

}  // namespace egdb::bench
