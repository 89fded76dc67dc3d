// What a piece of work may use: the threads it runs on and the memory it plans to hold at most.
// Every request of the library (build, distributed build, verify, the Kingsrow oracle check)
// holds one, so both are said once and mean one thing: `threads` is a count (a value below 1 is
// taken as 1, never as "every core"), `memory_bytes` 0 means no budget. The mechanisms below a
// request (solver, writers, checks) take the thread count it resolves to.
#pragma once

#include <cstdint>

namespace egdb {

// The cores of this machine (at least 1).
int machine_threads() noexcept;

struct Resources {
    int threads = 1;
    std::uint64_t memory_bytes = 0;

    // Every core of this machine, no budget: the default of the workflows.
    static Resources machine() noexcept { return {machine_threads(), 0}; }
    int thread_count() const noexcept { return threads < 1 ? 1 : threads; }
};

}  // namespace egdb
