#include "serve/tablebase_server.hpp"

#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "core/notation/fen.hpp"
#include "serve/report_json.hpp"
#include "serve/server_metrics.hpp"
#include "serve/web_assets.hpp"

namespace egdb::serve {
namespace {

using Clock = std::chrono::steady_clock;

// What the server keeps about one TCP connection (libmicrohttpd's socket context), allocated when
// it opens and freed when it closes: its request count, and the request being received.
struct ConnectionState {
    std::size_t requests = 0;    // answered on this connection, this one included once answered
    std::size_t target_bytes = 0;  // path and query of the request being received
    std::size_t body_bytes = 0;    // of its body, received so far
    Clock::time_point started{};   // when its target arrived
    bool headers_seen = false;     // the handler was called for it once
    bool answered = false;         // a response is queued for it
};

// The answer to one request, built by the routes and queued by the handler.
struct Answer {
    int status = 200;
    std::string body;
    const char* content_type = "application/json";  // libmicrohttpd copies it
    std::string_view static_body{};  // an embedded page asset instead of `body`
    bool allow_get_only = false;     // a 405: says which methods are allowed
};

Answer json_answer(int status, std::string text) { return {.status = status, .body = std::move(text)}; }

Answer json_answer(int status, const Json& body) { return json_answer(status, json_text(body)); }

// A listening TCP socket, closed unless handed over.
class ListenSocket {
public:
    ListenSocket() = default;
    explicit ListenSocket(int fd) : fd_(fd) {}
    ListenSocket(ListenSocket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    ListenSocket& operator=(ListenSocket&& other) noexcept {
        if (this != &other) {
            reset();
            fd_ = std::exchange(other.fd_, -1);
        }
        return *this;
    }
    ~ListenSocket() { reset(); }
    int get() const noexcept { return fd_; }
    int release() noexcept { return std::exchange(fd_, -1); }
    void reset() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

// Binds and listens on the first address `host` resolves to; the port chosen when `port` is 0.
ListenSocket listen_on(const std::string& host, int port, int backlog, int& bound_port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found); rc != 0) {
        throw std::runtime_error("cannot listen on " + host + ":" + service + ": " + ::gai_strerror(rc));
    }
    std::string failure = "no address";
    ListenSocket socket;
    for (const addrinfo* a = found; a != nullptr && socket.get() < 0; a = a->ai_next) {
        ListenSocket candidate(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol));
        if (candidate.get() < 0) {
            failure = std::strerror(errno);
            continue;
        }
        const int one = 1;
        ::setsockopt(candidate.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (::bind(candidate.get(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(candidate.get(), backlog) != 0) {
            failure = std::strerror(errno);
            continue;
        }
        socket = std::move(candidate);
    }
    ::freeaddrinfo(found);
    if (socket.get() < 0) throw std::runtime_error("cannot listen on " + host + ":" + service + ": " + failure);
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(socket.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        throw std::runtime_error(std::string("cannot read the listening port: ") + std::strerror(errno));
    }
    bound_port = address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port)
                                               : ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
    return socket;
}

unsigned to_unsigned(std::size_t value) {
    return static_cast<unsigned>(std::min<std::size_t>(value, std::numeric_limits<unsigned>::max()));
}

}  // namespace

struct TablebaseServer::Impl {
    Impl(std::span<const Database* const> dbs, ServerOptions o)
        : databases(dbs.begin(), dbs.end()),
          options(std::move(o)),
          threads(options.limits.threads != 0 ? options.limits.threads
                                              : std::max(1u, std::thread::hardware_concurrency())) {}

    // --- routes ------------------------------------------------------------------------------

    // The position of the request's `fen` parameter, or the 400 answer.
    std::variant<FenPosition, Answer> requested_position(MHD_Connection* connection) const {
        const char* value = nullptr;
        std::size_t size = 0;
        if (MHD_lookup_connection_value_n(connection, MHD_GET_ARGUMENT_KIND, "fen", 3, &value, &size) != MHD_YES ||
            value == nullptr) {
            return json_answer(400, error_json("missing query parameter fen"));
        }
        if (size > options.limits.max_fen_bytes) {
            return json_answer(400, error_json("fen is " + std::to_string(size) + " bytes, more than the limit of " +
                                               std::to_string(options.limits.max_fen_bytes)));
        }
        try {
            return parse_fen(std::string_view(value, size));
        } catch (const FenError& e) {
            return json_answer(400, error_json(e));
        }
    }

