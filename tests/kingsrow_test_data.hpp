// Synthetic databases for the Kingsrow format tests: random WLD / MTC values in runs, with
// "don't care" positions, for a fixed set of slices, and helpers to write and read them back.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/formats/kingsrow/kingsrow_database.hpp"
#include "core/formats/kingsrow/export/database_writer.hpp"
#include "core/index/slice_indexer.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::kingsrow::test {

using egdb::test::ScratchDir;

struct SyntheticSide {
    SliceId slice;
    Color side = Color::Black;
    std::vector<WldResult> wld;
    std::vector<std::uint16_t> mtc;
    std::vector<std::uint64_t> dont_care;

    bool is_free(std::uint64_t i) const { return !dont_care.empty() && ((dont_care[i / 64] >> (i % 64)) & 1U) != 0; }
};

enum class ValueSet { Results, ResultsAndUnknown, WithPartials };

// Runs of mean length ~24 over the allowed values; about 1 position in 8 is "don't care", in
// runs. `constant` makes the whole side one value (a single-value subslice).
inline SyntheticSide synthetic_side(SliceId slice, Color side, ValueSet set, std::uint32_t seed, bool constant = false) {
    SyntheticSide s;
    s.slice = slice;
    s.side = side;
    const std::uint64_t n = slice_size(slice);
    std::mt19937_64 rng(seed);
    const int choices = set == ValueSet::Results ? 3 : set == ValueSet::ResultsAndUnknown ? 4 : 6;
    const auto pick = [&] {
        const int v = static_cast<int>(rng() % static_cast<unsigned>(choices));
        return static_cast<WldResult>(set == ValueSet::Results ? v + 1 : v);
    };
    s.wld.resize(n);
    s.mtc.resize(n);
    s.dont_care.assign((n + 63) / 64, 0);
    WldResult value = pick();
    std::uint16_t mtc = 0;
    bool free = false;
    std::geometric_distribution<int> run(1.0 / 24);
    for (std::uint64_t i = 0; i < n;) {
        const std::uint64_t length = std::min<std::uint64_t>(n - i, 1 + static_cast<std::uint64_t>(run(rng)));
        for (std::uint64_t k = 0; k < length; ++k, ++i) {
            s.wld[i] = constant ? WldResult::Win : value;
            s.mtc[i] = mtc;
            if (free && !constant) s.dont_care[i / 64] |= std::uint64_t{1} << (i % 64);
            if (mtc >= 10 && rng() % 4 == 0) mtc = static_cast<std::uint16_t>(10 + rng() % 300);
        }
        value = pick();
        free = rng() % 8 == 0;
        mtc = rng() % 3 == 0 ? static_cast<std::uint16_t>(10 + rng() % 300) : static_cast<std::uint16_t>(rng() % 10);
    }
    return s;
}

// The slices of the synthetic databases: all of 2 and 3 pieces, two of 4 pieces (multi-block
// streams), both sides of asymmetric slices. Slice 0110 (a black king against a white man) is
// constant: single-value records.
inline std::vector<SyntheticSide> synthetic_database(ValueSet set) {
    std::vector<SyntheticSide> sides;
    std::uint32_t seed = 1;
    std::vector<SliceId> slices = canonical_slices(2);
    for (const SliceId s : canonical_slices(3)) slices.push_back(s);
    slices.push_back({2, 0, 2, 0});
    slices.push_back({1, 1, 1, 1});
    for (const SliceId s : slices) {
        for (const Color side : {Color::Black, Color::White}) {
            if (is_color_symmetric(s) && side == Color::White) continue;
            const bool constant = s == SliceId{0, 1, 1, 0};
            sides.push_back(synthetic_side(s, side, set, seed++, constant));
        }
    }
    return sides;
}

inline std::vector<WldTable> wld_tables(const std::vector<SyntheticSide>& sides) {
    std::vector<WldTable> tables;
    for (const SyntheticSide& s : sides) tables.push_back({s.slice, s.side, s.wld, s.dont_care});
    return tables;
}

inline std::vector<MtcTable> mtc_tables(const std::vector<SyntheticSide>& sides) {
    std::vector<MtcTable> tables;
    for (const SyntheticSide& s : sides) tables.push_back({s.slice, s.side, s.mtc, s.dont_care});
    return tables;
}

// The value the MTC reader must return for a stored ply count.
inline int expected_mtc_code(std::uint16_t plies) { return plies < 10 ? 1 : 2 * ((plies + 1) / 2); }

}  // namespace egdb::kingsrow::test
