#include "bench/probe_table.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <span>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "bench/random_samples.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/probe/database.hpp"
#include "core/util/resident_buffer.hpp"

namespace egdb::bench {
namespace {

// Lookups of samples split into arrays, as the batch calls take them; sizes are multiples of kBlock.
struct SampleArrays {
    std::vector<Position> positions;
    std::vector<Color> sides;
};
constexpr std::size_t kBlock = 256;

SampleArrays arrays_of(const std::vector<Sample>& samples) {
    SampleArrays a;
    for (const Sample& s : samples) {
        a.positions.push_back(s.position);
        a.sides.push_back(s.side);
    }
    return a;
}

// Runs `probe_block(first)` (kBlock lookups of the samples from `first`, returning a checksum) on
// `threads` threads for about `seconds`, each thread from its own offset; returns lookups/s.
template <class ProbeBlock>
double rate(const SampleArrays& samples, int threads, double seconds, ProbeBlock&& probe_block) {
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> total{0}, sink{0};
    const std::size_t blocks = samples.positions.size() / kBlock;
    const auto start = std::chrono::steady_clock::now();
    {
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                std::uint64_t n = 0, acc = 0;
                std::size_t block = static_cast<std::size_t>(t) * 7919;
                while (!stop.load(std::memory_order_relaxed)) {
                    acc += probe_block(block++ % blocks * kBlock);
                    n += kBlock;
                }
                total.fetch_add(n);
                sink.fetch_add(acc);
            });
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        stop = true;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    volatile std::uint64_t used = sink.load();  // the lookups' results are used
    (void)used;
    return static_cast<double>(total.load()) / elapsed;
}

// Dependent loads per second over `bytes` of memory in 2 MiB pages, one cache line at a time in a
// random cycle (Sattolo's shuffle): what one random access to data of that size costs on this
// machine, so that the lookup rows can be read as "memory accesses per lookup".
double dependent_load_rate(std::size_t bytes, double seconds, int threads) {
    constexpr std::size_t kLine = 64;
    const std::size_t lines = std::max<std::size_t>(bytes / kLine, 2);
    ResidentBuffer memory(lines * kLine);
    std::vector<std::uint32_t> order(lines);
    for (std::size_t i = 0; i < lines; ++i) order[i] = static_cast<std::uint32_t>(i);
    std::mt19937_64 rng(7);
    for (std::size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % i]);
    for (std::size_t i = 0; i < lines; ++i) {
        const std::uint64_t next = std::uint64_t{order[(i + 1) % lines]} * kLine;
        std::memcpy(memory.data() + std::size_t{order[i]} * kLine, &next, sizeof next);
    }
    // Each thread chases from its own start; the rate is the sum (memory shared by both cores).
    std::atomic<std::uint64_t> total{0};
    double elapsed = 0;
    {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                std::uint64_t at = std::uint64_t{order[static_cast<std::size_t>(t) * lines / 2]} * kLine, loads = 0;
                do {
                    for (int k = 0; k < 4096; ++k) std::memcpy(&at, memory.data() + at, sizeof at);
                    loads += 4096;
                } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds);
                volatile std::uint64_t end = at;  // the chain's result is used, so no load can be left out
                (void)end;
                total.fetch_add(loads);
            });
        }
        workers.clear();
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return static_cast<double>(total.load()) / elapsed;
}

std::uint64_t directory_bytes(const std::filesystem::path& dir) {
    std::uint64_t bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.is_regular_file()) bytes += e.file_size();
    }
    return bytes;
}

}  // namespace

