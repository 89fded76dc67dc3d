// `egdb bench perft`: move-generator throughput as a table, with the same generator run without
// bulk counting (every leaf move made) as the in-process baseline.
#pragma once

#include <ostream>

namespace egdb::bench {

struct PerftBenchOptions {
    int start_depth = 11;  // depth for the start position (1,665,861,398 leaves at 11)
    int threads = 2;       // the extra multi-threaded row; 1 to skip it
};

void print_perft_benchmark(std::ostream& out, const PerftBenchOptions& options);

}  // namespace egdb::bench
