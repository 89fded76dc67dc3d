// The workers of `egdb serve` and the bounded queue of accepted connections that wait for them.
// cpp-httplib hands every accepted connection to a TaskQueue; its own ThreadPool queues without
// limit, so a flood of connections would grow memory without bound. Here at most `queue_limit`
// connections wait: when the queue is full the accepting thread blocks, further connections stay
// in the kernel's listen backlog and beyond it are refused by the kernel, while the `threads`
// workers go on serving (each connection is bounded by the server's read, write and keep-alive
// timeouts, so a worker is never held forever).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace egdb::serve {

class ConnectionQueue {
public:
    ConnectionQueue(std::size_t threads, std::size_t queue_limit);
    ~ConnectionQueue();  // shutdown()
    ConnectionQueue(const ConnectionQueue&) = delete;
    ConnectionQueue& operator=(const ConnectionQueue&) = delete;

    // Queues a connection's work; blocks while the queue is full, unless the queue is closed
    // (then the work is queued anyway: dropping it would leak the connection's socket).
    void enqueue(std::function<void()> work);
    // Stops blocking enqueue (the server is stopping).
    void close();
    // Runs what is queued, then stops and joins the workers.
    void shutdown();

    struct Counts {
        std::size_t threads = 0;
        std::size_t active = 0;
        std::size_t queued = 0;
        std::size_t queue_limit = 0;
    };
    Counts counts() const;

private:
    void work_loop();

    const std::size_t thread_count_;
    const std::size_t queue_limit_;
    mutable std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable space_free_;
    std::deque<std::function<void()>> queue_;
    std::size_t active_ = 0;
    bool closed_ = false;
    bool stopping_ = false;
    std::vector<std::thread> workers_;  // joined by shutdown(), which only the owner calls
};

}  // namespace egdb::serve
