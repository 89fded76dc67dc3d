// Random positions of a database's size class for the benchmarks: exactly `pieces` pieces, each
// slice weighted by its number of positions (so that a sample looks like a uniform draw over
// every position of that many pieces), either side to move; seeded, so every run draws the same.
#pragma once

#include <cstddef>
#include <vector>

#include "core/board/position.hpp"

namespace egdb::bench {

struct Sample {
    Position position;
    Color side;
};

std::vector<Sample> random_samples(int pieces, std::size_t count);

}  // namespace egdb::bench
