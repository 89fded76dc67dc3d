#include "serve/latency_histogram.hpp"

#include <algorithm>
#include <bit>

namespace egdb::serve {

std::size_t LatencyHistogram::bucket_of(std::uint64_t v) noexcept {
    if (v < kSubBuckets) return static_cast<std::size_t>(v);
    // v = 1.xyz * 2^e: the octave e and the three bits after the leading one.
    const auto e = static_cast<std::size_t>(std::bit_width(v) - 1);
    const auto sub = static_cast<std::size_t>((v >> (e - 3)) & (kSubBuckets - 1));
    return kSubBuckets + (e - 3) * kSubBuckets + sub;
}

std::uint64_t LatencyHistogram::upper_bound(std::size_t bucket) noexcept {
    if (bucket < kSubBuckets) return bucket;
    const std::size_t e = (bucket - kSubBuckets) / kSubBuckets + 3;
    const std::uint64_t sub = (bucket - kSubBuckets) % kSubBuckets;
    const std::uint64_t first = (kSubBuckets + sub) << (e - 3);
    return first + (std::uint64_t{1} << (e - 3)) - 1;
}

void LatencyHistogram::record(std::uint64_t microseconds) noexcept {
    counts_[bucket_of(microseconds)].fetch_add(1, std::memory_order_relaxed);
    std::uint64_t seen = max_.load(std::memory_order_relaxed);
    while (microseconds > seen && !max_.compare_exchange_weak(seen, microseconds, std::memory_order_relaxed)) {
    }
}

LatencyHistogram::Summary LatencyHistogram::summary() const noexcept {
    std::array<std::uint64_t, kBuckets> counts{};
    Summary s;
    for (std::size_t b = 0; b < kBuckets; ++b) {
        counts[b] = counts_[b].load(std::memory_order_relaxed);
        s.count += counts[b];
    }
    s.max = max_.load(std::memory_order_relaxed);
    if (s.count == 0) return s;
    // The smallest bucket whose cumulative count reaches the rank ceil(q * count).
    auto percentile = [&](std::uint64_t per_mille) {
        const std::uint64_t rank = (s.count * per_mille + 999) / 1000;
        std::uint64_t seen = 0;
        for (std::size_t b = 0; b < kBuckets; ++b) {
            seen += counts[b];
            if (seen >= rank) return std::min(upper_bound(b), s.max);
        }
        return s.max;
    };
    s.p50 = percentile(500);
    s.p90 = percentile(900);
    s.p99 = percentile(990);
    return s;
}

}  // namespace egdb::serve
