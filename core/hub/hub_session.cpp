#include "core/hub/hub_session.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/notation/hub_move.hpp"
#include "core/notation/hub_position.hpp"
#include "core/notation/notation_error.hpp"
#include "core/notation/move_notation.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/error.hpp"

namespace egdb {
namespace {

HubReply to_gui(std::string line) { return {HubReply::To::Gui, std::move(line)}; }
HubReply to_engine(std::string line) { return {HubReply::To::Engine, std::string(line)}; }
// Hub commands are words of letters, digits, '-' and '_' (ponder-hit, new-game, set-param).
bool is_command_word(std::string_view word) {
    return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

HubReply error_line(std::string_view message) { return to_gui("error message=" + hub_value(message)); }

// The command of a line without reading its arguments (which may be malformed).
std::string_view first_word(std::string_view text) noexcept {
    const std::size_t start = text.find_first_not_of(" \t");
    if (start == std::string_view::npos) return {};
    const std::size_t end = text.find_first_of(" \t\r\n", start);
    return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

}  // namespace

HubSession::HubSession(const Database& database, bool with_engine, HubIdentity identity)
    : db_(database), identity_(std::move(identity)), engine_(with_engine) {}

void HubSession::send_identity(std::string_view engine_name, std::vector<HubReply>& out) const {
    // One name for the pair, so that a GUI or a bot's log shows which engine plays outside the
    // database; the wrapped engine's parameters follow it unchanged.
    const std::string name = engine_name.empty() ? identity_.name : identity_.name + " + " + std::string(engine_name);
    out.push_back(to_gui("id name=" + hub_value(name) + " version=" + hub_value(identity_.version) +
                         " author=" + hub_value(identity_.author)));
}

std::vector<HubReply> HubSession::from_gui(std::string_view text) {
    std::vector<HubReply> out;
    // quit is never held: it ends the session whatever is awaited.
    if ((handshake_ || ready_pending_) && first_word(text) != "quit") {
        held_.emplace_back(text);
        return out;
    }
    handle_gui(text, out);
    return out;
}

void HubSession::release_held(std::vector<HubReply>& out) {
    std::vector<std::string> held = std::exchange(held_, {});
    for (std::size_t i = 0; i < held.size(); ++i) {
        if (handshake_ || ready_pending_) {
            // A held line asked the engine again (init after hub): the rest waits once more.
            held_.insert(held_.end(), held.begin() + static_cast<std::ptrdiff_t>(i), held.end());
            return;
        }
        handle_gui(held[i], out);
    }
}

void HubSession::handle_gui(std::string_view text, std::vector<HubReply>& out) {
    HubLine line;
    try {
        line = parse_hub_line(text);
    } catch (const NotationError& e) {
        out.push_back(error_line(e.what()));
        return;
    }
    const std::string& command = line.command;
    if (command.empty()) return;
    if (command == "hub") {
        if (engine_) {
            handshake_ = true;
            out.push_back(to_engine("hub"));
        } else {
            send_identity("", out);
            out.push_back(to_gui("wait"));
        }
    } else if (command == "init") {
        if (engine_) {
            ready_pending_ = true;
            out.push_back(to_engine(std::string(text)));
        } else {
            out.push_back(to_gui("ready"));
        }
    } else if (command == "set-param") {
        // The databases hold international draughts; another variant is the engine's alone.
        if (line.value("name") == "variant") international_ = line.value("value").value_or("normal") == "normal";
        if (engine_) out.push_back(to_engine(std::string(text)));
    } else if (command == "pos") {
        on_pos(line, out);
        if (engine_) out.push_back(to_engine(std::string(text)));
    } else if (command == "go") {
        on_go(text, out);
    } else if (command == "stop" || command == "ponder-hit") {
        // A database answer is given at once, so there is nothing to stop then.
        if (engine_searching_) out.push_back(to_engine(std::string(text)));
    } else if (command == "ping") {
        // Through the engine when there is one, so that the pong comes after all its earlier output.
        if (engine_) {
            ++pongs_pending_;
            out.push_back(to_engine("ping"));
        } else {
            out.push_back(to_gui("pong"));
        }
    } else if (command == "quit") {
        quit_ = true;
        if (engine_) out.push_back(to_engine("quit"));
    } else if (engine_) {
        out.push_back(to_engine(std::string(text)));  // level, new-game, and what egdb does not know
    } else if (!is_command_word(command)) {
        // A command the protocol may add later is ignored (Hub engines skip what they do not know),
        // but a line whose first token is no command word at all was not understood: say so.
        out.push_back(error_line(std::string("cannot read the line: ") + quoted_token(command) + " is not a command"));
    }
}

void HubSession::on_pos(const HubLine& line, std::vector<HubReply>& out) {
    game_.reset();
    pos_error_.clear();
    const std::optional<std::string> pos = line.value("pos");
    if (!pos) {
        pos_error_ = "pos without pos=<position>";
    } else {
        try {
            Game game;
            game.positions.push_back(parse_hub_position(*pos));
            const std::string moves = line.value("moves").value_or("");
            std::size_t start = 0;
            while (start < moves.size()) {
                const std::size_t end = std::min(moves.find(' ', start), moves.size());
                if (end > start) {
                    const FenPosition& now = game.positions.back();
                    const std::string_view move_text = std::string_view(moves).substr(start, end - start);
                    try {
                        const Move move = parse_move(now.position, now.side_to_move, move_text);
                        game.positions.push_back({apply_move(now.position, now.side_to_move, move), opposite(now.side_to_move)});
                    } catch (const std::exception& e) {
                        throw InvalidArgumentError("move " + std::to_string(game.positions.size()) + " of moves=: " + e.what());
                    }
                }
                start = end + 1;
            }
            game_ = std::move(game);
        } catch (const std::exception& e) {
            pos_error_ = std::string("cannot read pos: ") + e.what();
        }
    }
    // With an engine the position is its to judge (it may know a variant egdb does not).
    if (!engine_ && !pos_error_.empty()) out.push_back(error_line(pos_error_));
}

std::string HubSession::uncovered_reason() const {
    if (!pos_error_.empty()) return pos_error_;
    if (!game_) return "go before any pos";
    if (!international_) return "the databases hold international draughts only (variant set to another)";
    const FenPosition& now = game_->positions.back();
    const int pieces = material_of(now.position).total();
    MoveList moves;
    if (generate_moves(now.position, now.side_to_move, moves) == 0) return "the position has no legal move";
    if (pieces > db_.max_pieces()) {
        return "the position has " + std::to_string(pieces) + " pieces, the databases up to " +
               std::to_string(db_.max_pieces()) + ", and no engine is wrapped (--engine)";
    }
    return "the databases do not cover the position (a missing slice), and no engine is wrapped (--engine)";
}

void HubSession::on_go(std::string_view text, std::vector<HubReply>& out) {
    if (engine_searching_) {
        // The protocol has no go during a search; the engine's search goes on and ends with its done.
        out.push_back(error_line("go during a search of the wrapped engine: ignored"));
        return;
    }
    if (game_ && international_) {
        const FenPosition& now = game_->positions.back();
        try {
            if (const std::optional<EndgameMove> answer = endgame_move(db_, now.position, now.side_to_move, game_->positions)) {
                answer_from_database(*answer, out);
                return;
            }
        } catch (const std::exception& e) {
            // A database that fails (an unreadable or corrupt file) must not end the session: the
            // engine, if any, plays the position, and the GUI is told either way.
            out.push_back(error_line(std::string("the databases failed on this position: ") + e.what()));
            if (!engine_) return;
        }
    }
    if (engine_) {
        engine_searching_ = true;
        out.push_back(to_engine(std::string(text)));
        return;
    }
    out.push_back(error_line(uncovered_reason()));
}

void HubSession::answer_from_database(const EndgameMove& answer, std::vector<HubReply>& out) const {
    std::string pv;
    for (const Move& m : answer.pv) {
        if (!pv.empty()) pv += ' ';
        pv += move_to_hub(m);
    }
    // depth is the length of the variation the database proves; nodes and time say that nothing
    // was searched. wld and dtw are egdb's own fields (the protocol lets engines add fields).
    std::string info = "info depth=" + std::to_string(answer.pv.size()) + " score=" + hub_score(answer.wld, answer.dtw) +
                       " nodes=0 time=0.000 pv=" + hub_value(pv) + " wld=" +
                       (answer.wld == WldValue::Win ? "win" : answer.wld == WldValue::Loss ? "loss" : "draw");
    if (answer.dtw) info += " dtw=" + std::to_string(*answer.dtw);
    out.push_back(to_gui(std::move(info)));
    std::string done = "done move=" + move_to_hub(answer.move);
    if (answer.pv.size() > 1) done += " ponder=" + move_to_hub(answer.pv[1]);
    out.push_back(to_gui(std::move(done)));
}

std::vector<HubReply> HubSession::from_engine(std::string_view text) {
    std::vector<HubReply> out;
    HubLine line;
    try {
        line = parse_hub_line(text);
    } catch (const NotationError&) {
        out.push_back(to_gui(std::string(text)));  // not ours to judge: relayed as it came
        return out;
    }
    if (handshake_ && line.command == "id") {
        send_identity(line.value("name").value_or("engine"), out);
        return out;
    }
    const bool released = (handshake_ && line.command == "wait") || (ready_pending_ && line.command == "ready");
    if (handshake_ && line.command == "wait") handshake_ = false;
    if (line.command == "done") engine_searching_ = false;
    if (line.command == "ready") ready_pending_ = false;
    if (line.command == "pong" && pongs_pending_ > 0) --pongs_pending_;
    if (!line.command.empty()) out.push_back(to_gui(std::string(text)));
    if (released) release_held(out);
    return out;
}

std::vector<HubReply> HubSession::engine_exited() {
    std::vector<HubReply> out;
    if (!engine_) return out;
    engine_ = false;
    out.push_back(error_line("the wrapped engine exited; positions outside the databases get this error from now on"));
    if (handshake_) {
        handshake_ = false;
        send_identity("", out);
        out.push_back(to_gui("wait"));
    }
    // What the GUI waits for is answered, so that it learns of the error rather than hang; a
    // search cannot be answered with a move, the error line says why.
    if (ready_pending_) out.push_back(to_gui("ready"));
    for (; pongs_pending_ > 0; --pongs_pending_) out.push_back(to_gui("pong"));
    ready_pending_ = false;
    engine_searching_ = false;
    release_held(out);
    return out;
}

}  // namespace egdb
