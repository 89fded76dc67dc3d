// What `GET /metrics` reports: per route, requests by status class and handler latency
// percentiles (LatencyHistogram), plus the server's connection counts. Lock-free: every request
// records into atomics of its route.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string_view>

#include "serve/latency_histogram.hpp"
#include "serve/report_json.hpp"

namespace egdb::serve {

// Other: what no route took (an unknown path, a method other than GET, a request over a limit).
enum class Route : std::uint8_t { Page, Probe, Mainline, Health, Metrics, Other };
inline constexpr std::size_t kRouteCount = 6;

// The name of a route in /metrics: its path ("/", "/international", ...) or "other".
std::string_view route_name(Route route) noexcept;

class ServerMetrics {
public:
    void record(Route route, int status, std::chrono::microseconds elapsed) noexcept;

    // The event-loop threads and the connections open, against their limit.
    struct Connections {
        std::size_t threads = 0;
        std::size_t open = 0;
        std::size_t limit = 0;
    };

    // {"uptime_seconds", "requests_total", "connections": {...},
    //  "routes": {"/international": {"requests", "status": {"2xx", "4xx", "5xx"},
    //  "latency_us": {"p50", "p90", "p99", "max"}}, ...}}
    Json to_json(const Connections& connections) const;

private:
    struct RouteCounters {
        std::atomic<std::uint64_t> status_2xx{0};
        std::atomic<std::uint64_t> status_4xx{0};
        std::atomic<std::uint64_t> status_5xx{0};
        std::atomic<std::uint64_t> status_other{0};
        LatencyHistogram latency;
    };
    std::array<RouteCounters, kRouteCount> routes_{};
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace egdb::serve
