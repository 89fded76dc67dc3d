#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "core/notation/fen.hpp"
#include "core/rules/perft.hpp"

namespace egdb::cli {

namespace {
constexpr const char* kHelp =
    "usage: egdb perft [--fen FEN] [--threads N] DEPTH\n"
    "Counts the leaves of the legal move tree for every depth from 1 to DEPTH, one line each:\n"
    "  <depth> <nodes> <seconds>\n"
    "The position defaults to the start position W:W31-50:B1-20. --threads splits the root moves\n"
    "over N threads (default 1).\n";
}

int run_perft(Args args) {
    if (wants_help(args)) {
        std::cout << kHelp;
        return kExitOk;
    }
    std::string fen = "W:W31-50:B1-20";
    int threads = 1;
    int depth = -1;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        if (a == "--fen" || a == "--threads") {
            if (i + 1 >= args.size()) throw UsageError(std::string(a) + " needs a value");
            if (a == "--fen") fen = std::string(args[++i]);
            else threads = static_cast<int>(parse_integer(args[++i], "--threads", 1, 256));
        } else if (depth < 0 && !a.starts_with("--")) {
            depth = static_cast<int>(parse_integer(a, "DEPTH", 0, 64));
        } else {
            throw UsageError("unexpected argument \"" + std::string(a) + "\"\n" + kHelp);
        }
    }
    if (depth < 0) throw UsageError(std::string("missing DEPTH\n") + kHelp);
    FenPosition start;
    try {
        start = parse_fen(fen);
    } catch (const FenError& e) {
        throw UsageError(std::string("bad --fen: ") + e.what());
    }
    for (int d = 1; d <= depth; ++d) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto nodes = perft_parallel(start.position, start.side_to_move, d, threads);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%d %llu %.3f\n", d, static_cast<unsigned long long>(nodes), seconds);
        std::fflush(stdout);
    }
    return kExitOk;
}

}  // namespace egdb::cli
