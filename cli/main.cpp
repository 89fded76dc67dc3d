// egdb: command-line front end of the egdb library (see cli/command.hpp for the contract).
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli/command.hpp"

namespace {

constexpr std::string_view kUsage =
    "usage: egdb <command> [options]\n"
    "\n"
    "commands:\n"
    "  perft [--fen FEN] [--threads N] DEPTH   leaf counts, one line per depth: <depth> <nodes> <seconds>\n"
    "  moves FEN                               legal moves: <pdn-move> <fen-after-the-move>\n"
    "  index                                   FEN lines on stdin -> <nbm> <nbk> <nwm> <nwk> <index>\n"
    "  position                                <nbm> <nbk> <nwm> <nwk> <index> lines on stdin -> FEN\n"
    "  build --pieces N --out DIR              solve every endgame up to N pieces into DIR\n"
    "  verify DIR                              check a database: checksums, one-ply consistency\n"
    "  probe --db DIR FEN...|-                 values, distances and best moves of positions\n"
    "  info --db DIR                           slices, sizes, bits per position\n"
    "  bench index|perft|build|probe           speed tables\n"
    "\n"
    "'egdb <command> --help' describes a command. Exit codes: 0 ok, 1 failure, 2 bad input.\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace egdb::cli;
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    const std::string_view command = args[0];
    const Args rest(args.data() + 1, args.size() - 1);
    try {
        if (command == "perft") return run_perft(rest);
        if (command == "moves") return run_moves(rest);
        if (command == "index") return run_index(rest);
        if (command == "position") return run_position(rest);
        if (command == "bench") return run_bench(rest);
        if (command == "build") return run_build(rest);
        if (command == "verify") return run_verify(rest);
        if (command == "probe") return run_probe(rest);
        if (command == "info") return run_info(rest);
        std::cerr << "egdb: unknown command \"" << command << "\"\n" << kUsage;
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "egdb " << command << ": " << e.what() << '\n';
        return exit_code_of(egdb::kind_of(e));
    }
}
