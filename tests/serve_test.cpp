// `egdb serve` (serve/tablebase_server.hpp) over loopback HTTP on a database the suite builds:
// the JSON of hundreds of positions against the probing API (every move's value is the value of
// the position after it, consistent with the position's own), the same bytes as
// `egdb probe --json --moves`, the main line, the 400 and 404 answers, concurrent clients, slow
// clients, /health and /metrics; and the latency histogram behind /metrics.
#include "serve/tablebase_server.hpp"

#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

#include "core/notation/fen.hpp"
#include "core/notation/hub_position.hpp"
#include "core/rules/movegen.hpp"
#include "core/workflow/build.hpp"
#include "serve/latency_histogram.hpp"
#include "serve/report_json.hpp"
#include "tests/build_helpers.hpp"
#include "tests/scratch_dir.hpp"
#include "tests/shared_dir.hpp"
#include "tests/test_positions.hpp"

namespace egdb {
namespace {

namespace fs = std::filesystem;
using serve::Json;

constexpr int kPieces = 3;

class Serve : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(test::scratch_path("serve_db"));
        workflow::build_database(test::unverified_build(*dir_, kPieces));
        db_ = Database::open(*dir_).release();
        serve::ServerOptions options;
        options.port = 0;
        options.limits.threads = 2;
        options.limits.idle_timeout = std::chrono::seconds(1);
        options.limits.requests_per_connection = 50;
        const Database* const list[] = {db_};
        server_ = new serve::TablebaseServer(list, options);
        port_ = server_->bind();
        runner_ = new std::thread([] { server_->run(); });
    }
    static void TearDownTestSuite() {
        server_->stop();
        runner_->join();
        delete runner_;
        delete server_;
        delete db_;
        delete dir_;
    }

    static httplib::Client client() {
        httplib::Client c("127.0.0.1", port_);
        c.set_read_timeout(std::chrono::seconds(30));
        return c;
    }
    static std::string query(const std::string& path, const std::string& fen) {
        return path + "?fen=" + httplib::detail::encode_query_param(fen);
    }

    // Random positions of 1 to kPieces pieces, each side to move, with both colours present
    // mostly; plus positions where one side has no piece or no move.
    static std::vector<FenPosition> sample_positions(std::size_t count) {
        std::mt19937_64 rng(15);
        std::vector<FenPosition> out = {parse_fen("B:W28:B"), parse_fen("W:W28:B"), parse_fen("W:W46:B41,37")};
        while (out.size() < count) {
            const int pieces = std::uniform_int_distribution<int>(2, kPieces)(rng);
            const int white = std::uniform_int_distribution<int>(1, pieces - 1)(rng);
            const int white_kings = std::uniform_int_distribution<int>(0, white)(rng);
            const int black_kings = std::uniform_int_distribution<int>(0, pieces - white)(rng);
            const Position p = test::random_position(rng, pieces - white - black_kings, black_kings, white - white_kings,
                                                     white_kings);
            out.push_back({p, rng() % 2 == 0 ? Color::White : Color::Black});
        }
        return out;
    }

    static Json expected_value_json(const Position& p, Color side) {
        const WldValue wld = db_->wld(p, side);
        Json j = {{"category", workflow::wld_word(wld)}, {"dtw_plies", nullptr}, {"mtc_plies", nullptr}};
        if (wld != WldValue::Draw) {
            j["dtw_plies"] = db_->dtw(p, side).value();
            j["mtc_plies"] = db_->mtc(p, side).value();
        }
        return j;
    }

