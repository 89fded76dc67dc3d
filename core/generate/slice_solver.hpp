// Solves one slice: WLD, DTW and MTC (position_value.hpp) for every index and both sides to
// move, by retrograde analysis one advancement level at a time (solved_level.hpp), most
// advanced level first (men_order.hpp), each men configuration of a level as one block
// (block_solver.hpp).
//
// A level needs only the level above it, so a slice is solved with two levels in memory: the
// finished levels go to a LevelSink, which keeps them (in memory, as SolvedSlice, or in unit
// files that a build resumes from) and can hand back levels solved before.
//
// Threads: the configurations of one level are independent, so worker threads take whole
// configurations (each an aligned, contiguous block of KB * KW positions) from a shared counter
// and write only those entries; they read only the level above, finished before the level
// started (the threads of a level are joined before the next level). No lock is taken; the result
// does not depend on the number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/generate/block_check.hpp"
#include "core/generate/block_solver.hpp"
#include "core/generate/solved_level.hpp"
#include "core/values/solved_lookup.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/slice.hpp"

namespace egdb {

struct SolveOptions {
    int threads = 1;  // worker threads; values below 1 mean 1
    // Distances above this are stored as wide positions (position_value.hpp); values above the
    // byte encoding's limits mean those limits. Tests lower it to exercise the wide path.
    Plies narrow_limit = kMaxNarrowMtc;
    // When given, solve_levels and solve_level check every block they solve against its
    // successors (block_check.hpp) right after solving it, and add the results here; levels the
    // sink already had are not checked, and are counted in levels_not_checked.
    struct LevelChecks* checks = nullptr;
    // When the threads of a level share a block (block_solver.hpp BlockSharing). Tests lower it so
    // that small slices take the shared paths.
    BlockSharing sharing{};
    // In a colour-symmetric slice, fill the blocks whose reversed configuration is solved from it
    // (colour_mirror.hpp) instead of solving them. The result is the same; tests turn it off to
    // compare.
    bool colour_mirror = true;
    // Solve a slice without men ply by ply in the bytes of its solution (kings_only_solver.hpp),
    // not with BlockSolver's entry states. The result is the same; tests turn it off to compare.
    bool kings_only_in_place = true;
};

// What SolveOptions::checks collects over the levels of a slice.
struct LevelChecks {
    CheckTally result;
    // Positions (each side to move counted) of blocks filled by colour reversal from checked
    // blocks (colour_mirror.hpp): not in result.positions, since no successor of theirs was read.
    std::uint64_t positions_mirrored = 0;
    std::size_t levels_checked = 0;
    std::size_t levels_not_checked = 0;
    double seconds = 0;
    std::size_t max_messages = 8;
    // Every level of the slice was solved and checked here, and no position disagrees.
    bool whole_slice_consistent() const noexcept { return levels_not_checked == 0 && result.mismatches == 0; }
};

// Where a level-by-level solve puts its results (and finds those of an interrupted solve).
class LevelSink {
public:
    virtual ~LevelSink() = default;
    // True when the level of `advancement` was solved and kept before; the solver then skips it.
    virtual bool has_level(SliceId slice, int advancement) = 0;
    // Returns a level for which has_level() was true, as it was stored. Called only when the
    // next level to solve reads it.
    virtual SolvedLevel load_level(SliceId slice, int advancement) = 0;
    // Takes a newly solved level. `seconds` is its solving time.
    virtual void store_level(const SolvedLevel& level, double seconds) = 0;
    // The whole slice, when the sink keeps every stored level in one: the solver then reads the
    // level above from there, by index, without the level's configuration lookup.
    virtual const SolvedSlice* whole_slice() const noexcept { return nullptr; }
};

class SliceSolver {
public:
    // `slice`: both sides non-empty, at most kMaxPiecesPerSide a side (any orientation; the
    // build driver only solves canonical slices). `smaller` must answer for every slice a capture
    // or a promotion leads to. Throws std::invalid_argument for an unsupported slice.
    SliceSolver(SliceId slice, const SolvedLookup& smaller, SolveOptions options = {});

    // Solves the slice in memory. Throws std::overflow_error when a distance exceeds
    // kMaxPlies, and whatever `smaller` throws for a missing slice.
    SolvedSlice solve() const;

    // Solves the levels `sink` does not have, most advanced first, handing each to `sink`.
    // Throws what solve() throws, and what the sink throws.
    void solve_levels(LevelSink& sink) const;

    // Solves the men configurations `configurations` (increasing, all of advancement
    // `advancement`: a level or a chunk of one) and returns them as a SolvedLevel. `next` holds
    // level advancement + 1 when the slice has one (else nullptr): the whole level, or at least
    // the configurations_reached of these (men_order.hpp). The unit of work of the build engine
    // (workflow/build_engine.hpp). Throws what solve() throws, and std::logic_error when a man
    // move leads outside `next`.
    SolvedLevel solve_level(int advancement, std::vector<std::uint64_t> configurations, const SolvedLevel* next) const;

private:
    SliceId slice_;
    const SolvedLookup& smaller_;
    SolveOptions options_;
};

}  // namespace egdb
