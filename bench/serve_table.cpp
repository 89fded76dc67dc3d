#include "bench/serve_table.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <strings.h>
#include <thread>

#include "bench/random_samples.hpp"
#include "core/notation/fen.hpp"
#include "core/probe/database.hpp"
#include "core/workflow/probe_report.hpp"
#include "serve/report_json.hpp"
#include "serve/tablebase_server.hpp"

namespace egdb::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Row {
    std::string source;
    int clients = 1;
    std::size_t requests = 0;
    std::size_t errors = 0;
    double seconds = 0;
    std::vector<double> latencies_us;
};

double percentile(std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

void print_row(std::ostream& out, Row& r) {
    std::sort(r.latencies_us.begin(), r.latencies_us.end());
    char line[256];
    std::snprintf(line, sizeof line, "%-38s %7d %9zu %10.0f %9.0f %9.0f %9.0f %9.0f %7zu\n", r.source.c_str(), r.clients,
                  r.requests, static_cast<double>(r.requests) / r.seconds, percentile(r.latencies_us, 0.5),
                  percentile(r.latencies_us, 0.9), percentile(r.latencies_us, 0.99),
                  r.latencies_us.empty() ? 0.0 : r.latencies_us.back(), r.errors);
    out << line << std::flush;
}

double microseconds_since(Clock::time_point start) {
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// `clients` keep-alive connections asking the positions in turn until `requests` are made or
// `seconds` have passed; a request that fails or is not answered 200 is an error.
Row load(int port, const std::vector<std::string>& targets, int clients, const ServeBenchOptions& o) {
    Row row{.source = "GET /international (httplib threads)", .clients = clients};
    std::atomic<std::size_t> next{0};
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(clients));
    std::vector<std::size_t> errors(static_cast<std::size_t>(clients), 0);
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < clients; ++t) {
        threads.emplace_back([&, t] {
            httplib::Client client("127.0.0.1", port);
            client.set_keep_alive(true);
            client.set_tcp_nodelay(true);
            client.set_read_timeout(std::chrono::seconds(10));
            auto& mine = latencies[static_cast<std::size_t>(t)];
            for (;;) {
                const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
                if (k >= o.requests || Clock::now() >= deadline) break;
                const auto sent = Clock::now();
                const auto res = client.Get(targets[k % targets.size()]);
                mine.push_back(microseconds_since(sent));
                if (!res || res->status != 200) ++errors[static_cast<std::size_t>(t)];
            }
        });
    }
    for (std::thread& t : threads) t.join();
    row.seconds = microseconds_since(start) / 1e6;
    for (std::size_t t = 0; t < latencies.size(); ++t) {
        row.latencies_us.insert(row.latencies_us.end(), latencies[t].begin(), latencies[t].end());
        row.errors += errors[t];
    }
    row.requests = row.latencies_us.size();
    return row;
}

// One keep-alive connection of the event-driven load generator.
struct EpollConnection {
    int fd = -1;
    std::string in;            // bytes of the answer read so far
    Clock::time_point sent{};  // when the request in flight was sent
    bool busy = false;
};

int connect_loopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        const int error = errno;
        ::close(fd);
        throw std::runtime_error(std::string("connect to the server: ") + std::strerror(error));
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// The length of a whole answer at the front of `in` (headers and Content-Length bytes of body),
// 0 while incomplete; `status` and `closes` (Connection: close) filled when whole. The header
// lines are read in place (no copy, names compared without case): the generator shares the cores
// with the server, so what it spends per answer is taken from the server.
std::size_t whole_answer(const std::string& in, int& status, bool& closes) {
    const std::size_t end = in.find("\r\n\r\n");
    if (end == std::string::npos) return 0;
    std::size_t body = 0;
    bool close_seen = false;
    for (std::size_t line = in.find("\r\n") + 2; line < end + 2;) {
        const std::size_t next = in.find("\r\n", line);
        const char* text = in.data() + line;
        const std::size_t length = next - line;
        constexpr std::string_view kLength = "content-length:", kConnection = "connection:";
        if (length > kLength.size() && ::strncasecmp(text, kLength.data(), kLength.size()) == 0) {
            body = std::strtoull(text + kLength.size(), nullptr, 10);
        } else if (length > kConnection.size() && ::strncasecmp(text, kConnection.data(), kConnection.size()) == 0) {
            const std::string_view value = std::string_view(text + kConnection.size(), length - kConnection.size());
            close_seen = value.find("close") != std::string_view::npos || value.find("Close") != std::string_view::npos;
        }
        line = next + 2;
    }
    if (in.size() < end + 4 + body) return 0;
    status = end > 12 ? std::atoi(in.c_str() + 9) : 0;
    closes = close_seen;
    return end + 4 + body;
}

