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

// has_capture over 4096 positions in turn (both has_capture benchmarks).
void has_capture_over(benchmark::State& state, const std::vector<egdb::FenPosition>& positions) {
    std::size_t i = 0;
    for (auto _ : state) {
        const auto& p = positions[i++ & 4095];
        benchmark::DoNotOptimize(egdb::has_capture(p.position, p.side_to_move));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_HasCapture(benchmark::State& state) { has_capture_over(state, random_game_positions(4096)); }
BENCHMARK(BM_HasCapture);

// Endgame positions as the generator sees them: two or three kings a side and up to two men
// each, on random squares (men off their promotion row). has_capture is called for each
// position of a slice when it is solved and again when it is written; with kings it is the
// sliding part that costs.
std::vector<egdb::FenPosition> random_king_endings(std::size_t count) {
    std::mt19937_64 rng(20261205);
    std::vector<egdb::FenPosition> out;
    while (out.size() < count) {
        egdb::Position p{};
        egdb::Bitboard used = 0;
        const auto place = [&](egdb::Bitboard allowed) {
            for (;;) {
                const egdb::Bitboard b = egdb::square_bb(static_cast<int>(rng() % 50) + 1);
                if ((b & allowed & ~used) == 0) continue;
                used |= b;
                return b;
            }
        };
        for (const egdb::Color side : {egdb::Color::Black, egdb::Color::White}) {
            const egdb::Bitboard own_row = side == egdb::Color::Black ? egdb::kRow10 : egdb::kRow1;
            egdb::Bitboard& pieces = side == egdb::Color::Black ? p.black : p.white;
            for (std::uint64_t k = 0, n = 2 + rng() % 2; k < n; ++k) {
                const egdb::Bitboard b = place(egdb::kAllSquares);
                pieces |= b;
                p.king |= b;
            }
            for (std::uint64_t m = 0, n = rng() % 3; m < n; ++m) pieces |= place(egdb::kAllSquares & ~own_row);
        }
        out.push_back({p, rng() % 2 == 0 ? egdb::Color::Black : egdb::Color::White});
    }
    return out;
}

void BM_HasCaptureKingEndings(benchmark::State& state) { has_capture_over(state, random_king_endings(4096)); }
BENCHMARK(BM_HasCaptureKingEndings);

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
