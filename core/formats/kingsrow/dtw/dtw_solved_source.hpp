// Feeds the DTW writer from the generator's solved slices: the DTW code of every position, with
// draws and positions where the side to move must capture marked "don't care" (8.1: Kingsrow
// stores no meaningful DTW there, and the freedom lets the writer extend runs).
#pragma once

#include "core/formats/kingsrow/dtw/dtw_writer.hpp"
#include "core/generate/solved_slice.hpp"

namespace egdb::kingsrow {

enum class CaptureValues : std::uint8_t { DontCare, Keep };

// A source over one side of `solved`, which must outlive the writing.
DtwValueSource dtw_values_from_solved(const SolvedSlice& solved, Color side_to_move,
                                      CaptureValues captures = CaptureValues::DontCare);

}  // namespace egdb::kingsrow
