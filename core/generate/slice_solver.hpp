// Solves one slice: WLD, DTW and MTC (position_value.hpp) for every index and both sides to
// move, by retrograde analysis one men configuration at a time (block_solver.hpp), most advanced
// configurations first (men_order.hpp).
//
// Threads: the configurations of one advancement level are independent, so worker threads take
// whole configurations (each an aligned, contiguous index range of KB * KW positions) from a
// shared counter and write only those entries; they read only configurations of earlier levels,
// finished before the level started (the threads of a level are joined before the next level).
// No lock is taken; the result does not depend on the number of threads.
#pragma once

#include <cstdint>

#include "core/generate/solved_lookup.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice.hpp"

namespace egdb {

struct SolveOptions {
    int threads = 1;  // worker threads; values below 1 mean 1
};

class SliceSolver {
public:
    // `slice`: both sides non-empty, at most kMaxPiecesPerSide a side (any orientation; the
    // build driver only solves canonical slices). `smaller` must answer for every slice a capture
    // or a promotion leads to. Throws std::invalid_argument for an unsupported slice.
    SliceSolver(SliceId slice, const SolvedLookup& smaller, SolveOptions options = {});

    // Solves the slice. Throws std::overflow_error when a distance exceeds kMaxStoredPlies, and
    // whatever `smaller` throws for a missing slice.
    SolvedSlice solve() const;

private:
    SliceId slice_;
    const SolvedLookup& smaller_;
    SolveOptions options_;
};

}  // namespace egdb
