#include "serve/server_metrics.hpp"

#include <algorithm>

namespace egdb::serve {

std::string_view route_name(Route route) noexcept {
    switch (route) {
        case Route::Page: return "/";
        case Route::Probe: return "/international";
        case Route::Mainline: return "/international/mainline";
        case Route::Health: return "/health";
        case Route::Metrics: return "/metrics";
        case Route::Other: break;
    }
    return "other";
}

void ServerMetrics::record(Route route, int status, std::chrono::microseconds elapsed) noexcept {
    RouteCounters& r = routes_[static_cast<std::size_t>(route)];
    std::atomic<std::uint64_t>& counter = status >= 200 && status < 300   ? r.status_2xx
                                          : status >= 400 && status < 500 ? r.status_4xx
                                          : status >= 500                 ? r.status_5xx
                                                                          : r.status_other;
    counter.fetch_add(1, std::memory_order_relaxed);
    r.latency.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, elapsed.count())));
}

Json ServerMetrics::to_json(const Connections& connections) const {
    Json routes = Json::object();
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < kRouteCount; ++i) {
        const RouteCounters& r = routes_[i];
        const LatencyHistogram::Summary latency = r.latency.summary();
        total += latency.count;
        routes[std::string(route_name(static_cast<Route>(i)))] = {
            {"requests", latency.count},
            {"status",
             {{"2xx", r.status_2xx.load(std::memory_order_relaxed)},
              {"4xx", r.status_4xx.load(std::memory_order_relaxed)},
              {"5xx", r.status_5xx.load(std::memory_order_relaxed)},
              {"other", r.status_other.load(std::memory_order_relaxed)}}},
            {"latency_us", {{"p50", latency.p50}, {"p90", latency.p90}, {"p99", latency.p99}, {"max", latency.max}}}};
    }
    const auto uptime = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return {{"uptime_seconds", uptime},
            {"requests_total", total},
            {"connections",
             {{"threads", connections.threads},
              {"open", connections.open},
              {"limit", connections.limit}}},
            {"routes", std::move(routes)}};
}

}  // namespace egdb::serve
