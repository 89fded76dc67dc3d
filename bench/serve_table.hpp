// `egdb bench serve --db DIR`: the tablebase server under load on loopback. Random positions of
// one size class are asked of GET /international by 1, 8 and 64 concurrent clients (each a
// keep-alive connection, one request at a time), with requests per second and latency
// percentiles as the clients see them, beside the same reports made offline in one thread (what
// `egdb probe --json --moves` computes and prints per position). Every row is bounded in
// requests and in time. The server runs in this process on an ephemeral loopback port with its
// default limits, so clients and server share the machine's cores as they would on one host;
// below each row, the server's own handler latencies (its /metrics, one fresh server per row).
// Each client count is driven twice: by one blocking httplib::Client thread per connection, and
// by one epoll thread over all connections (as wrk does), which takes less of the shared cores.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "serve/tablebase_server.hpp"

namespace egdb::bench {

struct ServeBenchOptions {
    std::string database;               // a directory or a ';' list, as --db of probe and serve
    int pieces = 0;                     // positions with exactly this many pieces (0: the maximum)
    std::size_t positions = 2000;       // distinct random positions, asked in turn
    std::size_t requests = 20000;       // per row at most
    double seconds = 10.0;              // per row at most
    std::vector<int> clients{1, 8, 64};
    std::size_t cache_mb = serve::kServerCacheMiB;  // the database's page cache, as egdb serve's default
    std::size_t server_threads = 0;     // the server's event-loop threads (0: its default, one per core)
    std::filesystem::path fens_out;     // when set, the positions' FENs, one a line
};

void print_serve_benchmark(std::ostream& out, const ServeBenchOptions& options);

}  // namespace egdb::bench
