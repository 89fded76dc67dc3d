#include "core/generate/build_driver.hpp"

#include <algorithm>
#include <chrono>

#include "core/generate/slice_solver.hpp"

namespace egdb {

void solve_slices(int max_pieces, SolutionStore& store, const BuildOptions& options) {
    const std::vector<SliceId> order = build_order(max_pieces);
    solve_slices(order, store, options);
}

void solve_slices(std::span<const SliceId> order, SolutionStore& store, const BuildOptions& options) {
    std::size_t done = 0;
    for (const SliceId slice : order) {
        ++done;
        if (store.find(slice) != nullptr) continue;
        const auto start = std::chrono::steady_clock::now();
        store.add(SliceSolver(slice, store, {options.threads}).solve());
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (options.on_slice_done) {
            options.on_slice_done({slice, slice_size(slice), elapsed.count(), done, order.size(), store.find(slice)});
        }
    }
}

}  // namespace egdb
