// Google Benchmark micro-benchmarks of the move generator (egdb_microbench). The tables that
// `egdb bench` prints are in *_table.cpp; these are for profiling single functions.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/rules/movegen.hpp"
#include "core/rules/perft.hpp"

namespace {

// Positions reached by random play from the start, so that captures, kings and endings all occur.
std::vector<egdb::FenPosition> random_game_positions(std::size_t count) {
    std::mt19937_64 rng(12345);
    std::vector<egdb::FenPosition> out;
    while (out.size() < count) {
        egdb::FenPosition p = egdb::parse_fen("W:W31-50:B1-20");
        for (int ply = 0; ply < 200 && out.size() < count; ++ply) {
            egdb::MoveList list;
            if (egdb::generate_moves(p.position, p.side_to_move, list) == 0) break;
            out.push_back(p);
            const auto& m = list[static_cast<int>(rng() % static_cast<unsigned>(list.size()))];
            p = {egdb::apply_move(p.position, p.side_to_move, m), egdb::opposite(p.side_to_move)};
        }
    }
    return out;
}

void BM_GenerateMoves(benchmark::State& state) {
    const auto positions = random_game_positions(4096);
    std::size_t i = 0;
    egdb::MoveList list;
    for (auto _ : state) {
        const auto& p = positions[i++ & 4095];
        benchmark::DoNotOptimize(egdb::generate_moves(p.position, p.side_to_move, list));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_GenerateMoves);

void BM_CountMoves(benchmark::State& state) {
    const auto positions = random_game_positions(4096);
    std::size_t i = 0;
    for (auto _ : state) {
        const auto& p = positions[i++ & 4095];
        benchmark::DoNotOptimize(egdb::count_moves(p.position, p.side_to_move));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_CountMoves);

void BM_HasCapture(benchmark::State& state) {
    const auto positions = random_game_positions(4096);
    std::size_t i = 0;
    for (auto _ : state) {
        const auto& p = positions[i++ & 4095];
        benchmark::DoNotOptimize(egdb::has_capture(p.position, p.side_to_move));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HasCapture);

void BM_PerftStart(benchmark::State& state) {
    const auto start = egdb::parse_fen("W:W31-50:B1-20");
    std::uint64_t leaves = 0;
    for (auto _ : state) {
        leaves = egdb::perft(start.position, start.side_to_move, static_cast<int>(state.range(0)));
        benchmark::DoNotOptimize(leaves);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * leaves));
}
BENCHMARK(BM_PerftStart)->Arg(6)->Arg(8)->Unit(benchmark::kMillisecond);

}  // namespace
