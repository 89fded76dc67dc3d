// `egdb serve` in a program built without the HTTP server (EGDB_HTTP=OFF: the egdb of the Python
// wheels, cross-built for systems without libmicrohttpd). The command exists, so that its help
// and its failure say where a server can be had, instead of "unknown command".
#include "cli/command.hpp"

#include "core/util/error.hpp"

namespace egdb::cli {

namespace {

constexpr const char* kUnavailable =
    "this egdb was built without the HTTP server (EGDB_HTTP=OFF, as the egdb program of the Python "
    "wheels is); the egdb of the install prefix (dist/egdb-<version>-linux-x86_64.tar.gz) or one built "
    "from source (scripts/setup.sh && scripts/run.sh) has egdb serve";

}  // namespace

void add_serve(CLI::App& app) {
    CLI::App& command = add_command(app, "serve", std::string("usage: egdb serve --db DIR ...\n") + kUnavailable + ".\n",
                                    []() -> int { throw RuntimeError(ErrorKind::Unsupported, kUnavailable); });
    command.allow_extras();
}

}  // namespace egdb::cli
