// The values of a run of positions of a slice solved in units (unit_file.hpp), read from the
// unit files of its levels, or of their chunks, without holding the slice: what a slice file is
// encoded from part by part (slice_part_file.hpp; docs/native-format.md, "Part files").
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "core/formats/native/slice_part_file.hpp"
#include "core/build/solved_slice_io.hpp"
#include "core/build/unit_file.hpp"
#include "core/values/position_value.hpp"
#include "core/index/slice.hpp"

namespace egdb::native {

// One unit file of a slice: a level, or a chunk of its men configurations.
struct UnitSource {
    int advancement = 0;
    std::span<const std::uint64_t> configurations;  // ascending; must outlive the reader
    std::filesystem::path path;
    UnitInputs inputs;
};

// DTW codes, MTC bytes and capture bits (bit k for position first + k) of positions
// [first, first + count), for Black and White to move, and their wide positions keyed by offset
// from `first`.
struct RangeValues {
    std::array<std::vector<DistanceCode>, 2> dtw;
    std::array<std::vector<std::uint8_t>, 2> mtc;
    std::array<std::vector<std::uint64_t>, 2> captures;
    std::array<WideValues, 2> wide;
};

class UnitRangeReader {
public:
    // `units` partition the men configurations of `slice` (every level, every chunk).
    UnitRangeReader(SliceId slice, std::vector<UnitSource> units);

    SliceId slice() const noexcept { return slice_; }

    // Opens the unit files the range meets the first time it needs them and keeps them open (a
    // reader is not shared between threads). Throws FileError or CorruptDataError for a missing
    // or damaged unit, std::logic_error when the units leave a position of the range uncovered.
    RangeValues read(std::uint64_t first, std::uint64_t count);

    // Which distance sections of the slice need 16 bits, from the wide positions of every unit
    // (opened for it): the same answer for every part of the slice.
    const WideSections& wide_sections();

private:
    SliceId slice_;
    std::uint64_t block_ = 0;
    std::vector<UnitSource> units_;
    std::vector<std::optional<UnitFileReader>> readers_;
    std::optional<WideSections> wide_sections_;

    const UnitFileReader& reader(std::size_t u);
};

// Positions [first, first + count) of the slice of `units` encoded into the part file `path`
// (write_slice_part_file), "don't care" positions marked as write_solved_slice marks them.
// Returns the file's size.
std::uint64_t encode_part_from_units(UnitRangeReader& units, const std::filesystem::path& path, int part, std::uint64_t first,
                                     std::uint64_t count, ValueKinds kinds, const WriteOptions& format, int threads);

}  // namespace egdb::native
