// What a probe of one position reports to a person or a program: the true WLD, the distances the
// database holds, the best move and, on request, the principal variation, with moves in PDN.
// `egdb probe`, egdb_probe / egdb_pv of the C ABI (and through them the bindings) all print this.
// The tablebase report is the fuller answer of `egdb serve` (and `egdb probe --json --moves`):
// every legal move, best first, each with the value of the position it leads to, in the shape of
// lichess's tablebase server (lila-tablebase).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/probe/database.hpp"

namespace egdb::workflow {

struct ProbeReport {
    WldValue wld = WldValue::Draw;
    std::optional<int> dtw;           // plies, when the database holds DTW and the position is not drawn
    std::optional<int> mtc;           // plies, likewise for MTC (nullopt below Kingsrow's threshold)
    std::optional<std::string> best;  // the best move in PDN; nullopt when there is no legal move
    std::vector<std::string> pv;      // the principal variation by DTW (only when asked for)
};

// A value as the tablebase report gives it: Unknown where the database cannot answer (a position
// of a move whose slice is missing, say), the distances nullopt for draws and unheld kinds.
enum class Category { Win, Loss, Draw, Unknown };

struct ValueReport {
    Category category = Category::Unknown;
    std::optional<int> dtw;  // plies
    std::optional<int> mtc;  // plies
};

// One legal move and the value of the position after it, for the side to move there (the
// opponent), as lila-tablebase reports moves: the best move of a win is a loss.
struct MoveReport {
    std::string pdn;        // the move in PDN (13.7)
    std::string hub;        // the move in Hub notation (Scan's protocol)
    std::string fen_after;  // the position after the move, canonical FEN
    bool capture = false;
    ValueReport after;
};

struct TablebaseReport {
    std::string fen;  // canonical FEN of the position
    std::string hub;  // Hub position string
    ValueReport value;
    std::vector<MoveReport> moves;  // every legal move, best first (ranked_moves)
};

// One move of the main line with the value of the position after it (for its side to move).
struct MainlineMove {
    std::string pdn;
    std::string hub;
    std::string fen_after;
    std::optional<int> dtw_after;
};

struct MainlineReport {
    std::vector<MainlineMove> moves;  // the principal variation by DTW; empty for draws
    std::optional<Color> winner;      // nullopt for a draw
};

// Throws LookupNotPossible as Database::wld does.
ProbeReport probe_position(const Database& db, const Position& position, Color side_to_move, bool with_pv = false);

// The principal variation of `kind` as PDN moves (empty for draws).
std::vector<std::string> principal_variation_pdn(const Database& db, const Position& position, Color side_to_move,
                                                 DistanceKind kind = DistanceKind::Dtw);

// The value of the position itself (the root of a report): throws LookupNotPossible as
// Database::wld does; a distance the database does not hold is nullopt.
ValueReport value_report(const Database& db, const Position& position, Color side_to_move);

// The tablebase report of a position. Throws LookupNotPossible when the position itself cannot
// be answered; a move whose successor cannot be is reported Unknown (and the moves then keep the
// generator's order, since they cannot all be ranked).
TablebaseReport tablebase_report(const Database& db, const Position& position, Color side_to_move);

// The main line: DTW-best moves to the end of the game when the database holds DTW, none for
// draws or without DTW (the winner is still given). Throws LookupNotPossible as Database::wld.
MainlineReport mainline_report(const Database& db, const Position& position, Color side_to_move);

// "win", "loss", "draw".
const char* wld_word(WldValue value) noexcept;

// "win", "loss", "draw", "unknown".
const char* category_word(Category category) noexcept;

}  // namespace egdb::workflow
