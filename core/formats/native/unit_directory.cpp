#include "core/formats/native/unit_directory.hpp"

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "core/generate/build_driver.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

UnitDirectory::UnitDirectory(std::filesystem::path directory, SliceId slice, Callbacks callbacks)
    : directory_(std::move(directory)),
      slice_(slice),
      callbacks_(std::move(callbacks)),
      levels_(men_configuration_levels(slice)),
      successors_(successor_slices(slice)) {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) throw FileError("cannot create unit directory " + directory_.string() + ": " + ec.message());
}

const MenLevel& UnitDirectory::level(int advancement) const {
    const auto it = std::find_if(levels_.begin(), levels_.end(), [&](const MenLevel& l) { return l.advancement == advancement; });
    if (it == levels_.end()) {
        throw std::invalid_argument("slice " + slice_.to_string() + " has no level " + std::to_string(advancement));
    }
    return *it;
}

UnitInputs UnitDirectory::inputs(int advancement) const {
    const bool above = std::any_of(levels_.begin(), levels_.end(), [&](const MenLevel& l) { return l.advancement == advancement + 1; });
    return UnitInputs{above ? advancement + 1 : -1, successors_};
}

SolvedLevel UnitDirectory::read(int advancement) const {
    return read_unit_file(path(advancement), slice_, advancement, level(advancement).configurations, inputs(advancement));
}

bool UnitDirectory::has_level(SliceId slice, int advancement) {
    if (slice != slice_) throw std::invalid_argument("unit directory of " + slice_.to_string() + " asked for " + slice.to_string());
    std::error_code ec;
    if (!std::filesystem::exists(path(advancement), ec)) return false;
    found_.reset();  // only the level last found can be asked for
    try {
        found_.emplace(read(advancement));
    } catch (const CorruptDataError& e) {
        if (callbacks_.on_warning) callbacks_.on_warning(std::string(e.what()) + "; solving it again");
        std::filesystem::remove(path(advancement), ec);
        return false;
    }
    if (callbacks_.on_unit) {
        callbacks_.on_unit({slice_, advancement, found_->size(), std::filesystem::file_size(path(advancement), ec), 0, true});
    }
    return true;
}

SolvedLevel UnitDirectory::load_level(SliceId slice, int advancement) {
    if (found_ && found_->slice() == slice && found_->advancement() == advancement) {
        SolvedLevel level = std::move(*found_);
        found_.reset();
        return level;
    }
    return read(advancement);
}

void UnitDirectory::store_level(const SolvedLevel& level, double seconds) {
    const std::uintmax_t bytes = write_unit_file(path(level.advancement()), level, inputs(level.advancement()));
    if (callbacks_.on_unit) callbacks_.on_unit({slice_, level.advancement(), level.size(), bytes, seconds, false});
}

SolvedSlice UnitDirectory::assemble() const {
    SolvedSlice out(slice_);
    for (const MenLevel& l : levels_) out.store(read(l.advancement));
    return out;
}

void UnitDirectory::remove_units() const {
    for (const MenLevel& l : levels_) {
        std::error_code ec;
        std::filesystem::remove(path(l.advancement), ec);
    }
}

void UnitDirectory::remove_temporary_files(const std::filesystem::path& directory) {
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) return;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        if (entry.path().extension() == ".tmp") std::filesystem::remove(entry.path(), ec);
    }
}

}  // namespace egdb::native
