// The unit files of one slice in a build's unit directory (unit_file.hpp): the LevelSink through
// which SliceSolver keeps finished levels on disk, finds them again when a build resumes, and
// from which the slice is assembled once every level is solved.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/build/solved_slice_io.hpp"
#include "core/build/unit_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/generate/men_order.hpp"
#include "core/generate/slice_solver.hpp"
#include "core/generate/solved_slice.hpp"

namespace egdb::native {

class UnitDirectory final : public LevelSink {
public:
    // A unit that was solved now (`seconds` > 0) or found on disk (`resumed`).
    struct UnitDone {
        SliceId slice;
        int advancement = 0;
        std::uint64_t positions = 0;  // configurations * block size (each for both sides to move)
        std::uintmax_t file_bytes = 0;
        double seconds = 0;
        bool resumed = false;
    };

    struct Callbacks {
        std::function<void(const UnitDone&)> on_unit;            // may be empty
        std::function<void(const std::string&)> on_warning;      // a damaged unit file solved again
    };

    // The units of `slice` (canonical) in `directory` (created when missing), written with
    // `write_threads` compression threads (UnitWriteOptions::threads).
    UnitDirectory(std::filesystem::path directory, SliceId slice, Callbacks callbacks = {}, int write_threads = 1);

    // The inputs of the unit of `advancement`: the level above when the slice has one, and the
    // slices its captures and promotions reach.
    UnitInputs inputs(int advancement) const;
    std::filesystem::path path(int advancement) const { return directory_ / unit_file_name(slice_, advancement); }
    // Every unit of the slice, one a level, for a UnitRangeReader (valid while this lives).
    std::vector<UnitSource> sources() const;

    // LevelSink. has_level() reads the file whole (so a damaged one is solved again, with a
    // warning, and removed); the level last found is kept for load_level().
    bool has_level(SliceId slice, int advancement) override;
    SolvedLevel load_level(SliceId slice, int advancement) override;
    void store_level(const SolvedLevel& level, double seconds) override;

    // The slice from its unit files, holding SolvedSlice::sides_to_hold(slice, `sides`) only
    // (the other side is neither copied nor allocated), read on `threads` threads a level at a
    // time. Every frame is checked. Throws CorruptDataError when a unit is missing or damaged.
    SolvedSlice assemble(SideSet sides = SideSet::both(), int threads = 1) const;

    // The slice file `out`/slice_file_name from the unit files, without holding the slice: each
    // run of about `part_positions` positions (whole page runs) is encoded into a part file in
    // this directory on one of `options.threads` threads, then the parts are concatenated
    // (assemble_slice_file) and removed. The file is byte-identical to write_solved_slice of
    // assemble(). A part file left by an interrupted write is reused when it checks out, encoded
    // again (with a warning) when it does not. Throws CorruptDataError for a missing or damaged
    // unit, FileError on I/O failure.
    WrittenSlice write_slice_file(const std::filesystem::path& out, const SolvedWriteOptions& options,
                                  std::uint64_t part_positions) const;

    // Removes the slice's unit files (once its slice file is written).
    void remove_units() const;

    // Removes leftovers of interrupted writes (*.tmp) in `directory`.
    static void remove_temporary_files(const std::filesystem::path& directory);

private:
    const MenLevel& level(int advancement) const;
    SolvedLevel read(int advancement) const;

    std::filesystem::path directory_;
    SliceId slice_;
    Callbacks callbacks_;
    int write_threads_ = 1;
    std::vector<MenLevel> levels_;
    std::vector<SliceId> successors_;
    std::optional<SolvedLevel> found_;
};

}  // namespace egdb::native