    // The answer for a position, checked against the probing API: the position's own value, and
    // for every legal move the value of the position after it; the moves best first, and the best
    // one consistent with the position's value and distance.
    static void expect_report_matches(const FenPosition& fp, const Json& j) {
        const std::string fen = to_fen(fp.position, fp.side_to_move);
        SCOPED_TRACE(fen);
        const Json own = expected_value_json(fp.position, fp.side_to_move);
        EXPECT_EQ(j.at("category"), own.at("category"));
        EXPECT_EQ(j.at("dtw_plies"), own.at("dtw_plies"));
        EXPECT_EQ(j.at("mtc_plies"), own.at("mtc_plies"));
        EXPECT_EQ(j.at("fen"), fen);
        EXPECT_EQ(j.at("hub"), to_hub_position(fp.position, fp.side_to_move));

        MoveList list;
        generate_moves(fp.position, fp.side_to_move, list);
        std::multiset<std::string> successors, listed;
        for (const Move& m : list) successors.insert(to_fen(apply_move(fp.position, fp.side_to_move, m), opposite(fp.side_to_move)));
        const Json& moves = j.at("moves");
        ASSERT_EQ(moves.size(), static_cast<std::size_t>(list.size()));
        int previous_rank = 2;
        for (const Json& m : moves) {
            listed.insert(m.at("fen").get<std::string>());
            const FenPosition after = parse_fen(m.at("fen").get<std::string>());
            EXPECT_EQ(after.side_to_move, opposite(fp.side_to_move));
            const Json value = expected_value_json(after.position, after.side_to_move);
            EXPECT_EQ(m.at("category"), value.at("category")) << m.dump();
            EXPECT_EQ(m.at("dtw_plies"), value.at("dtw_plies")) << m.dump();
            EXPECT_EQ(m.at("mtc_plies"), value.at("mtc_plies")) << m.dump();
            // Hub writes a capture with 'x' and a PDN capture too; the flag says the same.
            const bool capture = m.at("hub").get<std::string>().find('x') != std::string::npos;
            EXPECT_EQ(m.at("capture").get<bool>(), capture) << m.dump();
            EXPECT_EQ(m.at("pdn").get<std::string>().find('x') != std::string::npos, capture) << m.dump();
            // Best first: the mover's result (win 2, draw 1, loss 0) never rises down the list.
            const std::string c = m.at("category");
            const int rank = c == "loss" ? 2 : c == "draw" ? 1 : 0;
            EXPECT_LE(rank, previous_rank) << m.dump();
            previous_rank = rank;
        }
        EXPECT_EQ(listed, successors);

        const std::string category = j.at("category");
        if (moves.empty()) {
            EXPECT_EQ(category, "loss");
            EXPECT_EQ(j.at("dtw_plies"), 0);
            return;
        }
        const Json& best = moves.front();
        if (category == "win") {
            EXPECT_EQ(best.at("category"), "loss");
            EXPECT_EQ(best.at("dtw_plies").get<int>(), j.at("dtw_plies").get<int>() - 1);
        } else if (category == "loss") {
            for (const Json& m : moves) EXPECT_EQ(m.at("category"), "win") << m.dump();
            EXPECT_EQ(best.at("dtw_plies").get<int>(), j.at("dtw_plies").get<int>() - 1);
        } else {
            EXPECT_EQ(best.at("category"), "draw");
            for (const Json& m : moves) EXPECT_NE(m.at("category"), "loss") << m.dump();
        }
    }

    static fs::path* dir_;
    static Database* db_;
    static serve::TablebaseServer* server_;
    static std::thread* runner_;
    static int port_;
};
fs::path* Serve::dir_ = nullptr;
Database* Serve::db_ = nullptr;
serve::TablebaseServer* Serve::server_ = nullptr;
std::thread* Serve::runner_ = nullptr;
int Serve::port_ = 0;

TEST_F(Serve, HundredsOfPositionsMatchTheProbingApi) {
    httplib::Client c = client();
    std::map<std::string, int> categories;
    for (const FenPosition& fp : sample_positions(600)) {
        const auto res = c.Get(query("/international", to_fen(fp.position, fp.side_to_move)));
        ASSERT_TRUE(res) << httplib::to_string(res.error());
        ASSERT_EQ(res->status, 200) << res->body;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
        const Json j = Json::parse(res->body);
        ++categories[j.at("category")];
        expect_report_matches(fp, j);
        if (HasFatalFailure()) return;
    }
    // The sample reaches every outcome, so each branch of the checks above has run.
    EXPECT_GT(categories["win"], 20);
    EXPECT_GT(categories["loss"], 20);
    EXPECT_GT(categories["draw"], 20);
}

