// The most resident memory this process has used so far, which builds and verification report
// beside their timings (a 6-piece build runs to a memory budget), and the machine's memory.
#pragma once

#include <cstdint>

namespace egdb {

// Physical memory of the machine in bytes (0 where the system does not tell): the default memory
// budget of a build is a share of it.
std::uint64_t physical_memory_bytes() noexcept;

// Peak resident set size in MiB (0 where the system does not tell).
double peak_memory_mib() noexcept;

// Resident set size now, in bytes (0 where the system does not tell): what a build or verification
// under a budget measures of itself after it gives file pages back (DecodedSlicePlan).
std::uint64_t resident_memory_bytes() noexcept;

}  // namespace egdb
