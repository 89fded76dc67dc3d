// The JSON of egdb's tablebase API (`egdb serve`, `egdb probe --json --moves`), in the shape of
// lichess's tablebase server adapted to draughts: distances carry their unit in the field name
// (dtw_plies, mtc_plies), moves are given in PDN and Hub notation. Keys keep the order written
// here, so the same report prints byte for byte the same online and offline.
#pragma once

#include <nlohmann/json.hpp>

#include "core/notation/notation_error.hpp"
#include "core/workflow/probe_report.hpp"

namespace egdb::serve {

using Json = nlohmann::ordered_json;

// {"category", "dtw_plies", "mtc_plies", "fen", "hub", "moves": [{"pdn", "hub", "fen",
// "category", "dtw_plies", "mtc_plies", "capture"}, ...]}; a move's values are those of the
// position after it, for the side to move there. Compact text, written directly (json_writer.hpp):
// the bytes nlohmann's compact dump gives for the same object.
std::string tablebase_json_text(const workflow::TablebaseReport& report);

// {"mainline": [{"pdn", "hub", "fen", "dtw_plies"}, ...], "winner": "w" | "b" | null}.
std::string mainline_json_text(const workflow::MainlineReport& report);

// {"error": message} and, for a notation error, "token" and "offset" (of the token in the text).
Json error_json(const std::string& message);
Json error_json(const NotationError& error);

// The compact text of `json`. Invalid UTF-8 (which only a request's own bytes echoed back in an
// error could bring) is replaced rather than thrown, so that no input makes the answer fail.
std::string json_text(const Json& json);

}  // namespace egdb::serve
