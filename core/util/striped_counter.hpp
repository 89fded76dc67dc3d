// A statistics counter that many threads increment on their lookup path. One shared atomic moves
// its cache line from core to core on every increment, which costs more than the rest of a cached
// lookup and keeps two threads from going faster than one; here each thread adds to a stripe on a
// cache line of its own (chosen once per thread from its id), and reading sums the stripes. While
// increments run, total() is a snapshot that may miss the latest of them, as any statistics read is.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

namespace egdb {

class StripedCounter {
public:
    void add(std::uint64_t n = 1) noexcept { stripes_[stripe_of_this_thread()].value.fetch_add(n, std::memory_order_relaxed); }

    std::uint64_t total() const noexcept {
        std::uint64_t sum = 0;
        for (const Stripe& s : stripes_) sum += s.value.load(std::memory_order_relaxed);
        return sum;
    }

private:
    static constexpr std::size_t kStripes = 16;
    // 128 bytes: the adjacent-line prefetcher pulls cache lines in pairs, so 64 would still share.
    struct alignas(128) Stripe {
        std::atomic<std::uint64_t> value{0};
    };

    static std::size_t stripe_of_this_thread() noexcept {
        // Per-thread and immutable once set: no state is shared between threads here.
        thread_local const std::size_t stripe = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kStripes;
        return stripe;
    }

    std::array<Stripe, kStripes> stripes_;
};

}  // namespace egdb
