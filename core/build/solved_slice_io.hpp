// The bridge between the generator's in-memory solutions (core/generate/solved_slice.hpp) and
// native slice files: writing a solved slice with its "don't care" positions marked, and loading
// a finished file back into memory when a build resumes.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_file_writer.hpp"
#include "core/generate/solution_store.hpp"
#include "core/generate/solved_slice.hpp"

namespace egdb::native {

struct ValueKinds {
    bool wld = true;
    bool dtw = true;
    bool mtc = true;
};

struct SolvedWriteOptions {
    ValueKinds kinds;
    WriteOptions format;
    int threads = 1;
};

struct WrittenSlice {
    std::uint64_t file_bytes = 0;
    std::uint64_t wld_bytes = 0;  // compressed WLD pages, both sides
    std::uint64_t dtw_bytes = 0;
    std::uint64_t mtc_bytes = 0;
};

// Which distance sections of a slice need 16-bit values: those where a position that is not
// "don't care" has a distance above 255 (only wide positions can, position_value.hpp). The
// whole-slice writer would find it from the values; a slice encoded in parts must decide it once
// for every part, from the wide positions of the whole slice.
struct WideSections {
    std::array<bool, 2> dtw16{};  // by side to move
    std::array<bool, 2> mtc16{};
    friend bool operator==(const WideSections&, const WideSections&) = default;
};
// `wide[side]`: the wide positions of the slice, keyed by slice index.
WideSections wide_sections(SliceId slice, const std::array<const WideValues*, 2>& wide);

// The sections of a slice file (the sides it stores, the kinds asked for), for positions
// [first, first + n) of `slice` given their DTW codes and MTC bytes for Black and White to move
// (n values each; the White spans may be empty for a colour-symmetric slice) and their wide
// positions (keyed by offset from `first`). Positions where the side to move has a capture are
// "don't care" in every kind, draws in DTW and MTC. The sections point into `wld`, the bitsets
// and the given spans, or for a side with wide positions into copies holding every distance
// whole (16-bit where `sixteen` says so). `first` is a multiple of 64.
// `captures[side]`, when not empty, holds the positions' capture bits (bit k for position
// first + k, solved_level.hpp) as the solver found them: the positions are then never built
// (a third of writing a slice went to finding its captures again). Empty: found here.
struct RangeSections {
    std::vector<std::vector<std::uint8_t>> wld;
    std::vector<std::vector<std::uint64_t>> capture_bits;
    std::vector<std::vector<std::uint64_t>> distance_dont_care;
    std::vector<std::vector<std::uint8_t>> patched8;    // distances of sides with wide positions
    std::vector<std::vector<std::uint16_t>> patched16;
    std::vector<SectionValues> sections;
};
RangeSections range_sections(SliceId slice, std::uint64_t first, std::array<std::span<const DistanceCode>, 2> dtw,
                             std::array<std::span<const std::uint8_t>, 2> mtc, const std::array<const WideValues*, 2>& wide,
                             const WideSections& sixteen, ValueKinds kinds, int threads,
                             std::array<std::span<const std::uint64_t>, 2> captures = {});

// Adds the compressed page bytes of each kind of `file` to `written`.
void add_section_bytes(const SliceFileReader& file, WrittenSlice& written);

// Writes `solved` (a canonical slice) to `directory`. Positions where the side to move has a
// capture are "don't care" in every kind, draws in DTW and MTC. A colour-symmetric slice stores
// Black to move only (section 1.5). Throws FileError on I/O failure.
WrittenSlice write_solved_slice(const std::filesystem::path& directory, const SolvedSlice& solved,
                                const SolvedWriteOptions& options);

// True when `file` holds WLD, DTW and MTC for every side a lookup can read, so that a build can
// resume from it instead of solving the slice again.
bool can_restore(const SliceFileReader& file);

// Reads a file written by write_solved_slice back into memory, decompressing pages on `threads`
// threads. "Don't care" positions get their true values again from their successors in `smaller`
// (captures lead to smaller slices), and the White side of a colour-symmetric slice is filled by
// reversal. The result is the solution when can_restore(file); a file without DTW sections gives
// DTW codes that carry only WLD (1 for a win, 0 for a loss), one without MTC sections MTC 0.
// Throws CorruptDataError when a stored side has no WLD section or a page is damaged, and what
// `smaller` throws for a slice it does not hold.
// With `must_capture`, (*must_capture)[side] receives, for each stored side read, the bitset of
// the positions where that side has a capture (bit i % 64 of word i / 64), found on the way.
// `sides`: the sides to move to restore (SolvedSlice::sides_to_hold); a slice brought back only to
// be read is read at one side (successor_reads), and restoring that side alone takes half the
// memory and about half the time.
using CaptureBits = std::vector<std::uint64_t>;
SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolutionStore& smaller, int threads = 1,
                                 std::array<CaptureBits, 2>* must_capture = nullptr, SideSet sides = SideSet::both());
// The same with the smaller slices from any source (a verification under a memory budget reads
// some of them from their files).
SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolvedLookup& smaller, int threads,
                                 std::array<CaptureBits, 2>* must_capture, SideSet sides = SideSet::both());

}  // namespace egdb::native
