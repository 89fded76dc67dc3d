// Google Benchmark micro-benchmarks of the native page encoder (egdb_microbench): what writing a
// slice file spends outside zstd. Sections of synthetic values in runs, a third of the positions
// "don't care" (captures, and draws in distance sections), as in the 6-piece files.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/formats/native/page_encoder.hpp"

namespace {

using egdb::native::PageEncoder;
using egdb::native::SectionValues;
using egdb::native::ValueKind;

struct SyntheticSection {
    std::vector<std::uint8_t> values;
    std::vector<std::uint64_t> dont_care;
};

// `positions` values below `range` in runs of 1 to 64, every position "don't care" with
// probability 1/3.
SyntheticSection synthetic_section(std::uint64_t positions, unsigned range) {
    std::mt19937_64 rng(20261206);
    SyntheticSection s;
    s.values.resize(positions);
    s.dont_care.assign((positions + 63) / 64, 0);
    for (std::uint64_t i = 0; i < positions;) {
        const std::uint64_t run = 1 + rng() % 64;
        const auto v = static_cast<std::uint8_t>(rng() % range);
        for (std::uint64_t k = 0; k < run && i < positions; ++k, ++i) s.values[i] = v;
    }
    for (std::uint64_t i = 0; i < positions; ++i) {
        if (rng() % 3 == 0) s.dont_care[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    return s;
}

// Arg: value bits (2 for WLD, 8 for DTW). Items: positions.
void BM_PageEncode(benchmark::State& state) {
    const unsigned bits = static_cast<unsigned>(state.range(0));
    const ValueKind kind = bits == 2 ? ValueKind::Wld : ValueKind::Dtw;
    const std::uint64_t positions = std::uint64_t{1} << 20;
    const SyntheticSection s = synthetic_section(positions, bits == 2 ? 3 : 120);
    const SectionValues values{kind, egdb::Color::Black, s.values, {}, s.dont_care};
    PageEncoder encoder(kind, bits == 2 ? 12 : 6);
    for (auto _ : state) benchmark::DoNotOptimize(encoder.encode(values, 4096, bits));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * positions));
}
BENCHMARK(BM_PageEncode)->Arg(2)->Arg(8)->Unit(benchmark::kMillisecond);

}  // namespace
