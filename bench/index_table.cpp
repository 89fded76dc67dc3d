#include "bench/index_table.hpp"

#include <bit>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "core/index/reference_indexer.hpp"
#include "core/index/slice_indexer.hpp"

namespace egdb::bench {
namespace {

// Random indices per slice: enough to defeat the branch predictor and caches of the caller, few
// enough to stay in L2 together with their positions.
constexpr std::size_t kSamples = std::size_t{1} << 16;

// Order-sensitive checksums whose dependency chain (rotate, xor) is short next to an index
// computation, so that they do not limit the measured rate.
std::uint64_t fold(std::uint64_t sum, std::uint64_t value) noexcept { return std::rotl(sum, 1) ^ value; }

std::uint64_t fold(std::uint64_t sum, const Position& p) noexcept {
    return std::rotl(sum, 1) ^ (p.black + std::rotl(p.white, 21) + std::rotl(p.king, 42));
}

struct Rate {
    double per_second = 0;
    std::uint64_t checksum = 0;  // of the last pass over the samples
};

// Runs `pass` (one pass over all samples, returning its checksum) until `seconds` have elapsed,
// at least once.
template <typename Pass>
Rate measure(double seconds, Pass&& pass) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    std::uint64_t passes = 0;
    Rate rate;
    double elapsed = 0;
    do {
        rate.checksum = pass();
        ++passes;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    rate.per_second = static_cast<double>(passes * kSamples) / elapsed;
    return rate;
}

std::string with_commas(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

}  // namespace

std::vector<SliceId> index_benchmark_slices() {
    return {{0, 1, 0, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 2}, {1, 2, 1, 2}, {2, 2, 1, 2}};
}

IndexBenchRow measure_index_slice(SliceId slice, double seconds_per_slice) {
    const SliceIndexer indexer(slice);
    std::mt19937_64 rng(0x2212);
    std::uniform_int_distribution<std::uint64_t> pick(0, indexer.size() - 1);
    std::vector<std::uint64_t> indices(kSamples);
    std::vector<Position> positions(kSamples);
    for (std::size_t i = 0; i < kSamples; ++i) {
        indices[i] = pick(rng);
        positions[i] = indexer.position_at(indices[i]);
    }
    const double share = seconds_per_slice / 4;

    const Rate inversions = measure(share, [&] {
        std::uint64_t sum = 0;
        for (const std::uint64_t index : indices) sum = fold(sum, indexer.position_at(index));
        return sum;
    });
    const Rate indices_rate = measure(share, [&] {
        std::uint64_t sum = 0;
        for (const Position& p : positions) sum = fold(sum, indexer.index_of(p));
        return sum;
    });
    const Rate reference_inversions = measure(share, [&] {
        std::uint64_t sum = 0;
        for (const std::uint64_t index : indices) sum = fold(sum, reference::position_at(index, slice));
        return sum;
    });
    const Rate reference_indices = measure(share, [&] {
        std::uint64_t sum = 0;
        for (const Position& p : positions) sum = fold(sum, reference::index_of(p, slice));
        return sum;
    });

    IndexBenchRow row;
    row.slice = slice;
    row.positions = indexer.size();
    row.inversions_per_second = inversions.per_second;
    row.indices_per_second = indices_rate.per_second;
    row.reference_inversions_per_second = reference_inversions.per_second;
    row.reference_indices_per_second = reference_indices.per_second;
    row.checksums_agree = inversions.checksum == reference_inversions.checksum &&
                          indices_rate.checksum == reference_indices.checksum;
    return row;
}

void print_index_benchmark(std::ostream& out, double seconds_per_slice) {
    char line[256];
    out << "slice index (kingsrow-format.md 2), single thread, " << kSamples
        << " random indices per slice; slices named nbm nbk nwm nwk\n"
           "baseline: the square-by-square reference indexer, same indices, same process\n";
    std::snprintf(line, sizeof line, "%6s %8s %16s %13s %13s | %13s %13s | %9s %9s %6s\n", "pieces", "largest",
                  "positions", "inversions/s", "indices/s", "ref inv/s", "ref idx/s", "inv x", "idx x", "check");
    out << line;
    std::snprintf(line, sizeof line, "%6s %8s %16s %13s %13s | %13s %13s | %9s %9s %6s\n", "", "material", "",
                  "idx->pos", "pos->idx", "idx->pos", "pos->idx", "fast/ref", "fast/ref", "");
    out << line << std::flush;
    for (const SliceId slice : index_benchmark_slices()) {
        const IndexBenchRow row = measure_index_slice(slice, seconds_per_slice);
        std::snprintf(line, sizeof line, "%6d %8s %16s %12.1fM %12.1fM | %12.2fM %12.2fM | %8.1fx %8.1fx %6s\n",
                      slice.total(), slice.to_string().c_str(), with_commas(row.positions).c_str(),
                      row.inversions_per_second / 1e6, row.indices_per_second / 1e6,
                      row.reference_inversions_per_second / 1e6, row.reference_indices_per_second / 1e6,
                      row.inversions_per_second / row.reference_inversions_per_second,
                      row.indices_per_second / row.reference_indices_per_second,
                      row.checksums_agree ? "ok" : "DIFFER");
        out << line << std::flush;
    }
}

}  // namespace egdb::bench
