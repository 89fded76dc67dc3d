#include "core/workflow/probe_report.hpp"

#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::workflow {

const char* wld_word(WldValue value) noexcept {
    return value == WldValue::Win ? "win" : value == WldValue::Loss ? "loss" : "draw";
}

std::vector<std::string> principal_variation_pdn(const Database& db, const Position& position, Color side_to_move,
                                                 DistanceKind kind) {
    std::vector<std::string> moves;
    Position p = position;
    Color side = side_to_move;
    for (const Move& m : db.principal_variation(position, side_to_move, kind)) {
        moves.push_back(move_to_pdn(p, side, m));
        p = apply_move(p, side, m);
        side = opposite(side);
    }
    return moves;
}

ProbeReport probe_position(const Database& db, const Position& position, Color side_to_move, bool with_pv) {
    ProbeReport report;
    report.wld = db.wld(position, side_to_move);
    if (report.wld != WldValue::Draw) {
        if (db.has_dtw()) report.dtw = db.dtw(position, side_to_move);
        if (db.has_mtc()) report.mtc = db.mtc(position, side_to_move);
    }
    const std::vector<RankedMove> ranked = db.best_moves(position, side_to_move);
    if (!ranked.empty()) report.best = move_to_pdn(position, side_to_move, ranked.front().move);
    if (with_pv && db.has_dtw() && report.wld != WldValue::Draw) {
        report.pv = principal_variation_pdn(db, position, side_to_move, DistanceKind::Dtw);
    }
    return report;
}

}  // namespace egdb::workflow
