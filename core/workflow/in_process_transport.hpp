// The build engine's transport inside one process (build_engine.hpp): the coordinator on the
// calling thread, workers on threads of their own, messages through in-memory inboxes as the
// words MPI carries (encode/decode), so both transports exercise one message format.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/workflow/build_engine.hpp"

namespace egdb::workflow::engine {

class InProcessHub {
public:
    explicit InProcessHub(int ranks);
    int size() const noexcept { return static_cast<int>(inboxes_.size()); }
    void send(int from, int to, const Message& message);
    std::optional<std::pair<int, Message>> take(int rank);
    // Returns when a message is in `rank`'s inbox or `timeout` has passed.
    void wait(int rank, std::chrono::microseconds timeout);

private:
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::vector<std::deque<std::pair<int, std::array<std::int64_t, kMessageWords>>>> inboxes_;
};

class InProcessTransport final : public Transport {
public:
    InProcessTransport(InProcessHub& hub, int rank) : hub_(hub), rank_(rank) {}
    int size() const override { return hub_.size(); }
    void send(int rank, const Message& message) override { hub_.send(rank_, rank, message); }
    std::optional<std::pair<int, Message>> try_receive() override { return hub_.take(rank_); }
    void wait(std::chrono::microseconds timeout) override { hub_.wait(rank_, timeout); }

private:
    InProcessHub& hub_;
    int rank_;
};

// The build of `scheduler` by `workers` (at least one), each on a thread of its own, coordinated
// from the calling thread (run_coordinator). A worker's failure is rethrown as the worker threw
// it (a FileError stays a FileError); when several fail, the first. Every worker thread has ended
// when this returns or throws.
void run_in_process(Scheduler& scheduler, std::span<UnitWorker* const> workers, const CoordinatorObserver& observer = {});

}  // namespace egdb::workflow::engine
