#include "serve/tablebase_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/notation/fen.hpp"
#include "serve/connection_queue.hpp"
#include "serve/report_json.hpp"
#include "serve/server_metrics.hpp"
#include "serve/web_assets.hpp"

namespace egdb::serve {
namespace {

using httplib::Request;
using httplib::Response;

// cpp-httplib owns the TaskQueue it is given and deletes it when listening ends; the workers
// and their counts belong to the server, so this only forwards to them.
class QueueHandle final : public httplib::TaskQueue {
public:
    explicit QueueHandle(ConnectionQueue& queue) : queue_(queue) {}
    void enqueue(std::function<void()> fn) override { queue_.enqueue(std::move(fn)); }
    void shutdown() override { queue_.shutdown(); }

private:
    ConnectionQueue& queue_;
};

// cpp-httplib's Server with access to its listening socket: the library (as Debian builds it)
// listens with a backlog of 5, so a burst of clients connecting at once would see SYNs dropped
// and retried after 1, 3, 7 s. Linux lets listen() be called again on a listening socket to set
// a larger backlog, which bind() does through this.
class HttpServer final : public httplib::Server {
public:
    bool set_backlog(int backlog) const { return ::listen(svr_sock_, backlog) == 0; }
};

void answer_json(Response& res, int status, const std::string& text) {
    res.status = status;
    res.set_content(text, "application/json");
}

void answer_json(Response& res, int status, const Json& body) { answer_json(res, status, json_text(body)); }

}  // namespace

struct TablebaseServer::Impl {
    Impl(std::span<const Database* const> dbs, ServerOptions o)
        : databases(dbs.begin(), dbs.end()),
          options(std::move(o)),
          queue(options.limits.threads, options.limits.queued_connections) {}

