#include "core/build/solved_slice_io.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/generate/king_placements.hpp"
#include "core/values/one_ply_check.hpp"
#include "core/index/slice_indexer.hpp"
#include "core/rules/movegen.hpp"
#include "core/util/parallel_ranges.hpp"
#include "core/util/error.hpp"

namespace egdb::native {
namespace {

std::vector<Color> stored_sides(SliceId slice) {
    if (is_color_symmetric(slice)) return {Color::Black};
    return {Color::Black, Color::White};
}

}  // namespace

WideSections wide_sections(SliceId slice, const std::array<const WideValues*, 2>& wide) {
    WideSections r;
    const SliceIndexer indexer(slice);
    for (const Color side : stored_sides(slice)) {
        const auto s = static_cast<std::size_t>(side);
        if (wide[s] == nullptr) continue;
        for (const auto& [index, d] : *wide[s]) {
            if (d.dtw <= 0xFF && d.mtc <= 0xFF) continue;
            if (has_capture(indexer.position_at(index), side)) continue;  // "don't care" in the file
            r.dtw16[s] = r.dtw16[s] || d.dtw > 0xFF;
            r.mtc16[s] = r.mtc16[s] || d.mtc > 0xFF;
        }
    }
    return r;
}

RangeSections range_sections(SliceId slice, std::uint64_t first, std::array<std::span<const DistanceCode>, 2> dtw,
                             std::array<std::span<const std::uint8_t>, 2> mtc, const std::array<const WideValues*, 2>& wide,
                             const WideSections& sixteen, ValueKinds kinds, int threads,
                             std::array<std::span<const std::uint64_t>, 2> captures) {
    const std::uint64_t n = dtw[0].size();
    if (first % 64 != 0 || first + n > slice_size(slice)) throw InvalidArgumentError("range of slice " + slice.to_string() + " out of bounds");
    const SliceIndexer indexer(slice);
    const std::vector<Color> sides = stored_sides(slice);
    for (const Color side : sides) {
        const auto k = static_cast<std::size_t>(side);
        if (dtw[k].size() != n || mtc[k].size() != n) throw InvalidArgumentError("range of slice " + slice.to_string() + ": sizes differ");
    }
    const bool captures_given = !captures[0].empty() || !captures[1].empty();
    if (captures_given) {
        for (const Color side : sides) {
            if (captures[static_cast<std::size_t>(side)].size() != (n + 63) / 64) {
                throw InvalidArgumentError("range of slice " + slice.to_string() + ": capture bits of the wrong size");
            }
        }
    }
    RangeSections r;
    r.wld.resize(sides.size());
    r.capture_bits.resize(sides.size());
    r.distance_dont_care.resize(sides.size());
    r.patched8.resize(2 * sides.size());
    r.patched16.resize(2 * sides.size());
    for (std::size_t s = 0; s < sides.size(); ++s) {
        r.wld[s].resize(n);
        r.capture_bits[s].assign((n + 63) / 64, 0);
        r.distance_dont_care[s].assign((n + 63) / 64, 0);
    }
    if (captures_given) {
        // The capture bits as given, a word at a time; a draw is "don't care" in distances too.
        parallel_ranges((n + 63) / 64, threads, [&](std::uint64_t first_word, std::uint64_t last_word) {
            for (std::size_t s = 0; s < sides.size(); ++s) {
                const auto k = static_cast<std::size_t>(sides[s]);
                for (std::uint64_t w = first_word; w < last_word; ++w) {
                    const std::uint64_t end = std::min(n, 64 * w + 64);
                    std::uint64_t draws = 0;
                    for (std::uint64_t i = 64 * w; i < end; ++i) {
                        const WldValue v = wld_of_code(dtw[k][i]);
                        r.wld[s][i] = static_cast<std::uint8_t>(v);
                        draws |= std::uint64_t{v == WldValue::Draw} << (i % 64);
                    }
                    // Bits past n are not positions: the tail word keeps them clear.
                    const std::uint64_t valid = end - 64 * w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (end - 64 * w)) - 1;
                    const std::uint64_t capture = captures[k][w] & valid;
                    r.capture_bits[s][w] = capture;
                    r.distance_dont_care[s][w] = capture | draws;
                }
            }
        });
    } else {
        // Threads take whole words of the bitsets. Positions walk block by block
        // (king_placements.hpp): the men are unranked once a block, not once a position.
        const KingPlacements kings(slice);
        parallel_ranges((n + 63) / 64, threads, [&](std::uint64_t first_word, std::uint64_t last_word) {
            if (first_word * 64 >= n) return;
            BlockWalk walk(indexer, kings, first + first_word * 64);
            for (std::uint64_t i = first_word * 64; i < std::min(n, last_word * 64); ++i, walk.next()) {
                const Position p = walk.position();
                for (std::size_t s = 0; s < sides.size(); ++s) {
                    const DistanceCode code = dtw[static_cast<std::size_t>(sides[s])][i];
                    const WldValue v = wld_of_code(code);
                    r.wld[s][i] = static_cast<std::uint8_t>(v);
                    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
                    if (has_capture(p, sides[s])) {
                        r.capture_bits[s][i / 64] |= bit;
                        r.distance_dont_care[s][i / 64] |= bit;
                    } else if (v == WldValue::Draw) {
                        r.distance_dont_care[s][i / 64] |= bit;
                    }
                }
            }
        });
    }
    // A distance section: the bytes as they are when the side has no wide position (nearly
    // always), else a copy with every distance whole, 16-bit when the slice needs it.
    const auto distances = [&](std::size_t s, bool is_dtw, std::span<const std::uint8_t> bytes) -> SectionValues {
        const Color side = sides[s];
        const WideValues* w = wide[static_cast<std::size_t>(side)];
        const bool wide16 = is_dtw ? sixteen.dtw16[static_cast<std::size_t>(side)] : sixteen.mtc16[static_cast<std::size_t>(side)];
        SectionValues values{is_dtw ? ValueKind::Dtw : ValueKind::Mtc, side, {}, {}, r.distance_dont_care[s]};
        const bool has_wide = w != nullptr && !w->empty();
        if (!has_wide && !wide16) {
            values.values8 = bytes;
            return values;
        }
        const std::size_t slot = 2 * s + (is_dtw ? 0 : 1);
        if (wide16) {
            r.patched16[slot].assign(bytes.begin(), bytes.end());
        } else {
            r.patched8[slot].assign(bytes.begin(), bytes.end());
        }
        if (has_wide) {
            for (auto it = w->begin(); it != w->end() && it->first < n; ++it) {
                const Plies v = is_dtw ? it->second.dtw : it->second.mtc;
                if (wide16) {
                    r.patched16[slot][it->first] = v;
                } else {
                    // An 8-bit section holds no meaningful value above 255 (wide_sections): a
                    // larger one here is "don't care".
                    r.patched8[slot][it->first] = static_cast<std::uint8_t>(std::min<Plies>(v, 0xFF));
                }
            }
        }
        if (wide16) {
            values.values16 = r.patched16[slot];
        } else {
            values.values8 = r.patched8[slot];
        }
        return values;
    };
    for (std::size_t s = 0; s < sides.size(); ++s) {
        const auto k = static_cast<std::size_t>(sides[s]);
        if (kinds.wld) r.sections.push_back({ValueKind::Wld, sides[s], r.wld[s], {}, r.capture_bits[s]});
        if (kinds.dtw) r.sections.push_back(distances(s, true, dtw[k]));
        if (kinds.mtc) r.sections.push_back(distances(s, false, mtc[k]));
    }
    return r;
}