// The same load as `load` (closed loop: each connection sends its next request when the answer
// to the last is whole), driven by one thread over epoll as wrk and h2load drive theirs, so that
// the generator takes little of the cores the server shares with it.
Row load_epoll(int port, const std::vector<std::string>& targets, int clients, const ServeBenchOptions& o) {
    Row row{.source = "GET /international (epoll client)", .clients = clients};
    std::vector<std::string> requests;
    requests.reserve(targets.size());
    for (const std::string& t : targets) requests.push_back("GET " + t + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) throw std::runtime_error(std::string("epoll_create1: ") + std::strerror(errno));
    std::vector<EpollConnection> connections(static_cast<std::size_t>(clients));
    std::size_t next = 0;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    auto open = [&](std::size_t c) {
        connections[c].fd = connect_loopback(port);
        epoll_event event{.events = EPOLLIN, .data = {.u64 = c}};
        ::epoll_ctl(epoll, EPOLL_CTL_ADD, connections[c].fd, &event);
    };
    std::size_t in_flight = 0;
    auto send_next = [&](std::size_t c) {
        EpollConnection& k = connections[c];
        if (k.busy) --in_flight;
        k.busy = false;
        if (next >= o.requests || Clock::now() >= deadline) return;
        const std::string& r = requests[next++ % requests.size()];
        k.sent = Clock::now();
        // A request of some 150 bytes fits the socket's buffer whole.
        if (::send(k.fd, r.data(), r.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(r.size())) {
            ++row.errors;
            return;
        }
        k.busy = true;
        ++in_flight;
    };
    const auto start = Clock::now();
    for (std::size_t c = 0; c < connections.size(); ++c) open(c);
    for (std::size_t c = 0; c < connections.size(); ++c) send_next(c);
    std::vector<epoll_event> events(connections.size());
    char buffer[65536];
    while (in_flight > 0) {
        const int n = ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), 10'000);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            row.errors += in_flight;
            break;  // nothing answered for 10 s
        }
        for (int e = 0; e < n; ++e) {
            const auto c = static_cast<std::size_t>(events[static_cast<std::size_t>(e)].data.u64);
            EpollConnection& k = connections[c];
            const ssize_t got = ::recv(k.fd, buffer, sizeof buffer, 0);
            if (got > 0) k.in.append(buffer, static_cast<std::size_t>(got));
            int status = 0;
            bool closes = false;
            const std::size_t length = k.busy ? whole_answer(k.in, status, closes) : 0;
            if (length > 0) {
                row.latencies_us.push_back(microseconds_since(k.sent));
                if (status != 200) ++row.errors;
                k.in.erase(0, length);
            }
            if (got <= 0 || closes) {
                // The server ended the connection (its requests_per_connection): a fresh one.
                if (k.busy && length == 0) ++row.errors;
                ::close(k.fd);
                k.in.clear();
                open(c);
            }
            if (length > 0 || (got <= 0 && k.busy)) send_next(c);
        }
    }
    row.seconds = microseconds_since(start) / 1e6;
    for (const EpollConnection& k : connections) ::close(k.fd);
    ::close(epoll);
    row.requests = row.latencies_us.size();
    return row;
}

}  // namespace

