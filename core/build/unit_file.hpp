// Unit files: one solved (slice, advancement level) unit of a build (generate/solved_level.hpp),
// kept on disk so that a build interrupted at any moment (kill -9 included) resumes at the first
// unfinished unit, and so that units can be solved on other machines (docs/native-format.md,
// "Unit files"). A unit file is temporary: the slice file is assembled from the units of a slice
// and the units are then removed.
//
// A unit names its output (the slice and the advancement) and its inputs: the level it reads
// (one row of advancement higher, or none) and the solved slices its captures and promotions
// reach. Layout, little-endian:
//
//   header   "EGDBUNIT", u32 version (4, or 5 with wide positions), u8 nbm nbk nwm nwk, i32 advancement,
//            i32 level read (advancement + 1, or -1 for none), u32 n, n x (u8 nbm nbk nwm nwk)
//            input slices, u64 configurations, u32 CRC-32C of the configurations (u64 each,
//            increasing), u64 block size, u64 configurations per frame
//   frames   independent zstd frames: frame f holds the configurations [f * per frame,
//            (f + 1) * per frame): for Black and then White to move, the DTW codes and then the
//            MTC bytes of their blocks (values/position_value.hpp); then, for Black and then
//            White to move, the capture bits of the frame's positions (solved_level.hpp) as u64
//            words, little-endian, bit k of the frame's positions in bit k % 64 of word k / 64
//   wide     version 3 only, after the frames and listed in the table as one more: for Black and
//            then White to move, u64 n, then n x (u64 level offset, u16 DTW, u16 MTC), raw
//   table    per frame: u64 offset from the first frame, u64 compressed bytes, u32 CRC-32C of
//            the compressed bytes
//   trailer  u64 frames, u32 CRC-32C of the table, u32 CRC-32C of the header and of the
//            trailer's first 12 bytes
//
// Frames of about 4096 positions let a reader decompress only some configurations: the
// distributed build encodes a slice file by page ranges, and each range needs a few blocks of
// every unit of its slice (slice_part_file.hpp).
//
// The file is written under a temporary name and renamed into place once complete and synced
// (util/atomic_file_writer.hpp), so a unit file that exists was written whole; the checksums
// catch what went wrong later on the disk.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/generate/solved_level.hpp"
#include "core/index/slice.hpp"
#include "core/util/bit_run.hpp"

namespace egdb::native {

// Versions 2 and 3 had no capture bits: such a unit is refused as an unknown version and solved
// again (a unit is temporary; the slice files did not change).
inline constexpr int kUnitFileVersion = 4;
// The version of a unit with wide positions (values/position_value.hpp): the same layout and one
// more table entry, for a raw block after the last frame listing them.
inline constexpr int kUnitFileVersionWide = 5;

// "unit-1212-a017-c0003.egdbu": slice nbm nbk nwm nwk, advancement, chunk of the level
// (unit_chunks.hpp; a level that is one unit is chunk 0).
std::string unit_file_name(SliceId slice, int advancement, int chunk);

// What a unit is computed from.
struct UnitInputs {
    int level_read = -1;            // advancement of the level of the same slice it reads; -1: none
    std::vector<SliceId> slices;    // canonical solved slices its moves reach
    friend bool operator==(const UnitInputs&, const UnitInputs&) = default;
};

struct UnitWriteOptions {
    int zstd_level = 1;  // units are temporary: fast compression
    // zstd's worker threads when above 1: a large level is compressed on that many threads while
    // the solver's workers wait for it (their next level reads this one). The bytes then differ
    // from a one-thread write (not between counts above 1); units are read by content.
    int threads = 1;
};

// Writes `level` to `path` atomically. Throws FileError on I/O failure (full disk included).
// Returns the file's size in bytes.
std::uintmax_t write_unit_file(const std::filesystem::path& path, const SolvedLevel& level, const UnitInputs& inputs,
                               const UnitWriteOptions& options = {});

// A unit file opened for reading parts of it. The constructor checks the header against the
// unit expected (its configurations by their checksum), the trailer and the frame table; frames
// are checked when they are read, or all at once by verify(). Nothing is decompressed before a
// read, so opening every unit of a slice for each part of it is cheap.
class UnitFileReader {
public:
    // Throws FileError when it cannot be read, CorruptDataError naming the file when it is
    // truncated, damaged or holds another unit.
    // `configurations` must outlive the reader.
    UnitFileReader(const std::filesystem::path& path, SliceId slice, int advancement, std::span<const std::uint64_t> configurations,
                   const UnitInputs& inputs);
    ~UnitFileReader();
    UnitFileReader(UnitFileReader&&) noexcept;
    UnitFileReader& operator=(UnitFileReader&&) noexcept;

    std::span<const std::uint64_t> configurations() const noexcept;
    std::uint64_t block_size() const noexcept;
    // The unit's wide positions, keyed by level offset (slot * block_size() + offset).
    const WideValues& wide(Color side_to_move) const noexcept;

    // Every frame's checksum; throws CorruptDataError.
    void verify() const;

    // One block of the unit, for Black and White to move (indexed by Color): its DTW codes, MTC
    // bytes and capture bits.
    struct Block {
        std::array<std::span<const DistanceCode>, 2> dtw;
        std::array<std::span<const std::uint8_t>, 2> mtc;
        std::array<BitRun, 2> captures;
    };
    // Calls visit(slot, block) for each configuration slot in [first, first + count) (slots
    // index configurations()), in order.
    // Throws CorruptDataError for a damaged frame, std::out_of_range for slots beyond the unit.
    using BlockVisitor = std::function<void(std::uint64_t slot, const Block& block)>;
    void read_slots(std::uint64_t first, std::uint64_t count, const BlockVisitor& visit) const;

    // The whole level, every frame checked.
    SolvedLevel read_all() const;

    // The pages of the file read so far leave the process's resident set (MappedFile): a
    // slice file written from its units reads every unit once, part by part.
    void release_resident_pages() const noexcept;
    // read_slots keeps the last frame it decompressed for the next call (the next part of a slice
    // file often starts in it; every part of a slice without men lies in its one frame); this lets
    // it go.
    void release_cached_frame() const noexcept;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Reads the unit file at `path`, which must hold level `advancement` of `slice` with exactly the
// men configurations `configurations` and the inputs `inputs`. Throws FileError when it cannot be
// read and CorruptDataError, naming the file, when it is truncated, damaged or holds another unit.
SolvedLevel read_unit_file(const std::filesystem::path& path, SliceId slice, int advancement,
                           const std::vector<std::uint64_t>& configurations, const UnitInputs& inputs);

}  // namespace egdb::native