TEST_F(Serve, ProbeJsonMovesPrintsTheSameBytesOffline) {
    const std::vector<FenPosition> positions = sample_positions(200);
    const auto scratch = test::scratch_path("serve_cli");
    {
        std::ofstream in(scratch / "fens.txt");
        for (const FenPosition& fp : positions) in << to_fen(fp.position, fp.side_to_move) << '\n';
    }
    // std::string("'"): GCC 12 reports a false -Wrestrict on "'" + std::string&& (its bug 105329).
    const std::string cmd = std::string("'") + test::cli_path().string() + "' probe --db '" + dir_->string() + "' --json --moves - < '" +
                            (scratch / "fens.txt").string() + "' > '" + (scratch / "out.txt").string() + "'";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
    std::ifstream out(scratch / "out.txt");
    httplib::Client c = client();
    std::string line;
    for (const FenPosition& fp : positions) {
        ASSERT_TRUE(std::getline(out, line));
        const auto res = c.Get(query("/international", to_fen(fp.position, fp.side_to_move)));
        ASSERT_TRUE(res);
        EXPECT_EQ(res->body, line);
    }
    EXPECT_FALSE(std::getline(out, line)) << "more lines than positions: " << line;
}

TEST_F(Serve, MainlinePlaysTheBestMovesToTheEnd) {
    httplib::Client c = client();
    int decisive = 0;
    for (const FenPosition& fp : sample_positions(150)) {
        const std::string fen = to_fen(fp.position, fp.side_to_move);
        SCOPED_TRACE(fen);
        const auto res = c.Get(query("/international/mainline", fen));
        ASSERT_TRUE(res);
        ASSERT_EQ(res->status, 200) << res->body;
        const Json j = Json::parse(res->body);
        const WldValue wld = db_->wld(fp.position, fp.side_to_move);
        const Json& line = j.at("mainline");
        if (wld == WldValue::Draw) {
            EXPECT_TRUE(j.at("winner").is_null());
            EXPECT_TRUE(line.empty());
            continue;
        }
        ++decisive;
        const bool white_wins = (wld == WldValue::Win) == (fp.side_to_move == Color::White);
        EXPECT_EQ(j.at("winner"), white_wins ? "w" : "b");
        const int dtw = db_->dtw(fp.position, fp.side_to_move).value();
        ASSERT_EQ(line.size(), static_cast<std::size_t>(dtw));
        // Each step is a legal move of the position before it, and its DTW counts down to 0.
        FenPosition at = fp;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const Json& step = line[i];
            const auto report = c.Get(query("/international", to_fen(at.position, at.side_to_move)));
            ASSERT_TRUE(report);
            const Json moves = Json::parse(report->body).at("moves");
            const bool legal = std::any_of(moves.begin(), moves.end(), [&](const Json& m) { return m.at("fen") == step.at("fen"); });
            EXPECT_TRUE(legal) << step.dump();
            EXPECT_EQ(step.at("dtw_plies").get<int>(), dtw - 1 - static_cast<int>(i));
            at = parse_fen(step.at("fen").get<std::string>());
        }
    }
    EXPECT_GT(decisive, 30);
}

TEST_F(Serve, BadRequestsGet400NamingTheToken) {
    httplib::Client c = client();
    auto expect_error = [&](const std::string& target, int status, const std::string& needle) -> Json {
        const auto res = c.Get(target);
        if (!res) {
            ADD_FAILURE() << "no answer to " << target;
            return Json::object();
        }
        EXPECT_EQ(res->status, status) << target << " " << res->body;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/json") << target;
        const Json j = Json::parse(res->body);
        EXPECT_NE(j.value("error", std::string()).find(needle), std::string::npos) << target << " " << res->body;
        return j;
    };
    Json j = expect_error(query("/international", "W:W51:B1"), 400, "51");
    EXPECT_EQ(j.at("token"), "51");
    EXPECT_EQ(j.at("offset"), 3);
    j = expect_error(query("/international/mainline", "W:W28:X1"), 400, "X");
    EXPECT_EQ(j.at("token"), "X1");
    expect_error(query("/international", "W:W3:B20"), 400, "promotion");
    expect_error(query("/international", ""), 400, "empty");
    expect_error("/international", 400, "missing query parameter fen");
    expect_error("/international/mainline?pos=W:W28:B8", 400, "missing query parameter fen");
    expect_error(query("/international", "W:W28:B8," + std::string(300, '9')), 400, "more than the limit of 256");
    // A request target over its 8 KiB limit: refused before routing, still in JSON.
    expect_error(query("/international", std::string(9000, 'W')), 414, "request target too long");
}

