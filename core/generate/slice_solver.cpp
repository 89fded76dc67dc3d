#include "core/generate/slice_solver.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/generate/block_solver.hpp"
#include "core/generate/king_placements.hpp"
#include "core/generate/men_order.hpp"

namespace egdb {

SliceSolver::SliceSolver(SliceId slice, const SolvedLookup& smaller, SolveOptions options)
    : slice_(slice), smaller_(smaller), options_(options) {
    if (!is_indexable(slice) || slice.black() == 0 || slice.white() == 0) {
        throw std::invalid_argument("cannot solve slice " + slice.to_string() +
                                    ": need 1 to " + std::to_string(kMaxPiecesPerSide) + " pieces a side");
    }
}

SolvedSlice SliceSolver::solve() const {
    SolvedSlice out(slice_);
    const KingPlacements kings(slice_);
    const auto levels = men_configuration_levels(slice_);
    std::size_t widest_level = 1;
    for (const auto& level : levels) widest_level = std::max(widest_level, level.size());
    const std::size_t threads = std::min(static_cast<std::size_t>(std::max(1, options_.threads)), widest_level);

    // One workspace per worker, reused for every configuration it takes.
    std::vector<std::unique_ptr<BlockSolver>> workers;
    for (std::size_t w = 0; w < threads; ++w) workers.push_back(std::make_unique<BlockSolver>(kings, smaller_, out));

    for (const std::vector<std::uint64_t>& level : levels) {
        const std::size_t active = std::min(threads, level.size());
        if (active == 1) {
            for (const std::uint64_t men : level) workers[0]->solve(men);
            continue;
        }
        std::atomic<std::size_t> next{0};
        std::vector<std::exception_ptr> errors(active);
        {
            std::vector<std::jthread> pool;
            for (std::size_t w = 0; w < active; ++w) {
                pool.emplace_back([&, w] {
                    try {
                        for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < level.size();
                             k = next.fetch_add(1, std::memory_order_relaxed)) {
                            workers[w]->solve(level[k]);
                        }
                    } catch (...) {
                        errors[w] = std::current_exception();
                        next.store(level.size(), std::memory_order_relaxed);
                    }
                });
            }
        }  // joins: the level's entries are complete and visible before the next level reads them
        for (const auto& error : errors) {
            if (error) std::rethrow_exception(error);
        }
    }
    return out;
}

}  // namespace egdb
