// Latencies counted in logarithmic buckets, for the percentiles of /metrics: recording is one
// relaxed atomic increment (no lock on the request path, no memory that grows with the number of
// requests), and a percentile is read back within 1/8 of its value (eight buckets per octave).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace egdb::serve {

class LatencyHistogram {
public:
    void record(std::uint64_t microseconds) noexcept;

    struct Summary {
        std::uint64_t count = 0;
        std::uint64_t p50 = 0;  // microseconds: the upper bound of the bucket holding the percentile
        std::uint64_t p90 = 0;
        std::uint64_t p99 = 0;
        std::uint64_t max = 0;  // exact
    };
    // A snapshot; concurrent records may or may not be included.
    Summary summary() const noexcept;

    // Bucket of a value and the largest value the bucket holds (exposed for the tests).
    static std::size_t bucket_of(std::uint64_t microseconds) noexcept;
    static std::uint64_t upper_bound(std::size_t bucket) noexcept;

private:
    static constexpr std::size_t kSubBuckets = 8;  // per octave; values below 8 have a bucket each
    static constexpr std::size_t kBuckets = kSubBuckets + (64 - 3) * kSubBuckets;
    std::array<std::atomic<std::uint64_t>, kBuckets> counts_{};
    std::atomic<std::uint64_t> max_{0};
};

}  // namespace egdb::serve
