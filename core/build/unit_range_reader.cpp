#include "core/build/unit_range_reader.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/index/slice.hpp"
#include "core/util/error.hpp"

namespace egdb::native {

UnitRangeReader::UnitRangeReader(SliceId slice, std::vector<UnitSource> units)
    : slice_(slice),
      block_(slice_size(slice) / men_configurations(slice.nbm, slice.nwm)),
      units_(std::move(units)),
      readers_(units_.size()) {}

RangeValues UnitRangeReader::read(std::uint64_t first, std::uint64_t count) {
    if (count == 0 || first + count > slice_size(slice_)) {
        throw InvalidArgumentError("positions [" + std::to_string(first) + ", " + std::to_string(first + count) + ") are not in slice " +
                                    slice_.to_string());
    }
    RangeValues out;
    for (std::size_t side = 0; side < 2; ++side) {
        out.dtw[side].resize(count);
        out.mtc[side].resize(count);
        out.captures[side].assign((count + 63) / 64, 0);
    }
    // The men configurations whose blocks meet the range: every level may hold some of them.
    const std::uint64_t lowest = first / block_;
    const std::uint64_t highest = (first + count - 1) / block_;
    std::uint64_t filled = 0;
    std::size_t last_reader = units_.size();  // the unit the range's last configuration came from
    std::uint64_t last_configuration = 0;
    for (std::size_t u = 0; u < units_.size(); ++u) {
        const std::span<const std::uint64_t> configurations = units_[u].configurations;
        const auto from = std::lower_bound(configurations.begin(), configurations.end(), lowest);
        const auto to = std::upper_bound(from, configurations.end(), highest);
        if (from == to) continue;
        const UnitFileReader& unit = reader(u);
        if (last_reader == units_.size() || *(to - 1) > last_configuration) {
            last_reader = u;
            last_configuration = *(to - 1);
        }
        unit.read_slots(static_cast<std::uint64_t>(from - configurations.begin()), static_cast<std::uint64_t>(to - from),
                        [&](std::uint64_t slot, const UnitFileReader::Block& block) {
                            const auto& [dtw, mtc, captures] = block;
                            const std::uint64_t base = configurations[slot] * block_;
                            const std::uint64_t a = std::max(base, first);
                            const std::uint64_t b = std::min(base + block_, first + count);
                            const auto from_block = static_cast<std::ptrdiff_t>(a - base);
                            const auto to_block = static_cast<std::ptrdiff_t>(b - base);
                            const auto into = static_cast<std::ptrdiff_t>(a - first);
                            for (std::size_t side = 0; side < 2; ++side) {
                                std::copy(dtw[side].begin() + from_block, dtw[side].begin() + to_block, out.dtw[side].begin() + into);
                                std::copy(mtc[side].begin() + from_block, mtc[side].begin() + to_block, out.mtc[side].begin() + into);
                                const BitRun& bits = captures[side];
                                copy_bits({bits.words, bits.first + (a - base), b - a}, out.captures[side], a - first);
                                // Level offsets of this part of the block, and where they go.
                                const WideValues& wide = unit.wide(static_cast<Color>(side));
                                const std::uint64_t level_from = slot * block_ + (a - base);
                                for (auto it = wide.lower(level_from); it != wide.end() && it->first < level_from + (b - a); ++it) {
                                    out.wide[side].set(static_cast<std::uint64_t>(into) + (it->first - level_from), it->second);
                                }
                            }
                            filled += b - a;
                        });
    }
    // The unit files stay open for the next range, but their pages read for this one leave the
    // resident set: otherwise writing a slice file would hold every unit of the slice (1 GB for
    // 2121) beside the solutions a budgeted build keeps.
    // Only the frame of the range's last configurations stays decompressed: the next range starts
    // there (one frame at most, however many units the slice has).
    for (std::size_t u = 0; u < readers_.size(); ++u) {
        if (!readers_[u]) continue;
        readers_[u]->release_resident_pages();
        if (u != last_reader) readers_[u]->release_cached_frame();
    }
    // The units partition the configurations: every position of the range came from one of them.
    if (filled != count) {
        throw InternalError("the units of slice " + slice_.to_string() + " hold " + std::to_string(filled) + " of the " +
                               std::to_string(count) + " positions from " + std::to_string(first));
    }
    return out;
}

const UnitFileReader& UnitRangeReader::reader(std::size_t u) {
    if (!readers_[u]) {
        const UnitSource& s = units_[u];
        readers_[u].emplace(s.path, slice_, s.advancement, s.configurations, s.inputs);
    }
    return *readers_[u];
}

const WideSections& UnitRangeReader::wide_sections() {
    if (!wide_sections_) {
        std::array<WideValues, 2> by_index;  // keyed by slice index
        for (std::size_t u = 0; u < units_.size(); ++u) {
            const UnitFileReader& unit = reader(u);
            for (std::size_t side = 0; side < 2; ++side) {
                for (const auto& [offset, d] : unit.wide(static_cast<Color>(side))) {
                    by_index[side].set(units_[u].configurations[offset / block_] * block_ + offset % block_, d);
                }
            }
        }
        wide_sections_ = native::wide_sections(slice_, {&by_index[0], &by_index[1]});
    }
    return *wide_sections_;
}

std::uint64_t encode_part_from_units(UnitRangeReader& units, const std::filesystem::path& path, int part, std::uint64_t first,
                                     std::uint64_t count, ValueKinds kinds, const WriteOptions& format, int threads) {
    const WideSections sixteen = units.wide_sections();
    const RangeValues v = units.read(first, count);
    const RangeSections sections = range_sections(units.slice(), first, {v.dtw[0], v.dtw[1]}, {v.mtc[0], v.mtc[1]},
                                                  {&v.wide[0], &v.wide[1]}, sixteen, kinds, threads, {v.captures[0], v.captures[1]});
    return write_slice_part_file(path, units.slice(), part, first, count, sections.sections, format);
}

}  // namespace egdb::native
