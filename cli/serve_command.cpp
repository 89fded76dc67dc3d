// `egdb serve`: the tablebase server (serve/tablebase_server.hpp) on one or more databases; this
// file reads the arguments, opens the databases and runs the server until SIGINT or SIGTERM.
#include <csignal>
#include <iostream>
#include <memory>
#include <pthread.h>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.hpp"
#include "core/probe/database.hpp"
#include "serve/tablebase_server.hpp"

namespace egdb::cli {
namespace {

constexpr const char* kServeHelp =
    "usage: egdb serve --db DIR [--db DIR2 ...] [--port P] [--bind ADDR] [--threads T]\n"
    "                  [--max-connections N] [--connections-per-address N] [--idle-timeout S]\n"
    "                  [--cache-mb M]\n"
    "Serves the databases over HTTP until interrupted (SIGINT, SIGTERM). A position is answered by\n"
    "the first --db that can answer it; each DIR may itself be a ';' list of directories read as\n"
    "one database (as --db of probe). Prints one line when it listens:\n"
    "  egdb serve: listening on http://ADDR:PORT/\n"
    "  GET /international?fen=FEN           value, distances and every move, best first (JSON)\n"
    "  GET /international/mainline?fen=FEN  the principal variation and the winner (JSON)\n"
    "  GET /                                the web page to explore positions\n"
    "  GET /health, GET /metrics            status; request counts and latency percentiles\n"
    "--port 0 takes any free port (default 8080); --bind defaults to 127.0.0.1 (use 0.0.0.0 to\n"
    "serve other machines). --threads T event-loop threads (default: one per core) serve every\n"
    "connection; at most --max-connections (default 1024) are open at once, at most\n"
    "--connections-per-address (default 256; 0: no limit) from one client; a connection on which\n"
    "nothing moves for --idle-timeout S seconds (default 5) is closed, and so is one after 1000\n"
    "requests. --cache-mb is each database's page cache (default 256).\n";

struct ServeOptions {
    std::vector<std::string> databases;
    serve::ServerOptions server;
    std::size_t cache_mb = serve::kServerCacheMiB;
};

int run_serve(ServeOptions& o) {
    DatabaseOptions database_options;
    database_options.cache_bytes = o.cache_mb << 20;
    std::vector<std::unique_ptr<Database>> owned;
    std::vector<const Database*> databases;
    for (const std::string& dir : o.databases) {
        owned.push_back(Database::open(split_directory_list(dir), database_options));
        databases.push_back(owned.back().get());
    }
    // SIGINT and SIGTERM are taken by one thread that waits for them and stops the server: the
    // workers never see a signal, and no handler needs global state. Blocked before any thread
    // starts, so that every thread inherits the mask.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    serve::TablebaseServer server(databases, o.server);
    const int port = server.bind();
    std::thread signal_waiter([&server, &stop_signals] {
        int signal = 0;
        sigwait(&stop_signals, &signal);
        server.stop();
    });
    std::cout << "egdb serve: listening on http://" << o.server.bind_address << ":" << port << "/" << std::endl;
    server.run();
    // run() also returns when listening fails; the waiter is then woken by a signal of its own.
    pthread_kill(signal_waiter.native_handle(), SIGTERM);
    signal_waiter.join();
    return kExitOk;
}

}  // namespace

void add_serve(CLI::App& app) {
    const auto o = std::make_shared<ServeOptions>();
    CLI::App& command = add_command(app, "serve", kServeHelp, [o] { return run_serve(*o); });
    command.add_option("--db", o->databases)
        ->type_name("DIR")
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);  // one directory per --db, as the shell passed it (no "[a,b]" lists)
    add_integer(command, "--port", o->server.port, 0, 65535);
    command.add_option("--bind", o->server.bind_address)->type_name("ADDR");
    add_integer(command, "--threads", o->server.limits.threads, 1, 1024);
    add_integer(command, "--max-connections", o->server.limits.max_connections, 1, 1 << 20);
    add_integer(command, "--connections-per-address", o->server.limits.connections_per_address, 0, 1 << 20);
    command.add_option_function<long long>("--idle-timeout", [o = o.get()](long long seconds) {
        o->server.limits.idle_timeout = std::chrono::seconds(seconds);
    })->type_name("S")->check(CLI::Range(1LL, 3600LL));
    add_integer(command, "--cache-mb", o->cache_mb, 1, 1 << 20);
}

}  // namespace egdb::cli
