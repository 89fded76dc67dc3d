// Synthetic DTW databases for the EGDB_DTW tests: every slice of 2 and 3 pieces and a few of 4,
// with values that mix long runs, noise, don't-care positions and (in one slice) the largest
// value the format stores. Shared by kingsrow_dtw_test.cpp and kingsrow_dtw_thread_test.cpp.
#pragma once


#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/formats/kingsrow/dtw/dtw_database.hpp"
#include "core/formats/kingsrow/dtw/dtw_writer.hpp"
#include "core/index/slice.hpp"
#include "core/index/slice_indexer.hpp"
#include "tests/scratch_dir.hpp"

namespace egdb::kingsrow::test {

// How the synthetic values of a table look.
enum class Pattern : std::uint8_t {
    Mixed,     // runs of varying length with noise, every 7th index don't care
    Constant,  // one value everywhere: a single-symbol Huffman table
    LongRuns,  // runs of 50 000 equal values
    Extreme,   // values spread over 0 .. kDtwMaxValue, including the maximum
};

inline std::uint64_t mix(std::uint64_t x) noexcept {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    return x;
}

inline Pattern pattern_of(SliceId s) noexcept {
    if (s == SliceId{0, 1, 0, 1}) return Pattern::Extreme;
    if (s == SliceId{1, 0, 1, 0}) return Pattern::Constant;
    if (s == SliceId{1, 1, 0, 1}) return Pattern::LongRuns;
    return Pattern::Mixed;
}

inline bool is_dont_care(SliceId s, Color, std::uint64_t index) noexcept {
    return pattern_of(s) == Pattern::Mixed && index % 7 == 3;
}

// The DTW in plies written for a position.
inline std::uint32_t synthetic_plies(SliceId s, Color side, std::uint64_t index) noexcept {
    const std::uint64_t salt = mix(static_cast<std::uint64_t>(s.nbm * 1000 + s.nbk * 100 + s.nwm * 10 + s.nwk) * 2 +
                                   static_cast<std::uint64_t>(side));
    switch (pattern_of(s)) {
        case Pattern::Constant: return 41;
        case Pattern::LongRuns: return static_cast<std::uint32_t>(2 * (index / 50000) + 1);
        case Pattern::Extreme: {
            if (index == 7) return 2 * kDtwMaxValue + 1;
            return static_cast<std::uint32_t>(mix(index ^ salt) % (2 * kDtwMaxValue + 2));
        }
        case Pattern::Mixed: break;
    }
    if (index % 7 == 3) return static_cast<std::uint32_t>(mix(index + salt) % 100000);  // don't care: anything
    const std::uint64_t run = 1 + salt % 13;
    const std::uint64_t base = mix((index / run) ^ salt) % 40;
    const std::uint64_t noise = mix(index * 3 + salt) % 16 == 0 ? mix(index) % 200 : 0;
    return static_cast<std::uint32_t>(base + noise);
}

inline bool is_missing_white(SliceId s) noexcept { return s == SliceId{2, 0, 0, 1} || s == SliceId{0, 2, 0, 1}; }

// The tables of the synthetic database: every canonical slice of 2 and 3 pieces, both sides
// (one side for symmetric slices; 2001 and 0201 only Black to move, to test missing colours),
// and the 4-piece slice 3010.
inline std::vector<DtwTableSource> synthetic_tables() {
    std::vector<SliceId> slices = canonical_slices(2);
    for (const SliceId s : canonical_slices(3)) slices.push_back(s);
    slices.push_back({3, 0, 1, 0});
    std::vector<DtwTableSource> tables;
    for (const SliceId s : slices) {
        for (const Color side : {Color::Black, Color::White}) {
            if (side == Color::White && (is_color_symmetric(s) || is_missing_white(s)))
                continue;
            tables.push_back({s, side, [s, side](std::uint64_t first, std::span<std::uint32_t> plies,
                                                 std::span<std::uint8_t> dont_care) {
                                  for (std::size_t i = 0; i < plies.size(); ++i) {
                                      plies[i] = synthetic_plies(s, side, first + i);
                                      dont_care[i] = is_dont_care(s, side, first + i) ? 1 : 0;
                                  }
                              }});
        }
    }
    return tables;
}

inline std::filesystem::path fresh_directory(const std::string& name) { return egdb::test::scratch_path("dtw_" + name); }

}  // namespace egdb::kingsrow::test
