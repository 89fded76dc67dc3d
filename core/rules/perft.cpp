#include "core/rules/perft.hpp"

#include <atomic>
#include <thread>
#include <vector>

#include "core/rules/movegen.hpp"

namespace egdb {

std::uint64_t perft(const Position& pos, Color side, int depth) noexcept {
    if (depth <= 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(count_moves(pos, side));
    MoveList list;
    generate_moves(pos, side, list);
    std::uint64_t total = 0;
    const Color next = opposite(side);
    for (const Move& m : list) total += perft(apply_move(pos, side, m), next, depth - 1);
    return total;
}

std::uint64_t perft_parallel(const Position& pos, Color side, int depth, int threads) {
    if (threads <= 1 || depth <= 2) return perft(pos, side, depth);
    MoveList list;
    generate_moves(pos, side, list);
    // Root moves are handed out one at a time so that uneven subtrees balance between threads.
    std::atomic<int> next_move{0};
    std::atomic<std::uint64_t> total{0};
    {
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&] {
                std::uint64_t local = 0;
                for (int i = next_move.fetch_add(1); i < list.count; i = next_move.fetch_add(1)) {
                    local += perft(apply_move(pos, side, list[i]), opposite(side), depth - 1);
                }
                total.fetch_add(local);
            });
        }
    }
    return total.load();
}

}  // namespace egdb
