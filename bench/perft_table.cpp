#include "bench/perft_table.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "core/rules/perft.hpp"

namespace egdb::bench {
namespace {

// Perft that makes every move down to the leaves: what a generator without bulk counting does.
std::uint64_t perft_without_bulk(const Position& pos, Color side, int depth) {
    if (depth == 0) return 1;
    MoveList list;
    generate_moves(pos, side, list);
    std::uint64_t total = 0;
    for (const Move& m : list) total += perft_without_bulk(apply_move(pos, side, m), opposite(side), depth - 1);
    return total;
}

template <class F>
double seconds_of(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Case {
    const char* name;
    const char* fen;
    int depth;
};

}  // namespace

void print_perft_benchmark(std::ostream& out, const PerftBenchOptions& options) {
    // The start position and the positions of the upstream perft test (kingsrow-format.md 15).
    const std::vector<Case> cases = {
        {"start", "W:W31-50:B1-20", options.start_depth},
        {"kings+men 19", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24", 8},
        {"middlegame 20", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", 14},
        {"20 kings each", "W:WK31-50:BK1-20", 10},
        {"5 men each", "W:W6-10:B41-45", 8},
    };
    char line[256];
    std::snprintf(line, sizeof line, "%-14s %5s %14s %9s %12s %12s %7s\n", "position", "depth", "leaves", "seconds",
                  "leaves/s", "baseline/s", "ratio");
    out << "perft, single thread, bulk counting at the leaves; baseline: the same generator making every\n"
           "leaf move (no bulk counting), measured in this process on depth-1\n"
        << line;
    for (const Case& c : cases) {
        const FenPosition fp = parse_fen(c.fen);
        std::uint64_t leaves = 0;
        const double t = seconds_of([&] { leaves = perft(fp.position, fp.side_to_move, c.depth); });
        std::uint64_t base_leaves = 0;
        const double tb = seconds_of(
            [&] { base_leaves = perft_without_bulk(fp.position, fp.side_to_move, c.depth - 1); });
        const double rate = static_cast<double>(leaves) / t;
        const double base_rate = static_cast<double>(base_leaves) / tb;
        std::snprintf(line, sizeof line, "%-14s %5d %14llu %9.3f %11.1fM %11.1fM %6.2fx\n", c.name, c.depth,
                      static_cast<unsigned long long>(leaves), t, rate / 1e6, base_rate / 1e6, rate / base_rate);
        out << line << std::flush;
    }
    if (options.threads > 1) {
        const FenPosition fp = parse_fen("W:W31-50:B1-20");
        std::uint64_t leaves = 0;
        const double t = seconds_of(
            [&] { leaves = perft_parallel(fp.position, fp.side_to_move, options.start_depth, options.threads); });
        std::snprintf(line, sizeof line, "start, %d threads: %llu leaves in %.3f s = %.1fM leaves/s\n", options.threads,
                      static_cast<unsigned long long>(leaves), t, static_cast<double>(leaves) / t / 1e6);
        out << line;
    }
}

}  // namespace egdb::bench
