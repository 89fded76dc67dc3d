// Runs a loop over [0, n) on several threads, in chunks that the threads take in turn from a
// shared counter: on a machine shared with other work, a thread that is descheduled holds the
// others up by one chunk at most, not by a fixed share of the loop.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace egdb {

// Calls body(first, last) for consecutive chunks [first, last) of `chunk` indices (the last one
// shorter) on `threads` threads, the calling thread being one of them. With `chunk` a multiple of
// 64, a body that sets bits of a bitset indexed like the range owns whole 64-bit words, so no
// word has two writers. The first exception a body throws is rethrown here once every thread
// has stopped (chunks not yet started are skipped).
template <class Body>
void parallel_chunks(std::uint64_t n, int threads, std::uint64_t chunk, Body&& body) {
    chunk = std::max<std::uint64_t>(chunk, 1);
    std::atomic<std::uint64_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&] {
        for (std::uint64_t first = next.fetch_add(chunk); first < n; first = next.fetch_add(chunk)) {
            try {
                body(first, std::min(n, first + chunk));
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                next.store(n);
                return;
            }
        }
    };
    const std::uint64_t chunks = (n + chunk - 1) / chunk;
    const auto helpers = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(threads, 1)), chunks);
    {
        std::vector<std::jthread> workers;
        for (std::uint64_t t = 1; t < helpers; ++t) workers.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
}

// parallel_chunks with chunks that are multiples of 64 (bitset words stay with one writer),
// about 16 per thread so that the threads finish close together.
template <class Body>
void parallel_ranges(std::uint64_t n, int threads, Body&& body) {
    const auto per_chunk = static_cast<std::uint64_t>(std::max(threads, 1)) * 16;
    parallel_chunks(n, threads, ((n + per_chunk - 1) / per_chunk + 63) / 64 * 64, body);
}

}  // namespace egdb
