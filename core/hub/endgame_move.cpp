#include "core/hub/endgame_move.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "core/rules/movegen.hpp"

namespace egdb {
namespace {

constexpr int kUnknownDistance = 999;

bool is_conversion(const Position& position, const Move& move) noexcept {
    return move.is_capture() || (position.king & move.from) == 0;
}

bool repeats(std::span<const FenPosition> game, const Position& position, Color side) {
    return std::any_of(game.begin(), game.end(), [&](const FenPosition& g) {
        return g.side_to_move == side && g.position == position;
    });
}

// The winning move without DTW (see endgame_move): `ranked` holds the winning moves first.
Move progressing_win(const Database& db, const Position& position, Color side, std::span<const RankedMove> ranked,
                     std::span<const FenPosition> game) {
    const Move* best = nullptr;
    std::tuple<bool, int, bool> best_key;
    for (const RankedMove& r : ranked) {
        if (r.successor.wld != WldValue::Loss) break;  // winning moves come first
        const Position next = apply_move(position, side, r.move);
        // A conversion is the progress MTC counts to; after another move the successor's MTC is
        // left. Kingsrow MTC leaves distances below its threshold unknown (0 here): they are
        // treated as close, since the conversion is then less than 10 plies away.
        const bool conversion = is_conversion(position, r.move);
        const int mtc = db.has_mtc() && !conversion ? static_cast<int>(r.successor.mtc) + 1 : 0;
        const std::tuple<bool, int, bool> key{repeats(game, next, opposite(side)), mtc, !conversion};
        if (best == nullptr || key < best_key) {
            best = &r.move;
            best_key = key;
        }
    }
    return *best;
}

}  // namespace

std::optional<EndgameMove> endgame_move(const Database& db, const Position& position, Color side,
                                        std::span<const FenPosition> game) {
    if (material_of(position).total() > db.max_pieces()) return std::nullopt;
    EndgameMove answer;
    std::vector<RankedMove> ranked;
    try {
        answer.wld = db.wld(position, side);
        ranked = db.best_moves(position, side);
        if (ranked.empty()) return std::nullopt;
        answer.move = ranked.front().move;
        if (answer.wld != WldValue::Draw && db.has_dtw()) {
            answer.dtw = db.dtw(position, side);
            answer.pv = db.principal_variation(position, side, DistanceKind::Dtw);
            return answer;
        }
        if (answer.wld == WldValue::Win) answer.move = progressing_win(db, position, side, ranked, game);
        answer.pv.push_back(answer.move);
        const Position next = apply_move(position, side, answer.move);
        const std::vector<RankedMove> replies = db.best_moves(next, opposite(side));
        if (!replies.empty()) answer.pv.push_back(replies.front().move);
    } catch (const LookupNotPossible&) {
        return std::nullopt;  // a slice or a kind of data the database does not hold
    }
    return answer;
}

std::string hub_score(WldValue wld, std::optional<int> dtw) {
    if (wld == WldValue::Draw) return "0.00";
    const int plies = std::clamp(dtw.value_or(kUnknownDistance), 0, kUnknownDistance);
    const int hundredths = 10000 - plies;
    char text[16];
    std::snprintf(text, sizeof text, "%s%d.%02d", wld == WldValue::Loss ? "-" : "", hundredths / 100, hundredths % 100);
    return text;
}

}  // namespace egdb