    // The text of `report(db, position, side)` of the first database that can answer the
    // position; 404 naming why when none can.
    template <class Report>
    Answer answer_position(MHD_Connection* connection, Report report) const {
        auto requested = requested_position(connection);
        if (Answer* refused = std::get_if<Answer>(&requested)) return std::move(*refused);
        const FenPosition& fp = std::get<FenPosition>(requested);
        const int pieces = std::popcount(fp.position.black | fp.position.white);
        std::string why = "no database holds positions of " + std::to_string(pieces) + " pieces";
        for (const Database* db : databases) {
            if (db->max_pieces() < pieces) continue;
            try {
                return json_answer(200, report(*db, fp.position, fp.side_to_move));
            } catch (const LookupNotPossible& e) {
                why = e.what();
            }
        }
        return json_answer(404, error_json("position not in the database: " + why));
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

    // The route of `path` and its answer; a failure of the database itself is a 500 saying what
    // failed.
    Answer route(MHD_Connection* connection, std::string_view path, Route& taken) const {
        try {
            if (path == "/international") {
                taken = Route::Probe;
                return answer_position(connection, [](const Database& db, const Position& p, Color side) {
                    return tablebase_json_text(workflow::tablebase_report(db, p, side));
                });
            }
            if (path == "/international/mainline") {
                taken = Route::Mainline;
                return answer_position(connection, [](const Database& db, const Position& p, Color side) {
                    return mainline_json_text(workflow::mainline_report(db, p, side));
                });
            }
            if (path == "/health") {
                taken = Route::Health;
                return json_answer(200, health());
            }
            if (path == "/metrics") {
                taken = Route::Metrics;
                return json_answer(200, metrics.to_json({threads, open_connections.load(std::memory_order_relaxed),
                                                         options.limits.max_connections}));
            }
            const std::span<const WebAsset> assets = web_assets();
            for (std::size_t k = 0; k < assets.size(); ++k) {
                if (path == assets[k].path || (path == "/" && assets[k].path == "/index.html")) {
                    taken = Route::Page;
                    return {.status = 200, .content_type = asset_types[k].c_str(), .static_body = assets[k].content};
                }
            }
            taken = Route::Other;
            return json_answer(404, error_json("no such path: " + std::string(path)));
        } catch (const std::exception& e) {
            return json_answer(500, error_json(e.what()));
        }
    }

    // --- libmicrohttpd callbacks ---------------------------------------------------------------

    static void on_connection(void* cls, MHD_Connection*, void** socket_context, MHD_ConnectionNotificationCode code) {
        auto* self = static_cast<Impl*>(cls);
        if (code == MHD_CONNECTION_NOTIFY_STARTED) {
            *socket_context = new (std::nothrow) ConnectionState{};
            self->open_connections.fetch_add(1, std::memory_order_relaxed);
        } else {
            delete static_cast<ConnectionState*>(*socket_context);
            *socket_context = nullptr;
            self->open_connections.fetch_sub(1, std::memory_order_relaxed);
        }
    }

    static ConnectionState* state_of(MHD_Connection* connection) {
        const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        return info == nullptr ? nullptr : static_cast<ConnectionState*>(info->socket_context);
    }

    // Called once a request's target has arrived, before it is parsed: the only place its whole
    // length is seen (the handler gets the path and the decoded arguments). What this returns is
    // the handler's per-request pointer.
    static void* on_request_target(void*, const char* target, MHD_Connection* connection) {
        ConnectionState* state = state_of(connection);
        if (state != nullptr) {
            state->target_bytes = std::strlen(target);
            state->body_bytes = 0;
            state->headers_seen = false;
            state->answered = false;
            state->started = Clock::now();
        }
        return state;
    }

    // The request handler. libmicrohttpd calls it once when the headers are in, then once per
    // piece of body, then once more with no data: the answer is queued at that last call (or
    // earlier, to refuse a body over the limit). Nothing may be thrown into C.
    static MHD_Result on_request(void* cls, MHD_Connection* connection, const char* url, const char* method,
                                 const char*, const char*, std::size_t* upload_data_size, void** request) noexcept {
        auto* self = static_cast<Impl*>(cls);
        auto* state = static_cast<ConnectionState*>(*request);
        if (state == nullptr) return MHD_NO;  // no memory for the connection's state: drop it
        const std::size_t max_body = self->options.limits.max_body_bytes;
        if (state->answered) {
            *upload_data_size = 0;  // the rest of a refused body is read and ignored
            return MHD_YES;
        }
        if (!state->headers_seen) {
            state->headers_seen = true;
            // A declared length over the limit is refused before any of the body is read.
            const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (length != nullptr) {
                const unsigned long long declared = std::strtoull(length, nullptr, 10);
                if (declared > max_body) {
                    state->body_bytes = static_cast<std::size_t>(std::min<unsigned long long>(declared, SIZE_MAX));
                    return self->answer(connection, state, url, method);
                }
            }
            return MHD_YES;  // the body, if any, comes next; then a call without data
        }
        if (*upload_data_size > 0) {
            state->body_bytes += *upload_data_size;
            *upload_data_size = 0;
            if (state->body_bytes <= max_body) return MHD_YES;
        }
        return self->answer(connection, state, url, method);
    }

    MHD_Result answer(MHD_Connection* connection, ConnectionState* state, const char* url, const char* method) {
        const ServerLimits& l = options.limits;
        Route taken = Route::Other;
        Answer a;
        try {
            const std::string_view verb(method);
            if (state->body_bytes > l.max_body_bytes) {
                a = json_answer(413, error_json("request body too large: more than " + std::to_string(l.max_body_bytes) +
                                                " bytes"));
            } else if (state->target_bytes > l.max_target_bytes) {
                a = json_answer(414, error_json("request target too long: " + std::to_string(state->target_bytes) +
                                                " bytes, more than the limit of " + std::to_string(l.max_target_bytes)));
            } else if (verb != MHD_HTTP_METHOD_GET && verb != MHD_HTTP_METHOD_HEAD) {
                a = json_answer(405, error_json("method " + std::string(verb) + " not allowed: the API answers GET"));
                a.allow_get_only = true;
            } else {
                a = route(connection, url, taken);
            }
        } catch (const std::exception&) {  // no memory for an answer: the connection is dropped
            return MHD_NO;
        }
        state->answered = true;
        ++state->requests;
        const bool last = state->requests >= l.requests_per_connection || state->body_bytes > l.max_body_bytes;

        MHD_Response* response =
            a.static_body.data() != nullptr
                ? MHD_create_response_from_buffer(a.static_body.size(), const_cast<char*>(a.static_body.data()),
                                                  MHD_RESPMEM_PERSISTENT)
                : MHD_create_response_from_buffer(a.body.size(), a.body.data(), MHD_RESPMEM_MUST_COPY);
        if (response == nullptr) return MHD_NO;
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, a.content_type);
        // Any page may ask the API (as lila-tablebase allows), a bot's page included.
        MHD_add_response_header(response, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        if (a.allow_get_only) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
        if (last) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
        const MHD_Result queued = MHD_queue_response(connection, static_cast<unsigned>(a.status), response);
        MHD_destroy_response(response);
        metrics.record(taken, a.status, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - state->started));
        return queued;
    }

