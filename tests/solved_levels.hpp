// The levels of a slice as a build's solver hands them on (capture bits and wide positions
// included), for tests that compare two ways of solving level by level, and a level with only the
// blocks a colour-mirror plan solves (colour_mirror.hpp), for tests of the fill.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/generate/build_driver.hpp"
#include "core/generate/colour_mirror.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solution_store.hpp"

namespace egdb::testing_levels {

// Keeps every level solved.
class KeptLevels final : public LevelSink {
public:
    bool has_level(SliceId, int) override { return false; }
    SolvedLevel load_level(SliceId slice, int) override { throw std::logic_error("slice " + slice.to_string() + ": no levels kept"); }
    void store_level(const SolvedLevel& level, double) override { levels.push_back(level); }
    std::vector<SolvedLevel> levels;
};

// Options of a solve on `threads` threads, with or without the colour mirror (colour_mirror.hpp),
// distances above `narrow_limit` stored wide.
inline SolveOptions solve_options(int threads, bool mirror, Plies narrow_limit = kMaxNarrowMtc) {
    SolveOptions o{threads, narrow_limit};
    o.colour_mirror = mirror;
    return o;
}

// Every slice the moves of `slices` lead to, solved (promotions reach other slices of as many
// pieces).
inline std::unique_ptr<SolutionStore> solved_successors(std::span<const SliceId> slices) {
    auto store = std::make_unique<SolutionStore>();
    std::vector<SliceId> successors;
    for (const SliceId s : slices) {
        for (const SliceId t : successor_slices(s)) successors.push_back(t);
    }
    solve_slices(dependency_closure(successors), *store, {2, {}});
    return store;
}

inline std::vector<SolvedLevel> solved_levels(SliceId slice, const SolvedLookup& smaller, const SolveOptions& options) {
    KeptLevels kept;
    SliceSolver(slice, smaller, options).solve_levels(kept);
    return std::move(kept.levels);
}

// The blocks of `solved` that `plan` solves, copied into a level of the same configurations
// whose other blocks are still unsolved.
inline SolvedLevel solved_blocks_only(const SolvedLevel& solved, const MirrorPlan& plan) {
    SolvedLevel level(solved.slice(), solved.advancement(), solved.configurations());
    const std::uint64_t block = solved.block_size();
    for (const std::uint64_t slot : plan.solve) {
        for (const Color side : {Color::Black, Color::White}) {
            for (std::uint64_t local = 0; local < block; ++local) {
                const std::uint64_t i = slot * block + local;
                level.dtw_codes(side)[i] = solved.dtw_codes(side)[i];
                level.mtc(side)[i] = solved.mtc(side)[i];
                if (solved.has_capture_at(slot, local, side)) level.add_capture_bits(side, i / 64, std::uint64_t{1} << (i % 64));
                if (is_wide_code(solved.dtw_codes(side)[i])) {
                    const PositionValue v = solved.value_at(slot, local, side);
                    level.set_wide(slot, local, side, {v.dtw, v.mtc});
                }
            }
        }
    }
    return level;
}

}  // namespace egdb::testing_levels
