// Solves every slice up to a number of pieces, in dependency order, in memory: the part of
// `egdb build` below the file format. A capture leads to fewer pieces and a promotion to fewer men
// with the same number of pieces, so canonical slices (section 1.5) are solved by increasing
// number of pieces, then by increasing number of men; the slices of the other orientation are
// answered by colour reversal (SolutionStore).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/generate/solution_store.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_graph.hpp"

namespace egdb {

// Reported once per solved slice, after it has been added to the store.
struct SliceProgress {
    SliceId slice;
    std::uint64_t positions = 0;  // indices of the slice (each solved for both sides to move)
    double seconds = 0;           // wall time of this slice
    std::size_t slices_done = 0;  // including this one
    std::size_t slices_total = 0;
    const SolvedSlice* solved = nullptr;  // the stored solution, e.g. for a writer
};

using SliceProgressCallback = std::function<void(const SliceProgress&)>;

struct BuildOptions {
    int threads = 1;
    SliceProgressCallback on_slice_done;  // may be empty
};

// Solves the slices of build_order(max_pieces) that `store` does not hold yet (so a partly filled
// store resumes) and adds them to it.
void solve_slices(int max_pieces, SolutionStore& store, const BuildOptions& options = {});

// The same for the slices of `order` (canonical, every one after the slices it depends on).
void solve_slices(std::span<const SliceId> order, SolutionStore& store, const BuildOptions& options = {});

}  // namespace egdb
