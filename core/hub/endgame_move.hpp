// The move a database plays in a game: what `egdb hub` answers when the database covers the
// position. With DTW the fastest win or the longest resistance, so that two players who both
// follow the database finish the game in exactly DTW plies; with MTC only (a Kingsrow
// mtc_database without dtw_database) the fastest conversion; with WLD only a move that keeps the
// value and makes progress (see choose below).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/probe/database.hpp"

namespace egdb {

struct EndgameMove {
    Move move;
    WldValue wld = WldValue::Draw;  // the position's value for the side to move
    std::optional<int> dtw;         // plies to the end of the game, when the database holds DTW (not for draws)
    // The principal variation, starting with `move`: to the end of the game by DTW for won and lost
    // positions when the database holds DTW, else `move` and the best reply.
    std::vector<Move> pv;
};

// The database's move for `side` in `position`. `game` lists the positions of the game so far
// (the current one last, or empty): without DTW a won position is played so as to never repeat
// one of them, since a repetition could let a won game end in a draw.
// nullopt when the database does not cover the position (more pieces than it holds, a missing
// slice or kind of data) or there is no legal move; other failures (corrupt files) are thrown.
//
// Choice without DTW, among the moves that keep the value: for a win, first those that do not
// repeat a position of `game`, then the shortest MTC when the database holds it, then a
// conversion (a capture or a man move, which can never be undone) before a king move. Draws and
// losses take the first move ranked_moves gives (a loss with MTC resists longest).
std::optional<EndgameMove> endgame_move(const Database& db, const Position& position, Color side,
                                        std::span<const FenPosition> game = {});

// The `score=` of a Hub info line, in men as Scan writes it: a forced win in d plies is
// 100 - d/100 (so 99.97 for three plies), a loss -(100 - d/100), a draw 0.00. Hub clients read
// scores above 90 as forced results (pydraughts' HubEngine: plies = 10000 - 100 * score). A win or
// loss without a known distance is written as d = 999, the longest that still reads as forced.
std::string hub_score(WldValue wld, std::optional<int> dtw);

}  // namespace egdb
