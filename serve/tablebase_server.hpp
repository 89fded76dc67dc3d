// The HTTP server of `egdb serve`: the tablebase API (lila-tablebase's shape, report_json.hpp),
// the web page (web/, embedded at build time), /health and /metrics, over GNU libmicrohttpd.
//
//   GET /international?fen=FEN           the position's value and every move, best first
//   GET /international/mainline?fen=FEN  the principal variation by DTW and the winner
//   GET /health                          {"status": "ok", "databases": [...]}
//   GET /metrics                         ServerMetrics::to_json
//   GET /, /app.js, /style.css           the page
//
// Errors are JSON {"error": ...}: 400 for a missing, overlong or malformed FEN (naming the token
// and its offset), 404 for a position no database can answer and for unknown paths, 405 for a
// method other than GET and HEAD, 413 for a body, 414 for a request target over its limit, 500
// for a failure of the database itself (corrupt or unreadable files).
//
// Connections are served by a few event-loop threads (libmicrohttpd's epoll thread pool, one per
// core by default), each answering the requests of all its connections in turn: a report takes
// tens of microseconds, so a thread per connection (as cpp-httplib does) only adds context
// switches, and on 2 cores 64 such threads were most of the latency at 64 clients. A slow or
// idle connection holds no thread, only one of `max_connections` slots and its memory pool.
//
// Bounds (ServerLimits): the connections open at once (in all and per client address; more are
// accepted and closed at once), the listen backlog before them, the memory of a connection
// (request line and headers must fit in it), an inactivity timeout (a request that stops
// arriving, an answer the client stops reading, an idle keep-alive connection), requests per
// connection, the request target, the body and the FEN. The work of one request is bounded by the
// database (a report looks up each move once; a search gives up after a fixed number of
// positions).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "core/probe/database.hpp"

namespace egdb::serve {

// The page cache `egdb serve` gives each database by default (MiB of decoded pages). A report
// looks up every move's successor, a few dozen pages for a 5-piece position; with 64 MiB, random
// 5-piece positions spent a tenth of the server's time decompressing pages again, and the p99 at
// 64 clients was 2.1 ms against 1.6 ms with this (egdb bench serve, README).
inline constexpr std::size_t kServerCacheMiB = 256;

struct ServerLimits {
    std::size_t threads = 0;                   // event-loop threads; 0: one per core
    std::size_t max_connections = 1024;        // open at once; more are closed when accepted
    std::size_t connections_per_address = 256; // open at once from one client address; 0: no limit
    std::size_t listen_backlog = 512;          // connections the kernel holds before they are accepted
    std::chrono::seconds idle_timeout{5};      // a connection on which nothing moves is closed after this
    std::size_t requests_per_connection = 1000;  // then the connection is closed
    std::size_t connection_memory_bytes = 32768; // request line, headers and buffers of one connection
    std::size_t max_target_bytes = 8192;       // path and query of a request (414 beyond)
    std::size_t max_body_bytes = 1024;         // the API takes no body (413 beyond)
    std::size_t max_fen_bytes = 256;           // a FEN of 40 pieces has about 130
};

struct ServerOptions {
    std::string bind_address = "127.0.0.1";  // a numeric IPv4 or IPv6 address or a host name
    int port = 8080;  // 0: any free port (TablebaseServer::port says which)
    ServerLimits limits;
};

class TablebaseServer {
public:
    // Serves `databases` (borrowed; they must outlive the server): a position is answered by the
    // first database that can answer it, so a small fast one can come before a larger one.
    // Throws std::invalid_argument for an empty list or limits of zero.
    TablebaseServer(std::span<const Database* const> databases, ServerOptions options);
    ~TablebaseServer();
    TablebaseServer(const TablebaseServer&) = delete;
    TablebaseServer& operator=(const TablebaseServer&) = delete;

    // Binds the listening socket; returns the port. Throws std::runtime_error when it cannot.
    int bind();
    int port() const noexcept;
    // Serves until stop() (from another thread, or a signal-handling thread). Call bind() first.
    // Throws std::runtime_error when the event loop cannot start.
    void run();
    // Makes run() stop accepting, close the connections (requests being answered finish first)
    // and return. Safe from any thread, before or during run().
    void stop();

    // The event-loop threads run() starts (ServerLimits::threads, 0 resolved).
    std::size_t threads() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace egdb::serve
