#include "serve/connection_queue.hpp"

namespace egdb::serve {

ConnectionQueue::ConnectionQueue(std::size_t threads, std::size_t queue_limit) : thread_count_(threads), queue_limit_(queue_limit) {
    workers_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work_loop(); });
}

ConnectionQueue::~ConnectionQueue() { shutdown(); }

void ConnectionQueue::enqueue(std::function<void()> work) {
    {
        std::unique_lock lock(mutex_);
        space_free_.wait(lock, [&] { return closed_ || queue_.size() < queue_limit_; });
        queue_.push_back(std::move(work));
    }
    work_ready_.notify_one();
}

void ConnectionQueue::close() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
    }
    space_free_.notify_all();
}

void ConnectionQueue::shutdown() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
        stopping_ = true;
    }
    space_free_.notify_all();
    work_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
}

ConnectionQueue::Counts ConnectionQueue::counts() const {
    const std::lock_guard lock(mutex_);
    return {thread_count_, active_, queue_.size(), queue_limit_};
}

void ConnectionQueue::work_loop() {
    for (;;) {
        std::function<void()> work;
        {
            std::unique_lock lock(mutex_);
            work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, and everything queued has run
            work = std::move(queue_.front());
            queue_.pop_front();
            ++active_;
        }
        space_free_.notify_one();
        work();
        const std::lock_guard lock(mutex_);
        --active_;
    }
}

}  // namespace egdb::serve