void print_probe_benchmark(std::ostream& out, const ProbeBenchOptions& options) {
    DatabaseOptions warm_options;
    warm_options.cache_bytes = std::size_t{1024} << 20;
    const auto warm = Database::open(options.directory, warm_options);
    const int pieces = options.pieces > 0 ? options.pieces : warm->max_pieces();
    DatabaseOptions cold_options;
    cold_options.cache_bytes = options.small_cache_mb << 20;
    const auto cold = Database::open(options.directory, cold_options);
    const std::vector<Sample> samples = random_samples(pieces, 1 << 20);

    std::uint64_t positions = 0;
    for (SliceId s : all_slices(warm->max_pieces())) {
        if (is_canonical(s)) positions += slice_size(s) * (is_color_symmetric(s) ? 1 : 2);
    }
    char line[256];
    std::snprintf(line, sizeof line, "%s: %s, up to %d pieces, %.4f bytes per stored position on disk\n",
                  options.directory.string().c_str(), to_string(warm->type()), warm->max_pieces(),
                  static_cast<double>(directory_bytes(options.directory)) / static_cast<double>(positions));
    out << line;
    // Touch every sample once so that the warm cache holds what the rows read.
    for (const Sample& s : samples) (void)warm->lookup(s.position, s.side);
    // The first samples again, few enough that their pages stay in the CPU caches: the cost of the
    // lookup code itself.
    const SampleArrays all = arrays_of(samples);
    const SampleArrays hot = arrays_of(std::vector<Sample>(samples.begin(), samples.begin() + kBlock));
    // The data the random rows read: the pages the warm cache holds, or the files (autoloaded).
    const std::uint64_t touched = std::max<std::uint64_t>(warm->stats().cache_bytes, directory_bytes(options.directory));

    struct Row {
        const char* name;
        const Database* db;
        const SampleArrays* samples;
        bool search;
        bool batch;  // lookup_batch / wld_batch of kBlock positions instead of single calls
        int threads;
    };
    const std::vector<Row> rows = {
        {"raw lookup, warm cache", warm.get(), &all, false, false, 1},
        {"raw lookup, warm cache", warm.get(), &all, false, false, 2},
        {"raw lookup, 256 hot", warm.get(), &hot, false, false, 1},
        {"raw batch of 256, warm cache", warm.get(), &all, false, true, 1},
        {"raw batch of 256, warm cache", warm.get(), &all, false, true, 2},
        {"raw lookup, small cache", cold.get(), &all, false, false, 1},
        {"raw lookup, small cache", cold.get(), &all, false, false, 2},
        {"with search, warm cache", warm.get(), &all, true, false, 1},
        {"with search, warm cache", warm.get(), &all, true, false, 2},
        {"search batch of 256, warm", warm.get(), &all, true, true, 1},
        {"search batch of 256, warm", warm.get(), &all, true, true, 2},
    };
    std::snprintf(line, sizeof line,
                  "random positions of %d pieces (both sides to move), %.1f s per row; ratio: lookups per dependent "
                  "load of the baseline row\n",
                  pieces, options.seconds);
    out << line;
    std::snprintf(line, sizeof line, "%-30s %8s %14s %12s %8s\n", "lookup", "threads", "lookups/s", "ns/lookup", "ratio");
    out << line;
    const double baseline = dependent_load_rate(static_cast<std::size_t>(touched), options.seconds, 1);
    char name[64];
    std::snprintf(name, sizeof name, "baseline: load, %.0f MiB", static_cast<double>(touched) / (1 << 20));
    std::snprintf(line, sizeof line, "%-30s %8d %13.2fM %12.0f %7.2fx\n", name, 1, baseline / 1e6, 1e9 / baseline, 1.0);
    out << line << std::flush;
    // The same on two threads: how far two cores' random accesses go beyond one core's here.
    const double baseline2 = dependent_load_rate(static_cast<std::size_t>(touched), options.seconds, 2);
    std::snprintf(line, sizeof line, "%-30s %8d %13.2fM %12.0f %7.2fx\n", name, 2, baseline2 / 1e6, 2e9 / baseline2,
                  baseline2 / baseline);
    out << line << std::flush;
    for (const Row& r : rows) {
        const double per_second = rate(*r.samples, r.threads, options.seconds, [&](std::size_t first) {
            const std::span<const Position> block(r.samples->positions.data() + first, kBlock);
            const std::span<const Color> sides(r.samples->sides.data() + first, kBlock);
            std::uint64_t acc = 0;
            if (r.batch && !r.search) {
                std::array<int, kBlock> codes;
                r.db->lookup_batch(block, sides, codes);
                for (const int v : codes) acc += static_cast<std::uint64_t>(v);
            } else if (r.batch) {
                std::array<std::optional<WldValue>, kBlock> values;
                r.db->wld_batch(block, sides, values);
                for (const auto& v : values) acc += v ? static_cast<std::uint64_t>(*v) : 7;
            } else {
                for (std::size_t k = 0; k < kBlock; ++k) {
                    acc += r.search ? static_cast<std::uint64_t>(r.db->wld(block[k], sides[k]))
                                    : static_cast<std::uint64_t>(r.db->lookup(block[k], sides[k]));
                }
            }
            return acc;
        });
        std::snprintf(line, sizeof line, "%-30s %8d %13.2fM %12.0f %7.2fx\n", r.name, r.threads, per_second / 1e6,
                      1e9 * r.threads / per_second, per_second / baseline);
        out << line << std::flush;
    }
    const Database::Stats s = cold->stats();
    if (s.cache_hits + s.cache_misses > 0) {
        std::snprintf(line, sizeof line, "small cache (%zu MiB): %.1f%% of page reads missed\n", options.small_cache_mb,
                      100.0 * static_cast<double>(s.cache_misses) / static_cast<double>(s.cache_hits + s.cache_misses));
        out << line;
    }
}

}  // namespace egdb::bench
