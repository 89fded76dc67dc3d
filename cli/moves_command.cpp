#include <iostream>
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::cli {

namespace {

// A malformed FEN is a FenError (ErrorKind::InvalidNotation): exit code 2, its message naming
// the token.
int run_moves(const std::string& fen) {
    const FenPosition fp = parse_fen(fen);
    MoveListWithPaths list;
    generate_moves(fp.position, fp.side_to_move, list);
    std::string out;
    for (int i = 0; i < list.size(); ++i) {
        out += move_to_pdn(fp.position, fp.side_to_move, list, i);
        out += ' ';
        out += to_fen(apply_move(fp.position, fp.side_to_move, list[i]), opposite(fp.side_to_move));
        out += '\n';
    }
    std::cout << out;
    return kExitOk;
}

}  // namespace

void add_moves(CLI::App& app) {
    const auto fen = std::make_shared<std::string>();
    CLI::App& command = add_command(app, "moves",
                                    "usage: egdb moves FEN\n"
                                    "Lists the legal moves of the side to move in generator order, one line each:\n"
                                    "  <pdn-move> <fen-after-the-move>\n",
                                    [fen] { return run_moves(*fen); });
    command.add_option("FEN", *fen)->required();
}

}  // namespace egdb::cli
