// `egdb bench probe --db DIR`: lookups per second on random positions of a database, raw (as
// egdb_lookup) and with search (the true WLD), single calls and batches of 256 (lookup_batch,
// wld_batch), 1 and 2 threads, with a warm cache and with a cache far smaller than the database,
// plus bytes per position on disk. Ratios are against a
// baseline measured in the same run: dependent loads over as many bytes as the random rows read
// (a ratio of 1 is a lookup that costs one memory access; a second row on two threads shows what
// two cores' accesses gain on this machine); one row repeats 256 positions whose
// data stays in the CPU caches, the cost of the lookup code itself.
#pragma once

#include <filesystem>
#include <ostream>

namespace egdb::bench {

struct ProbeBenchOptions {
    std::filesystem::path directory;
    int pieces = 0;          // positions with exactly this many pieces (0: the database's maximum)
    double seconds = 1.0;    // per row
    std::size_t small_cache_mb = 1;
};

void print_probe_benchmark(std::ostream& out, const ProbeBenchOptions& options);

}  // namespace egdb::bench
