#include "core/build/unit_chunks.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "core/build/build_directory.hpp"
#include "core/build/unit_file.hpp"
#include "core/generate/build_driver.hpp"
#include "core/util/bit_run.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

std::vector<std::pair<std::size_t, std::size_t>> level_chunks(std::size_t configurations, std::uint64_t block_size,
                                                              std::uint64_t chunk_positions) {
    const std::size_t step = chunk_positions == 0
                                 ? std::max<std::size_t>(configurations, 1)
                                 : static_cast<std::size_t>(std::max<std::uint64_t>(1, chunk_positions / std::max<std::uint64_t>(block_size, 1)));
    std::vector<std::pair<std::size_t, std::size_t>> chunks;
    for (std::size_t first = 0; first < configurations; first += step) chunks.emplace_back(first, std::min(step, configurations - first));
    return chunks;
}

std::uint64_t block_size_of(SliceId s) { return slice_size(s) / men_configurations(s.nbm, s.nwm); }

UnitInputs unit_inputs(std::span<const MenLevel> levels, const std::vector<SliceId>& successors, int advancement) {
    const bool above = std::any_of(levels.begin(), levels.end(), [&](const MenLevel& l) { return l.advancement == advancement + 1; });
    return UnitInputs{above ? advancement + 1 : -1, successors};
}

std::vector<UnitSource> chunk_sources(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels,
                                      std::uint64_t chunk_positions) {
    const std::vector<SliceId> successors = successor_slices(slice);
    std::vector<UnitSource> units;
    for (const MenLevel& l : levels) {
        const UnitInputs inputs = unit_inputs(levels, successors, l.advancement);
        int chunk = 0;
        for (const auto& [first, count] : level_chunks(l.configurations.size(), block_size_of(slice), chunk_positions)) {
            units.push_back({l.advancement, std::span(l.configurations).subspan(first, count), unit_chunk_path(out, slice, l.advancement, chunk++),
                             inputs});
        }
    }
    return units;
}

namespace {

SolvedLevel read_level(const std::filesystem::path& out, SliceId s, std::span<const MenLevel> levels, int advancement,
                       std::uint64_t chunk_positions, const std::vector<std::uint64_t>* wanted) {
    const auto found_level = std::find_if(levels.begin(), levels.end(), [&](const MenLevel& x) { return x.advancement == advancement; });
    if (found_level == levels.end()) throw InvalidArgumentError("slice " + s.to_string() + " has no level " + std::to_string(advancement));
    const MenLevel& l = *found_level;
    const std::vector<std::uint64_t>& held = wanted != nullptr ? *wanted : l.configurations;
    SolvedLevel level(s, advancement, held);
    const UnitInputs inputs = unit_inputs(levels, successor_slices(s), advancement);
    const std::uint64_t b = level.block_size();
    std::size_t found = 0;
    int chunk = 0;
    for (const auto& [first, count] : level_chunks(l.configurations.size(), b, chunk_positions)) {
        const std::span<const std::uint64_t> configurations = std::span(l.configurations).subspan(first, count);
        const auto begin = std::lower_bound(held.begin(), held.end(), configurations.front());
        const auto end = std::upper_bound(begin, held.end(), configurations.back());
        const int this_chunk = chunk++;
        if (begin == end) continue;
        // Where each slot of the chunk goes in `level` (-1: not held), and the runs of slots held.
        std::vector<std::ptrdiff_t> into(count, -1);
        for (auto it = begin; it != end; ++it) {
            const auto slot = std::lower_bound(configurations.begin(), configurations.end(), *it);
            if (slot == configurations.end() || *slot != *it) {
                throw InternalError("slice " + s.to_string() + " level " + std::to_string(advancement) + " has no configuration " +
                                    std::to_string(*it));
            }
            into[static_cast<std::size_t>(slot - configurations.begin())] = it - held.begin();
        }
        found += static_cast<std::size_t>(end - begin);
        const UnitFileReader unit(unit_chunk_path(out, s, advancement, this_chunk), s, advancement, configurations, inputs);
        const auto copy = [&](std::uint64_t slot, const UnitFileReader::Block& block) {
            const auto at = static_cast<std::uint64_t>(into[slot]);
            for (const Color side : {Color::Black, Color::White}) {
                const auto k = static_cast<std::size_t>(side);
                std::copy_n(block.dtw[k].begin(), b, level.block_dtw_codes(at, side).begin());
                std::copy_n(block.mtc[k].begin(), b, level.block_mtc(at, side).begin());
                copy_bits(block.captures[k], level.capture_bits(side), at * b);
            }
        };
        for (std::size_t slot = 0; slot < count;) {
            if (into[slot] < 0) {
                ++slot;
                continue;
            }
            std::size_t run = slot;
            while (run < count && into[run] >= 0) ++run;
            unit.read_slots(slot, run - slot, copy);
            slot = run;
        }
        // The chunk's wide positions, keyed by chunk offset, at their offsets in `level`.
        for (const Color side : {Color::Black, Color::White}) {
            for (const auto& [offset, d] : unit.wide(side)) {
                const std::ptrdiff_t at = into[offset / b];
                if (at >= 0) level.wide(side).set(static_cast<std::uint64_t>(at) * b + offset % b, d);
            }
        }
    }
    if (found != held.size()) throw InternalError("slice " + s.to_string() + ": configurations asked for outside level " + std::to_string(advancement));
    return level;
}

}  // namespace

