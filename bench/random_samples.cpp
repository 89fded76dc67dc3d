#include "bench/random_samples.hpp"

#include <random>

#include "core/index/slice_indexer.hpp"

namespace egdb::bench {

std::vector<Sample> random_samples(int pieces, std::size_t count) {
    std::vector<SliceId> slices;
    std::vector<double> weights;
    for (SliceId s : all_slices(pieces)) {
        if (s.total() != pieces) continue;
        slices.push_back(s);
        weights.push_back(static_cast<double>(slice_size(s)));
    }
    std::mt19937_64 rng(2026);
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    std::vector<Sample> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const SliceId s = slices[pick(rng)];
        const Position p = SliceIndexer(s).position_at(rng() % slice_size(s));
        out.push_back({p, (rng() & 1) != 0 ? Color::White : Color::Black});
    }
    return out;
}

}  // namespace egdb::bench
