// What a probe of one position reports to a person or a program: the true WLD, the distances the
// database holds, the best move and, on request, the principal variation, with moves in PDN.
// `egdb probe`, egdb_probe / egdb_pv of the C ABI (and through them the bindings) all print this.
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

// Throws LookupNotPossible as Database::wld does.
ProbeReport probe_position(const Database& db, const Position& position, Color side_to_move, bool with_pv = false);

// The principal variation of `kind` as PDN moves (empty for draws).
std::vector<std::string> principal_variation_pdn(const Database& db, const Position& position, Color side_to_move,
                                                 DistanceKind kind = DistanceKind::Dtw);

// "win", "loss", "draw".
const char* wld_word(WldValue value) noexcept;

}  // namespace egdb::workflow