void add_section_bytes(const SliceFileReader& file, WrittenSlice& written) {
    for (const SectionDescriptor& d : file.sections()) {
        (d.kind == ValueKind::Wld ? written.wld_bytes : d.kind == ValueKind::Dtw ? written.dtw_bytes : written.mtc_bytes) += d.pages_bytes;
    }
}

WrittenSlice write_solved_slice(const std::filesystem::path& directory, const SolvedSlice& solved,
                                const SolvedWriteOptions& options) {
    const SliceId slice = solved.slice();
    const std::array<const WideValues*, 2> wide{&solved.wide(Color::Black), &solved.wide(Color::White)};
    const RangeSections ranges =
        range_sections(slice, 0, {solved.dtw_codes(Color::Black), solved.dtw_codes(Color::White)},
                       {solved.mtc(Color::Black), solved.mtc(Color::White)}, wide, wide_sections(slice, wide), options.kinds,
                       options.threads);
    const std::vector<SectionValues>& sections = ranges.sections;
    WrittenSlice out;
    WriteOptions format = options.format;
    format.threads = std::max(format.threads, options.threads);
    out.file_bytes = write_slice_file(directory, slice, sections, format);
    add_section_bytes(SliceFileReader(directory / slice_file_name(slice.nbm, slice.nbk, slice.nwm, slice.nwk)), out);
    return out;
}

