// How a slice solved in units is cut (docs/distributed-build.md, "Units"): each advancement level
// of its men configurations (men_order.hpp) in chunks of whole configurations, each chunk one unit
// file (unit_file.hpp) named by slice, level and chunk. The build engine hands the chunks out,
// the part encoder and the restore of a finished slice read them back: all three cut the same way
// here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <utility>
#include <vector>

#include "core/build/unit_range_reader.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/solved_level.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/side_set.hpp"
#include "core/index/slice.hpp"

namespace egdb::native {

// The chunks of a level of `configurations` blocks of `block_size` positions: runs of
// max(1, chunk_positions / block_size) configurations (chunk_positions 0: one run), as
// (first, count).
std::vector<std::pair<std::size_t, std::size_t>> level_chunks(std::size_t configurations, std::uint64_t block_size,
                                                              std::uint64_t chunk_positions);

// Positions of one men configuration of `slice` (a block).
std::uint64_t block_size_of(SliceId slice);

// What the units of level `advancement` read: the level above when `levels` has it, and the
// slices `successors` (successor_slices).
UnitInputs unit_inputs(std::span<const MenLevel> levels, const std::vector<SliceId>& successors, int advancement);

// Every unit file of `slice` in the build directory `out`, cut by `chunk_positions`: the
// configurations of each source are a span of `levels`, which must outlive them.
std::vector<UnitSource> chunk_sources(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels,
                                      std::uint64_t chunk_positions);

// Level `advancement` of `slice` (of `levels`, men_configuration_levels) from its unit files cut
// by `chunk_positions`, as one SolvedLevel: the whole level, or only the configurations `wanted`
// (increasing, all of that level: what configurations_reached gives a chunk of the level below).
// Throws FileError or CorruptDataError for a missing or damaged unit, InternalError when `wanted`
// is not of the level.
SolvedLevel read_unit_level(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels, int advancement,
                            std::uint64_t chunk_positions);
SolvedLevel read_unit_level(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels, int advancement,
                            std::uint64_t chunk_positions, const std::vector<std::uint64_t>& wanted);

// The slice from its units (every level, every chunk), holding SolvedSlice::sides_to_hold(slice,
// `sides`) only, read on `threads` threads a unit at a time; every frame is checked. Throws
// FileError or CorruptDataError when a unit is missing or damaged.
SolvedSlice assemble_units(SliceId slice, std::span<const UnitSource> units, SideSet sides, int threads);

}  // namespace egdb::native
