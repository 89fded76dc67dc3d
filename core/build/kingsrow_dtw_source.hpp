// Feeds the DTW writer from the generator's solved slices: the DTW code of every position, with
// draws and positions where the side to move must capture marked "don't care" (8.1: Kingsrow
// stores no meaningful DTW there, and the freedom lets the writer extend runs).
#pragma once

#include <cstdint>
#include <span>

#include "core/formats/kingsrow/dtw/dtw_writer.hpp"
#include "core/generate/solved_slice.hpp"

namespace egdb::kingsrow {

// A source over one side of `solved`, which must outlive the writing. `capture_bits` (bit i of
// word i / 64 set when the side to move must capture at index i) saves generating the moves of
// every position again when the caller has it; empty: the source finds the captures itself.
DtwValueSource dtw_values_from_solved(const SolvedSlice& solved, Color side_to_move,
                                      std::span<const std::uint64_t> capture_bits = {});

}  // namespace egdb::kingsrow
