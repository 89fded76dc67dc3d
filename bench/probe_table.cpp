#include "bench/probe_table.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "core/index/slice_indexer.hpp"
#include "core/probe/database.hpp"

namespace egdb::bench {
namespace {

struct Sample {
    Position position;
    Color side;
};

// Random positions with exactly `pieces` pieces, slices weighted by their size.
std::vector<Sample> random_samples(int pieces, std::size_t count) {
    std::vector<SliceId> slices;
    std::vector<double> weights;
    for (SliceId s : all_slices(pieces)) {
        if (s.total() != pieces) continue;
        slices.push_back(s);
        weights.push_back(static_cast<double>(slice_size(s)));
    }
    std::mt19937_64 rng(2026);
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    std::vector<Sample> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const SliceId s = slices[pick(rng)];
        const Position p = SliceIndexer(s).position_at(rng() % slice_size(s));
        out.push_back({p, (rng() & 1) != 0 ? Color::White : Color::Black});
    }
    return out;
}

// Runs `probe(sample)` over the samples on `threads` threads for about `seconds`; returns probes/s.
template <class Probe>
double rate(const std::vector<Sample>& samples, int threads, double seconds, Probe&& probe) {
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> total{0}, sink{0};
    const auto start = std::chrono::steady_clock::now();
    {
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                std::uint64_t n = 0, acc = 0;
                std::size_t i = static_cast<std::size_t>(t) * 7919;
                while (!stop.load(std::memory_order_relaxed)) {
                    for (int k = 0; k < 256; ++k, ++n) {
                        const Sample& s = samples[i++ % samples.size()];
                        acc += static_cast<std::uint64_t>(probe(s));
                    }
                }
                total.fetch_add(n);
                sink.fetch_add(acc);
            });
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        stop = true;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return static_cast<double>(total.load()) / elapsed + 0.0 * static_cast<double>(sink.load());
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
    warm_options.cache_mb = 1024;
    const auto warm = Database::open(options.directory, warm_options);
    const int pieces = options.pieces > 0 ? options.pieces : warm->max_pieces();
    DatabaseOptions cold_options;
    cold_options.cache_mb = options.small_cache_mb;
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

    struct Row {
        const char* name;
        const Database* db;
        bool search;
        int threads;
    };
    const std::vector<Row> rows = {
        {"raw lookup, warm cache", warm.get(), false, 1},
        {"raw lookup, warm cache", warm.get(), false, 2},
        {"raw lookup, small cache", cold.get(), false, 1},
        {"raw lookup, small cache", cold.get(), false, 2},
        {"with search, warm cache", warm.get(), true, 1},
        {"with search, warm cache", warm.get(), true, 2},
    };
    std::snprintf(line, sizeof line, "random positions of %d pieces (both sides to move), %.1f s per row\n", pieces,
                  options.seconds);
    out << line;
    std::snprintf(line, sizeof line, "%-26s %8s %14s %12s %8s\n", "lookup", "threads", "lookups/s", "ns/lookup", "ratio");
    out << line;
    double baseline = 0;
    for (const Row& r : rows) {
        const double per_second = rate(samples, r.threads, options.seconds, [&](const Sample& s) -> int {
            if (!r.search) return r.db->lookup(s.position, s.side);
            return static_cast<int>(r.db->wld(s.position, s.side));
        });
        if (baseline == 0) baseline = per_second;
        std::snprintf(line, sizeof line, "%-26s %8d %13.2fM %12.0f %7.2fx\n", r.name, r.threads, per_second / 1e6,
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
