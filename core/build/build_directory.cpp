#include "core/build/build_directory.hpp"

#include <system_error>

#include "core/build/unit_chunks.hpp"
#include "core/build/unit_file.hpp"
#include "core/formats/native/manifest.hpp"
#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

std::filesystem::path unit_folder(const std::filesystem::path& out) { return out / "units"; }

void create_unit_folder(const std::filesystem::path& out) {
    std::error_code ec;
    std::filesystem::create_directories(unit_folder(out), ec);
    if (ec) throw FileError("cannot create the unit folder " + unit_folder(out).string() + ": " + ec.message());
}

std::filesystem::path slice_file_path(const std::filesystem::path& out, SliceId s) {
    return out / slice_file_name(s.nbm, s.nbk, s.nwm, s.nwk);
}

std::filesystem::path unit_chunk_path(const std::filesystem::path& out, SliceId s, int advancement, int chunk) {
    return unit_folder(out) / unit_file_name(s, advancement, chunk);
}

std::filesystem::path slice_part_path(const std::filesystem::path& out, SliceId s, int part) {
    return unit_folder(out) / slice_part_file_name(s, part);
}

namespace {

// Leftovers of interrupted writes (*.tmp) in `folder`.
void remove_temporary_files(const std::filesystem::path& folder) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".tmp") std::filesystem::remove(entry.path(), ec);
    }
}

}  // namespace

BuildDirectory::BuildDirectory(std::filesystem::path out, Warn on_warning) : out_(std::move(out)), warn_(std::move(on_warning)) {
    std::error_code ec;
    std::filesystem::create_directories(out_, ec);
    if (ec) throw FileError("cannot create output directory " + out_.string() + ": " + ec.message());
    remove_temporary_files(out_);
    remove_temporary_files(unit_folder(out_));
}

bool BuildDirectory::finished(SliceId slice) const {
    const std::filesystem::path path = slice_path(slice);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return false;
    try {
        return can_restore(SliceFileReader(path));
    } catch (const std::exception& e) {
        if (warn_) warn_(std::string(e.what()) + "; solving slice " + slice.to_string() + " again");
        return false;
    }
}

namespace {

// The unit files (`unit-<slice>-...`) and part files (`part-<slice>-...`) of a slice: removed
// when `remove`; whether a unit file is there.
bool unit_files(const std::filesystem::path& folder, SliceId slice, bool remove) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return false;
    const std::string unit_prefix = "unit-" + slice.to_string() + "-";
    const std::string part_prefix = "part-" + slice.to_string() + "-";
    bool found = false;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        const bool unit = name.starts_with(unit_prefix);
        if (!unit && !name.starts_with(part_prefix)) continue;
        found = found || unit;
        if (remove) std::filesystem::remove(entry.path(), ec);
    }
    return found;
}

}  // namespace

bool has_unit_files(const std::filesystem::path& out, SliceId slice) { return unit_files(unit_folder(out), slice, false); }

void remove_unit_files(const std::filesystem::path& out, SliceId slice) { unit_files(unit_folder(out), slice, true); }

SolvedSlice restore_finished_slice(const std::filesystem::path& out, SliceId slice, const SolvedLookup& successors, SideSet sides,
                                   int threads, std::uint64_t chunk_positions, bool& from_units,
                                   const std::function<void(const std::string&)>& on_warning) {
    if (from_units) {
        try {
            const std::vector<MenLevel> levels = men_configuration_levels(slice);
            return assemble_units(slice, chunk_sources(out, slice, levels, chunk_positions), sides, threads);
        } catch (const std::exception& e) {
            if (on_warning) on_warning(std::string(e.what()) + "; reading slice " + slice.to_string() + " from its file");
            from_units = false;
            remove_unit_files(out, slice);
        }
    }
    return restore_solved_slice(SliceFileReader(slice_file_path(out, slice)), successors, threads, nullptr, sides);
}

void BuildDirectory::finish() const {
    write_manifest(out_);
    std::error_code ec;
    std::filesystem::remove(unit_folder(out_), ec);  // only when empty
}

}  // namespace egdb::native
