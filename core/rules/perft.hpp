// Perft: the number of leaf nodes of the legal move tree to a fixed depth, the standard check of
// a move generator against published counts (../shared/oracles/perft.txt).
#pragma once

#include <cstdint>

#include "core/board/position.hpp"

namespace egdb {

// Leaves at `depth` plies from (pos, side). Leaves are counted in bulk: the last ply counts the
// moves without making them. Depth 0 is 1.
std::uint64_t perft(const Position& pos, Color side, int depth) noexcept;

// The same, splitting the root moves over `threads` threads (1 = the calling thread only).
std::uint64_t perft_parallel(const Position& pos, Color side, int depth, int threads);

}  // namespace egdb
