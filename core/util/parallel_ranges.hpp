// Splits [0, n) into `threads` contiguous ranges whose boundaries are multiples of 64 and runs
// body(first, last) on each in its own thread: a thread that sets bits of a bitset indexed like
// the range then owns whole 64-bit words, so no word has two writers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace egdb {

template <class Body>
void parallel_ranges(std::uint64_t n, int threads, Body&& body) {
    const auto t = static_cast<std::uint64_t>(std::max(threads, 1));
    const std::uint64_t chunk = ((n + t - 1) / t + 63) / 64 * 64;
    std::vector<std::jthread> workers;
    for (std::uint64_t first = 0; first < n; first += chunk) {
        const std::uint64_t last = std::min(n, first + chunk);
        workers.emplace_back([&body, first, last] { body(first, last); });
    }
}

}  // namespace egdb
