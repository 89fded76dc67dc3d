// The output directory of a native build, as the build engine (workflow/build_engine.hpp) sees it
// for both its drivers: where slice, unit and part files go, which slices are finished, the unit
// files kept for a slice, how a finished slice comes back into memory, and what a build leaves
// when it ends. The state of a
// build is the directory (docs/distributed-build.md): every file is renamed into place when
// complete, so opening it again after a kill finds what is done.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "core/build/solved_slice_io.hpp"
#include "core/generate/solved_slice.hpp"
#include "core/index/side_set.hpp"
#include "core/index/slice.hpp"
#include "core/values/solved_lookup.hpp"

namespace egdb::native {

// The folder of unit and part files inside a build's output directory (both drivers share it;
// their unit files have different names: one per level, or one per chunk of a level).
std::filesystem::path unit_folder(const std::filesystem::path& out);
// Creates it when missing (FileError when it cannot): before the first unit or part is written.
void create_unit_folder(const std::filesystem::path& out);
std::filesystem::path slice_file_path(const std::filesystem::path& out, SliceId slice);
std::filesystem::path unit_chunk_path(const std::filesystem::path& out, SliceId slice, int advancement, int chunk);
std::filesystem::path slice_part_path(const std::filesystem::path& out, SliceId slice, int part);
// Whether a unit file of the slice is in the unit folder (either driver's naming); removes the
// slice's unit files and the part files of its slice file. Safe while other processes write
// other slices' files.
bool has_unit_files(const std::filesystem::path& out, SliceId slice);
void remove_unit_files(const std::filesystem::path& out, SliceId slice);

// A finished slice of the build directory `out` back in memory for `sides`: from its unit files
// (cut by `chunk_positions`, unit_chunks.hpp) when `from_units` (a decompression), else from its
// slice file (whose "don't care" positions get their values from their successors in
// `successors`). Units that fail to assemble are reported through `on_warning`, removed, and the
// slice file read instead; `from_units` then becomes false.
SolvedSlice restore_finished_slice(const std::filesystem::path& out, SliceId slice, const SolvedLookup& successors, SideSet sides,
                                   int threads, std::uint64_t chunk_positions, bool& from_units,
                                   const std::function<void(const std::string&)>& on_warning = {});

class BuildDirectory {
public:
    using Warn = std::function<void(const std::string&)>;

    // Creates `out` when missing (FileError when it cannot) and removes the
    // leftovers of interrupted writes (*.tmp, never valid files: util/atomic_file_writer.hpp).
    explicit BuildDirectory(std::filesystem::path out, Warn on_warning = {});

    const std::filesystem::path& out() const noexcept { return out_; }
    std::filesystem::path slice_path(SliceId slice) const { return slice_file_path(out_, slice); }

    // Whether the slice file is there and one a build can resume from (can_restore). A damaged
    // file is reported ("...; solving slice X again") and counts as not finished.
    bool finished(SliceId slice) const;

    bool has_units(SliceId slice) const { return has_unit_files(out_, slice); }
    void remove_units(SliceId slice) const { remove_unit_files(out_, slice); }

    // The end of a build: the manifest of what is there (verify then sees a slice file that goes
    // missing later), and the unit folder removed when empty.
    void finish() const;

private:
    std::filesystem::path out_;
    Warn warn_;
};

}  // namespace egdb::native
