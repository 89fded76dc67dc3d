#include "serve/report_json.hpp"

namespace egdb::serve {
namespace {

Json optional_number(const std::optional<int>& value) { return value ? Json(*value) : Json(nullptr); }

}  // namespace

Json tablebase_json(const workflow::TablebaseReport& report) {
    Json moves = Json::array();
    for (const workflow::MoveReport& m : report.moves) {
        moves.push_back({{"pdn", m.pdn},
                         {"hub", m.hub},
                         {"fen", m.fen_after},
                         {"category", workflow::category_word(m.after.category)},
                         {"dtw_plies", optional_number(m.after.dtw)},
                         {"mtc_plies", optional_number(m.after.mtc)},
                         {"capture", m.capture}});
    }
    return {{"category", workflow::category_word(report.value.category)},
            {"dtw_plies", optional_number(report.value.dtw)},
            {"mtc_plies", optional_number(report.value.mtc)},
            {"fen", report.fen},
            {"hub", report.hub},
            {"moves", std::move(moves)}};
}

Json mainline_json(const workflow::MainlineReport& report) {
    Json moves = Json::array();
    for (const workflow::MainlineMove& m : report.moves) {
        moves.push_back({{"pdn", m.pdn}, {"hub", m.hub}, {"fen", m.fen_after}, {"dtw_plies", optional_number(m.dtw_after)}});
    }
    Json winner = nullptr;
    if (report.winner) winner = *report.winner == Color::White ? "w" : "b";
    return {{"mainline", std::move(moves)}, {"winner", std::move(winner)}};
}

std::string json_text(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json error_json(const std::string& message) { return {{"error", message}}; }

Json error_json(const NotationError& error) {
    return {{"error", error.what()}, {"token", error.token()}, {"offset", error.offset()}};
}

}  // namespace egdb::serve