    // The position of the request's `fen` parameter, or nullopt with the 400 answer written.
    std::optional<FenPosition> requested_position(const Request& req, Response& res) const {
        if (!req.has_param("fen")) {
            answer_json(res, 400, error_json("missing query parameter fen"));
            return std::nullopt;
        }
        const std::string& text = req.get_param_value("fen");
        if (text.size() > options.limits.max_fen_bytes) {
            answer_json(res, 400, error_json("fen is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                                             std::to_string(options.limits.max_fen_bytes)));
            return std::nullopt;
        }
        try {
            return parse_fen(text);
        } catch (const FenError& e) {
            answer_json(res, 400, error_json(e));
            return std::nullopt;
        }
    }

    // Answers with `report(db, position, side)` of the first database that can answer the
    // position; 404 naming why when none can.
    template <class Report>
    void answer_position(const Request& req, Response& res, Report report) const {
        const std::optional<FenPosition> fp = requested_position(req, res);
        if (!fp) return;
        const int pieces = std::popcount(fp->position.black | fp->position.white);
        std::string why = "no database holds positions of " + std::to_string(pieces) + " pieces";
        for (const Database* db : databases) {
            if (db->max_pieces() < pieces) continue;
            try {
                answer_json(res, 200, report(*db, fp->position, fp->side_to_move));
                return;
            } catch (const LookupNotPossible& e) {
                why = e.what();
            }
        }
        answer_json(res, 404, error_json("position not in the database: " + why));
    }

    // A handler that records its route, status and time in the metrics, and answers a failure
    // of the database itself (corrupt or unreadable data) with a 500 that says what failed.
    httplib::Server::Handler timed(Route route, httplib::Server::Handler handler) {
        return [this, route, handler = std::move(handler)](const Request& req, Response& res) {
            const auto start = std::chrono::steady_clock::now();
            try {
                handler(req, res);
            } catch (const std::exception& e) {
                answer_json(res, 500, error_json(e.what()));
            }
            metrics.record(route, res.status,
                           std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start));
        };
    }

    Json health() const {
        Json list = Json::array();
        for (const Database* db : databases) {
            list.push_back({{"directory", db->directory().string()},
                            {"type", to_string(db->type())},
                            {"max_pieces", db->max_pieces()},
                            {"wld", db->has_wld()},
                            {"dtw", db->has_dtw()},
                            {"mtc", db->has_mtc()}});
        }
        return {{"status", "ok"}, {"databases", std::move(list)}};
    }

    void add_routes() {
        http.Get("/international", timed(Route::Probe, [this](const Request& req, Response& res) {
            answer_position(req, res, [](const Database& db, const Position& p, Color side) {
                return tablebase_json_text(workflow::tablebase_report(db, p, side));
            });
        }));
        http.Get("/international/mainline", timed(Route::Mainline, [this](const Request& req, Response& res) {
            answer_position(req, res, [](const Database& db, const Position& p, Color side) {
                return mainline_json_text(workflow::mainline_report(db, p, side));
            });
        }));
        http.Get("/health", timed(Route::Health, [this](const Request&, Response& res) { answer_json(res, 200, health()); }));
        http.Get("/metrics", timed(Route::Metrics, [this](const Request&, Response& res) {
            const ConnectionQueue::Counts c = queue.counts();
            answer_json(res, 200, metrics.to_json({c.threads, c.active, c.queued, c.queue_limit}));
        }));
        for (const WebAsset& asset : web_assets()) {
            auto serve_asset = timed(Route::Page, [asset](const Request&, Response& res) {
                res.status = 200;
                res.set_content(asset.content.data(), asset.content.size(), std::string(asset.content_type).c_str());
            });
            http.Get(std::string(asset.path), serve_asset);
            if (asset.path == "/index.html") http.Get("/", serve_asset);
        }
        // What no route answered (an unknown path, a method other than GET, a request line or
        // body over the limits) gets a JSON error too; the routes' own errors keep their body.
        http.set_error_handler([this](const Request& req, Response& res) {
            if (!res.body.empty()) return;
            const std::string what = res.status == 404   ? "no such path: " + req.path
                                     : res.status == 413 ? std::string("request body too large")
                                     : res.status == 414 ? std::string("request line too long")
                                                         : "request rejected with HTTP status " + std::to_string(res.status);
            answer_json(res, res.status, error_json(what));
            metrics.record(Route::Other, res.status, std::chrono::microseconds{0});
        });
    }

    void configure() {
        const ServerLimits& l = options.limits;
        http.new_task_queue = [this] { return new QueueHandle(queue); };
        http.set_tcp_nodelay(true);
        http.set_read_timeout(l.read_timeout);
        http.set_write_timeout(l.write_timeout);
        http.set_keep_alive_timeout(static_cast<time_t>(l.keep_alive_timeout.count()));
        http.set_keep_alive_max_count(l.requests_per_connection);
        http.set_payload_max_length(l.max_body_bytes);
        // Any page may ask the API (as lila-tablebase allows), a bot's page included.
        http.set_default_headers({{"Access-Control-Allow-Origin", "*"}});
        add_routes();
    }

    std::vector<const Database*> databases;
    ServerOptions options;
    ServerMetrics metrics;
    ConnectionQueue queue;   // declared before http: destroyed after it
    HttpServer http;
    int port = -1;
};

TablebaseServer::TablebaseServer(std::span<const Database* const> databases, ServerOptions options) {
    if (databases.empty()) throw std::invalid_argument("the server needs at least one database");
    const ServerLimits& l = options.limits;
    if (l.threads == 0 || l.queued_connections == 0 || l.listen_backlog == 0 || l.listen_backlog > 65535 || l.requests_per_connection == 0 || l.max_fen_bytes == 0 ||
        l.read_timeout.count() <= 0 || l.write_timeout.count() <= 0 || l.keep_alive_timeout.count() <= 0) {
        throw std::invalid_argument("server limits must be positive");
    }
    impl_ = std::make_unique<Impl>(databases, std::move(options));
    impl_->configure();
}

TablebaseServer::~TablebaseServer() { stop(); }

int TablebaseServer::bind() {
    const ServerOptions& o = impl_->options;
    errno = 0;
    const int port = o.port == 0 ? impl_->http.bind_to_any_port(o.bind_address)
                                 : (impl_->http.bind_to_port(o.bind_address, o.port) ? o.port : -1);
    if (port < 0) {
        const int error = errno;
        throw std::runtime_error("cannot listen on " + o.bind_address + ":" + std::to_string(o.port) +
                                 (error != 0 ? std::string(": ") + std::strerror(error) : std::string()));
    }
    if (!impl_->http.set_backlog(static_cast<int>(o.limits.listen_backlog))) {
        throw std::runtime_error(std::string("cannot set the listen backlog: ") + std::strerror(errno));
    }
    impl_->port = port;
    return port;
}

int TablebaseServer::port() const noexcept { return impl_->port; }

void TablebaseServer::run() { impl_->http.listen_after_bind(); }

void TablebaseServer::stop() {
    impl_->queue.close();
    impl_->http.stop();
}

}  // namespace egdb::serve
