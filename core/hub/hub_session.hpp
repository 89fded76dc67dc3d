// The engine side of the Hub protocol (Scan's protocol.txt, version 2) for `egdb hub`: a GUI talks
// to egdb as to any Hub engine; positions the database covers are answered at once with the
// database's move (endgame_move.hpp), every other search goes to a wrapped Hub engine, whose
// answers are relayed. Without a wrapped engine such a search is answered with an `error` line.
//
// The session only turns lines into lines: it neither reads nor writes anything itself, so the
// caller decides how the GUI and the engine are connected (cli/hub_command.cpp: standard I/O and
// a child process), and tests drive it line by line.
//
// Handled GUI commands: hub, set-param, init, new-game, pos, level, go think|ponder|analyze,
// ponder-hit, stop, ping, quit; others go to the wrapped engine, or are ignored as the protocol
// asks. Engine answers are relayed as they are, except the `id` and `wait` of the
// initialisation (egdb names itself with the engine) and lines nobody asked for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hub/endgame_move.hpp"
#include "core/hub/hub_line.hpp"

namespace egdb {

struct HubReply {
    enum class To { Gui, Engine };
    To to = To::Gui;
    std::string line;  // without the line break

    friend bool operator==(const HubReply&, const HubReply&) = default;
};

struct HubIdentity {
    std::string name = "egdb";
    std::string version;
    std::string author = "egdb";
};

class HubSession {
public:
    // `with_engine`: whether a wrapped engine is connected (it is sent lines from the start).
    HubSession(const Database& database, bool with_engine, HubIdentity identity = {});

    // The replies to one line from the GUI, and to one line from the wrapped engine, in order.
    std::vector<HubReply> from_gui(std::string_view line);
    std::vector<HubReply> from_engine(std::string_view line);
    // The wrapped engine is gone (its output closed): what is pending is answered, and the
    // session goes on without it.
    std::vector<HubReply> engine_exited();

    bool has_engine() const noexcept { return engine_; }
    // After `quit`: the caller stops reading and ends the engine.
    bool quit() const noexcept { return quit_; }
    // Whether a search of the wrapped engine is under way (a `go` sent, its `done` not seen).
    bool engine_searching() const noexcept { return engine_searching_; }
    // Whether an answer of the wrapped engine is still to come for the GUI (its wait, ready,
    // pong or done), or GUI lines are held until one comes.
    bool awaiting_engine() const noexcept {
        return engine_ && (handshake_ || ready_pending_ || pongs_pending_ > 0 || engine_searching_ || !held_.empty());
    }

private:
    struct Game {
        std::vector<FenPosition> positions;  // from the pos= position through every move; current last
    };
    void handle_gui(std::string_view line, std::vector<HubReply>& out);
    void release_held(std::vector<HubReply>& out);
    void on_pos(const HubLine& line, std::vector<HubReply>& out);
    void on_go(std::string_view text, std::vector<HubReply>& out);
    void answer_from_database(const EndgameMove& answer, std::vector<HubReply>& out) const;
    void send_identity(std::string_view engine_name, std::vector<HubReply>& out) const;
    // The reason the current position cannot be searched by the database (for the error line).
    std::string uncovered_reason() const;

    const Database& db_;
    HubIdentity identity_;
    bool engine_ = false;
    bool handshake_ = false;         // `hub` sent to the engine, its `wait` not yet seen
    bool engine_searching_ = false;
    bool ready_pending_ = false;     // `init` sent to the engine, its `ready` not yet seen
    int pongs_pending_ = 0;          // pings sent to the engine and not yet answered
    bool international_ = true;      // the variant parameter is "normal" (the databases' rules)
    bool quit_ = false;
    // GUI lines that came while the engine's `wait` or `ready` was awaited: handled after it, so
    // that answers keep the order of the questions even from a GUI that does not wait.
    std::vector<std::string> held_;
    std::optional<Game> game_;       // the last pos, when it was read
    std::string pos_error_;          // why the last pos could not be read
};

}  // namespace egdb
