#include "serve/report_json.hpp"

#include "serve/json_writer.hpp"

namespace egdb::serve {

std::string tablebase_json_text(const workflow::TablebaseReport& report) {
    JsonWriter w(256 + 160 * report.moves.size());
    w.begin_object()
        .key("category").string(workflow::category_word(report.value.category))
        .key("dtw_plies").number_or_null(report.value.dtw)
        .key("mtc_plies").number_or_null(report.value.mtc)
        .key("fen").string(report.fen)
        .key("hub").string(report.hub)
        .key("moves").begin_array();
    for (const workflow::MoveReport& m : report.moves) {
        w.begin_object()
            .key("pdn").string(m.pdn)
            .key("hub").string(m.hub)
            .key("fen").string(m.fen_after)
            .key("category").string(workflow::category_word(m.after.category))
            .key("dtw_plies").number_or_null(m.after.dtw)
            .key("mtc_plies").number_or_null(m.after.mtc)
            .key("capture").boolean(m.capture)
            .end_object();
    }
    return w.end_array().end_object().take();
}

std::string mainline_json_text(const workflow::MainlineReport& report) {
    JsonWriter w(64 + 128 * report.moves.size());
    w.begin_object().key("mainline").begin_array();
    for (const workflow::MainlineMove& m : report.moves) {
        w.begin_object()
            .key("pdn").string(m.pdn)
            .key("hub").string(m.hub)
            .key("fen").string(m.fen_after)
            .key("dtw_plies").number_or_null(m.dtw_after)
            .end_object();
    }
    w.end_array().key("winner");
    if (report.winner) w.string(*report.winner == Color::White ? "w" : "b");
    else w.null();
    return w.end_object().take();
}

std::string json_text(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json error_json(const std::string& message) { return {{"error", message}}; }

Json error_json(const NotationError& error) {
    return {{"error", error.what()}, {"token", error.token()}, {"offset", error.offset()}};
}

}  // namespace egdb::serve