void print_serve_benchmark(std::ostream& out, const ServeBenchOptions& o) {
    DatabaseOptions database_options;
    database_options.cache_bytes = o.cache_mb << 20;
    const std::unique_ptr<Database> db = Database::open(split_directory_list(o.database), database_options);
    const int pieces = o.pieces == 0 ? db->max_pieces() : o.pieces;
    if (pieces > db->max_pieces()) {
        throw std::invalid_argument("--pieces " + std::to_string(pieces) + " is more than the database's " +
                                    std::to_string(db->max_pieces()));
    }
    const std::vector<Sample> samples = random_samples(pieces, o.positions);
    std::vector<std::string> targets;
    std::ofstream fens;
    if (!o.fens_out.empty()) fens.open(o.fens_out);
    for (const Sample& s : samples) {
        const std::string fen = to_fen(s.position, s.side);
        targets.push_back("/international?fen=" + httplib::detail::encode_query_param(fen));
        if (fens) fens << fen << '\n';
    }

    char header[512];
    std::snprintf(header, sizeof header,
                  "egdb bench serve: %zu random positions of %d pieces (%s), at most %zu requests or %.0f s per row;\n"
                  "latencies in microseconds, per request as the client sees it (offline: per report in this process)\n"
                  "%-38s %7s %9s %10s %9s %9s %9s %9s %7s\n",
                  samples.size(), pieces, db->directory().string().c_str(), o.requests, o.seconds, "source", "clients",
                  "requests", "req/s", "p50", "p90", "p99", "max", "errors");
    out << header;

    // Offline: the report and its JSON text, as `egdb probe --json --moves` makes them; a first
    // pass warms the page cache for every row alike.
    for (const Sample& s : samples) (void)workflow::tablebase_report(*db, s.position, s.side);
    Row offline{.source = "offline (probe --json --moves)", .clients = 1};
    const auto start = Clock::now();
    for (std::size_t k = 0; k < std::min(o.requests, samples.size() * 4); ++k) {
        const Sample& s = samples[k % samples.size()];
        const auto t = Clock::now();
        const std::string text = serve::tablebase_json_text(workflow::tablebase_report(*db, s.position, s.side));
        offline.latencies_us.push_back(microseconds_since(t));
        if (text.empty()) ++offline.errors;
    }
    offline.seconds = microseconds_since(start) / 1e6;
    offline.requests = offline.latencies_us.size();
    print_row(out, offline);

    serve::ServerOptions server_options;
    server_options.port = 0;
    server_options.limits.threads = o.server_threads;
    const Database* const list[] = {db.get()};
    // A fresh server per row, so that its /metrics (the time inside the handler, without the
    // network, the queueing and the client) covers that row alone. Each client count runs twice:
    // one blocking httplib::Client thread per connection, then all connections driven by one
    // epoll thread, which leaves the shared cores to the server.
    using Loader = Row (*)(int, const std::vector<std::string>&, int, const ServeBenchOptions&);
    for (const int clients : o.clients) {
        for (const Loader loader : {Loader{&load}, Loader{&load_epoll}}) {
            serve::TablebaseServer server(list, server_options);
            const int port = server.bind();
            std::thread runner([&server] { server.run(); });
            Row row = loader(port, targets, clients, o);
            print_row(out, row);
            httplib::Client metrics_client("127.0.0.1", port);
            if (const auto res = metrics_client.Get("/metrics"); res && res->status == 200) {
                const serve::Json latency = serve::Json::parse(res->body).at("routes").at("/international").at("latency_us");
                char line[160];
                std::snprintf(line, sizeof line, "  %-36s %7s %9s %10s %9lld %9lld %9lld %9lld\n", "(inside the server handler)", "", "",
                              "", latency.at("p50").get<long long>(), latency.at("p90").get<long long>(),
                              latency.at("p99").get<long long>(), latency.at("max").get<long long>());
                out << line;
            }
            server.stop();
            runner.join();
        }
    }
}

}  // namespace egdb::bench