TEST_F(Serve, PositionsOutsideTheDatabaseAndUnknownPathsGet404) {
    httplib::Client c = client();
    for (const std::string& target : {query("/international", "W:W28,29,30:B8,9"), query("/international/mainline", "B:W31-50:B1-20")}) {
        const auto res = c.Get(target);
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 404) << res->body;
        EXPECT_NE(Json::parse(res->body).at("error").get<std::string>().find("not in the database"), std::string::npos)
            << res->body;
    }
    const auto res = c.Get("/tablebase/standard?fen=W:W28:B8");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 404);
    EXPECT_EQ(Json::parse(res->body).at("error"), "no such path: /tablebase/standard");
}

TEST_F(Serve, ConcurrentClientsGetTheAnswersOfTheProbingApi) {
    const std::vector<FenPosition> positions = sample_positions(100);
    std::vector<std::string> expected;
    for (const FenPosition& fp : positions) {
        expected.push_back(serve::tablebase_json_text(workflow::tablebase_report(*db_, fp.position, fp.side_to_move)));
    }
    constexpr int kClients = 16;
    std::vector<int> mismatches(kClients, 0), failures(kClients, 0);
    std::vector<std::thread> clients;
    for (int t = 0; t < kClients; ++t) {
        clients.emplace_back([&, t] {
            httplib::Client c = client();
            for (std::size_t k = 0; k < positions.size(); ++k) {
                const std::size_t i = (k * 7 + static_cast<std::size_t>(t) * 13) % positions.size();
                const auto res = c.Get(query("/international", to_fen(positions[i].position, positions[i].side_to_move)));
                if (!res || res->status != 200) ++failures[static_cast<std::size_t>(t)];
                else if (res->body != expected[i]) ++mismatches[static_cast<std::size_t>(t)];
            }
        });
    }
    for (std::thread& t : clients) t.join();
    for (int t = 0; t < kClients; ++t) {
        EXPECT_EQ(failures[static_cast<std::size_t>(t)], 0) << "client " << t;
        EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << "client " << t;
    }
}

// A raw loopback connection to the server (-1 when it cannot connect), with a 30 s receive
// timeout as the tests' own guard.
int raw_connection(int port) {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(s);
        return -1;
    }
    timeval guard{30, 0};
    ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
    return s;
}