bool can_restore(const SliceFileReader& file) {
    for (Color side : stored_sides(file.slice())) {
        for (ValueKind kind : kAllValueKinds) {
            if (file.find_section(kind, side) < 0) return false;
        }
    }
    return true;
}

namespace {

// Decodes every page of `section` on `threads` threads, calling store(index, value) once per
// position. Pages are independent; the threads take runs of 16 pages in turn.
template <class Store>
void decode_section(const SliceFileReader& file, int section, int threads, Store&& store) {
    const SectionDescriptor& d = file.sections()[static_cast<std::size_t>(section)];
    const std::uint64_t n = file.positions();
    parallel_chunks(d.page_count, threads, 16, [&](std::uint64_t first_page, std::uint64_t last_page) {
        std::vector<std::byte> page;
        for (std::uint64_t p = first_page; p < last_page; ++p) {
            file.load_page(section, p, page);
            const std::uint64_t first = p * d.positions_per_page;
            const std::uint64_t count = std::min<std::uint64_t>(d.positions_per_page, n - first);
            for (std::uint64_t k = 0; k < count; ++k) store(first + k, packed_value(page, d.value_bits, k));
        }
    });
}

}  // namespace

namespace {

// Wide positions found by threads that decode or derive values at the same time: rare, so
// collected under a lock and applied once the threads are done.
class WideCollector {
public:
    void add(std::uint64_t index, Plies value) {
        const std::lock_guard lock(mutex_);
        found_.emplace_back(index, value);
    }
    // What was found, by index; taken by the caller.
    std::vector<std::pair<std::uint64_t, Plies>> take() {
        std::sort(found_.begin(), found_.end());
        return std::move(found_);
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<std::uint64_t, Plies>> found_;
};

template <class Lookup>
SolvedSlice restore_with(const SliceFileReader& file, const Lookup& smaller, int threads,
                         std::array<CaptureBits, 2>* must_capture, SideSet wanted) {
    const SliceId slice = file.slice();
    const SideSet held = SolvedSlice::sides_to_hold(slice, wanted);
    SolvedSlice solved(slice, held);
    const std::uint64_t n = solved.size();
    const SliceIndexer indexer(slice);
    // The sides read from the file: those stored and held.
    std::vector<Color> sides;
    for (const Color side : stored_sides(slice)) {
        if (held.contains(side)) sides.push_back(side);
    }
    for (Color side : sides) {
        const int wld_section = file.find_section(ValueKind::Wld, side);
        const int dtw_section = file.find_section(ValueKind::Dtw, side);
        const int mtc_section = file.find_section(ValueKind::Mtc, side);
        if (wld_section < 0) {
            throw CorruptDataError(file.path().string() + ": no WLD section for " +
                                   (side == Color::Black ? "black" : "white") + " to move");
        }
        auto dtw = solved.dtw_codes(side);
        auto mtc = solved.mtc(side);
        // Distances that do not fit a byte are put aside (position_value.hpp) and made wide
        // positions below, once WLD has told the draws, whose distances are "don't care".
        WideCollector wide_dtw, wide_mtc;
        if (dtw_section >= 0) {
            decode_section(file, dtw_section, threads, [&](std::uint64_t i, std::uint32_t v) {
                if (v <= kMaxNarrowDtw) [[likely]] {
                    dtw[i] = static_cast<DistanceCode>(v);
                } else {
                    dtw[i] = wide_code((v & 1u) != 0 ? WldValue::Win : WldValue::Loss);
                    wide_dtw.add(i, static_cast<Plies>(v));
                }
            });
        }
        if (mtc_section >= 0) {
            decode_section(file, mtc_section, threads, [&](std::uint64_t i, std::uint32_t v) {
                if (v <= kMaxNarrowMtc) [[likely]] {
                    mtc[i] = static_cast<std::uint8_t>(v);
                } else {
                    mtc[i] = kWideMtc;
                    wide_mtc.add(i, static_cast<Plies>(v));
                }
            });
        }
        // WLD last: it marks the draws, whose DTW and MTC are "don't care" in the file. Without a
        // DTW section the code only carries WLD: 1 for a win, 0 for a loss (odd and even).
        const bool wld_only = dtw_section < 0;
        decode_section(file, wld_section, threads, [&](std::uint64_t i, std::uint32_t v) {
            if (v == kStoredDraw) {
                dtw[i] = kDrawCode;
                mtc[i] = 0;
            } else if (wld_only) {
                dtw[i] = v == kStoredWin ? 1 : 0;
            }
        });
        const std::vector<std::pair<std::uint64_t, Plies>> dtws = wide_dtw.take();
        const std::vector<std::pair<std::uint64_t, Plies>> mtcs = wide_mtc.take();
        const auto mtc_at = [&](std::uint64_t i) -> Plies {
            const auto it = std::lower_bound(mtcs.begin(), mtcs.end(), std::pair<std::uint64_t, Plies>{i, 0});
            return it != mtcs.end() && it->first == i ? it->second : mtc[i];
        };
        for (const auto& [i, d] : dtws) {
            if (dtw[i] != kDrawCode) solved.set_value(i, side, {wld_of_code(dtw[i]), d, mtc_at(i)});
        }
        for (const auto& [i, m] : mtcs) {
            if (dtw[i] == kDrawCode || is_wide_code(dtw[i])) continue;  // a draw, or done above
            solved.set_value(i, side, {wld_of_code(dtw[i]), dtw[i], m});
        }
    }
    // Capture positions (and the White side of a symmetric slice) from their true sources.
    if (must_capture != nullptr) {
        for (Color side : sides) (*must_capture)[static_cast<std::size_t>(side)].assign((n + 63) / 64, 0);
    }
    // Wide values derived here are set once the threads are done.
    std::mutex derived_mutex;
    std::vector<std::tuple<std::uint64_t, Color, PositionValue>> derived_wide;
    // Ranges of whole 64-bit words: each bitset word has one writer.
    // Positions walk block by block (king_placements.hpp): the men are unranked once a block.
    const KingPlacements kings(slice);
    parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
        MoveList captures;
        BlockWalk walk(indexer, kings, first);
        for (std::uint64_t i = first; i < last; ++i, walk.next()) {
            const Position p = walk.position();
            for (Color side : sides) {
                if (!has_capture(p, side)) continue;
                if (must_capture != nullptr) {
                    (*must_capture)[static_cast<std::size_t>(side)][i / 64] |= std::uint64_t{1} << (i % 64);
                }
                generate_captures(p, side, captures);  // the legal moves: capturing is compulsory
                const PositionValue v = value_over_moves(p, side, captures.view(), smaller);
                if (v.wld == WldValue::Draw || fits_narrow(v.dtw, v.mtc)) {
                    // A "don't care" value read from the file may have left a wide entry here.
                    if (is_wide_code(solved.dtw_codes(side)[i])) {
                        const std::lock_guard lock(derived_mutex);
                        derived_wide.emplace_back(i, side, v);
                        continue;
                    }
                    solved.dtw_codes(side)[i] = v.wld == WldValue::Draw ? kDrawCode : static_cast<DistanceCode>(v.dtw);
                    solved.mtc(side)[i] = static_cast<std::uint8_t>(v.mtc);
                } else {
                    const std::lock_guard lock(derived_mutex);
                    derived_wide.emplace_back(i, side, v);
                }
            }
        }
    });
    for (const auto& [i, side, v] : derived_wide) solved.set_value(i, side, v);
    if (is_color_symmetric(slice) && held.contains(Color::White)) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> wide_mirrors;  // (white index, its black index)
        parallel_ranges(n, threads, [&](std::uint64_t first, std::uint64_t last) {
            BlockWalk walk(indexer, kings, first);
            for (std::uint64_t i = first; i < last; ++i, walk.next()) {
                // White to move here is Black to move in the reversed position, same slice.
                const std::uint64_t j = indexer.index_of(reversed(walk.position()));
                solved.dtw_codes(Color::White)[i] = solved.dtw_codes(Color::Black)[j];
                solved.mtc(Color::White)[i] = solved.mtc(Color::Black)[j];
                if (is_wide_code(solved.dtw_codes(Color::Black)[j])) [[unlikely]] {
                    const std::lock_guard lock(derived_mutex);
                    wide_mirrors.emplace_back(i, j);
                }
            }
        });
        for (const auto& [i, j] : wide_mirrors) {
            solved.set_value(i, Color::White, solved.value(j, Color::Black));
        }
    }
    return solved;
}

}  // namespace

SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolutionStore& smaller, int threads,
                                 std::array<CaptureBits, 2>* must_capture, SideSet sides) {
    return restore_with(file, smaller, threads, must_capture, sides);
}

SolvedSlice restore_solved_slice(const SliceFileReader& file, const SolvedLookup& smaller, int threads,
                                 std::array<CaptureBits, 2>* must_capture, SideSet sides) {
    return restore_with(file, smaller, threads, must_capture, sides);
}

}  // namespace egdb::native
