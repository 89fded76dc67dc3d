// The most resident memory this process has used so far, which builds and verification report
// beside their timings (a 6-piece build runs to a memory budget).
#pragma once

namespace egdb {

// Peak resident set size in MiB (0 where the system does not tell).
double peak_memory_mib() noexcept;

}  // namespace egdb