SolvedLevel read_unit_level(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels, int advancement,
                            std::uint64_t chunk_positions) {
    return read_level(out, slice, levels, advancement, chunk_positions, nullptr);
}

SolvedLevel read_unit_level(const std::filesystem::path& out, SliceId slice, std::span<const MenLevel> levels, int advancement,
                            std::uint64_t chunk_positions, const std::vector<std::uint64_t>& wanted) {
    return read_level(out, slice, levels, advancement, chunk_positions, &wanted);
}

SolvedSlice assemble_units(SliceId slice, std::span<const UnitSource> units, SideSet needed, int threads) {
    const SideSet sides = SolvedSlice::sides_to_hold(slice, needed);
    SolvedSlice out(slice, sides);
    // Units cover disjoint blocks of the slice: the threads take whole units and copy each block
    // of the sides held straight into place; only the wide tables are shared.
    std::atomic<std::size_t> next{0};
    std::mutex wide_mutex;
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const auto work = [&] {
        try {
            for (std::size_t i = next++; i < units.size(); i = next++) {
                const UnitSource& u = units[i];
                const UnitFileReader reader(u.path, slice, u.advancement, u.configurations, u.inputs);
                const std::uint64_t block = reader.block_size();
                reader.read_slots(0, u.configurations.size(), [&](std::uint64_t slot, const UnitFileReader::Block& b) {
                    // A SolvedSlice keeps values only: the capture bits are not needed here.
                    const std::uint64_t at = u.configurations[slot] * block;
                    for (const Color side : {Color::Black, Color::White}) {
                        if (!sides.contains(side)) continue;
                        const auto k = static_cast<std::size_t>(side);
                        std::copy(b.dtw[k].begin(), b.dtw[k].end(), out.dtw_codes(side).begin() + static_cast<std::ptrdiff_t>(at));
                        std::copy(b.mtc[k].begin(), b.mtc[k].end(), out.mtc(side).begin() + static_cast<std::ptrdiff_t>(at));
                    }
                });
                // The unit's table is keyed by unit offset: slot * block + offset in the block.
                const std::lock_guard lock(wide_mutex);
                for (const Color side : {Color::Black, Color::White}) {
                    if (!sides.contains(side)) continue;
                    for (const auto& [offset, distances] : reader.wide(side)) {
                        out.wide(side).set(u.configurations[offset / block] * block + offset % block, distances);
                    }
                }
            }
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            next = units.size();
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (int t = 1; t < std::min<int>(threads, static_cast<int>(units.size())); ++t) helpers.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
    return out;
}

}  // namespace egdb::native
