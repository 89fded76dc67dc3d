// The HTTP server of `egdb serve`: the tablebase API (lila-tablebase's shape, report_json.hpp),
// the web page (web/, embedded at build time), /health and /metrics, over cpp-httplib.
//
//   GET /international?fen=FEN           the position's value and every move, best first
//   GET /international/mainline?fen=FEN  the principal variation by DTW and the winner
//   GET /health                          {"status": "ok", "databases": [...]}
//   GET /metrics                         ServerMetrics::to_json
//   GET /, /app.js, /style.css           the page
//
// Errors are JSON {"error": ...}: 400 for a missing, overlong or malformed FEN (naming the token
// and its offset), 404 for a position no database can answer and for unknown paths, 500 for a
// failure of the database itself (corrupt or unreadable files).
//
// Bounds (ServerLimits): a fixed number of worker threads, each serving one connection at a
// time, a bounded queue of accepted connections (connection_queue.hpp) and a bounded listen
// backlog before it (beyond which the kernel refuses connections); timeouts on reading
// a request and writing a response and on idle keep-alive connections; a cap on requests per
// connection, on the request line and headers (cpp-httplib's 8 KiB each), on the body and on the
// FEN. The work of one request is bounded by the database (a report looks up each move once).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "core/probe/database.hpp"

namespace egdb::serve {

struct ServerLimits {
    std::size_t threads = 64;        // connections served at once
    std::size_t queued_connections = 256;  // accepted connections waiting for a worker
    std::size_t listen_backlog = 512;      // connections the kernel holds before they are accepted
    std::chrono::milliseconds read_timeout{5000};        // to receive a request
    std::chrono::milliseconds write_timeout{5000};       // to send a response
    std::chrono::seconds keep_alive_timeout{2};          // an idle connection is closed after this
    std::size_t requests_per_connection = 1000;          // then the connection is closed
    std::size_t max_body_bytes = 1024;                   // the API takes no body
    std::size_t max_fen_bytes = 256;                     // a FEN of 40 pieces has about 130
};

struct ServerOptions {
    std::string bind_address = "127.0.0.1";
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
    void run();
    // Stops accepting, lets the connections being served finish, and makes run() return.
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace egdb::serve
