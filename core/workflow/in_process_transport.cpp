#include "core/workflow/in_process_transport.hpp"

#include <exception>
#include <thread>

#include "core/util/error.hpp"

namespace egdb::workflow::engine {

InProcessHub::InProcessHub(int ranks) : inboxes_(static_cast<std::size_t>(ranks)) {}

void InProcessHub::send(int from, int to, const Message& message) {
    {
        const std::lock_guard lock(mutex_);
        inboxes_.at(static_cast<std::size_t>(to)).emplace_back(from, encode(message));
    }
    arrived_.notify_all();
}

std::optional<std::pair<int, Message>> InProcessHub::take(int rank) {
    const std::lock_guard lock(mutex_);
    auto& inbox = inboxes_.at(static_cast<std::size_t>(rank));
    if (inbox.empty()) return std::nullopt;
    auto [from, words] = inbox.front();
    inbox.pop_front();
    return std::pair{from, decode(words)};
}

void InProcessHub::wait(int rank, std::chrono::microseconds timeout) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, timeout, [&] { return !inboxes_.at(static_cast<std::size_t>(rank)).empty(); });
}

void run_in_process(Scheduler& scheduler, std::span<UnitWorker* const> workers, const CoordinatorObserver& observer) {
    if (workers.empty()) throw InvalidArgumentError("an in-process build needs a worker");
    InProcessHub hub(static_cast<int>(workers.size()) + 1);
    std::mutex failure_mutex;
    std::exception_ptr failure;
    {
        std::vector<std::jthread> threads;
        for (std::size_t w = 0; w < workers.size(); ++w) {
            threads.emplace_back([&, w] {
                InProcessTransport transport(hub, static_cast<int>(w) + 1);
                run_worker(*workers[w], transport, [&](const std::string&, std::exception_ptr error) {
                    const std::lock_guard lock(failure_mutex);
                    if (!failure) failure = error;
                });
            });
        }
        InProcessTransport transport(hub, 0);
        try {
            run_coordinator(scheduler, transport, observer);
        } catch (...) {
            // run_coordinator has stopped the workers; the threads end before the rethrow.
            threads.clear();
            if (failure) std::rethrow_exception(failure);
            throw;
        }
    }
}

}  // namespace egdb::workflow::engine
