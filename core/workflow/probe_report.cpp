#include "core/workflow/probe_report.hpp"

#include "core/notation/fen.hpp"
#include "core/notation/hub_move.hpp"
#include "core/notation/hub_position.hpp"
#include "core/notation/pdn_move.hpp"
#include "core/rules/movegen.hpp"

namespace egdb::workflow {

const char* wld_word(WldValue value) noexcept {
    return value == WldValue::Win ? "win" : value == WldValue::Loss ? "loss" : "draw";
}

const char* category_word(Category category) noexcept {
    switch (category) {
        case Category::Win: return "win";
        case Category::Loss: return "loss";
        case Category::Draw: return "draw";
        case Category::Unknown: break;
    }
    return "unknown";
}

namespace {

Category category_of(WldValue value) noexcept {
    return value == WldValue::Win ? Category::Win : value == WldValue::Loss ? Category::Loss : Category::Draw;
}

// A distance of a won or lost position, nullopt when the database holds none for its slice: a
// report names what is known rather than failing for a kind it was not asked to hold.
template <class Distance>
std::optional<int> held_distance(bool held, Distance distance) {
    if (!held) return std::nullopt;
    try {
        return distance();
    } catch (const LookupNotPossible&) {
        return std::nullopt;
    }
}

// The value of a position reached by a move: Unknown where even its WLD cannot be looked up.
ValueReport successor_report(const Database& db, const Position& position, Color side_to_move) {
    try {
        return value_report(db, position, side_to_move);
    } catch (const LookupNotPossible&) {
        return {};
    }
}

// A value() as the report gives it: the distances of the kinds the database holds, none for draws.
ValueReport report_of(const Database& db, const PositionValue& v) {
    ValueReport report{.category = category_of(v.wld)};
    if (v.wld != WldValue::Draw) {
        if (db.has_dtw()) report.dtw = v.dtw;
        if (db.has_mtc()) report.mtc = v.mtc;
    }
    return report;
}

// A legal move, with the value of its successor when the ranking's own lookup gave it
// (value_is_one_lookup: no second lookup per move).
struct OrderedMove {
    Move move;
    std::optional<ValueReport> after;
};

// The legal moves best first; in generator order and without values when some successor cannot
// be looked up (the ranking needs every value), which the report then shows as Unknown.
std::vector<OrderedMove> moves_best_first(const Database& db, const Position& position, Color side_to_move) {
    std::vector<OrderedMove> out;
    try {
        const bool values_known = db.value_is_one_lookup();
        for (const RankedMove& r : db.best_moves(position, side_to_move)) {
            out.push_back({r.move, values_known ? std::optional(report_of(db, r.successor)) : std::nullopt});
        }
    } catch (const LookupNotPossible&) {
        out.clear();
        MoveList list;
        generate_moves(position, side_to_move, list);
        for (const Move& m : list) out.push_back({m, std::nullopt});
    }
    return out;
}

}  // namespace

ValueReport value_report(const Database& db, const Position& position, Color side_to_move) {
    if (db.value_is_one_lookup()) return report_of(db, db.value(position, side_to_move));
    ValueReport report;
    const WldValue wld = db.wld(position, side_to_move);
    report.category = category_of(wld);
    if (wld != WldValue::Draw) {
        report.dtw = held_distance(db.has_dtw(), [&] { return db.dtw(position, side_to_move); });
        report.mtc = held_distance(db.has_mtc(), [&] { return db.mtc(position, side_to_move); });
    }
    return report;
}

TablebaseReport tablebase_report(const Database& db, const Position& position, Color side_to_move) {
    TablebaseReport report;
    report.fen = to_fen(position, side_to_move);
    report.hub = to_hub_position(position, side_to_move);
    report.value = value_report(db, position, side_to_move);
    const Color opponent = opposite(side_to_move);
    const std::vector<OrderedMove> ordered = moves_best_first(db, position, side_to_move);
    // The PDN of each move is written from one list with capture paths (a move's PDN depends on
    // the other moves: ambiguous captures are written square by square), generated once here
    // rather than once per move.
    MoveListWithPaths legal;
    generate_moves(position, side_to_move, legal);
    const auto pdn_of = [&](const Move& m) {
        for (int i = 0; i < legal.size(); ++i) {
            if (legal[i] == m) return move_to_pdn(position, side_to_move, legal, i);
        }
        return std::string();
    };
    report.moves.reserve(ordered.size());
    for (const auto& [m, known_after] : ordered) {
        const Position after = apply_move(position, side_to_move, m);
        report.moves.push_back({.pdn = pdn_of(m),
                                .hub = move_to_hub(m),
                                .fen_after = to_fen(after, opponent),
                                .capture = m.is_capture(),
                                .after = known_after ? *known_after : successor_report(db, after, opponent)});
    }
    return report;
}

MainlineReport mainline_report(const Database& db, const Position& position, Color side_to_move) {
    MainlineReport report;
    const WldValue wld = db.wld(position, side_to_move);
    if (wld == WldValue::Draw) return report;
    report.winner = wld == WldValue::Win ? side_to_move : opposite(side_to_move);
    if (!db.has_dtw()) return report;
    Position p = position;
    Color side = side_to_move;
    for (const Move& m : db.principal_variation(position, side_to_move, DistanceKind::Dtw)) {
        MainlineMove step{.pdn = move_to_pdn(p, side, m), .hub = move_to_hub(m)};
        p = apply_move(p, side, m);
        side = opposite(side);
        step.fen_after = to_fen(p, side);
        step.dtw_after = held_distance(true, [&] { return db.dtw(p, side); });
        report.moves.push_back(std::move(step));
    }
    return report;
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
