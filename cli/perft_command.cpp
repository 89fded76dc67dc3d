#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/perft.hpp"

namespace egdb::cli {

namespace {
constexpr const char* kPerftHelp =
    "usage: egdb perft [--fen FEN] [--threads N] DEPTH\n"
    "Counts the leaves of the legal move tree for every depth from 1 to DEPTH, one line each:\n"
    "  <depth> <nodes> <seconds>\n"
    "The position defaults to the start position W:W31-50:B1-20. --threads splits the root moves\n"
    "over N threads (default 1).\n";

struct PerftOptions {
    std::string fen = "W:W31-50:B1-20";
    int threads = 1;
    int depth = 0;
};

int run_perft(const PerftOptions& o) {
    FenPosition start;
    try {
        start = parse_fen(o.fen);
    } catch (const FenError& e) {
        throw UsageError(std::string("bad --fen: ") + e.what());
    }
    for (int d = 1; d <= o.depth; ++d) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto nodes = perft_parallel(start.position, start.side_to_move, d, o.threads);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%d %llu %.3f\n", d, static_cast<unsigned long long>(nodes), seconds);
        std::fflush(stdout);
    }
    return kExitOk;
}

}  // namespace

void add_perft(CLI::App& app) {
    const auto o = std::make_shared<PerftOptions>();
    CLI::App& command = add_command(app, "perft", kPerftHelp, [o] { return run_perft(*o); });
    command.add_option("--fen", o->fen)->type_name("FEN");
    add_integer(command, "--threads", o->threads, 1, 256);
    add_integer(command, "DEPTH", o->depth, 0, 64)->required();
}

}  // namespace egdb::cli
