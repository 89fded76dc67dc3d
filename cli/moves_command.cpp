#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "core/notation/fen.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::cli {

int run_moves(Args args) {
    if (wants_help(args) || args.size() != 1) {
        if (!wants_help(args)) std::cerr << "egdb moves: expected exactly one FEN\n";
        std::cout << "usage: egdb moves FEN\n"
                     "Lists the legal moves of the side to move in generator order, one line each:\n"
                     "  <pdn-move> <fen-after-the-move>\n";
        return wants_help(args) ? kExitOk : kExitBadInput;
    }
    FenPosition fp;
    try {
        fp = parse_fen(args[0]);
    } catch (const FenError& e) {
        throw UsageError(e.what());
    }
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

}  // namespace egdb::cli
