// What solving one slice holds itself, besides the solved slices it reads: the step of the memory
// plan (DecodedSlicePlan) of a build engine's worker, and what a build checks against the
// machine before it starts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "core/index/slice.hpp"

namespace egdb::native {

// The memory of one worker's block workspace, per position of its block: two 8-byte entry states
// (BlockSolver::EntryState, one per side to move) and the distance buckets, measured at up to
// 1.5 bytes a position (0303: 6.31 GB after classifying its one block of 318 M positions with the
// 1.27 GB level, 6.73 GB at the end of the second pass). A block shared by threads also holds
// the pushes of the bucket they expand until it is done: 0501 (95 M positions, one block) peaked
// 128 MiB higher, 1.4 bytes a position.
inline constexpr std::uint64_t kBlockWorkspaceBytes = 20;

// A slice without men holds a few bits an entry instead (KingsOnlySolver::workspace_bytes).
//
// Solved whole in memory (`by_units` false): the slice's solution and, while it is written, the
// writer's buffers (the packed WLD of both sides and the compressed pages, about 3 bytes a
// position). Solved in units: a unit's configurations (a level, or a chunk of about
// `chunk_positions` positions, 0: whole levels) and what it reads of the level above (the whole
// level, or the blocks a chunk reaches; a slice without men has one level), and while its file is written from its units a part of
// `part_positions` (8 bytes a position) on each thread that has one, and the unit frame the
// parts are read from (at least one configuration). Either way each thread's
// block workspace and the plan of the blocks solved.
std::uint64_t solve_need_bytes(SliceId slice, bool by_units, int threads, std::uint64_t part_positions,
                               std::uint64_t chunk_positions = 0);

// The slice of `slices` whose solving needs the most, by `need`; nullopt for no slices.
struct SliceNeed {
    SliceId slice;
    std::uint64_t bytes = 0;
};
std::optional<SliceNeed> largest_need(std::span<const SliceId> slices, const std::function<std::uint64_t(SliceId)>& need);

// Before anything is solved, both build drivers refuse a slice that needs more than the machine
// has (it would end in an allocation failure, hours later): throws RuntimeError(Unsupported)
// naming the slice, its positions and its largest block. `machine_bytes` 0: unknown, no check.
void refuse_beyond_machine(const SliceNeed& largest, std::uint64_t machine_bytes);

}  // namespace egdb::native
