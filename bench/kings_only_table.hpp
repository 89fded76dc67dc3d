// `egdb bench kings-only`: a slice without men solved by BlockSolver (8-byte entry states and
// distance buckets, the baseline) and in place (kings_only_solver.hpp), in one process after
// its successors: seconds, positions per second, the ratio, the workspace each plans and the
// process's peak after each, and whether the bytes are the same.
#pragma once

#include <ostream>

#include "core/index/slice.hpp"

namespace egdb::bench {

struct KingsOnlyBenchOptions {
    SliceId slice{0, 3, 0, 2};  // 0302
    int threads = 2;
};

void print_kings_only_benchmark(std::ostream& out, const KingsOnlyBenchOptions& options);

}  // namespace egdb::bench
