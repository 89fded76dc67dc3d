// `egdb hub`: a Hub protocol engine on standard input and output (core/hub/hub_session.hpp) that
// plays the databases' moves and hands every other position to a wrapped engine. This file only
// connects the session to stdin/stdout and to the child process.
#include <cerrno>
#include <cstring>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <unistd.h>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/command.hpp"
#include "core/hub/hub_session.hpp"
#include "core/probe/database.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kHubHelp =
    "usage: egdb hub --db DIR [--db DIR2 ...] [--engine \"CMD ARGS\"] [--cache-mb M]\n"
    "Speaks the Hub protocol (Scan's protocol.txt, version 2) on stdin and stdout, as a draughts\n"
    "GUI, pydraughts' HubEngine or lidraughts-bot expect of an engine. In a position the databases\n"
    "cover, `go` is answered at once with the database's move (fastest win and longest resistance\n"
    "by DTW, MTC where DTW is absent), an info line whose score reads as the forced result\n"
    "(100 - plies/100 for a win in that many plies, its negation for a loss, 0 for a draw) and the\n"
    "principal variation in Hub moves. Other positions go to the engine --engine starts (run by\n"
    "/bin/sh, e.g. --engine \"dame hub\" or --engine \"/opt/scan/scan hub\"), whose answers are\n"
    "relayed; without --engine they are answered with an error line.\n"
    "Several --db (or one DIR list separated by ';') open as one database: each kind of data (WLD,\n"
    "MTC, DTW) comes from the first directory holding it, as in a Kingsrow installation's\n"
    "wld_database, mtc_database and dtw_database.\n";

struct HubOptions {
    std::vector<std::string> directories;
    std::string engine;
    std::size_t cache_mb = 64;
};

// Bytes read from a pipe, cut into lines.
class LineBuffer {
public:
    void append(const char* data, std::size_t size) { text_.append(data, size); }
    std::optional<std::string> next_line() {
        const std::size_t end = text_.find('\n');
        if (end == std::string::npos) return std::nullopt;
        std::string line = text_.substr(0, end);
        text_.erase(0, end + 1);
        return line;
    }
    // The last line when the input ended without a line break.
    std::optional<std::string> rest() {
        if (text_.empty()) return std::nullopt;
        return std::exchange(text_, {});
    }

private:
    std::string text_;
};

// Reads what `fd` has: false at its end (or a read error, which ends it as well).
bool read_some(int fd, LineBuffer& buffer) {
    char chunk[4096];
    for (;;) {
        const ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
}

int run_hub(const HubOptions& o) {
    DatabaseOptions options;
    options.cache_bytes = o.cache_mb << 20;
    const std::unique_ptr<Database> db = Database::open(database_directories(o.directories), options);
    // A wrapped engine that exits would otherwise kill egdb with SIGPIPE at the next line sent to
    // it; write_line reports the closed pipe instead and the session goes on without the engine.
    std::signal(SIGPIPE, SIG_IGN);
    std::optional<ChildProcess> engine;
    if (!o.engine.empty()) engine.emplace(o.engine);
    HubSession session(*db, engine.has_value(), HubIdentity{"egdb", EGDB_VERSION, "egdb"});

    bool engine_open = engine.has_value();
    const auto dispatch = [&](const std::vector<HubReply>& replies) {
        for (const HubReply& r : replies) {
            if (r.to == HubReply::To::Gui) {
                std::fputs(r.line.c_str(), stdout);
                std::fputc('\n', stdout);
                std::fflush(stdout);  // a GUI waits for every line
            } else if (engine_open) {
                engine->write_line(r.line);  // a closed pipe shows as the end of its output next
            }
        }
    };
    LineBuffer gui_input;
    LineBuffer engine_output;
    bool gui_open = true;
    bool stop_sent = false;
    while (!session.quit()) {
        pollfd fds[2] = {{gui_open ? STDIN_FILENO : -1, POLLIN, 0}, {engine_open ? engine->output_fd() : -1, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
        }
        // The engine's output first: what it said before a GUI line was sent stays before the answer.
        if (engine_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const bool more = read_some(engine->output_fd(), engine_output);
            while (std::optional<std::string> line = engine_output.next_line()) dispatch(session.from_engine(*line));
            if (!more) {
                if (std::optional<std::string> line = engine_output.rest()) dispatch(session.from_engine(*line));
                engine_open = false;
                dispatch(session.engine_exited());
            }
        }
        if (gui_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const bool more = read_some(STDIN_FILENO, gui_input);
            while (!session.quit()) {
                std::optional<std::string> line = gui_input.next_line();
                if (!line && !more) line = gui_input.rest();
                if (!line) break;
                dispatch(session.from_gui(*line));
            }
            if (!more) gui_open = false;
        }
        if (!gui_open) {
            // The end of the GUI's input. The protocol says to quit as directly as possible (the
            // GUI may have crashed); what the engine still owes for lines already sent is
            // relayed first, so that piped input (a script, a test) gets every answer, and a
            // search is stopped so that this ends.
            if (!session.awaiting_engine() || !engine_open) break;
            if (!session.engine_searching()) stop_sent = false;  // a held go may start another search
            if (session.engine_searching() && !stop_sent) {
                engine->write_line("stop");
                stop_sent = true;
            }
        }
    }
    return kExitOk;  // the engine is ended by ChildProcess's destructor
}

}  // namespace

void add_hub(CLI::App& app) {
    const auto o = std::make_shared<HubOptions>();
    CLI::App& command = add_command(app, "hub", kHubHelp, [o] { return run_hub(*o); });
    command.add_option("--db", o->directories)
        ->type_name("DIR")
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);  // one directory per --db: what follows is a FEN or another option
    command.add_option("--engine", o->engine)->type_name("CMD");
    add_integer(command, "--cache-mb", o->cache_mb, 1, 1 << 20);
}

}  // namespace egdb::cli
