#include "core/build/unit_directory.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "core/formats/native/native_layout.hpp"
#include "core/formats/native/slice_file_reader.hpp"
#include "core/formats/native/slice_part_file.hpp"
#include "core/build/unit_range_reader.hpp"
#include "core/generate/build_driver.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

UnitDirectory::UnitDirectory(std::filesystem::path directory, SliceId slice, Callbacks callbacks, int write_threads)
    : directory_(std::move(directory)),
      slice_(slice),
      callbacks_(std::move(callbacks)),
      write_threads_(write_threads),
      levels_(men_configuration_levels(slice)),
      successors_(successor_slices(slice)) {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) throw FileError("cannot create unit directory " + directory_.string() + ": " + ec.message());
}

const MenLevel& UnitDirectory::level(int advancement) const {
    const auto it = std::find_if(levels_.begin(), levels_.end(), [&](const MenLevel& l) { return l.advancement == advancement; });
    if (it == levels_.end()) {
        throw InvalidArgumentError("slice " + slice_.to_string() + " has no level " + std::to_string(advancement));
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
    if (slice != slice_) throw InvalidArgumentError("unit directory of " + slice_.to_string() + " asked for " + slice.to_string());
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
    const std::uintmax_t bytes =
        write_unit_file(path(level.advancement()), level, inputs(level.advancement()), {.threads = write_threads_});
    if (callbacks_.on_unit) callbacks_.on_unit({slice_, level.advancement(), level.size(), bytes, seconds, false});
}

SolvedSlice UnitDirectory::assemble(SideSet needed, int threads) const {
    const SideSet sides = SolvedSlice::sides_to_hold(slice_, needed);
    SolvedSlice out(slice_, sides);
    // Levels cover disjoint blocks of the slice: the threads take whole levels and copy each
    // block of the sides held straight into place; only the wide tables are shared.
    std::atomic<std::size_t> next{0};
    std::mutex wide_mutex;
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const auto work = [&] {
        try {
            for (std::size_t i = next++; i < levels_.size(); i = next++) {
                const MenLevel& l = levels_[i];
                const UnitFileReader reader(path(l.advancement), slice_, l.advancement, l.configurations, inputs(l.advancement));
                const std::uint64_t block = reader.block_size();
                reader.read_slots(0, l.configurations.size(), [&](std::uint64_t slot, const UnitFileReader::Block& b) {
                    // A SolvedSlice keeps values only: the capture bits are not needed here.
                    const std::uint64_t at = l.configurations[slot] * block;
                    const auto& dtw = b.dtw;
                    const auto& mtc = b.mtc;
                    for (const Color side : {Color::Black, Color::White}) {
                        if (!sides.contains(side)) continue;
                        const auto k = static_cast<std::size_t>(side);
                        std::copy(dtw[k].begin(), dtw[k].end(), out.dtw_codes(side).begin() + static_cast<std::ptrdiff_t>(at));
                        std::copy(mtc[k].begin(), mtc[k].end(), out.mtc(side).begin() + static_cast<std::ptrdiff_t>(at));
                    }
                });
                // The unit's table is keyed by level offset: slot * block + offset in the block.
                const std::lock_guard lock(wide_mutex);
                for (const Color side : {Color::Black, Color::White}) {
                    if (!sides.contains(side)) continue;
                    for (const auto& [offset, distances] : reader.wide(side)) {
                        out.wide(side).set(l.configurations[offset / block] * block + offset % block, distances);
                    }
                }
            }
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            next = levels_.size();
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (int t = 1; t < std::min<int>(threads, static_cast<int>(levels_.size())); ++t) helpers.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
    return out;
}

std::vector<UnitSource> UnitDirectory::sources() const {
    std::vector<UnitSource> units;
    for (const MenLevel& l : levels_) units.push_back({l.advancement, l.configurations, path(l.advancement), inputs(l.advancement)});
    return units;
}

WrittenSlice UnitDirectory::write_slice_file(const std::filesystem::path& out, const SolvedWriteOptions& options,
                                             std::uint64_t part_positions) const {
    const std::uint64_t n = slice_size(slice_);
    const std::uint64_t alignment = page_run_alignment(options.format);
    const std::uint64_t per_part = std::min(n, std::max<std::uint64_t>(1, (part_positions + alignment - 1) / alignment) * alignment);
    const std::size_t parts = static_cast<std::size_t>((n + per_part - 1) / per_part);
    std::vector<std::filesystem::path> paths(parts);
    const std::vector<UnitSource> units = sources();
    // The threads take the parts in turn, each with unit readers of its own.
    std::atomic<std::size_t> next{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const auto encode = [&] {
        try {
            UnitRangeReader reader(slice_, units);
            for (std::size_t p = next++; p < parts; p = next++) {
                const std::uint64_t first = p * per_part;
                const std::uint64_t count = std::min(per_part, n - first);
                paths[p] = directory_ / slice_part_file_name(slice_, static_cast<int>(p));
                std::error_code ec;
                if (std::filesystem::exists(paths[p], ec)) {
                    try {
                        SlicePartFile(paths[p]).verify_holds(slice_, static_cast<int>(p), first, count);
                        continue;
                    } catch (const CorruptDataError& e) {
                        if (callbacks_.on_warning) callbacks_.on_warning(std::string(e.what()) + "; encoding it again");
                    }
                }
                encode_part_from_units(reader, paths[p], static_cast<int>(p), first, count, options.kinds, options.format, 1);
            }
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            next = parts;  // the others stop at their next part
        }
    };
    {
        std::vector<std::jthread> workers;
        const int threads = static_cast<int>(std::min<std::size_t>(parts, static_cast<std::size_t>(std::max(1, options.threads))));
        for (int t = 1; t < threads; ++t) workers.emplace_back(encode);
        encode();
    }
    if (failure) std::rethrow_exception(failure);
    WrittenSlice written;
    written.file_bytes = assemble_slice_file(out, slice_, paths);
    for (const std::filesystem::path& p : paths) {
        std::error_code ec;
        std::filesystem::remove(p, ec);
    }
    add_section_bytes(SliceFileReader(out / slice_file_name(slice_.nbm, slice_.nbk, slice_.nwm, slice_.nwk)), written);
    return written;
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