bool send_all(int s, const std::string& bytes) {
    for (std::size_t sent = 0; sent < bytes.size();) {
        const ssize_t n = ::send(s, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

// One answer read from a raw connection: its status line and headers (lower-cased) and body
// (none for the answer to a HEAD request, `head_only`); status 0 when the connection ended first.
// `pending` keeps bytes read beyond it.
struct RawAnswer {
    int status = 0;
    std::string head;
    std::string body;
};
RawAnswer read_answer(int s, std::string& pending, bool head_only = false) {
    RawAnswer a;
    char buffer[4096];
    for (;;) {
        const std::size_t end = pending.find("\r\n\r\n");
        if (end != std::string::npos) {
            a.head = pending.substr(0, end);
            for (char& c : a.head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            const std::size_t at = a.head.find("\r\ncontent-length:");
            const std::size_t length =
                at == std::string::npos || head_only ? 0 : std::strtoull(a.head.c_str() + at + 17, nullptr, 10);
            if (pending.size() >= end + 4 + length) {
                a.body = pending.substr(end + 4, length);
                a.status = std::atoi(a.head.c_str() + 9);
                pending.erase(0, end + 4 + length);
                return a;
            }
        }
        const ssize_t n = ::recv(s, buffer, sizeof buffer, 0);
        if (n <= 0) return {};
        pending.append(buffer, static_cast<std::size_t>(n));
    }
}

// True when the server closes `s` (recv sees the end) within the 30 s guard.
bool closed_by_server(int s) {
    char buffer[512];
    ssize_t n = 0;
    while ((n = ::recv(s, buffer, sizeof buffer, 0)) > 0) {
    }
    return n == 0;
}

// The file descriptors this process has open.
std::size_t open_file_count() {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/fd")) ++count;
    return count;
}

// A raw connection that sends part of a request and then nothing.
int stalled_connection(int port) {
    const int s = raw_connection(port);
    if (s < 0) return -1;
    if (!send_all(s, "GET /international?fen=W:W28:B8 HTTP/1.1\r\nHost: x\r\n")) {
        ::close(s);
        return -1;
    }
    return s;
}

TEST_F(Serve, SlowClientsAreDroppedAndDoNotStallTheOthers) {
    std::vector<int> stalled;
    for (int i = 0; i < 4; ++i) {
        const int s = stalled_connection(port_);
        ASSERT_GE(s, 0);
        stalled.push_back(s);
    }
    // Stalled requests hold no thread: the two event-loop threads still answer at once.
    httplib::Client c = client();
    for (int i = 0; i < 20; ++i) {
        const auto res = c.Get("/health");
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 200);
    }
    // The server gives up on each stalled request after its idle timeout and closes the
    // connection: recv sees the end (0) instead of waiting for ever (30 s is the test's own guard).
    for (const int s : stalled) {
        EXPECT_TRUE(closed_by_server(s)) << "the stalled connection was not closed by the server";
        ::close(s);
    }
}

TEST_F(Serve, MethodsBodiesAndOversizedRequestsAreRefusedInJson) {
    const int s = raw_connection(port_);
    ASSERT_GE(s, 0);
    std::string pending;
    auto ask = [&](const std::string& request) {
        EXPECT_TRUE(send_all(s, request));
        return read_answer(s, pending);
    };
    RawAnswer a = ask("POST /international?fen=W:W28:B8 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    EXPECT_EQ(a.status, 405) << a.head;
    EXPECT_NE(a.head.find("\r\nallow: get, head"), std::string::npos) << a.head;
    EXPECT_EQ(Json::parse(a.body).at("error"), "method POST not allowed: the API answers GET");
    // A small body is read and ignored; the same connection goes on.
    a = ask("GET /international?fen=W:W28:B8 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    EXPECT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(Json::parse(a.body).at("fen"), "W:W28:B8");
    EXPECT_TRUE(send_all(s, "HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n"));
    a = read_answer(s, pending, true);
    EXPECT_EQ(a.status, 200);
    EXPECT_NE(a.head.find("content-type: application/json"), std::string::npos) << a.head;
    // A body over the 1 KiB limit: 413 in JSON, then the connection is closed.
    a = ask("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + std::string(5000, 'x'));
    EXPECT_EQ(a.status, 413) << a.head;
    EXPECT_NE(Json::parse(a.body).at("error").get<std::string>().find("request body too large"), std::string::npos);
    EXPECT_TRUE(closed_by_server(s));
    ::close(s);

    // A request target beyond a connection's memory (32 KiB) is refused by the HTTP library
    // itself, before any handler runs: 414 still, and the server goes on.
    const int big = raw_connection(port_);
    ASSERT_GE(big, 0);
    pending.clear();
    EXPECT_TRUE(send_all(big, "GET /international?fen=" + std::string(40000, 'W') + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_EQ(read_answer(big, pending).status, 414);
    ::close(big);
    EXPECT_EQ(client().Get("/health")->status, 200);
}

TEST_F(Serve, AConnectionIsClosedAfterItsRequestLimit) {
    const int s = raw_connection(port_);
    ASSERT_GE(s, 0);
    std::string pending;
    for (int i = 1; i <= 50; ++i) {  // the fixture's requests_per_connection
        ASSERT_TRUE(send_all(s, "GET /international?fen=W:W28:B8 HTTP/1.1\r\nHost: x\r\n\r\n"));
        const RawAnswer a = read_answer(s, pending);
        ASSERT_EQ(a.status, 200) << "request " << i;
        EXPECT_EQ(a.head.find("\r\nconnection: close") != std::string::npos, i == 50) << "request " << i;
    }
    EXPECT_TRUE(closed_by_server(s));
    ::close(s);
}

TEST(ServeLimits, ConnectionsBeyondTheLimitWaitUntilASlotIsFree) {
    const auto dir = test::scratch_path("serve_limit_db");
    workflow::build_database(test::unverified_build(dir, 2));
    const std::unique_ptr<Database> db = Database::open(dir);
    serve::ServerOptions options;
    options.port = 0;
    options.limits.threads = 1;
    options.limits.max_connections = 4;
    options.limits.idle_timeout = std::chrono::seconds(60);
    const Database* const list[] = {db.get()};
    const std::size_t open_files = open_file_count();
    auto server = std::make_unique<serve::TablebaseServer>(list, options);
    const int port = server->bind();
    std::thread runner([&server] { server->run(); });
    // Four connections hold every slot with a stalled request.
    std::vector<int> held;
    for (int i = 0; i < 4; ++i) {
        held.push_back(stalled_connection(port));
        ASSERT_GE(held.back(), 0);
    }
    // A fifth is left in the listen backlog, unanswered, while they stay open...
    const int extra = raw_connection(port);
    ASSERT_GE(extra, 0);
    ASSERT_TRUE(send_all(extra, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"));
    pollfd waiting{.fd = extra, .events = POLLIN, .revents = 0};
    EXPECT_EQ(::poll(&waiting, 1, 500), 0) << "a connection over the limit was answered";
    // ...and is served once one of them finishes its request and leaves.
    std::string pending;
    ASSERT_TRUE(send_all(held[0], "\r\n"));
    EXPECT_EQ(read_answer(held[0], pending).status, 200);
    ::close(held[0]);
    pending.clear();
    EXPECT_EQ(read_answer(extra, pending).status, 200);
    ::close(extra);
    for (std::size_t i = 1; i < held.size(); ++i) ::close(held[i]);
    server->stop();
    runner.join();
    server.reset();
    // The listening socket, the connections and the event loops' descriptors are all closed.
    EXPECT_EQ(open_file_count(), open_files);
}

TEST_F(Serve, PageHealthAndMetrics) {
    httplib::Client c = client();
    auto page = c.Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_NE(page->body.find("<svg id=\"board\""), std::string::npos);
    for (const char* asset : {"/app.js", "/style.css"}) {
        const auto res = c.Get(asset);
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 200) << asset;
        EXPECT_GT(res->body.size(), 500u) << asset;
    }
    const auto health = c.Get("/health");
    ASSERT_TRUE(health);
    const Json h = Json::parse(health->body);
    EXPECT_EQ(h.at("status"), "ok");
    EXPECT_EQ(h.at("databases").at(0).at("max_pieces"), kPieces);
    EXPECT_EQ(h.at("databases").at(0).at("type"), "EGDB_NATIVE");

    auto metrics = [&] {
        const auto res = c.Get("/metrics");
        EXPECT_TRUE(res);
        return Json::parse(res->body);
    };
    const Json before = metrics();
    for (int i = 0; i < 10; ++i) c.Get(query("/international", "W:W28:B8"));
    c.Get(query("/international", "W:W51"));
    c.Get("/no/such/path");
    const Json after = metrics();
    const Json& probe_before = before.at("routes").at("/international");
    const Json& probe_after = after.at("routes").at("/international");
    EXPECT_EQ(probe_after.at("status").at("2xx").get<int>() - probe_before.at("status").at("2xx").get<int>(), 10);
    EXPECT_EQ(probe_after.at("status").at("4xx").get<int>() - probe_before.at("status").at("4xx").get<int>(), 1);
    EXPECT_EQ(after.at("routes").at("other").at("requests").get<int>() - before.at("routes").at("other").at("requests").get<int>(), 1);
    const Json& latency = probe_after.at("latency_us");
    EXPECT_LE(latency.at("p50").get<long>(), latency.at("p99").get<long>());
    EXPECT_LE(latency.at("p99").get<long>(), latency.at("max").get<long>());
    EXPECT_GT(latency.at("max").get<long>(), 0);
    EXPECT_EQ(after.at("connections").at("threads"), 2);
    EXPECT_GE(after.at("connections").at("open").get<int>(), 1);
    EXPECT_EQ(after.at("connections").at("limit"), 1024);
}

// Several databases: a position goes to the first one that can answer it.
TEST_F(Serve, APositionIsAnsweredByTheFirstDatabaseThatHoldsIt) {
    const auto small_dir = test::scratch_path("serve_db2");
    workflow::build_database(test::unverified_build(small_dir, 2));
    const std::unique_ptr<Database> small = Database::open(small_dir);
    auto serve_on = [](std::span<const Database* const> list, auto check) {
        serve::ServerOptions options;
        options.port = 0;
        options.limits.threads = 2;
        serve::TablebaseServer server(list, options);
        const int port = server.bind();
        std::thread runner([&server] { server.run(); });
        httplib::Client c("127.0.0.1", port);
        check(c);
        server.stop();
        runner.join();
    };
    const std::string three = "W:W28,K46:B8", two = "W:W28:B8";
    const Database* const both[] = {small.get(), db_};
    serve_on(both, [&](httplib::Client& c) {
        for (const std::string& fen : {three, two}) {
            const auto res = c.Get(query("/international", fen));
            ASSERT_TRUE(res);
            ASSERT_EQ(res->status, 200) << res->body;
            const FenPosition fp = parse_fen(fen);
            EXPECT_EQ(res->body, serve::tablebase_json_text(workflow::tablebase_report(*db_, fp.position, fp.side_to_move)));
        }
    });
    const Database* const only_small[] = {small.get()};
    serve_on(only_small, [&](httplib::Client& c) {
        const auto res = c.Get(query("/international", three));
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 404);
        EXPECT_NE(res->body.find("no database holds positions of 3 pieces"), std::string::npos) << res->body;
        EXPECT_EQ(c.Get(query("/international", two))->status, 200);
    });
    EXPECT_THROW(serve::TablebaseServer({}, serve::ServerOptions{}), std::invalid_argument);
}

TEST(ServeLatencyHistogram, BucketsCoverEveryValueWithinAnEighth) {
    using serve::LatencyHistogram;
    std::size_t previous = 0;
    for (std::uint64_t v : {0ull, 1ull, 7ull, 8ull, 9ull, 15ull, 16ull, 17ull, 1000ull, 123456ull, 1ull << 40, ~0ull}) {
        const std::size_t b = LatencyHistogram::bucket_of(v);
        EXPECT_GE(b, previous);
        previous = b;
        EXPECT_GE(LatencyHistogram::upper_bound(b), v);
        if (b > 0) {
            EXPECT_LT(LatencyHistogram::upper_bound(b - 1), v) << v;
        }
        EXPECT_LE(LatencyHistogram::upper_bound(b) - v, v / 8) << v;
    }
}

TEST(ServeLatencyHistogram, PercentilesOfAKnownSample) {
    serve::LatencyHistogram h;
    for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v);
    const auto s = h.summary();
    EXPECT_EQ(s.count, 1000u);
    EXPECT_EQ(s.max, 1000u);
    // Within the bucket width (1/8) above the true percentile, never below it.
    EXPECT_GE(s.p50, 500u);
    EXPECT_LE(s.p50, 500u + 500u / 8);
    EXPECT_GE(s.p90, 900u);
    EXPECT_LE(s.p90, 900u + 900u / 8);
    EXPECT_GE(s.p99, 990u);
    EXPECT_LE(s.p99, 1000u);
    EXPECT_EQ(serve::LatencyHistogram{}.summary().count, 0u);
}

}  // namespace
}  // namespace egdb