    std::vector<const Database*> databases;
    ServerOptions options;
    std::size_t threads;
    // The page assets' content types as C strings, made once (web_assets() order).
    std::vector<std::string> asset_types = [] {
        std::vector<std::string> types;
        for (const WebAsset& asset : web_assets()) types.emplace_back(asset.content_type);
        return types;
    }();
    ServerMetrics metrics;
    std::atomic<std::size_t> open_connections{0};

    ListenSocket listener;
    int port = -1;
    std::mutex mutex;
    std::condition_variable stop_requested_changed;
    bool stop_requested = false;
};

TablebaseServer::TablebaseServer(std::span<const Database* const> databases, ServerOptions options) {
    if (databases.empty()) throw std::invalid_argument("the server needs at least one database");
    const ServerLimits& l = options.limits;
    if (l.max_connections == 0 || l.listen_backlog == 0 || l.listen_backlog > 65535 || l.requests_per_connection == 0 ||
        l.max_fen_bytes == 0 || l.max_target_bytes == 0 || l.connection_memory_bytes < 4096 ||
        l.idle_timeout.count() <= 0 || l.threads > 1024) {
        throw std::invalid_argument("server limits must be positive (a connection's memory at least 4096 bytes, at most 1024 threads)");
    }
    impl_ = std::make_unique<Impl>(databases, std::move(options));
}

TablebaseServer::~TablebaseServer() = default;

int TablebaseServer::bind() {
    const ServerOptions& o = impl_->options;
    int port = -1;
    impl_->listener = listen_on(o.bind_address, o.port, static_cast<int>(o.limits.listen_backlog), port);
    impl_->port = port;
    return port;
}

int TablebaseServer::port() const noexcept { return impl_->port; }

std::size_t TablebaseServer::threads() const noexcept { return impl_->threads; }

void TablebaseServer::run() {
    Impl& s = *impl_;
    if (s.listener.get() < 0) throw std::logic_error("TablebaseServer::run: bind() first");
    {
        const std::lock_guard lock(s.mutex);
        if (s.stop_requested) return;
    }
    const ServerLimits& l = s.options.limits;
    // epoll with an internal thread pool; TURBO: no shutdown() before close and optimistic reads.
    // libmicrohttpd owns the listening socket from here and closes it when stopped.
    const int listen_fd = s.listener.get();
    MHD_Daemon* daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_TURBO, 0, nullptr, nullptr,
        &Impl::on_request, &s,
        MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, to_unsigned(s.threads),
        MHD_OPTION_CONNECTION_LIMIT, to_unsigned(l.max_connections),
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, to_unsigned(l.connections_per_address),
        MHD_OPTION_CONNECTION_TIMEOUT, to_unsigned(static_cast<std::size_t>(l.idle_timeout.count())),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, l.connection_memory_bytes,
        MHD_OPTION_NOTIFY_CONNECTION, &Impl::on_connection, &s,
        MHD_OPTION_URI_LOG_CALLBACK, &Impl::on_request_target, &s,
        MHD_OPTION_END);
    if (daemon == nullptr) throw std::runtime_error("cannot start the HTTP event loop (libmicrohttpd)");
    s.listener.release();
    {
        std::unique_lock lock(s.mutex);
        s.stop_requested_changed.wait(lock, [&] { return s.stop_requested; });
    }
    MHD_stop_daemon(daemon);
}

void TablebaseServer::stop() {
    {
        const std::lock_guard lock(impl_->mutex);
        impl_->stop_requested = true;
    }
    impl_->stop_requested_changed.notify_all();
}

}  // namespace egdb::serve
